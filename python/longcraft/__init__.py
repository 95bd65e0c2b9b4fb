"""Longcraft from Python: a batched, zero-copy vector environment.

    import longcraft
    env = longcraft.VecEnv(512, ruleset="classic", obs=("symbolic",), threads=0)
    obs, infos = env.reset(seed=0)
    obs, rewards, terminated, truncated, infos = env.step(actions)

One call steps every world, across a fixed pool of Go threads, writing
observations, rewards and flags straight into NumPy arrays this object owns
(no copy, no allocation per step). The API follows Gymnasium's vector API:
seeded reset, terminated versus truncated, and NEXT_STEP autoreset
(metadata["autoreset_mode"]): the step after an episode ends resets that
world, ignores its action and returns reward 0 with both flags clear.
Results do not depend on the number of threads.

Only ctypes and NumPy are needed; the shared library liblongcraft.so is
built into this directory by `pip install ./python` (python/setup.py) or
`make python` (docs/python.md). Names (action_names, achievement_names,
inventory_names, symbolic_names), spaces (gymnasium.spaces, or
longcraft.spaces without Gymnasium) and render() follow Gymnasium. Its buffers
are not positional: the library describes each (name, dtype, shape,
flags) and this package allocates and binds what the table says, refusing
at load a table it cannot read.
"""

import ctypes
import os
import sys
import threading

import numpy as np

from . import spaces as _builtin_spaces

__all__ = ["VecEnv", "LongcraftError", "OBSERVATIONS", "spaces"]

class LongcraftError(RuntimeError):
    """An error the library reported, or a library this package cannot read."""


#: The descriptor format this package reads (the library's LC_DESCRIPTOR_VERSION).
_DESCRIPTOR_VERSION = 1
#: The library's element type codes (LC_UINT8 and the rest).
_DTYPES = {1: np.dtype(np.uint8), 2: np.dtype(np.int32), 3: np.dtype(np.uint64), 4: np.dtype(np.float32)}
#: The library's buffer flags (LC_OBSERVATION and the rest).
_FLAGS = {"observation": 1, "boolean": 2, "episode_info": 4}
#: The buffers VecEnv.step returns by name; the observations and the
#: episode's infos are whatever the table flags as such.
_STEP_BUFFERS = ("reward", "terminated", "truncated")
#: The settings VecEnv reads from the library, as its attributes.
_SCALARS = ("num_envs", "items", "num_actions", "size", "image_size", "threads", "budget")


class _Buffer(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 32), ("dtype", ctypes.c_int32), ("flags", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("shape", ctypes.c_int32 * 4)]


class _Scalar(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 32), ("value", ctypes.c_int64)]


class _Spec:
    """One row of the library's buffer table, checked: name, NumPy dtype,
    shape (worlds first) and the set of its flags' names."""

    __slots__ = ("name", "dtype", "shape", "flags")

    def __init__(self, row):
        self.name = row.name.decode("utf-8", "replace")
        if row.dtype not in _DTYPES:
            raise LongcraftError("liblongcraft: buffer %r has dtype code %d, which this package does not know (it knows %s): "
                                 "rebuild the library and the package together (make python)"
                                 % (self.name, row.dtype, ", ".join("%d %s" % (k, v) for k, v in sorted(_DTYPES.items()))))
        self.dtype = _DTYPES[row.dtype]
        unknown = row.flags & ~sum(_FLAGS.values())
        if unknown:
            raise LongcraftError("liblongcraft: buffer %r has flags %#x this package does not know (it knows %s)"
                                 % (self.name, unknown, ", ".join("%s=%d" % kv for kv in _FLAGS.items())))
        self.flags = frozenset(k for k, v in _FLAGS.items() if row.flags & v)
        if not 1 <= row.ndim <= len(row.shape):
            raise LongcraftError("liblongcraft: buffer %r has %d dimensions, want 1 to %d" % (self.name, row.ndim, len(row.shape)))
        self.shape = tuple(int(d) for d in row.shape[:row.ndim])
        if "boolean" in self.flags and self.dtype.itemsize != 1:
            raise LongcraftError("liblongcraft: buffer %r is boolean but of dtype %s, want one byte" % (self.name, self.dtype))


