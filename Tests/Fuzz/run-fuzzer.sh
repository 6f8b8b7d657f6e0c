#!/usr/bin/env bash
# Builds and runs a libFuzzer campaign against a module's sources (developer tool, not CI).
# Usage: Tests/Fuzz/run-fuzzer.sh inflate [seconds]   (crashers land in Tests/Fuzz/crashers/)
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:-inflate}
seconds=${2:-60}
out=.build-fuzz
mkdir -p "$out" Tests/Fuzz/crashers "$out/corpus-$target"
case "$target" in
  inflate)
    sources=(Sources/Deflate/*.swift Tests/Fuzz/InflateFuzzTarget.swift)
    seeds=(TestImages/deflate/*.zlib TestImages/deflate/*.gz TestImages/deflate/*.deflate) ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name Fuzz "${sources[@]}" -o "$out/fuzz-$target"
cp -n "${seeds[@]}" "$out/corpus-$target/" 2>/dev/null || true
"$out/fuzz-$target" -max_total_time="$seconds" -max_len=65536 -artifact_prefix=Tests/Fuzz/crashers/ "$out/corpus-$target"
