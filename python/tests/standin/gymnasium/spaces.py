"""The spaces the stand-in needs (see __init__)."""

import numpy as np


class Discrete:
    def __init__(self, n):
        self.n = int(n)


class Box:
    def __init__(self, low, high, shape, dtype):
        self.low, self.high, self.shape, self.dtype = low, high, tuple(shape), np.dtype(dtype)


class MultiDiscrete:
    def __init__(self, nvec):
        self.nvec = np.asarray(nvec)


class Dict:
    def __init__(self, spaces):
        self.spaces = dict(spaces)

    def __getitem__(self, k):
        return self.spaces[k]
