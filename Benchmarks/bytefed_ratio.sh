#!/bin/bash
# Instructions per decode of FILE fed whole and fed a byte at a time, and their ratio, under
# callgrind: each count is `--repeat 2` minus `--repeat 1` (one decode without the process's
# own start-up). Extra arguments go to the benchmark (e.g. --streaming for a deflate stream,
# whose one-shot run otherwise decodes into a buffer of known size).
#   usage: Benchmarks/bytefed_ratio.sh .build/release/benchmark FILE [benchmark args]
#   prints: FILE  whole-K  byte-fed-K  ratio
set -euo pipefail
binary=$1; file=$2; shift 2
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" --repeat "$1" --min-sample-ms 0 "${@:2}" "$file" 2>&1 \
        | awk '/refs:/ { gsub(",", "", $NF); print $NF }'
}
whole1=$(count 1 "$@"); whole2=$(count 2 "$@")
fed1=$(count 1 --chunk 1 "$@"); fed2=$(count 2 --chunk 1 "$@")
python3 -c "w = $whole2 - $whole1; f = $fed2 - $fed1; print('$(basename "$file")', round(w / 1e3), round(f / 1e3), round(f / w, 3))"
