#!/usr/bin/env python3
"""Checks that libpng and Pillow read PNGEncoder's files as the pixels it was given.

Makes source PNGs (with imagecodecs/libpng and Pillow) of every kind the encoder has a layout
for: RGB/RGBA noise and photo crops, RGB/RGBA with 2...257 colours (palette with tRNS for
RGBA), gray whose samples fit 1, 2 or 4 bits, gray + alpha, 16-bit gray/RGB/RGBA, sizes 1x1,
1xN, Nx1, 17x13 and larger, one with an ICC profile. Each is re-encoded by our encoder through
`imagefeed decode SRC -o OUT.png --png-level L [--interlace]` for every level 0-9, plain and
Adam7, and then:
  - libpng (imagecodecs.png_decode) must decode OUT.png to exactly the source's pixels (as
    libpng decodes the source), and Pillow too for 8-bit files;
  - zlib (Python's zlib module) must inflate the IDAT stream, and the iCCP profile (written
    with the Deflater's default strategy) to the source's profile: the Deflater's streams at
    every level through zlib.

Usage:
  swift build -c release --product imagefeed
  python3 Benchmarks/png_encoder_crosscheck.py [--bin .build/release/imagefeed] [--levels 0,1,6,9]
Needs: imagecodecs, pillow, numpy. Exits 1 if any file differs.
"""

import argparse
import io
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import imagecodecs
import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
PHOTO = ROOT / "TestImages" / "corpus" / "png" / "extras" / "photo_900x600_adam7.png"
ICC = Path("/usr/share/color/icc/sRGB.icc")


