#!/usr/bin/env python3
"""Generates large benchmark inputs into Benchmarks/generated/ (git-ignored).

Developer tool only: `swift build` / `swift test` never need it, and the default
`swift run -c release benchmark` (on TestImages/) does not read its output.

Sections (default: deflate):
  deflate  Benchmarks/generated/deflate/: zlib streams at levels 1, 6 and 9 of
           - real photographic image data (TestImages/corpus/png/extras photos,
             tiled vertically, PNG-filtered rows as a PNG encoder would write them),
           - synthetic image data (gradients + noise, flat "screenshot" shapes),
           - text (English docstrings of the Python standard library, and Python source),
           - binary data (the libpython shared library or the python executable);
           plus a few MB-sized gzip files (.gz) and raw DEFLATE streams (.deflate).
  images   Benchmarks/generated/png/ and .../jpeg/: 6 Mpix PNGs (RGB, RGBA, Adam7,
           synthetic gradient, screenshot-like flat shapes, anti-aliased vector art) and JPEGs (4:2:0, 4:2:2, 4:4:4; baseline and progressive) made
           with Pillow from photo_900x600_adam7.png upscaled (LANCZOS) plus a little noise;
           plus the PNG mix of issue 14 at 2.4-2.7 Mpix: screenshot, vector art (anti-aliased
           shapes), palette (photo quantised to 256 colours), gray, gray Adam7, 16-bit RGB,
           16-bit gray and palette Adam7; .../jpeg-hibit/: the same photo as 12-bit JPEGs and
           lossless JPEGs (8, 12, 16 bits) written by libjpeg-turbo 3 through imagecodecs.
  arith    Benchmarks/generated/jpeg-arith/: the 4:2:0 and 4:4:4 photo JPEGs of `images`
           (made first if missing) transcoded with `jpegtran -arithmetic` (same coefficients),
           sequential and progressive. Needs Debian's jpegtran (libjpeg-turbo-progs).

Usage:
  python3 Benchmarks/make_bench_inputs.py            # deflate section
  python3 Benchmarks/make_bench_inputs.py --images   # deflate + images
  python3 Benchmarks/make_bench_inputs.py --only images
  python3 Benchmarks/make_bench_inputs.py --only arith

Needs: numpy, pillow (`pip install pillow numpy`). Output is deterministic for a given
machine (text and binary come from the installed Python, so they differ across machines).
"""

import argparse
import ast
import gzip
import os
import sys
import sysconfig
import zlib
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
EXTRAS = ROOT / "TestImages" / "corpus" / "png" / "extras"
OUT = ROOT / "Benchmarks" / "generated"
MB = 1 << 20
TEXT_BYTES = 4 * MB
BINARY_BYTES = 4 * MB
SEED = 20240601


# ---------------------------------------------------------------------------
# PNG-style row filtering (PNG 2nd ed. section 9), vectorised with numpy.
# Filtering uses the raw (unfiltered) neighbours, so every row can be done at once.
# ---------------------------------------------------------------------------

def png_filtered_rows(pixels: np.ndarray) -> bytes:
    """Returns `pixels` (H x W x C, uint8 or big-endian uint16) as PNG scanlines:
    one filter-type byte then the filtered row, the filter picked per row with libpng's
    heuristic (smallest sum of absolute values of the bytes taken as signed)."""
    h = pixels.shape[0]
    if pixels.dtype == np.uint16:
        raw = pixels.astype(">u2").view(np.uint8).reshape(h, -1)
        bpp = pixels.shape[2] * 2
    else:
        raw = pixels.reshape(h, -1).astype(np.uint8)
        bpp = pixels.shape[2]
    x = raw.astype(np.int16)
    a = np.zeros_like(x)
    a[:, bpp:] = x[:, :-bpp]                      # left
    b = np.zeros_like(x)
    b[1:, :] = x[:-1, :]                          # up
    c = np.zeros_like(x)
    c[1:, bpp:] = x[:-1, :-bpp]                   # up-left
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    paeth = np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))
    candidates = np.stack([
        x,                       # 0 None
        x - a,                   # 1 Sub
        x - b,                   # 2 Up
        x - ((a + b) >> 1),      # 3 Average
        x - paeth,               # 4 Paeth
    ]).astype(np.uint8)          # mod 256
    cost = np.abs(candidates.view(np.int8).astype(np.int32)).sum(axis=2)   # 5 x H
    choice = cost.argmin(axis=0)
    rows = candidates[choice, np.arange(h), :]
    out = np.concatenate([choice.astype(np.uint8)[:, None], rows], axis=1)
    return out.tobytes()


