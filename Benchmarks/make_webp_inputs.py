#!/usr/bin/env python3
"""Generates WebP benchmark inputs into Benchmarks/generated/webp/ (git-ignored).

Developer tool only: `swift build` / `swift test` never need it.

A photo (TestImages/corpus/png/extras/photo_900x600_adam7.png, upscaled with LANCZOS plus a
little noise, as make_bench_inputs.py does for JPEG and PNG) at 1440x960 and 2560x1600, encoded
by libwebp through Pillow:
  photo_WxH_lossy.webp        quality 80 (cwebp's default method 4)
  photo_WxH_lossy_alpha.webp  the same with an alpha plane (a soft-edged ellipse), lossless-coded ALPH
  photo_WxH_lossless.webp     lossless, method 4

Usage:
  python3 Benchmarks/make_webp_inputs.py
  python3 Benchmarks/compare.py Benchmarks/generated/webp

Needs: numpy, pillow (`pip install pillow numpy`).
"""

from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "TestImages" / "corpus" / "png" / "extras" / "photo_900x600_adam7.png"
OUT = ROOT / "Benchmarks" / "generated" / "webp"
SIZES = [(1440, 960), (2560, 1600)]
SEED = 20261125


def photo(width: int, height: int, rng: np.random.Generator) -> Image.Image:
    base = Image.open(SOURCE).convert("RGB").resize((width, height), Image.LANCZOS)
    pixels = np.asarray(base).astype(np.int16) + rng.integers(-3, 4, size=(height, width, 3))
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "RGB")


def soft_ellipse(width: int, height: int) -> Image.Image:
    y, x = np.mgrid[0:height, 0:width]
    r = np.sqrt(((x - width / 2) / (width * 0.45)) ** 2 + ((y - height / 2) / (height * 0.45)) ** 2)
    alpha = np.clip((1.1 - r) * 255 / 0.2, 0, 255).astype(np.uint8)
    return Image.fromarray(alpha, "L")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(SEED)
    for width, height in SIZES:
        image = photo(width, height, rng)
        stem = f"photo_{width}x{height}"
        image.save(OUT / f"{stem}_lossy.webp", "WEBP", quality=80, method=4)
        rgba = image.copy()
        rgba.putalpha(soft_ellipse(width, height))
        rgba.save(OUT / f"{stem}_lossy_alpha.webp", "WEBP", quality=80, method=4, exact=False)
        image.save(OUT / f"{stem}_lossless.webp", "WEBP", lossless=True, quality=80, method=4)
    for path in sorted(OUT.glob("*.webp")):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
