"""Tests of what an RL user reads (issue 37): seeds, names, spaces and
Gymnasium's vector contract, render (make python-test runs them). None
needs Gymnasium: this machine does not have it, so the spaces are the
package's own (longcraft.spaces)."""

import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import longcraft  # noqa: E402
from longcraft import spaces  # noqa: E402


class SeedTest(unittest.TestCase):
    def test_allowed_seeds(self):
        with longcraft.VecEnv(3, size=16, threads=1) as env:
            def hashes(seed):
                env.reset(seed=seed)
                return env.hashes().copy()
            want = hashes([7, 8, 9])
            for same in (7, np.int64(7), np.uint64(7), (7, 8, 9), np.array([7, 8, 9]), np.array([7, 8, 9], dtype=np.uint64), range(7, 10)):
                np.testing.assert_array_equal(hashes(same), want, repr(same))
            top = 2**64 - 1  # the largest seed; the next worlds' streams wrap
            np.testing.assert_array_equal(hashes(top), hashes([top, 0, 1]))
            self.assertFalse(np.array_equal(hashes(top), want))

    def test_bad_seeds_say_what_is_allowed(self):
        with longcraft.VecEnv(3, size=16, threads=1) as env:
            bad = [(-1, ValueError),
                   (2**64, ValueError),
                   (2**70, ValueError),
                   (1.5, TypeError),
                   (1.0, TypeError),
                   (True, TypeError),
                   ("3", TypeError),
                   (b"3", TypeError),
                   (object(), TypeError),
                   ({1: 2}, TypeError),
                   ((1, 2), ValueError),
                   ((1, 2, -3), ValueError),
                   ((1, 2, 2**64), ValueError),
                   ((1, 2.0, 3), TypeError),
                   ((1, None, 3), TypeError),
                   ((1, True, 3), TypeError),
                   (np.array([1.0, 2.0, 3.0]), TypeError),
                   (np.array([1, -2, 3]), ValueError),
                   (np.array([[1, 2, 3]]), ValueError),
                   (np.float64(2), TypeError)]
            for seed, err in bad:
                with self.assertRaises(err, msg=repr(seed)) as ctx:
                    env.reset(seed=seed)
                self.assertIn("[0, 2**64)", str(ctx.exception), repr(seed))
                self.assertIn("3 such ints", str(ctx.exception), repr(seed))
            env.reset(seed=0)  # still usable after the refusals
            env.step(np.zeros(3, dtype=np.int64))


class NamesTest(unittest.TestCase):
    def test_names(self):
        with longcraft.VecEnv(2, size=16, threads=1) as env:
            self.assertEqual(len(env.action_names), env.num_actions)
            self.assertEqual(env.action_names[:2], ("noop", "move_left"))
            self.assertIn("do", env.action_names)
            self.assertEqual(len(env.achievement_names), 22, "Crafter's 22 achievements")
            self.assertIn("collect_wood", env.achievement_names)
            self.assertEqual(len(env.inventory_names), env.items)
            self.assertEqual(env.inventory_names[:4], ("health", "food", "drink", "energy"), "vitals first")
            self.assertEqual(env.symbolic_names[0], "outside")
            obs, _ = env.reset(seed=0)
            # The player stands at the centre of its view.
            self.assertEqual([env.symbolic_names[i] for i in obs["symbolic"][:, 4, 4]], ["player", "player"])
            self.assertEqual(obs["inventory"][0, env.inventory_names.index("health")], 9)

    def test_achievements_are_named_booleans(self):
        # Random play until a few hundred episodes end: each ended world's
        # named achievements are its bit set's bits, and agree with its
        # last observation: wood or a sapling held means it was collected.
        with longcraft.VecEnv(64, size=32, budget=150, threads=1) as env:
            rng = np.random.default_rng(0)
            env.reset(seed=0)
            wood, sapling = env.inventory_names.index("wood"), env.inventory_names.index("sapling")
            ended, seen, held = 0, np.zeros(len(env.achievement_names), dtype=int), 0
            while ended < 300:
                obs, _, term, trunc, infos = env.step(rng.integers(0, env.num_actions, env.num_envs))
                if not infos:
                    continue
                done = infos["_episode"]
                np.testing.assert_array_equal(done, term | trunc)
                np.testing.assert_array_equal(infos["_achievements"], done)
                self.assertEqual(tuple(infos["achievements"]), env.achievement_names)
                bits = infos["achievement_bits"]
                for j, name in enumerate(env.achievement_names):
                    a = infos["achievements"][name]
                    self.assertEqual((a.shape, a.dtype), ((64,), bool))
                    np.testing.assert_array_equal(a[done], ((bits[done] >> np.uint64(j)) & np.uint64(1)).astype(bool), name)
                    seen[j] += a[done].sum()
                for name, item in (("collect_wood", wood), ("collect_sapling", sapling)):
                    has = obs["inventory"][done, item] > 0
                    held += has.sum()
                    self.assertTrue(infos["achievements"][name][done][has].all(), name)
                ended += done.sum()
            self.assertGreater(held, 0, "some episode ended holding wood or a sapling")
            self.assertGreater(seen[env.achievement_names.index("collect_sapling")], 0)


