#!/usr/bin/env python3
"""Makes the three pictures `imagefeed demo` serves, from the corpus photo
TestImages/corpus/png/extras/photo_900x600_adam7.png (a crop of wuffs' harvesters.png,
The Met, public domain):

  harvesters_adam7.png        480x320 RGB, Adam7-interlaced (PNG 8.2), adaptive filters
  harvesters_progressive.jpg  888x592 progressive JPEG, quality 80, 4:2:0 (libjpeg's standard
                              10-scan script)
  harvesters_interlaced.gif   480x320 GIF89a, 256 colours (Pillow's median cut, Floyd-Steinberg
                              dithering), interlaced: 4 passes, each a whole sharper picture

Both show the photo without the black frame of the scan along its top and left edges
(the crop 12..900 x 8..600 keeps the 3:2 shape).

Pillow cannot write interlaced PNGs, so the Adam7 file is assembled here: each pass is
filtered row by row (PNG 9.2, the filter with the smallest sum of absolute differences,
PNG 12.8) and the concatenated passes are zlib-compressed into one IDAT.
Developer script only; the Swift build and tests never run it.  Run from the repository root:

  python3 TestImages/demo/make_demo_images.py
"""
import struct
import zlib
from pathlib import Path

import numpy as np
from PIL import Image

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent / "corpus" / "png" / "extras" / "photo_900x600_adam7.png"

# PNG 8.2: (x start, y start, x step, y step) of the seven Adam7 passes.
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    return np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))


def filter_rows(pixels, bpp):
    """PNG 9.2 filtering of an (h, w*bpp) uint8 array; returns the bytes with filter-type prefixes."""
    out = bytearray()
    prior = np.zeros(pixels.shape[1], dtype=np.int16)
    for row in pixels.astype(np.int16):
        left = np.concatenate([np.zeros(bpp, dtype=np.int16), row[:-bpp]])
        upper_left = np.concatenate([np.zeros(bpp, dtype=np.int16), prior[:-bpp]])
        candidates = [row, row - left, row - prior, row - (left + prior) // 2, row - paeth(left, prior, upper_left)]
        candidates = [(c % 256).astype(np.uint8) for c in candidates]
        # PNG 12.8 heuristic: bytes read as signed, smallest sum of magnitudes.
        costs = [int(np.abs(c.astype(np.int8).astype(np.int32)).sum()) for c in candidates]
        best = costs.index(min(costs))
        out.append(best)
        out += candidates[best].tobytes()
        prior = row
    return bytes(out)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_adam7_png(image, path):
    pixels = np.asarray(image.convert("RGB"), dtype=np.uint8)
    height, width, _ = pixels.shape
    raw = b""
    for x0, y0, dx, dy in ADAM7:
        sub = pixels[y0::dy, x0::dx]
        if sub.size:  # empty passes contribute no bytes at all (PNG 8.2)
            raw += filter_rows(sub.reshape(sub.shape[0], -1), 3)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 1)  # 8-bit RGB, interlace method 1
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    path.write_bytes(data)


def main():
    photo = Image.open(SOURCE).convert("RGB").crop((12, 8, 900, 600))
    write_adam7_png(photo.resize((480, 320), Image.LANCZOS), HERE / "harvesters_adam7.png")
    photo.save(HERE / "harvesters_progressive.jpg", "JPEG", quality=80, progressive=True, optimize=True)
    photo.resize((480, 320), Image.LANCZOS).quantize(256).save(HERE / "harvesters_interlaced.gif", interlace=True)
    for name in ("harvesters_adam7.png", "harvesters_progressive.jpg", "harvesters_interlaced.gif"):
        with Image.open(HERE / name) as check:
            print(name, check.size, check.info.get("interlace", check.info.get("progressive")), (HERE / name).stat().st_size, "bytes")


if __name__ == "__main__":
    main()
