#!/usr/bin/env python3
"""Measure the Python Crafter the way `longcraft bench` measures Longcraft.

    pip install crafter          # Crafter 1.8.x and its dependencies
    python3 bench/crafter_bench.py --steps 20000 --resets 50

Prints the two flags to pass to `longcraft bench`, e.g.
    --crafter-steps 3512 --crafter-resets 24.7

Method (bench/README.md): one process, one core; uniformly random actions
from a seeded RNG; env.step returns Crafter's 64x64 image observation every
step (Crafter always renders it), so the ratio printed by longcraft bench
compares with Longcraft's step plus a 64x64 agent-view frame; an episode
that ends is reset, and resets are timed separately, from fresh seeds.
"""
import argparse
import random
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=20000, help="steps to time")
    ap.add_argument("--resets", type=int, default=50, help="resets to time")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    import crafter  # imported here so --help works without it

    env = crafter.Env(seed=a.seed)
    env.reset()
    rng = random.Random(7)
    n_actions = env.action_space.n
    t0 = time.perf_counter()
    for _ in range(a.steps):
        _, _, done, _ = env.step(rng.randrange(n_actions))
        if done:
            env.reset()
    steps_per_sec = a.steps / (time.perf_counter() - t0)

    t0 = time.perf_counter()
    for i in range(a.resets):
        crafter.Env(seed=a.seed + 1 + i).reset()
    resets_per_sec = a.resets / (time.perf_counter() - t0)
    print(f"--crafter-steps {steps_per_sec:.0f} --crafter-resets {resets_per_sec:.1f}")


if __name__ == "__main__":
    main()