def _load():
    path = os.environ.get("LONGCRAFT_LIB") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "liblongcraft.so")
    if not os.path.exists(path):
        raise ImportError("liblongcraft.so not found at %s: build it with `make python` from the Longcraft checkout" % path)
    lib = ctypes.CDLL(path)
    i32 = ctypes.c_int32
    if not hasattr(lib, "lc_descriptor"):
        raise LongcraftError("%s has no buffer descriptor (lc_descriptor): it is older than this package; rebuild it with `make python`" % path)
    lib.lc_descriptor.argtypes = [ctypes.POINTER(i32)] * 3
    lib.lc_descriptor.restype = None
    version, bsize, ssize = i32(), i32(), i32()
    lib.lc_descriptor(ctypes.byref(version), ctypes.byref(bsize), ctypes.byref(ssize))
    if version.value != _DESCRIPTOR_VERSION:
        raise LongcraftError("%s describes its buffers in format %d, this package reads format %d: rebuild the library and the package together "
                             "(make python)" % (path, version.value, _DESCRIPTOR_VERSION))
    for what, got, want in (("lc_buffer", bsize.value, ctypes.sizeof(_Buffer)), ("lc_scalar", ssize.value, ctypes.sizeof(_Scalar))):
        if got != want:
            raise LongcraftError("%s: %s is %d bytes, this package's is %d" % (path, what, got, want))
    u64p = ctypes.POINTER(ctypes.c_uint64)
    err = [ctypes.c_char_p, ctypes.c_int]
    h = ctypes.c_size_t
    lib.lc_new.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.POINTER(h)] + err
    lib.lc_buffers.argtypes = [h, ctypes.POINTER(_Buffer), ctypes.c_int, ctypes.POINTER(ctypes.c_int)] + err
    lib.lc_scalars.argtypes = [h, ctypes.POINTER(_Scalar), ctypes.c_int, ctypes.POINTER(ctypes.c_int)] + err
    lib.lc_bind.argtypes = [h, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int] + err
    lib.lc_reset.argtypes = [h, u64p] + err
    lib.lc_step.argtypes = [h, ctypes.c_void_p, ctypes.c_void_p] + err
    lib.lc_step64.argtypes = [h, ctypes.c_void_p, ctypes.c_void_p] + err
    lib.lc_hashes.argtypes = [h, u64p] + err
    lib.lc_clone.argtypes = [h, ctypes.POINTER(h)] + err
    lib.lc_restore.argtypes = [h, h] + err
    lib.lc_close.argtypes = [h]
    for f in ("lc_names", "lc_render"):
        if not hasattr(lib, f):
            raise LongcraftError("%s has no %s: it is older than this package; rebuild it with `make python`" % (path, f))
    lib.lc_names.argtypes = [h, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int)] + err
    lib.lc_render.argtypes = [h, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_void_p] + err
    for f in ("lc_names", "lc_render", "lc_new", "lc_buffers", "lc_scalars", "lc_bind", "lc_reset", "lc_step", "lc_step64", "lc_hashes", "lc_clone", "lc_restore"):
        getattr(lib, f).restype = ctypes.c_int
    lib.lc_close.restype = None
    return lib


_lib = None


def _library():
    global _lib  # the loaded library, once per process
    if _lib is None:
        _lib = _load()
    return _lib


def _table(call, fn, h, row):
    """The rows of one of the library's tables (lc_buffers, lc_scalars)."""
    n = ctypes.c_int()
    call(fn, h, None, 0, ctypes.byref(n))
    rows = (row * n.value)()
    call(fn, h, rows, n.value, ctypes.byref(n))
    return list(rows)


def _describe(call, h):
    """The buffers of batch h (0: of no batch, for their names and flags),
    checked against what this package reads."""
    specs = [_Spec(r) for r in _table(call, _library().lc_buffers, h, _Buffer)]
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise LongcraftError("liblongcraft: buffer names repeat: %s" % ", ".join(names))
    missing = [b for b in _STEP_BUFFERS if b not in names]
    if missing:
        raise LongcraftError("liblongcraft describes no %s buffer, which VecEnv.step returns" % " or ".join(missing))
    return specs


_observations = None


def _observation_names():
    """The library's observations: the rows of its table flagged
    "observation", read once."""
    global _observations
    if _observations is None:
        _observations = tuple(s.name for s in _describe(_Call(), 0) if "observation" in s.flags)
    return _observations


def __getattr__(name):
    # OBSERVATIONS (the observations a VecEnv may write) comes from the
    # library, on first use: the module imports without it.
    if name == "OBSERVATIONS":
        return _observation_names()
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def _ptr(a, ctype):
    return None if a is None else a.ctypes.data_as(ctypes.POINTER(ctype))