class SpacesTest(unittest.TestCase):
    def test_box(self):
        b = spaces.Box(0, 255, shape=(3, 4), dtype=np.uint8, seed=1)
        x = b.sample()
        self.assertEqual((x.shape, x.dtype), ((3, 4), np.uint8))
        self.assertTrue(b.contains(x) and x in b)
        b.seed(1)
        np.testing.assert_array_equal(b.sample(), x, "seed() restarts the samples")
        self.assertFalse(b.contains(np.zeros((4, 3), dtype=np.uint8)), "shape")
        self.assertFalse(b.contains(np.zeros((3, 4), dtype=np.float64)), "dtype")
        self.assertFalse(b.contains(np.full((3, 4), 256, dtype=np.int64)), "range")
        draws = np.stack([b.sample() for _ in range(200)])
        self.assertEqual((draws.min(), draws.max()), (0, 255), "both ends are drawn")
        f = spaces.Box(-1.0, 1.0, shape=(2,), dtype=np.float32)
        self.assertTrue(f.contains(f.sample()))
        self.assertFalse(f.contains(np.array([0.0, 2.0], dtype=np.float32)))
        with self.assertRaises(ValueError):
            spaces.Box(1, 0, shape=(2,))

    def test_discrete_multidiscrete_dict(self):
        d = spaces.Discrete(17, seed=3)
        draws = {int(d.sample()) for _ in range(500)}
        self.assertEqual(draws, set(range(17)))
        self.assertTrue(d.contains(16) and d.contains(np.int64(0)))
        self.assertFalse(d.contains(17) or d.contains(-1) or d.contains(1.0) or d.contains(True))
        m = spaces.batch_space(d, 4)
        self.assertIsInstance(m, spaces.MultiDiscrete)
        self.assertEqual(m.shape, (4,))
        a = m.sample()
        self.assertTrue(m.contains(a))
        self.assertFalse(m.contains(np.array([0, 0, 0, 17])))
        self.assertFalse(m.contains(np.array([0.0, 0, 0, 0])))
        dd = spaces.Dict({"a": spaces.Box(0, 9, shape=(2,), dtype=np.uint8), "b": d})
        self.assertEqual(dd.seed(5), dd.seed(5))
        x = dd.sample()
        dd.seed(5)
        y = dd.sample()
        np.testing.assert_array_equal(x["a"], y["a"])
        self.assertEqual(x["b"], y["b"])
        self.assertTrue(dd.contains(x))
        self.assertFalse(dd.contains({"a": x["a"]}), "a key missing")
        bd = spaces.batch_space(dd, 3)
        self.assertEqual(bd["a"].shape, (3, 2))
        self.assertEqual(bd["b"].shape, (3,))
        with self.assertRaises(TypeError):
            spaces.Discrete(3).seed(-1)
        with self.assertRaises(TypeError):
            spaces.Dict({"a": 3})


