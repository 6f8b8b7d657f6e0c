#!/usr/bin/env python3
"""Instructions per PNG decode to RGBA8, ours against Wuffs, under callgrind.

Wall times on a shared machine swing by 2x between runs; instruction counts do not. For each
file this runs, under `valgrind --tool=callgrind`, our `benchmark --format rgba8` with
`--repeat 1` and `--repeat 2` (a warm-up decode plus 1 or 2 timed ones) and a Python process
that decodes the file with Wuffs (pywuffs, RGBA_NONPREMUL, as compare.py calls it) 2 and 3
times; the difference of each pair is the cost of one decode, without process start-up.
Instructions are not time (Wuffs's SSE4.2 paths do more per instruction than our SSE2), so
this is a guide between compare.py runs, not a replacement.

  python3 Benchmarks/callgrind_png.py [--bin .build/release/benchmark] FILE ...
"""

import argparse
import re
import subprocess
import sys

WUFFS_SCRIPT = """
import sys, pywuffs, pywuffs.aux as aux
config = aux.ImageDecoderConfig()
config.enabled_decoders = [pywuffs.ImageDecoderType.PNG]
config.pixel_format = pywuffs.PixelFormat.RGBA_NONPREMUL
decoder = aux.ImageDecoder(config)
data = open(sys.argv[1], "rb").read()
for _ in range(int(sys.argv[2])):
    result = decoder.decode(data)
    assert not result.error_message, result.error_message
"""


def instructions(command):
    """Instructions the whole process executed (callgrind's `refs` line)."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command,
                         capture_output=True, text=True)
    match = re.search(r"refs:\s+([\d,]+)", run.stderr)
    if run.returncode != 0 or not match:
        sys.exit(f"failed: {' '.join(command)}\n{run.stderr[-2000:]}")
    return int(match.group(1).replace(",", ""))


def report(paths, ours, theirs, library, runs=((1, 2), (2, 3))):
    """Prints per file one decode's instructions for us (`ours(path, n)`: our command decoding n
    times after a warm-up) and `library` (`theirs(path, n)`), each the difference of the runs
    counts in `runs`, their ratio, and the geometric mean of the ratios."""
    ratios = []
    print(f"{'file':70} {'ours M':>10} {library + ' M':>16} {'ratio':>7}")
    for path in paths:
        mine = [instructions(ours(path, n)) for n in runs[0]]
        library_counts = [instructions(theirs(path, n)) for n in runs[1]]
        one, other = mine[1] - mine[0], library_counts[1] - library_counts[0]
        ratios.append(other / one)
        print(f"{path:70} {one / 1e6:10.1f} {other / 1e6:16.1f} {other / one:6.2f}x", flush=True)
    product = 1.0
    for ratio in ratios:
        product *= ratio
    print(f"geomean instruction ratio {library}/ours: {product ** (1 / len(ratios)):.3f}x over {len(ratios)} files")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/release/benchmark")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    report(args.files,
           lambda path, n: [args.bin, "--format", "rgba8", "--min-sample-ms", "0", "--repeat", str(n), path],
           lambda path, n: [sys.executable, "-c", WUFFS_SCRIPT, path, str(n)], "Wuffs")


if __name__ == "__main__":
    main()