class _Call:
    """Calls a library function with an error buffer, raising on failure."""

    def __init__(self):
        self.buf = ctypes.create_string_buffer(1024)

    def __call__(self, fn, *args):
        if fn(*args, self.buf, len(self.buf)) != 0:
            raise LongcraftError(self.buf.value.decode("utf-8", "replace"))


def _space_classes():
    """The spaces VecEnv builds: gymnasium.spaces and Gymnasium's
    batch_space when Gymnasium is importable, else this package's own
    (longcraft.spaces), which have the same constructors."""
    try:
        from gymnasium import spaces
        from gymnasium.vector.utils import batch_space
        return spaces, batch_space
    except ImportError:
        return _builtin_spaces, _builtin_spaces.batch_space


#: Seeds reset takes: what its errors say is allowed.
_SEED_RULE = "an int in [0, 2**64) (world i then plays seed + i, modulo 2**64), a sequence of %d such ints (one per world), or None"


def _seeds(seed, n):
    """reset's seed as n per-world seed streams (uint64), or a ValueError
    or TypeError that says what is allowed."""
    rule = _SEED_RULE % n
    if isinstance(seed, (bool, np.bool_)):
        raise TypeError("seed %r: want %s" % (seed, rule))
    if isinstance(seed, (int, np.integer)):
        if not 0 <= int(seed) < 1 << 64:
            raise ValueError("seed %d is out of range: want %s" % (seed, rule))
        return np.arange(n, dtype=np.uint64) + np.uint64(int(seed))  # wraps modulo 2**64
    if isinstance(seed, np.ndarray):
        if seed.dtype.kind not in "iu":
            raise TypeError("seed: an array of %s, want %s" % (seed.dtype, rule))
        if seed.shape != (n,):
            raise ValueError("seed: an array of shape %s, want %s" % (seed.shape, rule))
        if seed.dtype.kind == "i" and (seed < 0).any():
            raise ValueError("seed: a negative seed in the array, want %s" % rule)
        return np.ascontiguousarray(seed, dtype=np.uint64)
    if isinstance(seed, (str, bytes, dict, set, frozenset)) or not hasattr(seed, "__len__") or not hasattr(seed, "__iter__"):
        raise TypeError("seed %r (%s): want %s" % (seed, type(seed).__name__, rule))
    seeds = list(seed)
    if len(seeds) != n:
        raise ValueError("seed: %d seeds for %d worlds, want %s" % (len(seeds), n, rule))
    for i, v in enumerate(seeds):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError("seed[%d] %r (%s): want %s" % (i, v, type(v).__name__, rule))
        if not 0 <= int(v) < 1 << 64:
            raise ValueError("seed[%d] %d is out of range: want %s" % (i, v, rule))
    return np.array([int(v) for v in seeds], dtype=np.uint64)


def _bounds(dtype):
    """The range of a buffer's element type: (0, 255) for bytes, the type's
    own limits for other integers and for floats."""
    dt = np.dtype(dtype)
    info = np.iinfo(dt) if np.issubdtype(dt, np.integer) else np.finfo(dt)
    lo, hi = info.min, info.max
    if np.issubdtype(dt, np.integer):
        return int(lo), int(hi)
    return float(lo), float(hi)


