"""A vision dataset: RGB frames and the actions taken, into .npy files.

    python3 python/examples/dataset.py OUT_DIR [frames]
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import longcraft  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "dataset"
frames = int(sys.argv[2]) if len(sys.argv) > 2 else 4096
n = 64
os.makedirs(out, exist_ok=True)
with longcraft.VecEnv(n, obs=("rgb",), image_size=64) as env:
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = frames // n
    images = np.zeros((steps * n, 64, 64, 3), dtype=np.uint8)
    actions = np.zeros(steps * n, dtype=np.int16)
    for s in range(steps):
        a = rng.integers(0, env.num_actions, n)
        images[s * n:(s + 1) * n] = obs["rgb"]  # the frame the action is chosen on
        actions[s * n:(s + 1) * n] = a
        obs, *_ = env.step(a)
np.save(os.path.join(out, "frames.npy"), images)
np.save(os.path.join(out, "actions.npy"), actions)
print("wrote %d frames of 64×64 RGB and their actions to %s/{frames,actions}.npy" % (len(images), out))
