#!/bin/bash
# Times one- and two-thread decodes beside processes that keep cores busy (developer tool).
# usage: Benchmarks/busy_machine.sh SPINNERS ROUNDS BIN... -- FILE...
#   e.g. Benchmarks/busy_machine.sh 1 2 /tmp/old-benchmark .build/release/benchmark -- Benchmarks/generated/jpeg/*baseline.jpg
# Prints, per round, binary and thread count, each file's median milliseconds (`--repeat 7`).
set -u
spinners=$1 rounds=$2; shift 2
bins=()
while [ "$1" != "--" ]; do bins+=("$1"); shift; done
shift
pids=()
for _ in $(seq 1 "$spinners"); do python3 -c "while True: pass" & pids+=($!); done
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
sleep 1
for round in $(seq 1 "$rounds"); do
  for bin in "${bins[@]}"; do
    for threads in 1 2; do
      printf '%s round %s threads %s: ' "$(basename "$bin")" "$round" "$threads"
      "$bin" --repeat 7 --threads "$threads" "$@" | awk '$2 ~ /^(jpeg|png|webp|gif)$/ {printf "%s ", $(NF-2)}'
      echo
    done
  done
done
