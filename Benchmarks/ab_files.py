#!/usr/bin/env python3
"""Times two builds of the benchmark against each other, file by file, alternating many times.

    python3 Benchmarks/ab_files.py [--runs 20] [--cpu 1] [--pass ARG ...] OLD_BINARY NEW_BINARY FILE_OR_FOLDER ...

For each file, each binary decodes it `--runs` times (`--json --repeat 5 --min-sample-ms 3`,
pinned to one core with `taskset` when it exists; each `--pass` argument is added, e.g.
`--pass=--format --pass=rgba8`), in the order A B, B A, A B, … so drift on a
shared machine hits both alike. Per file it prints NEW/OLD of the fastest run and of the
median run (below 1: NEW is faster); then the geometric means over the files.

Why per file and many times: on a shared 2-core VM a whole-folder round can move a file by
±10 %, and alternating whole rounds (`compare_rounds.py`) needs many rounds to settle. Two
copies of the same binary measured with `--runs 20` on 7 streams came out at 1.008 (fastest)
and 1.000 (median): a difference under about 2 % is noise here. No C library is involved;
use `compare.py` for ratios against them.
"""
import argparse
import json
import math
import shutil
import subprocess
from pathlib import Path

KINDS = {".zlib", ".gz", ".deflate", ".png", ".jpg", ".jpeg", ".gif", ".webp"}


def files_of(paths):
    for path in map(Path, paths):
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix.lower() in KINDS)
        else:
            yield path


def seconds(binary, file, cpu, extra):
    command = [binary, "--json", "--repeat", "5", "--min-sample-ms", "3", *extra, str(file)]
    if cpu is not None and shutil.which("taskset"):
        command = ["taskset", "-c", str(cpu)] + command
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    row = json.loads(out)["results"][0]
    if row.get("median_seconds") is None:
        raise SystemExit(f"{file}: {row.get('error')}")
    return row["median_seconds"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--cpu", type=int, default=1, help="core to pin to (default 1); -1: no pinning")
    parser.add_argument("--pass", dest="extra", action="append", default=[], metavar="ARG",
                        help="an argument for the benchmark (repeat for several)")
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    cpu = None if args.cpu < 0 else args.cpu
    fastest, middle = [], []
    for file in files_of(args.paths):
        old, new = [], []
        for run in range(args.runs):
            pair = [(args.old, old), (args.new, new)]
            for binary, times in (pair if run % 2 == 0 else pair[::-1]):
                times.append(seconds(binary, file, cpu, args.extra))
        old.sort()
        new.sort()
        fast, median = new[0] / old[0], new[len(new) // 2] / old[len(old) // 2]
        fastest.append(math.log(fast))
        middle.append(math.log(median))
        print(f"{file.name:48s} fastest {fast:.3f}  median {median:.3f}  (old {old[0] * 1e3:.3f} ms, new {new[0] * 1e3:.3f} ms)", flush=True)
    if fastest:
        print(f"geomean new/old over {len(fastest)} files: fastest {math.exp(sum(fastest) / len(fastest)):.4f}, "
              f"median {math.exp(sum(middle) / len(middle)):.4f} (below 1: new is faster)")


if __name__ == "__main__":
    main()