class VecEnv:
    """num_envs Longcraft worlds stepped together (Gymnasium's vector API).

    ruleset: "classic" (Crafter's rules) or "extended"; size: the map's
    side; budget: steps per episode (0: the ruleset's 10,000); obs: any of
    OBSERVATIONS ("symbolic": the 9×9 semantic view, "inventory": counts by
    item, vitals first, "semantic": the whole map in semantic ids, "rgb":
    the agent view at image_size); threads: Go threads (0: every core);
    suite: an embedded suite's name (or a suite file with its lock): the
    worlds play its tasks of this ruleset and size, in turn, instead of
    free play, and infos["success"] says whether each reached its goal;
    tasks of the eval split are refused unless allow_eval (to evaluate on
    them, never to train).
    """

    metadata = {"autoreset_mode": "NextStep", "render_modes": ["rgb_array"]}
    #: Set by Gymnasium's make_vec to the spec it made this from.
    spec = None
    render_mode = None

    def __init__(self, num_envs, ruleset="classic", size=64, budget=0, obs=("symbolic", "inventory"), image_size=64, threads=0, suite=None,
                 allow_eval=False, render_mode=None):
        if render_mode not in (None, "rgb_array"):
            raise ValueError("render_mode %r: want None or 'rgb_array'" % (render_mode,))
        if isinstance(obs, str):
            obs = (obs,)
        observations = _observation_names()
        for o in obs:
            if o not in observations:
                raise ValueError("obs %r: want some of %s" % (o, ", ".join(observations)))
        limits = {"num_envs": (num_envs, 1, 1 << 20), "size": (size, 3, 256), "budget": (budget, 0, 10_000_000),
                  "threads": (threads, 0, 1024), "image_size": (image_size, 1, 4096)}
        for name, (v, lo, hi) in limits.items():
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
                raise TypeError("%s must be an int, not %r" % (name, v))
            if not lo <= int(v) <= hi:
                raise ValueError("%s %d: want %d to %d" % (name, v, lo, hi))
        num_envs = int(num_envs)
        self.render_mode, self._render_size = render_mode, int(image_size)
        self._lock = threading.Lock()  # one call at a time: the arrays are shared
        self._lib = _library()
        self._call = _Call()
        self._h = None
        h = ctypes.c_size_t()
        self._call(self._lib.lc_new, num_envs, ruleset.encode(), (suite or "").encode(), int(size), int(budget), int(threads),
                   int(image_size) if "rgb" in obs else 0, 1 if allow_eval else 0, ctypes.byref(h))
        self._h = h.value
        scalars = {r.name.decode("utf-8", "replace"): int(r.value) for r in _table(self._call, self._lib.lc_scalars, self._h, _Scalar)}
        missing = [k for k in _SCALARS if k not in scalars]
        if missing:
            raise LongcraftError("liblongcraft reports no %s" % ", ".join(missing))
        for k in _SCALARS:
            setattr(self, k, scalars[k])
        self.obs_keys = tuple(obs)
        n = self.num_envs
        self._specs = _describe(self._call, self._h)
        for s in self._specs:
            if s.shape[0] != n:
                raise LongcraftError("liblongcraft: buffer %r of shape %s, want %d worlds first" % (s.name, s.shape, n))
        # Every buffer the table has, but of the observations only those asked for.
        self._bufs = {s.name: np.zeros(s.shape, dtype=s.dtype) for s in self._specs if "observation" not in s.flags or s.name in obs}
        self._actions64 = np.zeros(n, dtype=np.int64)
        self._ended = np.zeros(1, dtype=np.int32)
        self._shape = (n,)
        self._done = np.zeros(n, dtype=bool)
        shapes = {s.name: s.shape[1:] for s in self._specs}
        dtypes = {s.name: s.dtype for s in self._specs}
        # Each space's bounds come from its buffer's type (bytes are 0 to 255),
        # so another buffer in the descriptor table needs no edit here.
        bounds = {k: _bounds(dtypes[k]) for k in obs}
        spaces, batch_space = _space_classes()
        self.single_observation_space = spaces.Dict(
            {k: spaces.Box(bounds[k][0], bounds[k][1], shape=shapes[k], dtype=dtypes[k]) for k in obs})
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        # Names, from the library (the ruleset's): actions by id,
        # achievements by bit, inventory columns, symbolic ids (the legend).
        self.action_names, self.achievement_names, self.inventory_names, self.symbolic_names = (
            self._names(k) for k in ("actions", "achievements", "inventory", "symbolic"))
        self._bind()

    def _names(self, kind):
        n = ctypes.c_int()
        self._call(self._lib.lc_names, self._h, kind.encode(), None, 0, ctypes.byref(n))
        buf = ctypes.create_string_buffer(n.value + 1)
        self._call(self._lib.lc_names, self._h, kind.encode(), buf, len(buf), ctypes.byref(n))
        return tuple(buf.value.decode("utf-8").split("\n")) if n.value else ()

    def _bind(self):
        # The arrays by role, views the step returns (the boolean buffers
        # as booleans: the same bytes), and the actions' pointer, made once.
        b = self._bufs
        self._obs = {k: b[k] for k in self.obs_keys}
        self.rewards, self.terminated, self.truncated = (b[k] for k in _STEP_BUFFERS)
        view = {s.name: b[s.name].view(bool) if "boolean" in s.flags else b[s.name] for s in self._specs if s.name in b}
        self._term_bool, self._trunc_bool = view["terminated"], view["truncated"]
        self._episode_infos, self._no_infos = {s.name: view[s.name] for s in self._specs if "episode_info" in s.flags}, {}
        # infos["achievements"]: the bit set as named per-world booleans,
        # one column of one (N, achievements) array each, remade in place
        # when an episode ends; the bit set stays as "achievement_bits".
        self._bits = self._episode_infos.pop("achievements", None)
        if self._bits is not None:
            k = len(self.achievement_names)
            if k > 64:
                raise LongcraftError("liblongcraft names %d achievements, more than its 64-bit sets hold" % k)
            # The bit sets' bytes, least significant first, which
            # np.unpackbits spreads into booleans (3× faster than shifts).
            self._bits_bytes = (self._bits if sys.byteorder == "little" else self._bits.byteswap()).view(np.uint8).reshape(self.num_envs, 8)
            self._unlocked_u8 = np.zeros((self.num_envs, k), dtype=np.uint8)
            self._unlocked = self._unlocked_u8.view(bool)
            self._episode_infos["achievement_bits"] = self._bits
            self._episode_infos["achievements"] = {name: self._unlocked[:, j] for j, name in enumerate(self.achievement_names)}
        # The step's calls with plain addresses (c_void_p): the cheapest
        # arguments ctypes converts.
        self._actions64_ptr, self._ended_ptr = self._actions64.ctypes.data, self._ended.ctypes.data
        self._step32, self._step64, self._errlen = self._lib.lc_step, self._lib.lc_step64, len(self._call.buf)
        # One pointer per row of the table, in its order (None: not written).
        ptrs = (ctypes.c_void_p * len(self._specs))(*(b[s.name].ctypes.data if s.name in b else None for s in self._specs))
        self._call(self._lib.lc_bind, self._h, ptrs, len(self._specs))

    def _check(self):
        if self._h is None:
            raise LongcraftError("the environment is closed")

    def reset(self, seed=None, options=None):
        """Start every world's episode: world i plays the stream seed+i (or
        seed[i] for a list). Returns (observations, infos)."""
        self._check()
        seeds = None if seed is None else _seeds(seed, self.num_envs)
        self._call(self._lib.lc_reset, self._h, _ptr(seeds, ctypes.c_uint64))
        return self._obs, {}

    def step(self, actions):
        """Play one action per world. Returns (observations, rewards,
        terminated, truncated, infos); the arrays are this object's own,
        overwritten by the next call (copy what you keep)."""
        if self._h is None:
            raise LongcraftError("the environment is closed")
        a = actions if type(actions) is np.ndarray else np.asarray(actions)
        if a.shape != self._shape:
            raise ValueError("actions: shape %s, want (%d,)" % (a.shape, self.num_envs))
        dt = a.dtype
        # int64 (NumPy's default) and int32 go to the library as they are,
        # which checks each action's range; other integers are widened.
        if dt == np.int64 and a.flags.c_contiguous:
            fn, ptr = self._step64, a.ctypes.data
        elif dt == np.int32 and a.flags.c_contiguous:
            fn, ptr = self._step32, a.ctypes.data
        elif dt.kind not in "iu":
            raise TypeError("actions: dtype %s, want integers" % dt)
        else:
            if dt == np.uint64 and a.size and a.max() >= self.num_actions:  # past int64 it would wrap
                raise ValueError("actions: each in 0 to %d" % (self.num_actions - 1))
            fn, ptr = self._step64, self._actions64_ptr
        with self._lock:
            if self._h is None:  # closed by another thread meanwhile
                raise LongcraftError("the environment is closed")
            if ptr == self._actions64_ptr:
                np.copyto(self._actions64, a, casting="unsafe")
            if fn(self._h, ptr, self._ended_ptr, self._call.buf, self._errlen) != 0:
                msg = self._call.buf.value.decode("utf-8", "replace")
                raise (ValueError if "outside" in msg else LongcraftError)(msg)
            ended = self._ended[0]
        infos = self._no_infos
        if ended:
            # Gymnasium's vector infos: each array valid where its mask is
            # set (the worlds whose episode ended on this step).
            done = np.logical_or(self._term_bool, self._trunc_bool, out=self._done)
            infos = dict(self._episode_infos, _episode=done)
            if self._bits is not None:
                bits = self._bits_bytes if sys.byteorder == "little" else self._bits.byteswap().view(np.uint8).reshape(self.num_envs, 8)
                np.copyto(self._unlocked_u8, np.unpackbits(bits, axis=1, count=self._unlocked_u8.shape[1], bitorder="little"))
                infos["_achievements"] = done
        return self._obs, self.rewards, self._term_bool, self._trunc_bool, infos

    def render(self, world=None, size=None):
        """The worlds' agent views as RGB frames (render_mode "rgb_array",
        the only mode): a new (num_envs, S, S, 3) uint8 array of every
        world as it is now, or with world=i world i's (S, S, 3) frame. S
        is size when given (9 to 4096), else image_size (64 by default).
        The frames are what obs["rgb"] holds at that size."""
        self._check()
        if size is None:
            size = self._render_size
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool):
            raise TypeError("size must be an int, not %r" % (size,))
        if not 9 <= size <= 4096:
            raise ValueError("size %d: want 9 to 4096" % size)
        first, count = 0, self.num_envs
        if world is not None:
            if not isinstance(world, (int, np.integer)) or isinstance(world, bool):
                raise TypeError("world must be an int, not %r" % (world,))
            if not 0 <= world < self.num_envs:
                raise ValueError("world %d: want 0 to %d" % (world, self.num_envs - 1))
            first, count = int(world), 1
        out = np.zeros((count, int(size), int(size), 3), dtype=np.uint8)
        with self._lock:
            self._check()
            self._call(self._lib.lc_render, self._h, first, count, int(size), out.ctypes.data)
        return out[0] if world is not None else out

    def hashes(self):
        """Every world's state hash (uint64): what determinism tests compare."""
        self._check()
        out = np.zeros(self.num_envs, dtype=np.uint64)
        self._call(self._lib.lc_hashes, self._h, _ptr(out, ctypes.c_uint64))
        return out

    def clone(self):
        """An independent copy of the batch where it is (worlds, episodes),
        with arrays of its own: a branch for planners and probes."""
        self._check()
        h = ctypes.c_size_t()
        self._call(self._lib.lc_clone, self._h, ctypes.byref(h))
        c = object.__new__(VecEnv)
        c.__dict__.update({k: v for k, v in self.__dict__.items() if not isinstance(v, (np.ndarray, dict)) and k != "_lock"})
        c._call, c._h, c._lock = _Call(), h.value, threading.Lock()
        c._bufs = {k: v.copy() for k, v in self._bufs.items()}
        for k in ("_actions64", "_ended", "_done"):
            setattr(c, k, getattr(self, k).copy())
        for k in ("single_observation_space", "single_action_space", "observation_space", "action_space"):
            setattr(c, k, getattr(self, k))
        c._bind()
        return c

    def restore(self, other):
        """Make this batch what other (a clone of it) is."""
        self._check()
        other._check()
        self._call(self._lib.lc_restore, self._h, other._h)

    #: Whether close() has run (Gymnasium's VectorEnv.closed).
    closed = False

    def close(self):
        """Frees the worlds; a second close does nothing, and any other
        call after it raises LongcraftError."""
        with self._lock:  # not while another thread's call runs
            if self._h is not None:
                self._lib.lc_close(self._h)
                self._h = None
            self.closed = True

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    @property
    def unwrapped(self):
        """This environment (Gymnasium's make_vec sets unwrapped.spec)."""
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


