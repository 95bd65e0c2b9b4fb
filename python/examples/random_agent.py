"""Throughput: a uniform random agent on a batch of worlds.

    python3 python/examples/random_agent.py [num_envs] [obs]
    python3 python/examples/random_agent.py --bench [--count K] [--seconds S] [--only NAMES]

The first form plays for 3 seconds and prints env-steps/s. --bench is what
`longcraft bench` and `make bench-python` run: K runs of S seconds each of
symbolic observations at 1, 64, 512 and 4,096 worlds and RGB 64x64 at 512,
printed as `go test -bench` lines (ns per call, env-steps/s), so that the
Go tools read them beside the Go batch's own benchmark. Like that
benchmark, --bench times the steps alone: it leaves the infos unread,
where the first form counts the episodes that end and their return.
--only runs the named cases alone (comma-separated, e.g.
symbolic-N512,symbolic-N4096): `longcraft bench` alternates those with the
Go batch's benchmark to measure Python's rate over Go's.
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import longcraft  # noqa: E402


def play(n, obs, seconds, count=True):
    """Steps a batch of n worlds with uniform random actions for about
    seconds; returns (calls, seconds taken, episodes ended, their return,
    threads). count=False leaves the infos unread (episodes and return
    read 0): what the Go batch's benchmark does, which only steps."""
    with longcraft.VecEnv(n, obs=obs) as env:
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        actions = [rng.integers(0, env.num_actions, n) for _ in range(16)]
        calls, episodes, returns = 0, 0, 0.0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            _, rew, term, trunc, infos = env.step(actions[calls % 16])
            calls += 1
            if count and infos:
                episodes += int(infos["_episode"].sum())
                returns += float(infos["episode_return"][infos["_episode"]].sum())
        return calls, time.perf_counter() - start, episodes, returns, env.threads


CASES = ((1, ("symbolic",)), (64, ("symbolic",)), (512, ("symbolic",)),
         (4096, ("symbolic",)), (512, ("rgb",)))


def case_name(n, obs):
    return "%s-N%d" % ("rgb64" if obs == ("rgb",) else "symbolic", n)


def bench(count, seconds, only=None):
    cases = [c for c in CASES if only is None or case_name(*c) in only]
    if only is not None and len(cases) != len(only):
        known = ", ".join(case_name(*c) for c in CASES)
        raise SystemExit("--only %s: the cases are %s" % (",".join(sorted(only)), known))
    print("pkg: python")
    for run in range(count):
        for n, obs in cases:
            # Only env.step is timed, as the Go benchmark times only
            # Batch.Step: reading the infos each step (the episode count and
            # return the play mode prints) cost 5-15% more at 512 worlds.
            calls, dt, _, _, _ = play(n, obs, seconds, count=False)
            name = case_name(n, obs)
            print("BenchmarkVecEnv/%s\t%d\t%.0f ns/op\t%.0f env-steps/s" % (name, calls, 1e9 * dt / calls, calls * n / dt))
            sys.stdout.flush()


def main(argv):
    if "--bench" in argv:
        count = int(argv[argv.index("--count") + 1]) if "--count" in argv else 3
        seconds = float(argv[argv.index("--seconds") + 1]) if "--seconds" in argv else 1.0
        only = set(argv[argv.index("--only") + 1].split(",")) if "--only" in argv else None
        bench(count, seconds, only)
        return
    n = int(argv[0]) if argv else 512
    obs = tuple(argv[1].split(",")) if len(argv) > 1 else ("symbolic",)
    calls, dt, episodes, returns, threads = play(n, obs, 3)
    print("%d envs, %s, %d threads: %.0f env-steps/s (%.1f µs per call); %d episodes ended, mean return %.2f"
          % (n, "+".join(obs), threads, calls * n / dt, 1e6 * dt / calls, episodes, returns / max(episodes, 1)))


if __name__ == "__main__":
    main(sys.argv[1:])