def load_rgb(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"), dtype=np.uint8)


def tile_vertically(pixels: np.ndarray, copies: int) -> np.ndarray:
    """Stacks copies, every other one flipped left-right. The copies lie far more than
    32 KiB apart, so DEFLATE cannot match across them: the statistics stay the photo's."""
    parts = [pixels if i % 2 == 0 else pixels[:, ::-1, :] for i in range(copies)]
    return np.ascontiguousarray(np.concatenate(parts, axis=0))


def load_rgba16(path: Path) -> np.ndarray:
    """Reads a 16-bit RGBA PNG without losing precision (Pillow has no RGBA16 mode), by
    inflating and unfiltering its IDAT data ourselves; only non-interlaced files."""
    data = path.read_bytes()
    pos, idat, ihdr = 8, bytearray(), None
    while pos + 8 <= len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height = int.from_bytes(ihdr[0:4], "big"), int.from_bytes(ihdr[4:8], "big")
    depth, colour, interlace = ihdr[8], ihdr[9], ihdr[12]
    if (depth, colour, interlace) != (16, 6, 0):
        raise ValueError(f"{path.name}: expected 16-bit RGBA non-interlaced")
    raw = zlib.decompress(bytes(idat))
    bpp, stride = 8, width * 8
    out = np.zeros((height, stride), dtype=np.int32)
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        start = y * (stride + 1)
        ftype = raw[start]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=start + 1).astype(np.int32)
        cur = np.zeros(stride, dtype=np.int32)
        if ftype == 0:
            cur = line
        elif ftype == 2:
            cur = (line + prev) & 255
        else:   # Sub, Average, Paeth depend on the left neighbour: go pixel by pixel.
            for i in range(stride):
                left = cur[i - bpp] if i >= bpp else 0
                up = prev[i]
                ul = prev[i - bpp] if i >= bpp else 0
                if ftype == 1:
                    pred = left
                elif ftype == 3:
                    pred = (left + up) >> 1
                else:
                    p = left + up - ul
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - ul)
                    pred = left if pa <= pb and pa <= pc else (up if pb <= pc else ul)
                cur[i] = (line[i] + pred) & 255
        out[y] = cur
        prev = cur
    return out.astype(np.uint8).view(">u2").reshape(height, width, 4).astype(np.uint16)


# ---------------------------------------------------------------------------
# Synthetic images
# ---------------------------------------------------------------------------

