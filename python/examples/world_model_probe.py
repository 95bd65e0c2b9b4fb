"""A world-model probe: clone the batch, try every action, and score a
model's predicted next symbolic view against the true one.

The "model" here is the naive one that predicts nothing changes; replace
predict() with yours.

    python3 python/examples/world_model_probe.py
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import longcraft  # noqa: E402


def predict(view, action):
    """The model under test: the next 9×9 view after action."""
    return view  # the null model: nothing changes


n = 32
with longcraft.VecEnv(n, obs=("symbolic",)) as env:
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(20):  # walk somewhere first
        obs, *_ = env.step(rng.integers(0, env.num_actions, n))
    now = obs["symbolic"].copy()
    correct = np.zeros(env.num_actions)
    for a in range(env.num_actions):
        branch = env.clone()  # the same worlds, where they are
        nxt, *_ = branch.step(np.full(n, a))
        guess = np.stack([predict(now[i], a) for i in range(n)])
        correct[a] = (guess == nxt["symbolic"]).mean()  # tile accuracy
        branch.close()
    for a in range(env.num_actions):
        print("action %2d: %.1f%% of tiles predicted" % (a, 100 * correct[a]))
    print("mean tile accuracy of the null model: %.1f%%" % (100 * correct.mean()))
