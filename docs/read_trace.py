#!/usr/bin/env python3
"""Read a Longcraft trace (.lctrace, format v1) with the msgpack package.

Usage: python3 docs/read_trace.py FILE.lctrace
See docs/trace-format.md for the format.
"""
import struct
import sys
import zlib

import msgpack


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"LCTRACE\x01":
        raise ValueError(f"{path}: not a Longcraft trace v1")
    return data


def index(path):
    """Return the index, a list of [offset, length, steps], or None for a
    file without a footer (its writer crashed)."""
    data = read(path)
    if data[-8:] != b"LCTIDX01":
        return None
    start = struct.unpack("<Q", data[-16:-8])[0]
    u = msgpack.Unpacker(raw=False)
    u.feed(data[start:-16])
    n = u.read_array_header()
    if n == 0:
        return []
    first = u.unpack()
    if isinstance(first, list):  # one array of [offset, length, steps] arrays
        return [first] + [u.unpack() for _ in range(n - 1)]
    # Files written before the end marker: the array's header counts the
    # episodes, then 3 numbers follow for each.
    flat = [first] + [u.unpack() for _ in range(3 * n - 1)]
    return [flat[i:i + 3] for i in range(0, len(flat), 3)]


def episodes(path):
    """Yield every episode of a trace as a dict, columns inflated."""
    data = read(path)
    pos, end = 8, len(data)
    if data[-8:] == b"LCTIDX01":  # an index: the records stop before it
        end = struct.unpack("<Q", data[-16:-8])[0]
    while pos < end:
        n, shift = 0, 0
        while True:  # the record's uvarint length
            b = data[pos]
            pos += 1
            n |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
        if n == 0:
            break  # the end of the records (the index follows)
        if pos + n > end:
            break  # a record torn by a crash
        ep = msgpack.unpackb(data[pos:pos + n], raw=False)
        pos += n
        for k in ("a", "o"):
            if k + "_z" in ep:
                ep[k] = zlib.decompress(ep.pop(k + "_z"), -15)  # raw deflate
        yield ep


if __name__ == "__main__":
    idx = index(sys.argv[1])
    if idx is not None:
        print(f"index: {len(idx)} episodes: " + " ".join(f"{o}+{n}:{s}" for o, n, s in idx))
    for i, ep in enumerate(episodes(sys.argv[1])):
        actions, outcomes = ep["a"], ep["o"]
        kinds = [c >> 4 for c in outcomes]
        success, died, steps, achievements, reward10 = ep["m"]
        print(f"episode {i}: seed {ep['seed']} rules {ep.get('rules')} task {ep.get('task')} "
              f"agent {ep.get('agent')} steps {len(actions)} moved {kinds.count(1)} "
              f"success {success} died {died} reward {reward10 / 10}")
