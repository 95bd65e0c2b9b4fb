"""The vector names the stand-in needs (see gymnasium/__init__)."""

import enum
import os

from . import utils  # noqa: F401


class VectorEnv:
    """The base class Gymnasium's vector wrappers check for."""

    metadata = {}
    spec = None
    closed = False

    @property
    def unwrapped(self):
        return self


class VectorWrapper(VectorEnv):
    def __init__(self, env):
        assert isinstance(env, VectorEnv), "Expected env to be a `gymnasium.vector.VectorEnv`"
        self.env = env

    def step(self, actions):
        return self.env.step(actions)


if os.environ.get("STANDIN_GYMNASIUM") != "1.0":
    class AutoresetMode(enum.Enum):
        NEXT_STEP = "NextStep"
        SAME_STEP = "SameStep"
        DISABLED = "Disabled"
