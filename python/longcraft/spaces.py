"""Small spaces for machines without Gymnasium: Box, Discrete,
MultiDiscrete and Dict with the parts of gymnasium.spaces that RL code
reads (shape, dtype, sample(), contains(), seed(), and each class's own
fields: low and high, n and start, nvec, spaces). VecEnv uses
gymnasium.spaces instead whenever Gymnasium is importable, so code written
against Gymnasium's spaces runs unchanged either way.

batch_space(space, n) is Gymnasium's: n Discretes are a MultiDiscrete, n
Boxes one Box with n first, a Dict batched key by key.
"""

import numpy as np

__all__ = ["Space", "Box", "Discrete", "MultiDiscrete", "Dict", "batch_space"]


class Space:
    """What every space has: shape, dtype, a random generator (np_random)
    that seed() resets, sample() and contains() (also as `x in space`)."""

    def __init__(self, shape, dtype, seed=None):
        self.shape = None if shape is None else tuple(int(d) for d in shape)
        self.dtype = None if dtype is None else np.dtype(dtype)
        self._np_random = None
        if seed is not None:
            self.seed(seed)

    @property
    def np_random(self):
        if self._np_random is None:
            self.seed()
        return self._np_random

    def seed(self, seed=None):
        """Resets the space's generator (seed None: from the OS's entropy);
        returns the seeds used, as Gymnasium does."""
        if seed is not None and (not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0):
            raise TypeError("seed must be a non-negative int or None, not %r" % (seed,))
        seq = np.random.SeedSequence(None if seed is None else int(seed))
        self._np_random = np.random.Generator(np.random.PCG64(seq))
        return [int(seq.entropy)]

    def __contains__(self, x):
        return self.contains(x)


class Box(Space):
    """Arrays of shape and dtype with every element in [low, high]."""

    def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
        dtype = np.dtype(dtype)
        if shape is None:
            shape = np.shape(low) if np.ndim(low) else np.shape(high)
        super().__init__(shape, dtype, seed)
        self.low = np.broadcast_to(np.asarray(low, dtype=dtype), self.shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=dtype), self.shape).copy()
        if np.any(self.low > self.high):
            raise ValueError("Box: low above high")

    def sample(self):
        if np.issubdtype(self.dtype, np.integer):
            # high + 1 may not fit the type (255 for uint8): draw in int64, or
            # as unsigned 64-bit words for the widest types.
            if self.dtype.itemsize < 8:
                return self.np_random.integers(self.low.astype(np.int64), self.high.astype(np.int64) + 1, size=self.shape).astype(self.dtype)
            return self.np_random.integers(self.low, self.high, size=self.shape, dtype=self.dtype, endpoint=True)
        return self.np_random.uniform(self.low, self.high, size=self.shape).astype(self.dtype)

    def contains(self, x):
        if not isinstance(x, np.ndarray):
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError):
                return False
        return bool(np.can_cast(x.dtype, self.dtype) and x.shape == self.shape and np.all(x >= self.low) and np.all(x <= self.high))

    def __repr__(self):
        return "Box(%s, %s, %s, %s)" % (self.low.min() if self.low.size else "", self.high.max() if self.high.size else "", self.shape, self.dtype)

    def __eq__(self, other):
        return (isinstance(other, Box) and self.shape == other.shape and self.dtype == other.dtype and np.array_equal(self.low, other.low)
                and np.array_equal(self.high, other.high))


class Discrete(Space):
    """One integer in start .. start+n-1."""

    def __init__(self, n, seed=None, start=0):
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
            raise ValueError("Discrete: n must be a positive int, not %r" % (n,))
        super().__init__((), np.int64, seed)
        self.n, self.start = np.int64(n), np.int64(start)

    def sample(self):
        return np.int64(self.start + self.np_random.integers(self.n))

    def contains(self, x):
        if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
            v = int(x)
        elif isinstance(x, np.ndarray) and x.shape == () and np.issubdtype(x.dtype, np.integer):
            v = int(x)
        else:
            return False
        return int(self.start) <= v < int(self.start + self.n)

    def __repr__(self):
        return "Discrete(%d)" % self.n

    def __eq__(self, other):
        return isinstance(other, Discrete) and self.n == other.n and self.start == other.start


class MultiDiscrete(Space):
    """An array of integers, element k in 0 .. nvec[k]-1."""

    def __init__(self, nvec, dtype=np.int64, seed=None):
        self.nvec = np.asarray(nvec, dtype=dtype)
        if self.nvec.size == 0 or np.any(self.nvec < 1):
            raise ValueError("MultiDiscrete: every nvec must be a positive int")
        super().__init__(self.nvec.shape, dtype, seed)

    def sample(self):
        return (self.np_random.random(self.nvec.shape) * self.nvec).astype(self.dtype)

    def contains(self, x):
        if not isinstance(x, np.ndarray):
            try:
                x = np.asarray(x)
            except (ValueError, TypeError):
                return False
        return bool(x.shape == self.shape and np.issubdtype(x.dtype, np.integer) and np.all(x >= 0) and np.all(x < self.nvec))

    def __repr__(self):
        return "MultiDiscrete(%s)" % self.nvec

    def __eq__(self, other):
        return isinstance(other, MultiDiscrete) and np.array_equal(self.nvec, other.nvec)


class Dict(Space):
    """A dict of spaces: samples are dicts with the same keys."""

    def __init__(self, spaces, seed=None):
        self.spaces = dict(spaces)
        for k, s in self.spaces.items():
            if not isinstance(s, Space):
                raise TypeError("Dict: %r is not a space but %r" % (k, s))
        super().__init__(None, None, None)
        if seed is not None:
            self.seed(seed)

    def seed(self, seed=None):
        """Seeds every subspace, each from its own draw of seed's generator."""
        seeds = super().seed(seed)
        for k, s in self.spaces.items():
            seeds += s.seed(int(self._np_random.integers(2**62)))
        return seeds

    def sample(self):
        return {k: s.sample() for k, s in self.spaces.items()}

    def contains(self, x):
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(s.contains(x[k]) for k, s in self.spaces.items())

    def __getitem__(self, k):
        return self.spaces[k]

    def __iter__(self):
        return iter(self.spaces)

    def keys(self):
        return self.spaces.keys()

    def items(self):
        return self.spaces.items()

    def __len__(self):
        return len(self.spaces)

    def __repr__(self):
        return "Dict(%s)" % ", ".join("%r: %r" % kv for kv in self.spaces.items())

    def __eq__(self, other):
        return isinstance(other, Dict) and self.spaces == other.spaces


def batch_space(space, n):
    """n copies of space as one, as Gymnasium's batch_space does."""
    if isinstance(space, Discrete):
        return MultiDiscrete(np.full(n, space.n, dtype=np.int64))
    if isinstance(space, Box):
        return Box(np.broadcast_to(space.low, (n,) + space.shape), np.broadcast_to(space.high, (n,) + space.shape), (n,) + space.shape, space.dtype)
    if isinstance(space, Dict):
        return Dict({k: batch_space(s, n) for k, s in space.spaces.items()})
    raise TypeError("batch_space: %r is not a Box, Discrete or Dict" % (space,))
