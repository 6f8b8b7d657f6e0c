#!/usr/bin/env python3
"""Large inputs for timing colour management (`benchmark --colorspace srgb`), written to
Benchmarks/generated/color/ (git-ignored). Run from the package root.

The same 3000x2000 photo as make_bench_inputs.py (photo_900x600_adam7.png upscaled with a little
noise), saved with the profiles of TestImages/color/profiles:
  photo_p3.jpg        JPEG q90 4:2:0 with the Display P3 profile (matrix/TRC, para curves)
  photo_adobergb.png  PNG RGB8 with AdobeRGB1998 in iCCP
  photo_p3_16.png     PNG RGB16 with Display P3 in iCCP
  photo_cmyk.jpg      Adobe CMYK JPEG q90 with the synthetic press profile (lut16, 17^4 grid); Pillow's
                      naive separation (K = 0 everywhere)
  photo_cmyk_swop.jpg Adobe CMYK JPEG q90 separated by LittleCMS into Adobe's U.S. Web Coated (SWOP) v2
                      (real black generation), with that profile embedded
  photo_lut.webp      lossless WebP with the mAB RGB LUT profile (33^3 grid)
  photo_gama.png      PNG RGB8 with gAMA + cHRM (Display P3 primaries)
"""
import io
import struct
import zlib
from pathlib import Path

import numpy as np
from PIL import Image, ImageCms

ROOT = Path(__file__).resolve().parent.parent
PROFILES = ROOT / "TestImages/color/profiles"
OUT = ROOT / "Benchmarks/generated/color"


def photo():
    base = Image.open(ROOT / "TestImages/corpus/png/extras/photo_900x600_adam7.png").convert("RGB")
    big = np.asarray(base.resize((3000, 2000), Image.LANCZOS), dtype=np.float64)
    big += np.random.default_rng(13).normal(0, 2.0, big.shape)
    return np.clip(np.rint(big), 0, 255).astype(np.uint8)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    profile = {name: (PROFILES / f"{name}.icc").read_bytes()
               for name in ["DisplayP3-v4", "AdobeRGB1998", "PressCMYK-v2-lut16", "WideRGB-v4-mAB", "USWebCoatedSWOP"]}
    pixels = photo()
    image = Image.fromarray(pixels, "RGB")
    image.save(OUT / "photo_p3.jpg", quality=90, icc_profile=profile["DisplayP3-v4"])
    image.save(OUT / "photo_adobergb.png", icc_profile=profile["AdobeRGB1998"], compress_level=6)
    rows = b"".join(b"\0" + row.tobytes() for row in (pixels.astype(">u2") * 257).reshape(2000, -1))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    png16 = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 3000, 2000, 16, 2, 0, 0, 0)) + \
        chunk(b"iCCP", b"P3\0\0" + zlib.compress(profile["DisplayP3-v4"])) + \
        chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")
    (OUT / "photo_p3_16.png").write_bytes(png16)
    image.convert("CMYK").save(OUT / "photo_cmyk.jpg", quality=90, icc_profile=profile["PressCMYK-v2-lut16"])
    swop = ImageCms.ImageCmsProfile(io.BytesIO(profile["USWebCoatedSWOP"]))
    separated = ImageCms.profileToProfile(image, ImageCms.createProfile("sRGB"), swop, outputMode="CMYK")
    separated.save(OUT / "photo_cmyk_swop.jpg", quality=90, icc_profile=profile["USWebCoatedSWOP"])
    image.save(OUT / "photo_lut.webp", lossless=True, quality=0, method=0, icc_profile=profile["WideRGB-v4-mAB"])
    rows8 = b"".join(b"\0" + row.tobytes() for row in pixels.reshape(2000, -1))
    gama = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 3000, 2000, 8, 2, 0, 0, 0)) + \
        chunk(b"gAMA", struct.pack(">I", 45455)) + \
        chunk(b"cHRM", struct.pack(">8I", 31270, 32900, 68000, 32000, 26500, 69000, 15000, 6000)) + \
        chunk(b"IDAT", zlib.compress(rows8, 6)) + chunk(b"IEND", b"")
    (OUT / "photo_gama.png").write_bytes(gama)


if __name__ == "__main__":
    main()
