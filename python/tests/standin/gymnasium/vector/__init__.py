"""The vector names the stand-in needs (see gymnasium/__init__)."""

import enum

from . import utils  # noqa: F401


class AutoresetMode(enum.Enum):
    NEXT_STEP = "NextStep"
    SAME_STEP = "SameStep"
    DISABLED = "Disabled"