class VectorContractTest(unittest.TestCase):
    """Gymnasium's documented VectorEnv contract (gymnasium.vector.VectorEnv,
    1.x): the spaces, reset and step's returns and their types, NEXT_STEP
    autoreset, seeding, close."""

    def test_spaces(self):
        with longcraft.VecEnv(5, size=16, obs=("symbolic", "inventory", "semantic"), threads=1) as env:
            self.assertIsInstance(env.single_observation_space, spaces.Dict, "no Gymnasium here: the package's own spaces")
            self.assertEqual(env.single_action_space, spaces.Discrete(env.num_actions))
            self.assertEqual(env.action_space, spaces.batch_space(env.single_action_space, 5))
            self.assertEqual(env.observation_space, spaces.batch_space(env.single_observation_space, 5))
            self.assertEqual(env.single_observation_space["semantic"].shape, (16, 16))
            self.assertEqual(env.metadata["autoreset_mode"], "NextStep")
            self.assertIn("rgb_array", env.metadata["render_modes"])

    def test_every_step_is_in_the_spaces(self):
        with longcraft.VecEnv(6, size=16, budget=40, obs=("symbolic", "inventory", "semantic", "rgb"), image_size=16, threads=1) as env:
            env.action_space.seed(0)
            obs, infos = env.reset(seed=4)
            self.assertIsInstance(infos, dict)
            self.assertTrue(env.observation_space.contains(obs))
            for k in obs:
                self.assertTrue(env.single_observation_space[k].contains(obs[k][0]), k)
            ends = 0
            for _ in range(200):
                actions = env.action_space.sample()
                self.assertTrue(env.action_space.contains(actions))
                obs, rew, term, trunc, infos = env.step(actions)
                self.assertTrue(env.observation_space.contains(obs))
                for a, dtype in ((rew, np.float32), (term, bool), (trunc, bool)):
                    self.assertEqual((a.shape, a.dtype), ((6,), dtype))
                self.assertFalse((term & trunc).any(), "an episode ends one way")
                self.assertIsInstance(infos, dict)
                for k, v in infos.items():
                    if not k.startswith("_") and isinstance(v, np.ndarray):
                        self.assertEqual(v.shape[0], 6, k)
                        self.assertIn("_episode", infos)
                ends += int((term | trunc).sum())
            self.assertGreater(ends, 6, "episodes of 40 steps end in 200")

    def test_next_step_autoreset(self):
        # The step after an episode ends resets that world: its action is
        # ignored (two batches given different actions there agree),
        # reward 0, both flags clear, and the new episode is counted from
        # there (a budget of B steps ends it B steps later).
        budget = 12
        a = longcraft.VecEnv(4, size=16, budget=budget, threads=1)
        b = longcraft.VecEnv(4, size=16, budget=budget, threads=1)
        try:
            rng = np.random.default_rng(1)
            a.reset(seed=11)
            b.reset(seed=11)
            for t in range(budget):
                acts = rng.integers(0, a.num_actions, 4)
                oa, ra, ta, ua, ia = a.step(acts)
                b.step(acts)
            self.assertTrue((ta | ua).all(), "every episode ended at its budget or before")
            last = oa["symbolic"].copy()
            oa, ra, ta, ua, ia = a.step(np.zeros(4, dtype=np.int64))
            b.step(np.full(4, 5, dtype=np.int64))
            np.testing.assert_array_equal(a.hashes(), b.hashes(), "the reset step ignores the action")
            np.testing.assert_array_equal(ra, 0)
            self.assertFalse(ta.any() or ua.any())
            self.assertEqual(ia, {})
            self.assertFalse(np.array_equal(oa["symbolic"], last), "the observation is the new episode's")
            lengths = None
            for t in range(budget):
                _, _, ta, ua, ia = a.step(rng.integers(0, a.num_actions, 4))
                if ia:
                    lengths = ia["episode_length"][ia["_episode"]]
            self.assertTrue(ua[~ta].all())
            self.assertIsNotNone(lengths)
            self.assertTrue((lengths <= budget).all())
        finally:
            a.close()
            b.close()

    def test_reward_timing_and_the_observation_after_autoreset(self):
        # What a policy that does not learn points to first: the reward of
        # a new achievement comes on the step that earns it (the first
        # wood of an episode: +1, give or take 0.2 of health), and the
        # observation of the step after an episode ends is the new
        # episode's first (full vitals, empty pockets, player in the
        # middle), with reward 0.
        with longcraft.VecEnv(64, size=32, budget=200, threads=1) as env:
            rng = np.random.default_rng(3)
            obs, _ = env.reset(seed=3)
            wood = env.inventory_names.index("wood")
            first = obs["inventory"][0].copy()
            self.assertEqual(first[:4].tolist(), [9, 9, 9, 9])
            self.assertFalse(first[4:].any())
            had = obs["inventory"][:, wood] > 0
            ended = np.zeros(64, dtype=bool)
            woods = resets = 0
            for _ in range(600):
                obs, rew, term, trunc, _ = env.step(rng.integers(0, env.num_actions, 64))
                inv = obs["inventory"]
                for i in np.flatnonzero(ended):
                    np.testing.assert_array_equal(inv[i], first, "world %d after its reset" % i)
                    self.assertEqual(env.symbolic_names[obs["symbolic"][i, 4, 4]], "player")
                    self.assertEqual(rew[i], 0)
                    resets += 1
                got = ~ended & ~had & (inv[:, wood] > 0)
                for i in np.flatnonzero(got):
                    self.assertGreaterEqual(rew[i], 0.8, "world %d: its first wood's reward" % i)
                    woods += 1
                had = np.where(ended, False, had | (inv[:, wood] > 0))
                ended = term | trunc
            self.assertGreater(woods, 5)
            self.assertGreater(resets, 64)

    def test_seeding(self):
        def run(env, seed):
            env.reset(seed=seed)
            rng = np.random.default_rng(0)
            out = []
            for _ in range(30):
                obs, rew, *_ = env.step(rng.integers(0, env.num_actions, env.num_envs))
                out.append((obs["symbolic"].copy(), rew.copy()))
            return out
        with longcraft.VecEnv(3, size=16, budget=10, threads=1) as env:
            first, again, other = run(env, 5), run(env, 5), run(env, 6)
            for (o1, r1), (o2, r2) in zip(first, again):
                np.testing.assert_array_equal(o1, o2)
                np.testing.assert_array_equal(r1, r2)
            self.assertFalse(all(np.array_equal(o1, o2) for (o1, _), (o2, _) in zip(first, other)))
            env.reset(seed=5)
            h = env.hashes().copy()
            env.reset()  # no seed: the streams' next worlds, not the same again
            self.assertFalse(np.array_equal(h, env.hashes()))

    def test_close(self):
        env = longcraft.VecEnv(2, size=16, threads=1)
        env.reset(seed=0)
        self.assertFalse(env.closed)
        env.close()
        self.assertTrue(env.closed)
        env.close()
        for call in (lambda: env.reset(seed=0), lambda: env.step([0, 0]), env.render, env.hashes):
            with self.assertRaises(longcraft.LongcraftError):
                call()


