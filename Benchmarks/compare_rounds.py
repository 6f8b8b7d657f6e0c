#!/usr/bin/env python3
"""Runs compare.py several rounds, alternating benchmark binaries, and prints per-file medians.

On a shared or virtual 2-core machine one compare.py run can move a file's ratio by 0.2x or
more; alternating two builds round by round and taking medians is how the README's
before/after figures were made:

    python3 Benchmarks/compare_rounds.py --rounds 6 --bin old=/tmp/old/benchmark \\
        --bin new=.build/release/benchmark -- --repeat 7 Benchmarks/generated/webp

Everything after `--` goes to compare.py unchanged. Output: for each binary, each file's
median ratio per library column, and the geometric-mean lines' median and range.
"""
import argparse
import collections
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMPARE = Path(__file__).resolve().parent / "compare.py"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--bin", action="append", required=True, metavar="NAME=PATH",
                        help="a benchmark binary to compare, named; repeat for several")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="-- then compare.py's arguments")
    args = parser.parse_args()
    binaries = [tuple(b.split("=", 1)) for b in args.bin]
    rest = [a for a in args.rest if a != "--"]
    files = collections.defaultdict(lambda: collections.defaultdict(list))
    means = collections.defaultdict(lambda: collections.defaultdict(list))
    for round_number in range(1, args.rounds + 1):
        for name, path in binaries:
            with open("/proc/loadavg") as f:
                load = f.read().split()[0]
            print(f"round {round_number} {name} {time.strftime('%H:%M:%S')} load {load}", file=sys.stderr)
            out = subprocess.run([sys.executable, str(COMPARE), "--bin", path, *rest],
                                 capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                mean = re.match(r"geomean speed ratio ours vs (.+?): ([0-9.]+)x", line)
                if mean:
                    means[name][mean.group(1)].append(float(mean.group(2)))
                    continue
                parts = line.split()
                ratios = [float(p[:-1]) for p in parts[1:] if re.fullmatch(r"[0-9.]+x", p)]
                if parts and ratios and Path(parts[0]).suffix:
                    files[name][Path(parts[0]).name].append(ratios)
    for name, _ in binaries:
        print(f"## {name} ({args.rounds} rounds)")
        for file, rows in files[name].items():
            columns = max(len(r) for r in rows)
            medians = [statistics.median(r[i] for r in rows if len(r) > i) for i in range(columns)]
            print(f"  {file:58s} " + " ".join(f"{m:.2f}x" for m in medians))
        for library, values in means[name].items():
            print(f"  geomean vs {library}: median {statistics.median(values):.3f}x "
                  f"(range {min(values):.3f}-{max(values):.3f}x)")


if __name__ == "__main__":
    main()
