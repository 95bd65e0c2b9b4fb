"""A stand-in for Gymnasium 1.x, for testing Longcraft's registration on a
machine without Gymnasium. It keeps only what Longcraft's entry point
touches, written from Gymnasium 1.x's source: register() keeps a spec;
make_vec() with a vector entry point loads "module:function", calls it
with num_envs and the keyword arguments, sets env.unwrapped.spec, and
warns unless metadata["autoreset_mode"] is an AutoresetMode (here the
warning is an error, so that the test sees it); vector.VectorWrapper
asserts that it wraps a vector.VectorEnv. STANDIN_GYMNASIUM=1.0 leaves
out AutoresetMode, which Gymnasium 1.0 did not have. It is not Gymnasium:
a real install may differ."""

import importlib

from . import spaces, vector  # noqa: F401

registry = {}


class EnvSpec:
    def __init__(self, id, vector_entry_point, kwargs=None):
        self.id, self.vector_entry_point, self.kwargs = id, vector_entry_point, dict(kwargs or {})


def register(id, entry_point=None, vector_entry_point=None, **kwargs):
    registry[id] = EnvSpec(id, vector_entry_point, kwargs)


def make_vec(id, num_envs=1, **kwargs):
    spec = registry[id]
    module, name = spec.vector_entry_point.split(":")
    env = getattr(importlib.import_module(module), name)(num_envs=num_envs, **dict(spec.kwargs, **kwargs))
    env.unwrapped.spec = EnvSpec(id, spec.vector_entry_point, dict(kwargs, num_envs=num_envs))
    mode = getattr(vector, "AutoresetMode", None)
    if mode is not None and not isinstance(env.metadata.get("autoreset_mode"), mode):
        raise TypeError("metadata['autoreset_mode'] is not an AutoresetMode")
    return env
