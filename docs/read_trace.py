#!/usr/bin/env python3
"""Read a Longcraft trace (.lctrace, format v1) with the msgpack package.

Usage: python3 docs/read_trace.py FILE.lctrace
See docs/trace-format.md for the format.
"""
import struct
import sys
import zlib

import msgpack


def episodes(path):
    """Yield every episode of a trace as a dict, columns inflated."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"LCTRACE\x01":
        raise ValueError(f"{path}: not a Longcraft trace v1")
    pos, end = 8, len(data)
    if data[-8:] == b"LCTIDX01":  # an index: the records stop where it starts
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
        if pos + n > end:
            break  # a record torn by a crash
        ep = msgpack.unpackb(data[pos:pos + n], raw=False)
        pos += n
        for k in ("a", "o"):
            if k + "_z" in ep:
                ep[k] = zlib.decompress(ep.pop(k + "_z"), -15)  # raw deflate
        yield ep


if __name__ == "__main__":
    for i, ep in enumerate(episodes(sys.argv[1])):
        actions, outcomes = ep["a"], ep["o"]
        kinds = [c >> 4 for c in outcomes]
        success, died, steps, achievements, reward10 = ep["m"]
        print(f"episode {i}: seed {ep['seed']} rules {ep.get('rules')} task {ep.get('task')} "
              f"agent {ep.get('agent')} steps {len(actions)} moved {kinds.count(1)} "
              f"success {success} died {died} reward {reward10 / 10}")
