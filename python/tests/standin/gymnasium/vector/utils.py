"""batch_space as Gymnasium defines it for Discrete, Box and Dict."""

from .. import spaces


def batch_space(space, n):
    if isinstance(space, spaces.Discrete):
        return spaces.MultiDiscrete([space.n] * n)
    if isinstance(space, spaces.Box):
        return spaces.Box(space.low, space.high, (n,) + space.shape, space.dtype)
    if isinstance(space, spaces.Dict):
        return spaces.Dict({k: batch_space(v, n) for k, v in space.spaces.items()})
    raise TypeError(space)
