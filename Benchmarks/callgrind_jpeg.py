#!/usr/bin/env python3
"""Instructions per JPEG decode, ours against libjpeg-turbo 3.1 (imagecodecs), under callgrind.

The JPEG twin of `callgrind_png.py` (whose `report` it uses): wall times on a shared machine
swing by 2x between runs, instruction counts do not. For each file it runs our `benchmark` with
`--repeat 1` and `--repeat 2` (a warm-up decode plus 1 or 2 timed ones) and a Python process that
decodes the file with `imagecodecs.jpeg8_decode` (as compare.py does) 2 and 3 times; the
difference of each pair is the cost of one decode, without process start-up. libjpeg-turbo's
8-bit paths use SIMD (more work per instruction); its 12-bit and lossless paths are plain C, so
there the ratio is close to a time ratio. A guide between compare.py runs, not a replacement.

  python3 Benchmarks/callgrind_jpeg.py [--bin .build/release/benchmark] FILE ...
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from callgrind_png import report  # noqa: E402

LIBJPEG_SCRIPT = """
import sys, imagecodecs
data = open(sys.argv[1], "rb").read()
for _ in range(int(sys.argv[2])):
    imagecodecs.jpeg8_decode(data)
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/release/benchmark")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    report(args.files, lambda path, n: [args.bin, "--min-sample-ms", "0", "--repeat", str(n), path],
           lambda path, n: [sys.executable, "-c", LIBJPEG_SCRIPT, path, str(n)], "libjpeg-turbo")


if __name__ == "__main__":
    main()
