"""Tests of the Python vector environment (make python-test; make test runs them)."""

import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import longcraft  # noqa: E402


def mix64(z):
    """sim.Mix64, Longcraft's integer mixer, in Python integers."""
    m = (1 << 64) - 1
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & m
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & m
    return z ^ (z >> 31)


def play(env, steps, seed=0):
    """Plays fixed pseudo-random actions; returns the per-step hashes and observations."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    hashes, views = [], []
    for _ in range(steps):
        obs, *_ = env.step(rng.integers(0, env.num_actions, env.num_envs))
        hashes.append(env.hashes().copy())
        views.append(obs["symbolic"].copy())
    return np.array(hashes), np.array(views)


class VecEnvTest(unittest.TestCase):
    def test_gymnasium_make_vec(self):
        # Gymnasium is not installed here: a stand-in that follows Gymnasium
        # 1.x's make_vec (tests/standin/gymnasium) checks Longcraft's side,
        # in a fresh interpreter, since registration happens at import.
        import subprocess
        here = os.path.dirname(os.path.abspath(__file__))
        code = "\n".join([
            "import gymnasium, numpy as np",
            "import longcraft",
            "env = gymnasium.make_vec('Longcraft/Crafter-v0', num_envs=3, size=16, obs=('symbolic', 'inventory'))",
            "assert env.spec.id == 'Longcraft/Crafter-v0' and env.spec.kwargs['num_envs'] == 3, env.spec",
            "mode = getattr(gymnasium.vector, 'AutoresetMode', None)",
            "assert env.metadata['autoreset_mode'] is (mode.NEXT_STEP if mode else 'NextStep')",
            "assert isinstance(env, gymnasium.vector.VectorEnv) and isinstance(env, longcraft.VecEnv)",
            "assert env.single_action_space.n == env.num_actions and list(env.action_space.nvec) == [env.num_actions] * 3",
            "assert env.single_observation_space['symbolic'].shape == (9, 9) and env.observation_space['symbolic'].shape == (3, 9, 9)",
            "assert env.single_observation_space['inventory'].dtype == np.uint8",
            "obs, _ = env.reset(seed=1)",
            "obs, rew, term, trunc, infos = env.step(np.zeros(3, dtype=np.int64))",
            "assert obs['symbolic'].shape == (3, 9, 9) and rew.shape == (3,)",
            "gymnasium.vector.VectorWrapper(env).step(np.zeros(3, dtype=np.int64))  # wrappers take it",
            "assert longcraft.VecEnv.metadata['autoreset_mode'] == 'NextStep'  # the class keeps the plain string",
            "env.close()",
            "print('ok')",
        ])
        for version in ("1.1", "1.0"):  # 1.0 had no AutoresetMode
            env = dict(os.environ, STANDIN_GYMNASIUM=version,
                       PYTHONPATH=os.pathsep.join([os.path.join(here, "standin"), os.path.join(here, "..")]))
            out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
            self.assertEqual(out.returncode, 0, "Gymnasium %s: %s" % (version, out.stderr))
            self.assertEqual(out.stdout.strip(), "ok")

    def test_space_bounds_follow_the_buffer_type(self):
        # Every buffer's space is bounded by its element type, signed and
        # float types included, so a buffer added to the descriptor table
        # is described without an edit to the package.
        self.assertEqual(longcraft._bounds("uint8"), (0, 255))
        self.assertEqual(longcraft._bounds("int32"), (-2**31, 2**31 - 1))
        self.assertEqual(longcraft._bounds("uint64"), (0, 2**64 - 1))
        lo, hi = longcraft._bounds("float32")
        self.assertEqual((lo, hi), (float(np.finfo(np.float32).min), float(np.finfo(np.float32).max)))
        with longcraft.VecEnv(2, size=16, threads=1) as env:
            for k, space in env.single_observation_space.items():
                self.assertEqual((space.low.min(), space.high.max()), (0, 255), k)

    def test_shapes_and_dtypes(self):
        with longcraft.VecEnv(5, size=32, obs=("symbolic", "inventory", "semantic", "rgb"), image_size=48) as env:
            obs, infos = env.reset(seed=1)
            self.assertEqual(obs["symbolic"].shape, (5, 9, 9))
            self.assertEqual(obs["inventory"].shape, (5, env.items))
            self.assertEqual(obs["semantic"].shape, (5, 32, 32))
            self.assertEqual(obs["rgb"].shape, (5, 48, 48, 3))
            for v in obs.values():
                self.assertEqual(v.dtype, np.uint8)
            self.assertEqual(obs["inventory"][0, 0], 9, "full health at the start")
            self.assertTrue(obs["rgb"].any(), "frames are drawn")
            obs, rew, term, trunc, infos = env.step(np.zeros(5, dtype=np.int64))
            self.assertEqual(rew.dtype, np.float32)
            self.assertEqual(term.dtype, bool)
            self.assertEqual(env.metadata["autoreset_mode"], "NextStep")
            self.assertEqual(env.single_action_space.n, 17)

    def test_threads_change_nothing(self):
        want = None
        for threads in (1, 2, 3):
            with longcraft.VecEnv(17, size=32, budget=30, obs=("symbolic",), threads=threads) as env:
                got = play(env, 70)
            if want is None:
                want = got
                continue
            np.testing.assert_array_equal(want[0], got[0], "hashes with %d threads" % threads)
            np.testing.assert_array_equal(want[1], got[1])

    def test_the_go_runner_agrees(self):
        # testdata/reference.txt holds the hashes of worlds the plain Go
        # loop played (one world, one episode each; bench/vec's
        # TestPythonReference writes and checks it) with the actions
        # mix64(step·7919 + world) mod 17; the batch from Python must end
        # on the same worlds, on any number of threads.
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "testdata", "reference.txt")) as f:
            want = [int(line) for line in f.read().split()]
        for threads in (1, 2):
            with longcraft.VecEnv(4, size=24, budget=25, obs=("symbolic",), threads=threads) as env:
                env.reset(seed=[5, 6, 7, 8])
                for step in range(40):
                    env.step(np.array([mix64(step * 7919 + i) % env.num_actions for i in range(4)]))
                self.assertEqual(want, [int(h) for h in env.hashes()], "%d threads" % threads)

    def test_next_step_autoreset(self):
        with longcraft.VecEnv(3, size=16, budget=4, obs=("symbolic",), threads=1) as env:
            env.reset(seed=2)
            noop = np.zeros(3, dtype=np.int32)
            for _ in range(3):
                _, _, term, trunc, infos = env.step(noop)
                self.assertFalse(trunc.any())
                self.assertEqual(infos, {})
            _, rew, term, trunc, infos = env.step(noop)
            self.assertTrue(trunc.all(), "the budget truncates")
            self.assertFalse(term.any())
            np.testing.assert_array_equal(infos["episode_length"][infos["_episode"]], [4, 4, 4])
            self.assertTrue(infos["_episode"].all())
            before = env.hashes().copy()
            _, rew, term, trunc, infos = env.step(np.full(3, 5, dtype=np.int32))
            self.assertFalse(trunc.any() or term.any(), "the reset step clears the flags")
            np.testing.assert_array_equal(rew, [0, 0, 0])
            self.assertTrue((env.hashes() != before).all(), "a new episode")

    def test_seeds(self):
        with longcraft.VecEnv(3, size=16, obs=("symbolic",)) as env:
            env.reset(seed=[7, 8, 9])
            a = env.hashes().copy()
            env.reset(seed=7)
            np.testing.assert_array_equal(a, env.hashes(), "seed=7 is the streams 7, 8, 9")

    def test_clone_restore(self):
        with longcraft.VecEnv(4, size=24, obs=("symbolic",), threads=2) as env:
            env.reset(seed=3)
            rng = np.random.default_rng(1)
            acts = [rng.integers(0, env.num_actions, 4) for _ in range(10)]
            for a in acts[:5]:
                env.step(a)
            branch = env.clone()
            for a in acts[5:]:
                obs, *_ = env.step(a)
            end, view = env.hashes().copy(), obs["symbolic"].copy()
            for a in acts[5:]:
                bobs, *_ = branch.step(a)
            np.testing.assert_array_equal(end, branch.hashes(), "the branch plays the same")
            np.testing.assert_array_equal(view, bobs["symbolic"])
            env.restore(branch)
            np.testing.assert_array_equal(end, env.hashes())
            branch.close()

    def test_action_dtypes_agree(self):
        # int64 and int32 arrays go to the library as they are, the others
        # (and views that are not contiguous) through a widening copy: all
        # play the same.
        rng = np.random.default_rng(3)
        acts = [rng.integers(0, 17, 4) for _ in range(30)]
        forms = [lambda a: a.astype(np.int64), lambda a: a.astype(np.int32), lambda a: a.astype(np.uint8),
                 lambda a: a.astype(np.uint64), lambda a: np.repeat(a.astype(np.int64), 2)[::2], lambda a: a.tolist()]
        hashes = []
        for form in forms:
            with longcraft.VecEnv(4, size=16) as env:
                env.reset(seed=9)
                for a in acts:
                    env.step(form(a))
                hashes.append(env.hashes().tolist())
        for h in hashes[1:]:
            self.assertEqual(hashes[0], h)

    def test_bad_input_raises(self):
        with self.assertRaises(ValueError):
            longcraft.VecEnv(0)
        with self.assertRaises(ValueError):
            longcraft.VecEnv(2, obs=("smell",))
        with self.assertRaises(longcraft.LongcraftError):
            longcraft.VecEnv(2, ruleset="nope")
        env = longcraft.VecEnv(2, size=16)
        with self.assertRaises(longcraft.LongcraftError):
            env.step([0, 0])  # before reset
        env.reset()
        with self.assertRaises(ValueError):
            env.step([0, 0, 0])
        with self.assertRaises(ValueError):
            env.step([0, 99])
        with self.assertRaises(TypeError):
            env.step(np.array([0.5, 1.5]))
        with self.assertRaises(ValueError):
            env.reset(seed=[1, 2, 3])
        with self.assertRaises(ValueError):
            env.step(np.array([2**32, 0], dtype=np.int64))  # would wrap to 0
        with self.assertRaises(ValueError):
            env.step(np.array([0, -1], dtype=np.int64))
        with self.assertRaises(ValueError):
            env.step(np.array([2**64 - 1, 0], dtype=np.uint64))  # would wrap to -1
        with self.assertRaises(ValueError):
            env.step(np.array([0, 2**31], dtype=np.uint32))
        with self.assertRaises(TypeError):
            env.step(np.array([True, False]))
        with self.assertRaises(ValueError):
            longcraft.VecEnv(2**32 + 2)
        with self.assertRaises(ValueError):
            longcraft.VecEnv(2, budget=2**32 + 5)
        with self.assertRaises(TypeError):
            longcraft.VecEnv(2.5)
        env.close()
        env.close()  # twice: no crash
        with self.assertRaises(longcraft.LongcraftError):
            env.step([0, 0])

    def test_buffers_come_from_the_descriptor(self):
        # The observations, the arrays' shapes and dtypes and the infos'
        # keys are the library's table, not a list kept here.
        self.assertEqual(longcraft.OBSERVATIONS, ("symbolic", "inventory", "semantic", "rgb"))
        with longcraft.VecEnv(3, size=16, budget=1, obs=("symbolic", "rgb"), image_size=16, threads=1) as env:
            self.assertEqual((env.num_envs, env.size, env.image_size, env.budget, env.threads), (3, 16, 16, 1, 1))
            self.assertEqual(env.num_actions, 17)
            want = {"symbolic": ((3, 9, 9), np.uint8), "rgb": ((3, 16, 16, 3), np.uint8), "reward": ((3,), np.float32),
                    "terminated": ((3,), np.uint8), "episode_length": ((3,), np.int32), "achievements": ((3,), np.uint64)}
            for name, (shape, dtype) in want.items():
                self.assertEqual(env._bufs[name].shape, shape, name)
                self.assertEqual(env._bufs[name].dtype, dtype, name)
            self.assertNotIn("semantic", env._bufs, "observations not asked for are not bound")
            env.reset(seed=0)
            _, _, _, trunc, infos = env.step(np.zeros(3, dtype=np.int64))
            self.assertTrue(trunc.all(), "a budget of 1 ends every episode on its first step")
            self.assertEqual(set(infos), {"episode_return", "episode_length", "achievements", "achievement_bits", "success", "_episode",
                                          "_achievements"})
            self.assertEqual(infos["success"].dtype, bool)
            np.testing.assert_array_equal(infos["episode_length"], [1, 1, 1])

    def test_a_descriptor_mismatch_fails_at_load(self):
        # A library whose descriptor this package cannot read is refused
        # with an error that says what differs, before any world is made.
        def reload():
            longcraft._lib, longcraft._observations = None, None

        cases = [
            ("_DESCRIPTOR_VERSION", longcraft._DESCRIPTOR_VERSION + 1, "in format 1, this package reads format 2"),
            ("_DTYPES", {k: v for k, v in longcraft._DTYPES.items() if v != np.float32}, "buffer 'reward' has dtype code 4"),
            ("_FLAGS", {k: v for k, v in longcraft._FLAGS.items() if k != "episode_info"}, "buffer 'episode_return' has flags 0x4"),
            ("_STEP_BUFFERS", ("reward", "terminated", "truncated", "smell"), "no smell buffer"),
            ("_SCALARS", longcraft._SCALARS + ("gravity",), "reports no gravity"),
        ]
        for attr, value, message in cases:
            with self.subTest(attr):
                saved = getattr(longcraft, attr)
                reload()
                setattr(longcraft, attr, value)
                try:
                    with self.assertRaises(longcraft.LongcraftError) as caught:
                        longcraft.VecEnv(2, size=16)
                    self.assertIn(message, str(caught.exception))
                finally:
                    setattr(longcraft, attr, saved)
                    reload()
        with longcraft.VecEnv(2, size=16) as env:  # and the package reads it again
            env.reset(seed=0)

    def test_suite_tasks(self):
        # The default suite's medium tasks (64×64, classic), played in
        # turn: goals end episodes as terminated, with success.
        with longcraft.VecEnv(8, suite="default", size=64, obs=("symbolic",), allow_eval=True) as env:
            env.reset()
            rng = np.random.default_rng(0)
            ended = 0
            for _ in range(400):
                _, _, term, trunc, infos = env.step(rng.integers(0, env.num_actions, 8))
                if infos:
                    ended += int(infos["_episode"].sum())
            self.assertGreater(ended, 0)
        with self.assertRaises(longcraft.LongcraftError):
            longcraft.VecEnv(2, suite="default", size=32, allow_eval=True)  # no task of that size
        with self.assertRaises(longcraft.LongcraftError):
            longcraft.VecEnv(2, suite="no-such-suite")

    def test_threads_calling_at_once(self):
        # ctypes releases the GIL: two Python threads stepping one batch
        # take turns in the library instead of racing.
        import threading
        with longcraft.VecEnv(16, size=24, obs=("symbolic",)) as env:
            env.reset(seed=0)
            errors = []

            def run():
                try:
                    for _ in range(200):
                        env.step(np.zeros(16, dtype=np.int32))
                except Exception as e:  # noqa: BLE001
                    errors.append(e)
            ts = [threading.Thread(target=run) for _ in range(3)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            self.assertEqual(errors, [])
            self.assertEqual(len(env.hashes()), 16)

    def test_envs_sharing_a_pool(self):
        # Every env of a thread count shares one pool of workers: envs (and
        # clones) stepped from several Python threads at once play as each
        # does alone.
        import threading
        rng = np.random.default_rng(5)
        acts = [rng.integers(0, 17, 6) for _ in range(60)]

        def play(env):
            env.reset(seed=3)
            for a in acts:
                env.step(a)
            return env.hashes().tolist()
        with longcraft.VecEnv(6, size=16, budget=25) as env:
            want = play(env)
        envs = [longcraft.VecEnv(6, size=16, budget=25) for _ in range(3)]
        envs.append(envs[0].clone())
        got, errors = [None] * len(envs), []

        def run(k):
            try:
                got[k] = play(envs[k])
            except Exception as e:  # noqa: BLE001
                errors.append(e)
        ts = [threading.Thread(target=run, args=(k,)) for k in range(len(envs))]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        for e in envs:
            e.close()
        self.assertEqual(errors, [])
        for g in got:
            self.assertEqual(want, g)

    def test_review_findings(self):
        # A batch restored before its first reset steps (it took the
        # interpreter down); reset() without a seed gives new worlds; eval
        # tasks are refused for training unless asked.
        a = longcraft.VecEnv(4, size=16, threads=2, obs=("symbolic",))
        a.reset(seed=1)
        b = longcraft.VecEnv(4, size=16, threads=2, obs=("symbolic",))
        b.restore(a)
        b.step(np.zeros(4, dtype=np.int32))
        first = a.hashes().copy()
        a.reset()
        self.assertTrue((a.hashes() != first).any(), "reset() goes on to new worlds")
        a.close()
        b.close()
        with self.assertRaises(longcraft.LongcraftError):
            longcraft.VecEnv(2, suite="default", size=64)
        longcraft.VecEnv(2, suite="default", size=64, allow_eval=True).close()

    def test_smoke_loop(self):
        # A short loop as a learner would run it: returns accumulate,
        # episodes end and reset, nothing crashes.
        with longcraft.VecEnv(64, size=32, budget=200, obs=("symbolic", "inventory")) as env:
            obs, _ = env.reset(seed=0)
            rng = np.random.default_rng(0)
            ended, total = 0, 0.0
            for _ in range(500):
                obs, rew, term, trunc, infos = env.step(rng.integers(0, env.num_actions, 64))
                total += float(rew.sum())
                if infos:
                    ended += int(infos["_episode"].sum())
                    self.assertTrue((infos["episode_length"][infos["_episode"]] > 0).all())
            self.assertGreater(ended, 64, "episodes end and reset")
            self.assertGreater(total, 0, "achievements are rewarded")


if __name__ == "__main__":
    unittest.main()