def with_colours(rng, height, width, channels, count, alpha=False):
    palette = rng.integers(0, 256, size=(count, channels), dtype=np.uint8)
    if alpha:
        palette[: count // 2, 3] = 255   # some opaque, some not
    index = rng.integers(0, count, size=(height, width))
    flat = index.reshape(-1)
    flat[: min(count, flat.size)] = np.arange(min(count, flat.size))   # every colour present when it fits
    return palette[index]


def sources(rng):
    """(name, numpy array, icc profile or None)."""
    photo = imagecodecs.png_decode(PHOTO.read_bytes())
    out = []
    for h, w in ((1, 1), (1, 13), (13, 1), (17, 13), (64, 61)):
        out.append((f"rgb8-noise-{w}x{h}", rng.integers(0, 256, size=(h, w, 3), dtype=np.uint8), None))
        out.append((f"rgba8-noise-{w}x{h}", rng.integers(0, 256, size=(h, w, 4), dtype=np.uint8), None))
        out.append((f"gray8-{w}x{h}", rng.integers(0, 256, size=(h, w), dtype=np.uint8), None))
        for bits, values in ((1, [0, 255]), (2, [0, 85, 170, 255]), (4, [0, 17, 119, 255])):
            out.append((f"gray{bits}bit-{w}x{h}", rng.choice(np.array(values, dtype=np.uint8), size=(h, w)), None))
        out.append((f"graya8-{w}x{h}", rng.integers(0, 256, size=(h, w, 2), dtype=np.uint8), None))
        out.append((f"gray16-{w}x{h}", rng.integers(0, 65536, size=(h, w), dtype=np.uint16), None))
        out.append((f"rgb16-{w}x{h}", rng.integers(0, 65536, size=(h, w, 3), dtype=np.uint16), None))
        out.append((f"rgba16-{w}x{h}", rng.integers(0, 65536, size=(h, w, 4), dtype=np.uint16), None))
    for count in (2, 3, 4, 16, 17, 200, 256, 257):
        out.append((f"rgb8-{count}colours", with_colours(rng, 20, 15, 3, count), None))
        out.append((f"rgba8-{count}colours", with_colours(rng, 20, 15, 4, count, alpha=True), None))
    out.append(("rgba8-opaque-5colours", np.dstack([with_colours(rng, 9, 11, 3, 5), np.full((9, 11), 255, np.uint8)]), None))
    out.append(("photo-crop-rgb8", np.ascontiguousarray(photo[100:300, 200:457]), ICC.read_bytes() if ICC.exists() else None))
    out.append(("photo-crop-rgba8", np.ascontiguousarray(np.dstack([photo[:150, :203], photo[:150, :203, :1]])), None))
    return out


def chunks(png):
    pos = 8
    while pos + 8 <= len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        yield kind.decode("latin-1"), png[pos + 8:pos + 8 + length]
        pos += 12 + length


def write_source(path, pixels, icc):
    if icc is None:
        path.write_bytes(imagecodecs.png_encode(pixels, level=1))
    else:
        Image.fromarray(pixels).save(path, icc_profile=icc, compress_level=1)


def check(out_path, expected, icc):
    """Problems found in our file (empty list: identical)."""
    problems = []
    data = out_path.read_bytes()
    libpng = imagecodecs.png_decode(data)
    if libpng.shape != expected.shape or libpng.dtype != expected.dtype or not np.array_equal(libpng, expected):
        problems.append(f"libpng pixels differ ({libpng.shape} {libpng.dtype} vs {expected.shape} {expected.dtype})")
    if expected.dtype == np.uint8:
        with Image.open(io.BytesIO(data)) as image:
            mode = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}[expected.shape[2] if expected.ndim == 3 else 1]
            pillow = np.asarray(image.convert(mode))
            if pillow.reshape(expected.shape).tolist() != expected.tolist():
                problems.append("Pillow pixels differ")
    idat = b"".join(body for kind, body in chunks(data) if kind == "IDAT")
    try:
        zlib.decompress(idat)
    except zlib.error as error:
        problems.append(f"zlib rejects IDAT: {error}")
    parts = dict(chunks(data))
    if icc is not None:
        if "iCCP" not in parts:
            problems.append("no iCCP")
        else:
            name_end = parts["iCCP"].index(b"\0")
            if zlib.decompress(parts["iCCP"][name_end + 2:]) != icc:
                problems.append("zlib inflates iCCP to a different profile")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=str(ROOT / ".build" / "release" / "imagefeed"))
    parser.add_argument("--levels", default="0,1,2,3,4,5,6,7,8,9")
    args = parser.parse_args()
    levels = [int(level) for level in args.levels.split(",")]
    rng = np.random.default_rng(14)
    checked, failures, layouts = 0, [], {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        for name, pixels, icc in sources(rng):
            src = scratch / f"{name}.png"
            write_source(src, pixels, icc)
            expected = imagecodecs.png_decode(src.read_bytes())
            for level in levels:
                for interlace in (False, True):
                    out = scratch / f"{name}-{level}-{int(interlace)}.png"
                    command = [args.bin, "decode", str(src), "-o", str(out), "--png-level", str(level)]
                    if interlace:
                        command.append("--interlace")
                    run = subprocess.run(command, capture_output=True, text=True)
                    label = f"{name} level {level}{' adam7' if interlace else ''}"
                    if run.returncode != 0:
                        failures.append(f"{label}: imagefeed failed: {run.stderr.strip()}")
                        continue
                    header = dict(chunks(out.read_bytes()))["IHDR"]
                    layouts[(header[9], header[8])] = layouts.get((header[9], header[8]), 0) + 1
                    problems = check(out, expected, icc)
                    checked += 1
                    if problems:
                        failures.append(f"{label}: " + "; ".join(problems))
    kinds = {0: "gray", 2: "RGB", 3: "palette", 4: "gray+alpha", 6: "RGBA"}
    print("files by IHDR colour type/depth: " + ", ".join(
        f"{kinds[t]} {d}-bit: {n}" for (t, d), n in sorted(layouts.items())))
    print(f"{checked} files checked (levels {args.levels}, plain and Adam7): "
          f"{checked - len(failures)} read back identically by {imagecodecs.png_version()} and Pillow, "
          f"IDAT and iCCP inflated by zlib {zlib.ZLIB_RUNTIME_VERSION}; {len(failures)} failed")
    for failure in failures:
        print("  " + failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
