"""Throughput: a uniform random agent on a batch of worlds.

    python3 python/examples/random_agent.py [num_envs] [obs]
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import longcraft  # noqa: E402

n = int(sys.argv[1]) if len(sys.argv) > 1 else 512
obs = tuple(sys.argv[2].split(",")) if len(sys.argv) > 2 else ("symbolic",)
with longcraft.VecEnv(n, obs=obs) as env:
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = [rng.integers(0, env.num_actions, n) for _ in range(16)]
    steps, episodes, returns = 0, 0, 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < 3:
        _, rew, term, trunc, infos = env.step(actions[steps % 16])
        steps += 1
        if infos:
            episodes += int(infos["_episode"].sum())
            returns += float(infos["episode_return"][infos["_episode"]].sum())
    dt = time.perf_counter() - start
    print("%d envs, %s, %d threads: %.0f env-steps/s (%.1f µs per call); %d episodes ended, mean return %.2f"
          % (n, "+".join(obs), env.threads, steps * n / dt, 1e6 * dt / steps, episodes, returns / max(episodes, 1)))
