#!/usr/bin/env python3
"""Writes raw DEFLATE streams that each exercise one kind of token into Benchmarks/generated/tokens/.

Developer tool only (git-ignored output; `swift build` and `swift test` never need it). Where
`compare.py` on Benchmarks/generated/deflate/ gives one ratio per real stream, these streams
split the inflate loop's work by token kind, so a ratio against libdeflate says which path
(literals, matches at a given distance, runs) is behind:

  literals_only.deflate   Python source through zlib's Z_HUFFMAN_ONLY: literals only, no matches
  runs_distance1.deflate  Z_RLE over runs of 7 equal bytes: matches at distance 1 only
  distance_2_15.deflate   random patterns of 2-15 bytes repeated 3-12 times (short-distance copies)
  distance_16_31.deflate  the same with 16-31-byte patterns repeated 2-6 times
  distance_32_200.deflate the same with 32-200-byte patterns repeated 2-4 times
  source_level6.deflate   Python source at level 6 (a real mix, for reference)

Usage:
  python3 Benchmarks/make_token_mix_inputs.py
  python3 Benchmarks/compare.py --repeat 7 Benchmarks/generated/tokens

Output is deterministic for a given machine (the source text comes from the installed Python).
"""

import glob
import os
import random
import sysconfig
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "generated", "tokens")


def raw_deflate(data, level, strategy):
    compressor = zlib.compressobj(level, zlib.DEFLATED, -15, 9, strategy)
    return compressor.compress(data) + compressor.flush()


def python_source(limit):
    stdlib = sysconfig.get_paths()["stdlib"]
    data = bytearray()
    for path in sorted(glob.glob(os.path.join(stdlib, "*.py"))):
        with open(path, "rb") as f:
            data += f.read()
        if len(data) >= limit:
            break
    return bytes(data[:limit])


def repeated_patterns(rng, shortest, longest, fewest, most, size):
    out = bytearray()
    while len(out) < size:
        pattern = bytes(rng.randrange(256) for _ in range(rng.randint(shortest, longest)))
        out += pattern * rng.randint(fewest, most)
    return bytes(out[:size])


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(1)
    source = python_source(8_000_000)
    runs = bytes((i // 7) % 256 for i in range(4_000_000))
    streams = {
        "literals_only.deflate": raw_deflate(source, 6, zlib.Z_HUFFMAN_ONLY),
        "runs_distance1.deflate": raw_deflate(runs, 6, zlib.Z_RLE),
        "distance_2_15.deflate": raw_deflate(repeated_patterns(rng, 2, 15, 3, 12, 4_000_000), 6, zlib.Z_DEFAULT_STRATEGY),
        "distance_16_31.deflate": raw_deflate(repeated_patterns(rng, 16, 31, 2, 6, 4_000_000), 6, zlib.Z_DEFAULT_STRATEGY),
        "distance_32_200.deflate": raw_deflate(repeated_patterns(rng, 32, 200, 2, 4, 4_000_000), 6, zlib.Z_DEFAULT_STRATEGY),
        "source_level6.deflate": raw_deflate(source, 6, zlib.Z_DEFAULT_STRATEGY),
    }
    for name, data in streams.items():
        path = os.path.join(OUT, name)
        with open(path, "wb") as f:
            f.write(data)
        print(f"  {os.path.relpath(path)}  {len(data):,} bytes")


if __name__ == "__main__":
    main()
