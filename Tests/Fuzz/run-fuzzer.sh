#!/usr/bin/env bash
# Builds and runs a libFuzzer campaign against a module's sources (developer tool, not CI).
# Usage: Tests/Fuzz/run-fuzzer.sh inflate|png|jpeg|jpeg-sequential|jpeg-progressive|jpeg-arith|gif|webp [seconds]   (crashers land in Tests/Fuzz/crashers/)
# -package-name: the modules share `package` declarations (ImageCore's LargeBuffer), as under SwiftPM.
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
  png)
    # PNGCodec imports Deflate and ImageCore: build those as instrumented static modules first.
    for module in Deflate ImageCore ColorManagement; do
      swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name IncrementalImage -emit-library -static -emit-module \
        -module-name "$module" -I "$out" $(find Sources/"$module" -name '*.swift') \
        -emit-module-path "$out/$module.swiftmodule" -o "$out/lib$module.a"
    done
    swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name IncrementalImage -emit-library -static -emit-module -module-name PNGCodec \
      -I "$out" $(find Sources/PNGCodec -name '*.swift') -emit-module-path "$out/PNGCodec.swiftmodule" -o "$out/libPNGCodec.a"
    sources=(Tests/Fuzz/PNGFuzzTarget.swift Tests/Fuzz/FuzzDecodeOutcome.swift -I "$out" -L "$out" -lPNGCodec -lColorManagement -lImageCore -lDeflate)
    seeds=($(find TestImages/corpus/png TestImages/apng -name '*.png' -size -64k)) ;;
  jpeg|jpeg-sequential|jpeg-progressive|jpeg-arith)
    # jpeg-arith: the same target, seeded with arithmetic-coded files only (SOF9/SOF10 paths).
    swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name IncrementalImage -emit-library -static -emit-module \
      -module-name ImageCore $(find Sources/ImageCore -name '*.swift') -emit-module-path "$out/ImageCore.swiftmodule" -o "$out/libImageCore.a"
    swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name IncrementalImage -emit-library -static -emit-module -module-name ColorManagement \
      -I "$out" $(find Sources/ColorManagement -name '*.swift') -emit-module-path "$out/ColorManagement.swiftmodule" -o "$out/libColorManagement.a"
    # -D JPEG_INVARIANT_CHECKS compiles in the decoder's invariant checks (jpegInvariant).
    swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name IncrementalImage -emit-library -static -emit-module -module-name JPEGCodec \
      -D JPEG_INVARIANT_CHECKS -I "$out" $(find Sources/JPEGCodec -name '*.swift') \
      -emit-module-path "$out/JPEGCodec.swiftmodule" -o "$out/libJPEGCodec.a"
    sources=(Tests/Fuzz/JPEGFuzzTarget.swift Tests/Fuzz/FuzzDecodeOutcome.swift Tests/TestSupport/FuzzPieces.swift -I "$out" -L "$out" -lJPEGCodec -lColorManagement -lImageCore)
    # jpeg-arith: the same target, seeded with arithmetic-coded files only (SOF9/SOF10 paths).
    if [ "$target" = jpeg-arith ]; then
      files=(TestImages/jpeg-arith/files/*.jpg $(find TestImages/corpus/jpeg -name '*arith*.jpg') TestImages/corpus/jpeg/libjpeg-turbo/testimgari.jpg)
    else
      files=($(find TestImages/corpus/jpeg TestImages/jpeg-extra TestImages/jpeg-arith TestImages/jpeg-hibit TestImages/demo -name '*.jpg' -size -64k))
      # jpeg-progressive: files with an SOF2 (progressive Huffman) marker; jpeg-sequential: the others.
      if [ "$target" != jpeg ]; then
        selected=()
        for file in "${files[@]}"; do
          if LC_ALL=C grep -q $'\xff\xc2' "$file"; then kind=jpeg-progressive; else kind=jpeg-sequential; fi
          [ "$kind" = "$target" ] && selected+=("$file")
        done
        files=("${selected[@]}")
      fi
    fi
    # Seeds: each fixture with two split-choosing bytes in front (0x07: previews after every piece).
    mkdir -p "$out/corpus-$target"
    for file in "${files[@]}"; do
      seed="$out/corpus-$target/$(echo "$file" | tr / _)"
      [ -e "$seed" ] || { printf '\x07\x2a' | cat - "$file" > "$seed"; }
    done
    seeds=() ;;
  gif)
    # find, not a glob: ImageCore has a subfolder (Animation/).
    swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name IncrementalImage -emit-library -static -emit-module \
      -module-name ImageCore $(find Sources/ImageCore -name '*.swift') -emit-module-path "$out/ImageCore.swiftmodule" -o "$out/libImageCore.a"
    swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name IncrementalImage -emit-library -static -emit-module -module-name GIFCodec \
      -I "$out" $(find Sources/GIFCodec -name '*.swift') -emit-module-path "$out/GIFCodec.swiftmodule" -o "$out/libGIFCodec.a"
    sources=(Tests/Fuzz/GIFFuzzTarget.swift -I "$out" -L "$out" -lGIFCodec -lImageCore)
    # Seeds get a leading 0 byte: no split points, the rest is the file.
    mkdir -p "$out/seeds-gif"
    for f in TestImages/gif/*.gif TestImages/gif/wuffs/*.gif; do { printf '\0'; cat "$f"; } > "$out/seeds-gif/$(basename "$f")"; done
    seeds=("$out"/seeds-gif/*.gif) ;;
  webp)
    swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name IncrementalImage -emit-library -static -emit-module \
      -module-name ImageCore $(find Sources/ImageCore -name '*.swift') -emit-module-path "$out/ImageCore.swiftmodule" -o "$out/libImageCore.a"
    swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name IncrementalImage -emit-library -static -emit-module -module-name ColorManagement \
      -I "$out" $(find Sources/ColorManagement -name '*.swift') -emit-module-path "$out/ColorManagement.swiftmodule" -o "$out/libColorManagement.a"
    swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name IncrementalImage -emit-library -static -emit-module -module-name WebPCodec \
      -I "$out" $(find Sources/WebPCodec -name '*.swift') -emit-module-path "$out/WebPCodec.swiftmodule" -o "$out/libWebPCodec.a"
    sources=(Tests/Fuzz/WebPFuzzTarget.swift Tests/Fuzz/FuzzDecodeOutcome.swift Tests/TestSupport/FuzzPieces.swift -I "$out" -L "$out" -lWebPCodec -lColorManagement -lImageCore)
    # Seeds: each fixture with two split-choosing bytes in front.
    mkdir -p "$out/corpus-webp"
    for file in TestImages/webp/files/*.webp; do
      [ -e "$out/corpus-webp/$(basename "$file")" ] || { printf '\x07\x2a' | cat - "$file" > "$out/corpus-webp/$(basename "$file")"; }
    done
    seeds=() ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac
swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name IncrementalImage -module-name Fuzz "${sources[@]}" -o "$out/fuzz-$target"
[ ${#seeds[@]} -eq 0 ] || cp -n "${seeds[@]}" "$out/corpus-$target/" 2>/dev/null || true
"$out/fuzz-$target" -max_total_time="$seconds" -max_len=65536 -artifact_prefix=Tests/Fuzz/crashers/ "$out/corpus-$target"