def synthetic_gradient(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """Smooth colour gradients with a few soft discs and low-amplitude noise."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float64)
    r = 255 * xx / width
    g = 255 * yy / height
    bch = 127 + 100 * np.sin(xx / 97.0) * np.cos(yy / 61.0)
    img = np.stack([r, g, bch], axis=2)
    for _ in range(12):
        cx, cy = rng.uniform(0, width), rng.uniform(0, height)
        rad = rng.uniform(40, 300)
        colour = rng.uniform(0, 255, size=3)
        mask = np.clip(1.0 - np.hypot(xx - cx, yy - cy) / rad, 0, 1)[..., None]
        img = img * (1 - mask) + colour * mask
    img += rng.normal(0, 3.0, size=img.shape)
    return np.clip(np.rint(img), 0, 255).astype(np.uint8)


def synthetic_flat(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """A screenshot-like RGBA picture: flat rectangles, thin lines, semi-transparent panels."""
    img = np.zeros((height, width, 4), dtype=np.uint8)
    img[...] = (240, 240, 236, 255)
    for _ in range(400):
        x0, y0 = int(rng.integers(0, width)), int(rng.integers(0, height))
        w, h = int(rng.integers(4, 400)), int(rng.integers(2, 200))
        colour = rng.integers(0, 256, size=4)
        colour[3] = rng.choice([255, 255, 255, 128, 200])
        img[y0:y0 + h, x0:x0 + w] = colour
    for _ in range(800):   # one-pixel lines like borders and text strokes
        y, x0 = int(rng.integers(0, height)), int(rng.integers(0, width))
        img[y, x0:x0 + int(rng.integers(10, 300)), :3] = rng.integers(0, 80)
    return img


def synthetic_vector_art(width: int, height: int, rng: np.random.Generator) -> Image.Image:
    """Vector-art-like RGBA: filled polygons, circles and thick strokes on a transparent
    background, drawn at 4x and scaled down (anti-aliased edges, a few thousand colours)."""
    from PIL import ImageDraw
    big = Image.new("RGBA", (width * 4, height * 4), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    for _ in range(120):
        colour = tuple(int(v) for v in rng.integers(0, 256, size=3)) + (int(rng.choice([255, 255, 200])),)
        x, y = int(rng.integers(0, width * 4)), int(rng.integers(0, height * 4))
        r = int(rng.integers(40, 600))
        shape = rng.integers(0, 3)
        if shape == 0:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        elif shape == 1:
            points = [(x + int(rng.integers(-r, r)), y + int(rng.integers(-r, r))) for _ in range(5)]
            draw.polygon(points, fill=colour)
        else:
            draw.line((x, y, x + int(rng.integers(-2 * r, 2 * r)), y + int(rng.integers(-2 * r, 2 * r))),
                      fill=colour, width=int(rng.integers(8, 40)))
    return big.resize((width, height), Image.LANCZOS)


# ---------------------------------------------------------------------------
# Text and binary
# ---------------------------------------------------------------------------

def stdlib_python_files():
    lib = Path(sysconfig.get_paths()["stdlib"])
    skip = {"test", "tests", "site-packages", "idlelib", "__pycache__", "lib2to3"}
    for root, dirs, files in os.walk(lib):
        dirs[:] = sorted(d for d in dirs if d not in skip)
        for name in sorted(files):
            if name.endswith(".py"):
                yield Path(root) / name


def english_text(limit: int) -> bytes:
    """English prose: the docstrings of the standard library, plus the long help topics of
    pydoc_data. Cycled to `limit` bytes if shorter (repeats are > 32 KiB apart, so DEFLATE
    sees them as fresh text)."""
    pieces = []
    for path in stdlib_python_files():
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    pieces.append(doc)
            elif (path.name == "topics.py" and isinstance(node, ast.Constant)
                  and isinstance(node.value, str) and len(node.value) > 200):
                pieces.append(node.value)
    text = "\n\n".join(pieces).encode("utf-8")
    return (text * (limit // len(text) + 1))[:limit]


def python_source_text(limit: int) -> bytes:
    out = bytearray()
    for path in stdlib_python_files():
        out += path.read_bytes()
        if len(out) >= limit:
            break
    return bytes(out[:limit])


def binary_data(limit: int) -> bytes:
    """Machine code and data: the libpython shared library (else the python executable)."""
    candidates = []
    libdir, ldlib = sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("LDLIBRARY")
    if libdir and ldlib:
        candidates.append(Path(libdir) / ldlib)
    candidates.append(Path(os.path.realpath(sys.executable)))
    for path in candidates:
        if path.is_file():
            data = Path(os.path.realpath(path)).read_bytes()
            if len(data) >= limit // 4:
                print(f"  binary data from {os.path.realpath(path)}")
                return data[:limit]
    raise SystemExit("no binary file of a useful size found")


# ---------------------------------------------------------------------------
# Sections
# ---------------------------------------------------------------------------

def write(path: Path, data: bytes):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    print(f"  {path.relative_to(ROOT)}  {len(data):>10,} bytes")


def raw_deflate(data: bytes, level: int) -> bytes:
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def make_deflate():
    rng = np.random.default_rng(SEED)
    print("deflate inputs:")
    photo = tile_vertically(load_rgb(EXTRAS / "photo_900x600_adam7.png"), 4)       # 900x2400 RGB
    photo16 = tile_vertically(load_rgba16(EXTRAS / "rgba16_photo.png"), 16)        # 149x3632 RGBA16
    sources = {
        "photo_rgb8": png_filtered_rows(photo),
        "photo_rgba16": png_filtered_rows(photo16),
        "synthetic_gradient_rgb8": png_filtered_rows(synthetic_gradient(1600, 1200, rng)),
        "synthetic_flat_rgba8": png_filtered_rows(synthetic_flat(1600, 1200, rng)),
        "text_english": english_text(TEXT_BYTES),
        "text_python_source": python_source_text(TEXT_BYTES),
        "binary_libpython": binary_data(BINARY_BYTES),
    }
    dest = OUT / "deflate"
    for name, data in sources.items():
        for level in (1, 6, 9):
            write(dest / f"{name}_l{level}.zlib", zlib.compress(data, level))
    for name in ("photo_rgb8", "text_english", "binary_libpython"):
        write(dest / f"{name}_l6.gz", gzip.compress(sources[name], 6, mtime=0))
    for name in ("photo_rgb8", "text_english"):
        write(dest / f"{name}_l6.deflate", raw_deflate(sources[name], 6))


def make_images():
    rng = np.random.default_rng(SEED + 1)
    print("image inputs:")
    base = Image.open(EXTRAS / "photo_900x600_adam7.png").convert("RGB")
    big = np.asarray(base.resize((3000, 2000), Image.LANCZOS), dtype=np.float64)
    big += rng.normal(0, 2.0, size=big.shape)        # a little sensor-like noise
    photo = np.clip(np.rint(big), 0, 255).astype(np.uint8)
    photo_image = Image.fromarray(photo, "RGB")

    png_dir = OUT / "png"
    png_dir.mkdir(parents=True, exist_ok=True)

    def save_png(image: Image.Image, name: str, **kwargs):
        path = png_dir / name
        image.save(path, "PNG", **kwargs)
        print(f"  {path.relative_to(ROOT)}  {path.stat().st_size:>10,} bytes  {image.size[0]}x{image.size[1]} {image.mode}")

    save_png(photo_image, "photo_3000x2000_rgb8.png")
    alpha = np.clip(np.linspace(80, 255, 3000)[None, :].repeat(2000, axis=0), 0, 255).astype(np.uint8)
    save_png(Image.fromarray(np.dstack([photo, alpha]), "RGBA"), "photo_3000x2000_rgba8.png")
    # Pillow cannot write Adam7, so interlaced photos come from our own minimal writer below.
    write_png_adam7(png_dir / "photo_3000x2000_rgb8_adam7.png", photo)
    save_png(Image.fromarray(synthetic_gradient(2400, 1600, rng), "RGB"), "synthetic_gradient_2400x1600_rgb8.png")
    save_png(Image.fromarray(synthetic_flat(2400, 1600, rng), "RGBA"), "synthetic_flat_2400x1600_rgba8.png")
    save_png(synthetic_vector_art(2400, 1600, np.random.default_rng(SEED + 2)), "synthetic_vector_art_2400x1600_rgba8.png")

    make_png_mix(photo, rng, png_dir)

    jpeg_dir = OUT / "jpeg"
    jpeg_dir.mkdir(parents=True, exist_ok=True)
    for label, subsampling in (("444", 0), ("422", 1), ("420", 2)):
        for progressive in (False, True):
            kind = "progressive" if progressive else "baseline"
            path = jpeg_dir / f"photo_3000x2000_{label}_{kind}.jpg"
            photo_image.save(path, "JPEG", quality=90, subsampling=subsampling,
                             progressive=progressive)   # libjpeg defaults: standard Huffman tables for baseline
            print(f"  {path.relative_to(ROOT)}  {path.stat().st_size:>10,} bytes")
    gray = photo_image.convert("L")
    path = jpeg_dir / "photo_3000x2000_gray_baseline.jpg"
    gray.save(path, "JPEG", quality=90)
    print(f"  {path.relative_to(ROOT)}  {path.stat().st_size:>10,} bytes")
    make_high_precision_jpegs(photo)


def make_high_precision_jpegs(photo: np.ndarray):
    """12-bit and lossless JPEGs (libjpeg-turbo 3 through imagecodecs) in .../jpeg-hibit/."""
    import imagecodecs
    rng = np.random.default_rng(SEED + 2)
    directory = OUT / "jpeg-hibit"
    directory.mkdir(parents=True, exist_ok=True)
    # 12 significant bits: the 8-bit photo widened, with fine noise in the new low bits.
    wide = photo.astype(np.uint16) * 16 + rng.integers(0, 16, size=photo.shape, dtype=np.uint16)
    gray = (wide.astype(np.uint32) * [77, 150, 29]).sum(axis=2).astype(np.uint16) >> 8
    files = {
        "photo_3000x2000_12bit_420.jpg": imagecodecs.jpeg8_encode(wide, level=90, bitspersample=12),
        "photo_3000x2000_12bit_gray.jpg": imagecodecs.jpeg8_encode(gray, level=90, bitspersample=12),
        "photo_3000x2000_lossless8_rgb_p1.jpg": imagecodecs.jpeg8_encode(photo, lossless=True, predictor=1, bitspersample=8),
        "photo_3000x2000_lossless12_rgb_p6.jpg": imagecodecs.jpeg8_encode(wide, lossless=True, predictor=6, bitspersample=12),
        "photo_3000x2000_lossless16_gray_p7.jpg": imagecodecs.jpeg8_encode(gray * 16, lossless=True, predictor=7, bitspersample=16),
    }
    for name, data in files.items():
        write(directory / name, data)


def make_arithmetic():
    import subprocess
    jpeg_dir, arith_dir = OUT / "jpeg", OUT / "jpeg-arith"
    if not (jpeg_dir / "photo_3000x2000_444_baseline.jpg").exists():
        make_images()
    arith_dir.mkdir(parents=True, exist_ok=True)
    print("arithmetic-coded JPEG inputs:")
    for label in ("420", "444"):
        for kind, flags in (("sequential", []), ("progressive", ["-progressive"])):
            path = arith_dir / f"photo_3000x2000_{label}_{kind}_arith.jpg"
            subprocess.run(["jpegtran", "-arithmetic", *flags, "-outfile", str(path),
                            str(jpeg_dir / f"photo_3000x2000_{label}_baseline.jpg")], check=True)
            print(f"  {path.relative_to(ROOT)}  {path.stat().st_size:>10,} bytes")


def write_png_adam7(path: Path, pixels: np.ndarray):
    """Writes an 8-bit RGB Adam7 PNG (PNG 8.2)."""
    write_png(path, pixels, colour_type=2, interlaced=True)


def write_png(path: Path, pixels: np.ndarray, colour_type: int, interlaced: bool = False, palette: bytes = b""):
    """Writes a PNG of 8- or 16-bit samples (H x W x C; palette indices for colour type 3)
    that Pillow cannot write (16-bit colour, Adam7): each pass's sub-image (PNG 8.2) filtered
    like a normal image, all of them in one zlib stream at level 6, split into 64 KiB IDATs."""
    import struct
    h, w, _ = pixels.shape
    depth = 16 if pixels.dtype == np.uint16 else 8
    passes = ([(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
              if interlaced else [(0, 0, 1, 1)])
    stream = bytearray()
    for x0, y0, dx, dy in passes:
        sub = pixels[y0::dy, x0::dx, :]
        if sub.size:
            stream += png_filtered_rows(np.ascontiguousarray(sub))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", w, h, depth, colour_type, 0, 0, 1 if interlaced else 0)
    compressed = zlib.compress(bytes(stream), 6)
    idats = b"".join(chunk(b"IDAT", compressed[i:i + 65536]) for i in range(0, len(compressed), 65536))
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + (chunk(b"PLTE", palette) if palette else b"")
            + idats + chunk(b"IEND", b""))
    path.write_bytes(data)
    print(f"  {path.relative_to(ROOT)}  {len(data):>10,} bytes  {w}x{h} colour type {colour_type}, "
          f"{depth}-bit{', Adam7' if interlaced else ''}")


def vector_art(width: int, height: int, rng: np.random.Generator) -> Image.Image:
    """Flat-coloured shapes with anti-aliased edges (drawn at 3x, reduced with a box filter),
    like an exported illustration or chart."""
    from PIL import ImageDraw
    scale = 3
    canvas = Image.new("RGB", (width * scale, height * scale), (250, 248, 240))
    draw = ImageDraw.Draw(canvas)
    colours = [tuple(int(c) for c in rng.integers(0, 256, size=3)) for _ in range(12)]
    for _ in range(220):
        x0, y0 = rng.integers(0, width * scale, size=2)
        w, h = rng.integers(30, 500 * scale // 2, size=2)
        colour = colours[int(rng.integers(0, len(colours)))]
        shape = int(rng.integers(0, 3))
        if shape == 0:
            draw.ellipse([int(x0), int(y0), int(x0 + w), int(y0 + h)], fill=colour)
        elif shape == 1:
            points = [(int(x0 + rng.integers(-w, w)), int(y0 + rng.integers(-h, h))) for _ in range(3)]
            draw.polygon(points, fill=colour)
        else:
            draw.line([(int(x0), int(y0)), (int(x0 + w), int(y0 + h))], fill=colour, width=int(rng.integers(3, 30)))
    return canvas.reduce(scale)


def make_png_mix(photo: np.ndarray, rng: np.random.Generator, png_dir: Path):
    """The PNG mix of issue 14 (each 2.4-2.7 Mpix): what a browser meets besides photos."""
    small = Image.fromarray(photo, "RGB").resize((2000, 1333), Image.LANCZOS)
    small_rgb = np.asarray(small, dtype=np.uint8)

    def save(image: Image.Image, name: str):
        path = png_dir / name
        image.save(path, "PNG")
        print(f"  {path.relative_to(ROOT)}  {path.stat().st_size:>10,} bytes  {image.size[0]}x{image.size[1]} {image.mode}")

    save(Image.fromarray(synthetic_flat(1920, 1280, rng), "RGBA"), "screenshot_1920x1280_rgba8.png")
    save(vector_art(2000, 1250, rng), "vector_art_2000x1250_rgb8.png")
    quantised = small.quantize(256, dither=Image.Dither.FLOYDSTEINBERG)
    save(quantised, "palette_2000x1333_8bit.png")
    gray = np.asarray(small.convert("L"), dtype=np.uint8)
    save(Image.fromarray(gray, "L"), "gray_2000x1333_8bit.png")
    write_png(png_dir / "gray_2000x1333_8bit_adam7.png", gray[:, :, None], colour_type=0, interlaced=True)
    # 16 bits: the photo's samples × 257 plus low-bit noise, so the low bytes are not constant.
    wide = small_rgb.astype(np.uint16) * 257 + rng.integers(0, 64, size=small_rgb.shape).astype(np.uint16)
    write_png(png_dir / "photo_2000x1333_rgb16.png", wide, colour_type=2)
    write_png(png_dir / "gray_2000x1333_16bit.png", wide[:, :, :1].copy(), colour_type=0)
    indices = np.asarray(quantised, dtype=np.uint8)[:, :, None]
    palette = bytes(quantised.getpalette()[:768])
    write_png(png_dir / "palette_2000x1333_8bit_adam7.png", indices, colour_type=3, interlaced=True, palette=palette)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--images", action="store_true", help="also make the PNG and JPEG inputs")
    parser.add_argument("--only", choices=["deflate", "images", "arith"], help="make just one section")
    args = parser.parse_args()
    sections = [args.only] if args.only else (["deflate", "images"] if args.images else ["deflate"])
    if "deflate" in sections:
        make_deflate()
    if "images" in sections:
        make_images()
    if "arith" in sections:
        make_arithmetic()


if __name__ == "__main__":
    main()