_gym_classes = {}


def _make_vec(num_envs=1, **kwargs):
    """Gymnasium's vector entry point: a VecEnv that is also a
    gymnasium.vector.VectorEnv (Gymnasium's vector wrappers assert that),
    with Gymnasium's own spaces and, from Gymnasium 1.1 on, its
    AutoresetMode in the metadata."""
    try:
        import gymnasium
    except ImportError:
        return VecEnv(num_envs, **kwargs)
    base = getattr(gymnasium.vector, "VectorEnv", None)
    cls = VecEnv
    if base is not None:
        cls = _gym_classes.get(base)
        if cls is None:  # made once per Gymnasium: VecEnv's methods first
            cls = _gym_classes[base] = type("VecEnv", (VecEnv, base), {"__module__": __name__})
    env = cls(num_envs, **kwargs)
    mode = getattr(gymnasium.vector, "AutoresetMode", None)  # Gymnasium 1.1 and later
    if mode is not None:
        env.metadata = dict(VecEnv.metadata, autoreset_mode=mode.NEXT_STEP)
    return env  # its spaces are Gymnasium's already (VecEnv uses them when Gymnasium imports)


def _register():
    """Register "Longcraft/Crafter-v0" with Gymnasium when it is installed,
    for gymnasium.make_vec("Longcraft/Crafter-v0", num_envs=N, **VecEnv's
    arguments). Longcraft never needs Gymnasium: the test machine does not
    have it, and python/tests checks this against a stand-in that follows
    Gymnasium 1.x's make_vec (python/tests/standin/gymnasium)."""
    try:
        import gymnasium
    except ImportError:
        return
    gymnasium.register(id="Longcraft/Crafter-v0", vector_entry_point="longcraft:_make_vec")


_register()
