#!/usr/bin/env python3
"""Writes TestImages/deflate/checksum_references.json: zlib's CRC-32 and Adler-32 of fixed data.

The data is the little-endian byte stream of SplitMix64(seed) (the generator of TestSupport's
SeededGenerator), so the Swift tests rebuild it without reading a file. Values come from
Python's zlib module (the C zlib), so the tests compare our checksums with zlib's.

  "prefix_crc32"[n]   = zlib.crc32(data[:n])    for every n in 0...4096
  "prefix_adler32"[n] = zlib.adler32(data[:n])  for every n in 0...4096
  "long": [{"length": n, "crc32": ..., "adler32": ...}] for a few long inputs (braids, NMAX blocks)

Run from anywhere:  python3 TestImages/deflate/make_checksum_references.py
"""
import json
import os
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 0xC4C32
PREFIX_LENGTHS = 4096
LONG_LENGTHS = [40 * 1000 + 7, 65_536 + 13, (1 << 20) + 3]
MASK = 0xFFFFFFFFFFFFFFFF


def splitmix64_bytes(seed, count):
    state, out = seed, bytearray()
    while len(out) < count:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        out += (z ^ (z >> 31)).to_bytes(8, "little")
    return bytes(out[:count])


def main():
    data = splitmix64_bytes(SEED, max(LONG_LENGTHS))
    references = {
        "seed": SEED,
        "prefix_crc32": [zlib.crc32(data[:n]) for n in range(PREFIX_LENGTHS + 1)],
        "prefix_adler32": [zlib.adler32(data[:n]) for n in range(PREFIX_LENGTHS + 1)],
        "long": [{"length": n, "crc32": zlib.crc32(data[:n]), "adler32": zlib.adler32(data[:n])}
                 for n in LONG_LENGTHS],
    }
    path = os.path.join(HERE, "checksum_references.json")
    with open(path, "w") as f:
        json.dump(references, f, separators=(",", ":"))
        f.write("\n")
    print("wrote", path, os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