class RenderTest(unittest.TestCase):
    def test_render(self):
        with longcraft.VecEnv(3, size=24, obs=("symbolic", "rgb"), image_size=48, threads=1, render_mode="rgb_array") as env:
            self.assertEqual(env.render_mode, "rgb_array")
            with self.assertRaises(longcraft.LongcraftError):
                env.render()  # before reset: no world yet
            env.reset(seed=2)
            for _ in range(3):
                obs, *_ = env.step(np.array([1, 2, 5]))
            frames = env.render()
            self.assertEqual((frames.shape, frames.dtype), ((3, 48, 48, 3), np.uint8))
            np.testing.assert_array_equal(frames, obs["rgb"], "the frames are the observation's at image_size")
            one = env.render(world=1, size=90)
            self.assertEqual(one.shape, (90, 90, 3))
            self.assertGreater(len(np.unique(one.reshape(-1, 3), axis=0)), 10, "a picture, not a blank")
            frames[:] = 0
            self.assertTrue(obs["rgb"].any(), "render returns a new array")
            for bad, err in (({"world": 3}, ValueError), ({"world": -1}, ValueError), ({"world": 1.0}, TypeError),
                             ({"size": 8}, ValueError), ({"size": 5000}, ValueError), ({"size": 64.0}, TypeError)):
                with self.assertRaises(err, msg=repr(bad)):
                    env.render(**bad)
        with longcraft.VecEnv(2, size=24, obs=("symbolic",), threads=1) as env:
            env.reset(seed=2)
            self.assertEqual(env.render().shape, (2, 64, 64, 3), "without rgb observations too, at image_size")
        with self.assertRaises(ValueError):
            longcraft.VecEnv(2, render_mode="human")


if __name__ == "__main__":
    unittest.main()
