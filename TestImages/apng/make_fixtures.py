#!/usr/bin/env python3
"""Makes the APNG fixtures in this folder and references.json, what the Swift tests compare with.

Every file is written here chunk by chunk (so each case is exactly what its name says: every
dispose/blend combination, regions on the canvas edges, the default image in and out of the
animation, 16-bit, palette + tRNS, gray + alpha, gray and RGB colour keys, sub-byte depths,
Adam7 frames, 1x1, many frames, fdAT data split over chunks; and broken files).

References:
- Each frame's own pixels come from libpng 1.6.55 (PyPI imagecodecs' png_decode): the frame's
  zlib data is wrapped as a standalone PNG of the frame's size with the file's IHDR fields, PLTE
  and tRNS, decoded, and expanded to RGBA8 (RGBA16 for 16-bit files) as the corpus references
  are (gray -> R=G=B, missing alpha -> maximum).
- Frames are composited by `composite` below, the APNG spec written out in numpy: a transparent
  black canvas; dispose_op NONE / BACKGROUND (clear to 0) / PREVIOUS (restore the region; on
  the first frame treated as BACKGROUND); blend_op SOURCE (replace) / OVER (the PNG alpha
  compositing formula, exact integer arithmetic rounded to nearest once, see `over`).
- Cross-check: Pillow's APNG renderer, frame by frame (converted to RGBA), on every 8-bit file.
  Pillow falls short in known ways (its OVER lerps the alpha channel too, so it is right only for
  alpha 0 or 255; it reduces 16-bit samples; it fills BACKGROUND with opaque black in modes
  without alpha; it starts a hidden default image's animation on that image; after a frame with
  dispose PREVIOUS and blend OVER it restores the blended frame), so the script
  requires agreement only on the files listed in PILLOW_MUST_AGREE and records, per file, the
  frames on which Pillow agreed.
- For 16-bit files, `frames_rgba8` repeats the compositing in 8 bits on regions reduced with
  libpng's png_set_scale_16 rounding, (v * 255 + 32895) >> 16: what a decoder asked for rgba8 gives.

Broken files carry what must happen: the frames before the error, the error kind and byte offset
(computed here from the chunk layout, by the APNG spec's rules), and whether libpng's APNG reader
(imagecodecs' apng_decode) also refuses the file.

Needs numpy, imagecodecs and Pillow. Run from anywhere; writes beside itself.
"""
import hashlib
import io
import json
import random
import struct
import zlib
from pathlib import Path

import imagecodecs
import numpy as np
from PIL import Image

HERE = Path(__file__).parent
SIGNATURE = b"\x89PNG\r\n\x1a\n"
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
DISPOSE = {"none": 0, "background": 1, "previous": 2}
BLEND = {"source": 0, "over": 1}


def chunk(kind, data, bad_crc=False):
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    if bad_crc:
        crc ^= 0x00800000
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


# ---------------------------------------------------------------------------------------------
# Image data: samples -> packed, filtered, optionally interlaced rows -> zlib.

def pack_row(samples, depth, channels):
    """One row of samples (array of ints, width*channels) as stored bytes (PNG 7.2)."""
    if depth == 16:
        return b"".join(struct.pack(">H", int(v)) for v in samples)
    if depth == 8:
        return bytes(int(v) for v in samples)
    per_byte = 8 // depth
    out = bytearray((len(samples) * depth + 7) // 8)
    for i, v in enumerate(samples):
        out[i // per_byte] |= int(v) << (8 - depth * (i % per_byte + 1))
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def filter_row(kind, row, prior, bpp):
    out = bytearray([kind])
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = prior[i] if prior else 0
        c = prior[i - bpp] if prior and i >= bpp else 0
        predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
        out.append((x - predictor) & 0xFF)
    return bytes(out)


def filtered_stream(image, depth, channels, filter_seed):
    """image: (h, w, channels) ints. Rows filtered with a seeded mix of all five filter types."""
    rng = random.Random(filter_seed)
    bpp = max(1, depth * channels // 8)
    out = bytearray()
    prior = None
    for y in range(image.shape[0]):
        row = pack_row(image[y].reshape(-1), depth, channels)
        out += filter_row(rng.randrange(5), row, prior, bpp)
        prior = row
    return bytes(out)


def image_data(image, depth, channels, interlaced, filter_seed=1):
    """Uncompressed filtered image data (all Adam7 passes in order when interlaced)."""
    if not interlaced:
        return filtered_stream(image, depth, channels, filter_seed)
    out = b""
    for index, (x0, y0, dx, dy) in enumerate(ADAM7):
        sub = image[y0::dy, x0::dx]
        if sub.shape[0] and sub.shape[1]:
            out += filtered_stream(sub, depth, channels, filter_seed + index)
    return out


# ---------------------------------------------------------------------------------------------
# Files.

class Format:
    """IHDR fields plus PLTE/tRNS of a file."""

    def __init__(self, depth, color_type, interlaced=False, plte=None, trns=None):
        self.depth, self.color_type, self.interlaced = depth, color_type, interlaced
        self.plte, self.trns = plte, trns
        self.channels = CHANNELS[color_type]

    def ihdr(self, width, height):
        return struct.pack(">IIBBBBB", width, height, self.depth, self.color_type, 0, 0, 1 if self.interlaced else 0)

    def ancillary(self):
        out = b""
        if self.plte is not None:
            out += chunk(b"PLTE", self.plte)
        if self.trns is not None:
            out += chunk(b"tRNS", self.trns)
        return out

    def random_samples(self, rng, width, height, alpha_values=None):
        """Random stored samples for a region; alpha drawn from `alpha_values` when given."""
        top = (1 << self.depth) - 1
        if self.color_type == 3:
            top = len(self.plte) // 3 - 1
        data = np.array([[[rng.randint(0, top) for _ in range(self.channels)] for _ in range(width)] for _ in range(height)],
                        dtype=np.int64)
        if self.color_type in (4, 6) and alpha_values is not None:
            data[..., -1] = np.array([[rng.choice(alpha_values) for _ in range(width)] for _ in range(height)])
        if self.trns is not None and self.color_type in (0, 2):
            # Make some pixels hit the colour key exactly.
            key = [struct.unpack(">H", self.trns[i:i + 2])[0] for i in range(0, len(self.trns), 2)]
            for _ in range(max(1, width * height // 4)):
                data[rng.randrange(height), rng.randrange(width)] = key
        return data


class Frame:
    """One frame: its fcTL fields and stored samples (None for the default image's fcTL)."""

    def __init__(self, x, y, samples, dispose="none", blend="source", delay=(1, 10), fdat_pieces=1):
        self.x, self.y, self.samples = x, y, samples
        self.dispose, self.blend, self.delay = dispose, blend, delay
        self.fdat_pieces = fdat_pieces

    @property
    def width(self):
        return self.samples.shape[1]

    @property
    def height(self):
        return self.samples.shape[0]


def fctl_data(sequence, frame, dispose=None):
    return struct.pack(">IIIIIHHBB", sequence, frame.width, frame.height, frame.x, frame.y, frame.delay[0], frame.delay[1],
                       DISPOSE[frame.dispose] if dispose is None else dispose, BLEND[frame.blend])


class APNG:
    """Assembles a file and remembers where each chunk landed (for error offsets)."""

    def __init__(self, fmt, width, height, default_samples, frames, default_in_animation=True, plays=0,
                 declared_frames=None, between_frames=b"", actl_after_first_fctl=False):
        self.fmt, self.width, self.height = fmt, width, height
        self.default_samples, self.frames = default_samples, frames
        self.default_in_animation, self.plays = default_in_animation, plays
        self.declared_frames = len(frames) if declared_frames is None else declared_frames
        self.between_frames = between_frames
        self.actl_after_first_fctl = actl_after_first_fctl

    def zdata(self, samples, seed):
        return zlib.compress(image_data(samples, self.fmt.depth, self.fmt.channels, self.fmt.interlaced, seed), 9)

    def build(self, edit=None):
        """Returns the file bytes; `edit(kind, index, data) -> (data, bad_crc, keep)` may change chunks."""
        fmt = self.fmt
        parts = [(b"IHDR", fmt.ihdr(self.width, self.height))]
        if fmt.plte is not None:
            parts.append((b"PLTE", fmt.plte))
        if fmt.trns is not None:
            parts.append((b"tRNS", fmt.trns))
        actl = (b"acTL", struct.pack(">II", self.declared_frames, self.plays))
        if not self.actl_after_first_fctl:
            parts.append(actl)
        sequence = 0
        frames = list(self.frames)
        if self.default_in_animation:
            first = frames.pop(0)
            parts.append((b"fcTL", fctl_data(sequence, first)))
            sequence += 1
        if self.actl_after_first_fctl:
            # The spec orders acTL only before IDAT: after the first fcTL is allowed.
            parts.append(actl)
        parts.append((b"IDAT", self.zdata(self.default_samples, 7)))
        for number, frame in enumerate(frames):
            if self.between_frames and number:
                parts.append((b"tEXt", self.between_frames))
            parts.append((b"fcTL", fctl_data(sequence, frame)))
            sequence += 1
            data = self.zdata(frame.samples, 100 + number)
            cuts = sorted({0, len(data)} | {len(data) * k // frame.fdat_pieces for k in range(1, frame.fdat_pieces)})
            for start, end in zip(cuts, cuts[1:]):
                parts.append((b"fdAT", struct.pack(">I", sequence) + data[start:end]))
                sequence += 1
        parts.append((b"IEND", b""))
        self.layout = []
        out = bytearray(SIGNATURE)
        counts = {}
        for kind, data in parts:
            index = counts.get(kind, 0)
            counts[kind] = index + 1
            bad_crc, keep = False, True
            if edit:
                data, bad_crc, keep = edit(kind, index, data)
            if not keep:
                continue
            self.layout.append((kind, index, len(out), data))
            out += chunk(kind, data, bad_crc)
        return bytes(out)

    def offset(self, kind, index):
        """File offset of the index-th chunk of `kind` (its length field) in the last build."""
        for k, i, at, _ in self.layout:
            if k == kind and i == index:
                return at
        raise KeyError((kind, index))


# ---------------------------------------------------------------------------------------------
# References: libpng for each region, the spec compositor, Pillow cross-check.

def libpng_rgba(fmt, samples, seed):
    """The region decoded by libpng from a standalone PNG of it, as (h, w, 4) RGBA at the file's depth."""
    h, w = samples.shape[:2]
    data = zlib.compress(image_data(samples, fmt.depth, fmt.channels, fmt.interlaced, seed), 9)
    png = SIGNATURE + chunk(b"IHDR", fmt.ihdr(w, h)) + fmt.ancillary() + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    pixels = imagecodecs.png_decode(png)
    return to_rgba(pixels, 65535 if fmt.depth == 16 else 255)


def to_rgba(pixels, top):
    pixels = pixels.astype(np.int64)
    if pixels.ndim == 2:
        pixels = pixels[..., None]
    channels = pixels.shape[2]
    if channels in (1, 2):
        rgb = np.repeat(pixels[..., :1], 3, axis=2)
    else:
        rgb = pixels[..., :3]
    alpha = pixels[..., -1:] if channels in (2, 4) else np.full(pixels.shape[:2] + (1,), top, np.int64)
    return np.concatenate([rgb, alpha], axis=2)


def over(canvas, source, top):
    """APNG_BLEND_OP_OVER, exactly: see AlphaOver.swift for the derivation."""
    sa, da = source[..., 3], canvas[..., 3]
    out = canvas.copy()
    replace = (sa == top) | ((sa > 0) & (da == 0))
    out[replace] = source[replace]
    mix = (sa > 0) & (sa < top) & (da > 0)
    weight = da * (top - sa)
    total = np.where(mix, sa * top + weight, 1)
    for c in range(3):
        value = (2 * (source[..., c] * sa * top + canvas[..., c] * weight) + total) // (2 * total)
        out[..., c] = np.where(mix, value, out[..., c])
    out[..., 3] = np.where(mix, (total + top // 2) // top, out[..., 3])
    return out


def composite(width, height, regions, controls, top):
    """Canvases shown for each frame (APNG spec rendering), as (h, w, 4) int arrays."""
    canvas = np.zeros((height, width, 4), np.int64)
    shown = []
    pending = None
    for number, (region, (x, y, dispose, blend)) in enumerate(zip(regions, controls)):
        if pending:
            kind, (px, py, pw, ph), saved = pending
            canvas[py:py + ph, px:px + pw] = 0 if kind == "background" else saved
        h, w = region.shape[:2]
        if number == 0 and dispose == "previous":
            dispose = "background"
        saved = canvas[y:y + h, x:x + w].copy()
        if blend == "source":
            canvas[y:y + h, x:x + w] = region
        else:
            canvas[y:y + h, x:x + w] = over(canvas[y:y + h, x:x + w], region, top)
        shown.append(canvas.copy())
        pending = (dispose, (x, y, w, h), saved) if dispose != "none" else None
    return shown


def sha(array, wide):
    return hashlib.sha256(array.astype(">u2" if wide else np.uint8).tobytes()).hexdigest()


def pillow_frames(data):
    """Pillow's frames as RGBA, up to the first it cannot render (it fails on Adam7 frames)."""
    frames = []
    with Image.open(io.BytesIO(data)) as im:
        try:
            for index in range(getattr(im, "n_frames", 1)):
                im.seek(index)
                frames.append(np.asarray(im.convert("RGBA")).astype(np.int64))
        except Exception:  # noqa: BLE001 - Pillow's own limitation, recorded as disagreement
            pass
    return frames


def references_for(apng, data):
    fmt = apng.fmt
    wide = fmt.depth == 16
    top = 65535 if wide else 255
    regions, controls = [], []
    for number, frame in enumerate(apng.frames):
        seed = 7 if (number == 0 and apng.default_in_animation) else 100 + number - (1 if apng.default_in_animation else 0)
        regions.append(libpng_rgba(fmt, frame.samples, seed))
        controls.append((frame.x, frame.y, frame.dispose, frame.blend))
    shown = composite(apng.width, apng.height, regions, controls, top)
    entry = {
        "width": apng.width, "height": apng.height, "plays": apng.plays, "declared_frames": apng.declared_frames,
        "default_image_in_animation": apng.default_in_animation,
        "default_image_sha256": sha(to_rgba(imagecodecs.png_decode(data), top), wide),
        "frames": [{
            "region": [f.x, f.y, f.width, f.height], "dispose": "background" if i == 0 and f.dispose == "previous" else f.dispose,
            "blend": f.blend, "delay": list(f.delay), "sha256": sha(canvas, wide), "region_sha256": sha(region, wide),
        } for i, (f, canvas, region) in enumerate(zip(apng.frames, shown, regions))],
    }
    if wide:
        reduced = [(r * 255 + 32895) >> 16 for r in regions]
        entry["frames_rgba8"] = [sha(c, False) for c in composite(apng.width, apng.height, reduced, controls, 255)]
    else:
        theirs = pillow_frames(data)
        if not apng.default_in_animation:
            theirs = theirs[1:]
        entry["pillow_agrees"] = [i < len(theirs) and theirs[i].shape == c.shape and bool((theirs[i] == c).all())
                                  for i, c in enumerate(shown)]
    return entry, shown


# ---------------------------------------------------------------------------------------------
# The cases.

RGBA8 = Format(8, 6)
RGBA16 = Format(16, 6)
PARTIAL = [0, 0, 40, 128, 200, 255, 255]
PARTIAL16 = [0, 0, 300, 32768, 50000, 65535, 65535]
BINARY = [0, 255, 255]


def palette(count, rng):
    return bytes(rng.randrange(256) for _ in range(3 * count))


def make_cases():
    rng = random.Random(13)
    cases = {}

    def region(fmt, w, h, alpha=None):
        return fmt.random_samples(rng, w, h, alpha)

    # Every dispose op after every blend op, on partial alpha, default image in the animation.
    def dispose_blend(fmt, alpha):
        combos = [(d, b) for d in ("none", "background", "previous") for b in ("source", "over")]
        frames = [Frame(0, 0, region(fmt, 24, 20, alpha), "none", "source")]
        spots = [(2, 3, 9, 7), (10, 1, 12, 11), (0, 8, 24, 6), (5, 5, 6, 6), (15, 12, 9, 8), (1, 1, 20, 17)]
        for (d, b), (x, y, w, h) in zip(combos, spots):
            frames.append(Frame(x, y, region(fmt, w, h, alpha), d, b, delay=(x + 1, 50)))
        frames.append(Frame(3, 4, region(fmt, 10, 10, alpha), "none", "over"))
        return APNG(fmt, 24, 20, frames[0].samples, frames)

    cases["dispose_blend_rgba8.png"] = dispose_blend(RGBA8, PARTIAL)
    cases["dispose_blend_rgba16.png"] = dispose_blend(RGBA16, PARTIAL16)
    cases["dispose_blend_binary_alpha.png"] = dispose_blend(RGBA8, BINARY)

    # Regions on every edge and corner, 1x1 regions, the whole canvas.
    edges = [Frame(0, 0, region(RGBA8, 17, 13, PARTIAL))]
    for x, y, w, h, d, b in [(0, 0, 1, 1, "none", "over"), (16, 0, 1, 1, "background", "source"), (0, 12, 1, 1, "previous", "over"),
                             (16, 12, 1, 1, "none", "source"), (0, 0, 17, 1, "previous", "source"), (0, 12, 17, 1, "background", "over"),
                             (0, 0, 1, 13, "none", "over"), (16, 0, 1, 13, "previous", "over"), (8, 6, 9, 7, "background", "source"),
                             (0, 0, 17, 13, "none", "over")]:
        edges.append(Frame(x, y, region(RGBA8, w, h, PARTIAL), d, b))
    cases["regions_at_edges.png"] = APNG(RGBA8, 17, 13, edges[0].samples, edges)

    # The default image outside the animation; the first frame need not cover the canvas then.
    rgb8 = Format(8, 2)
    hidden = [Frame(3, 2, region(rgb8, 8, 5), "previous", "over"), Frame(0, 0, region(rgb8, 14, 9), "none", "source"),
              Frame(6, 4, region(rgb8, 8, 5), "background", "over"), Frame(1, 1, region(rgb8, 3, 3), "none", "over")]
    cases["default_image_hidden.png"] = APNG(rgb8, 14, 9, region(rgb8, 14, 9), hidden, default_in_animation=False, plays=3)

    # Palettes with tRNS, at 8 and 2 bits.
    pal8 = Format(8, 3, plte=palette(40, rng), trns=bytes([0, 30, 128, 255, 200, 0, 90]))
    frames = [Frame(0, 0, region(pal8, 20, 15))] + [
        Frame(x, y, region(pal8, w, h), d, b) for x, y, w, h, d, b in
        [(2, 2, 10, 8, "none", "over"), (5, 3, 15, 12, "previous", "over"), (0, 0, 20, 15, "background", "source"),
         (4, 4, 6, 6, "none", "over")]]
    cases["palette_trns.png"] = APNG(pal8, 20, 15, frames[0].samples, frames, plays=1)
    pal2 = Format(2, 3, plte=palette(4, rng), trns=bytes([0, 128]))
    frames = [Frame(0, 0, region(pal2, 13, 9))] + [Frame(x, y, region(pal2, w, h), d, "over") for x, y, w, h, d in
                                                   [(1, 1, 7, 5, "background"), (3, 2, 10, 7, "previous"), (0, 0, 13, 9, "none")]]
    cases["palette_2bit_trns.png"] = APNG(pal2, 13, 9, frames[0].samples, frames)

    # Gray + alpha, 8 and 16 bits; gray with a colour key (4 and 16 bits); 1-bit gray; RGB key; RGB16.
    for name, fmt, alpha in [("gray_alpha8.png", Format(8, 4), PARTIAL), ("gray_alpha16.png", Format(16, 4), PARTIAL16)]:
        frames = [Frame(0, 0, region(fmt, 11, 10, alpha))] + [Frame(x, y, region(fmt, w, h, alpha), d, b) for x, y, w, h, d, b in
                                                              [(1, 2, 6, 6, "previous", "over"), (4, 0, 7, 10, "background", "over"),
                                                               (0, 5, 11, 5, "none", "source")]]
        cases[name] = APNG(fmt, 11, 10, frames[0].samples, frames)
    for name, fmt in [("gray4_trns.png", Format(4, 0, trns=struct.pack(">H", 5))),
                      ("gray16_trns.png", Format(16, 0, trns=struct.pack(">H", 4000))),
                      ("gray1.png", Format(1, 0)),
                      ("gray2.png", Format(2, 0)),
                      ("gray8.png", Format(8, 0)),
                      ("palette_1bit.png", Format(1, 3, plte=palette(2, rng))),
                      ("rgb8_trns.png", Format(8, 2, trns=struct.pack(">HHH", 10, 20, 30))),
                      ("rgb16.png", Format(16, 2))]:
        frames = [Frame(0, 0, region(fmt, 12, 9))] + [Frame(x, y, region(fmt, w, h), d, b) for x, y, w, h, d, b in
                                                      [(2, 1, 5, 4, "background", "over"), (6, 3, 6, 6, "previous", "over"),
                                                       (0, 0, 12, 9, "none", "over")]]
        cases[name] = APNG(fmt, 12, 9, frames[0].samples, frames)

    # Adam7: frames of sizes that leave passes empty, and one frame bigger than a block.
    for name, fmt, alpha in [("adam7_rgba8.png", Format(8, 6, interlaced=True), PARTIAL),
                             ("adam7_rgba16.png", Format(16, 6, interlaced=True), PARTIAL16),
                             ("adam7_palette.png", Format(4, 3, interlaced=True, plte=palette(16, rng), trns=bytes([0, 77])), None)]:
        frames = [Frame(0, 0, region(fmt, 19, 17, alpha))] + [Frame(x, y, region(fmt, w, h, alpha), d, b) for x, y, w, h, d, b in
                                                              [(0, 0, 1, 1, "none", "over"), (3, 2, 3, 5, "previous", "over"),
                                                               (5, 5, 9, 9, "background", "source"), (1, 0, 18, 17, "none", "over"),
                                                               (18, 16, 1, 1, "none", "source")]]
        cases[name] = APNG(fmt, 19, 17, frames[0].samples, frames)

    # 1x1 canvas.
    one = [Frame(0, 0, region(RGBA8, 1, 1, PARTIAL), d, b) for d, b in
           [("previous", "source"), ("none", "over"), ("background", "over"), ("previous", "over"), ("none", "over")]]
    cases["one_by_one.png"] = APNG(RGBA8, 1, 1, one[0].samples, one, plays=2)

    # Many frames (a moving square), delays with a zero denominator and a zero numerator.
    many = [Frame(0, 0, region(RGBA8, 16, 16, BINARY), "none", "source", delay=(1, 0))]
    for n in range(1, 150):
        w = 1 + n % 7
        many.append(Frame((n * 3) % (16 - w + 1), (n * 5) % (16 - w + 1), region(RGBA8, w, w, PARTIAL),
                          ["none", "background", "previous"][n % 3], ["source", "over"][n % 2], delay=(n % 4, [0, 100, 1000, 30][n % 4])))
    cases["many_frames.png"] = APNG(RGBA8, 16, 16, many[0].samples, many)

    # fdAT data split over several chunks (including pieces of 0 bytes), text chunks between frames.
    split = [Frame(0, 0, region(RGBA8, 30, 20, PARTIAL))] + [
        Frame(x, y, region(RGBA8, w, h, PARTIAL), d, b, fdat_pieces=p) for x, y, w, h, d, b, p in
        [(0, 0, 30, 20, "none", "over", 5), (4, 4, 20, 10, "background", "source", 3), (1, 2, 28, 17, "previous", "over", 400)]]
    cases["split_fdat.png"] = APNG(RGBA8, 30, 20, split[0].samples, split, between_frames=b"Comment\x00between frames")

    # A first frame whose dispose_op is PREVIOUS (acts as BACKGROUND).
    first_prev = [Frame(0, 0, region(RGBA8, 8, 8, PARTIAL), "previous", "over"), Frame(2, 2, region(RGBA8, 4, 4, PARTIAL), "none", "over")]
    cases["first_frame_dispose_previous.png"] = APNG(RGBA8, 8, 8, first_prev[0].samples, first_prev)
    late = [Frame(0, 0, region(RGBA8, 9, 7, PARTIAL)), Frame(2, 1, region(RGBA8, 5, 5, PARTIAL), "previous", "over"),
            Frame(0, 0, region(RGBA8, 9, 7, PARTIAL), "none", "over")]
    cases["fctl_before_actl.png"] = APNG(RGBA8, 9, 7, late[0].samples, late, actl_after_first_fctl=True)
    return cases


PILLOW_MUST_AGREE = ["dispose_blend_binary_alpha.png"]


def pillow_trusted(frames, index):
    """Whether Pillow 13 renders frame `index` right on a file with alpha 0/255 only: not after a
    frame with dispose PREVIOUS and blend OVER (Pillow's OVER draws into the image it keeps as
    "previous", so the restore puts back the blended frame)."""
    return index == 0 or not (frames[index - 1].dispose == "previous" and frames[index - 1].blend == "over")


def broken_cases(rng):
    """Files that must end in an error (or, for two acTL cases, decode as still images)."""
    base_frames = [Frame(0, 0, RGBA8.random_samples(rng, 16, 12, PARTIAL))] + [
        Frame(x, y, RGBA8.random_samples(rng, w, h, PARTIAL), d, b, fdat_pieces=2) for x, y, w, h, d, b in
        [(1, 1, 8, 6, "none", "over"), (4, 3, 10, 8, "background", "source"), (2, 2, 12, 9, "previous", "over"),
         (0, 0, 16, 12, "none", "over")]]

    def base(**kw):
        return APNG(RGBA8, 16, 12, base_frames[0].samples, list(base_frames), **kw)

    cases = []

    def case(name, apng, edit, frames_before, kind, offset_of, truncate_at=None):
        cases.append((name, apng, edit, frames_before, kind, offset_of, truncate_at))

    # fdAT index 2 is frame 2's first chunk (frames 1..4 have two fdATs each: indices 0-1, 2-3, ...).
    def bump_fdat(kind, index, data):
        if kind == b"fdAT" and index == 2:
            return struct.pack(">I", struct.unpack(">I", data[:4])[0] + 1) + data[4:], False, True
        return data, False, True
    case("bad_sequence_fdat.png", base(), bump_fdat, 2, "invalidData", lambda a: a.offset(b"fdAT", 2) + 8)

    def repeat_fctl_sequence(kind, index, data):
        if kind == b"fcTL" and index == 3:
            return struct.pack(">I", struct.unpack(">I", data[:4])[0] - 1) + data[4:], False, True
        return data, False, True
    case("bad_sequence_fctl.png", base(), repeat_fctl_sequence, 3, "invalidData", lambda a: a.offset(b"fcTL", 3) + 8)

    def outside(kind, index, data):
        if kind == b"fcTL" and index == 2:
            return data[:12] + struct.pack(">I", 7) + data[16:], False, True   # x_offset 7 + width 10 > 16
        return data, False, True
    case("frame_outside_canvas.png", base(), outside, 2, "invalidData", lambda a: a.offset(b"fcTL", 2) + 8 + 12)

    def bottom_outside(kind, index, data):
        if kind == b"fcTL" and index == 1:
            return data[:16] + struct.pack(">I", 0x7FFFFFF0) + data[20:], False, True
        return data, False, True
    case("frame_below_canvas.png", base(), bottom_outside, 1, "invalidData", lambda a: a.offset(b"fcTL", 1) + 8 + 16)

    def bad_dispose(kind, index, data):
        if kind == b"fcTL" and index == 3:
            return data[:24] + bytes([3]) + data[25:], False, True
        return data, False, True
    case("bad_dispose_op.png", base(), bad_dispose, 3, "invalidData", lambda a: a.offset(b"fcTL", 3) + 8 + 24)

    # Missing fdAT: frame 2's two fdATs removed and later sequence numbers closed up.
    def drop_frame2_data(kind, index, data):
        if kind == b"fdAT" and index in (2, 3):
            return data, False, False
        if (kind == b"fdAT" and index > 3) or (kind == b"fcTL" and index > 2):
            return struct.pack(">I", struct.unpack(">I", data[:4])[0] - 2) + data[4:], False, True
        return data, False, True
    case("missing_fdat.png", base(), drop_frame2_data, 2, "invalidData", lambda a: a.offset(b"fcTL", 3))

    def drop_last_data(kind, index, data):
        return data, False, not (kind == b"fdAT" and index in (6, 7))
    case("missing_fdat_last.png", base(), drop_last_data, 4, "invalidData", lambda a: a.offset(b"IEND", 0))

    case("actl_declares_more.png", base(declared_frames=6), None, 5, "invalidData", lambda a: a.offset(b"IEND", 0))
    case("actl_declares_fewer.png", base(declared_frames=3), None, 3, "invalidData", lambda a: a.offset(b"fcTL", 3))

    def damage_fdat_crc(kind, index, data):
        return data, kind == b"fdAT" and index == 5, True
    case("fdat_bad_crc.png", base(), damage_fdat_crc, 3, "checksumMismatch",
         lambda a: a.offset(b"fdAT", 5) + 8 + len(a.layout_data(b"fdAT", 5)))

    def damage_fctl_crc(kind, index, data):
        return data, kind == b"fcTL" and index == 2, True
    case("fctl_bad_crc.png", base(), damage_fctl_crc, 2, "checksumMismatch", lambda a: a.offset(b"fcTL", 2) + 8 + 26)

    # Frame 2's zlib stream holds only 5 of its 8 rows.
    short = APNG(RGBA8, 16, 12, base_frames[0].samples, list(base_frames))
    original_zdata = short.zdata
    def short_zdata(samples, seed):
        if seed == 101:
            return zlib.compress(image_data(samples, 8, 4, False, seed)[:5 * (1 + 10 * 4)], 9)
        return original_zdata(samples, seed)
    short.zdata = short_zdata
    case("frame_data_short.png", short, None, 2, "invalidData",
         lambda a: a.offset(b"fdAT", 3) + 8 + len(a.layout_data(b"fdAT", 3)))

    def default_fctl_small(kind, index, data):
        if kind == b"fcTL" and index == 0:
            return data[:4] + struct.pack(">I", 15) + data[8:], False, True
        return data, False, True
    case("default_fctl_not_canvas.png", base(), default_fctl_small, 0, "invalidData", lambda a: a.offset(b"fcTL", 0) + 8 + 4)

    case("truncated_mid_frame.png", base(), None, 4, "truncated", None,
         truncate_at=lambda a: a.offset(b"fdAT", 6) + 8 + 4 + len(a.layout_data(b"fdAT", 6)) // 2)
    return cases


def layout_data(self, kind, index):
    for k, i, _, data in self.layout:
        if k == kind and i == index:
            return data
    raise KeyError((kind, index))


APNG.layout_data = layout_data


def libpng_apng_outcome(data):
    try:
        frames = imagecodecs.apng_decode(data)
        return f"decoded {frames.shape[0] if frames.ndim == 4 else 1} images"
    except Exception as error:  # libpng's APNG reader refused the file
        return "error: " + str(error)[:100]


def main():
    references = {}
    for name, apng in make_cases().items():
        data = apng.build()
        (HERE / name).write_bytes(data)
        entry, _ = references_for(apng, data)
        entry["libpng_apng"] = libpng_apng_outcome(data)
        references[name] = entry
        if name in PILLOW_MUST_AGREE:
            trusted = [pillow_trusted(apng.frames, i) for i in range(len(apng.frames))]
            assert all(a for a, t in zip(entry["pillow_agrees"], trusted) if t), f"Pillow disagrees on {name}: {entry['pillow_agrees']}"
            assert not all(entry["pillow_agrees"]), "Pillow's PREVIOUS+OVER bug is gone: trust it more"

    rng = random.Random(99)
    broken = {}
    for name, apng, edit, frames_before, kind, offset_of, truncate_at in broken_cases(rng):
        data = apng.build(edit)
        if truncate_at:
            data = data[:truncate_at(apng)]
        (HERE / name).write_bytes(data)
        intact = APNG(RGBA8, 16, 12, apng.default_samples, apng.frames)
        good, _ = references_for(intact, intact.build())
        broken[name] = {
            "frames_before_error": [f["sha256"] for f in good["frames"][:frames_before]],
            "error_kind": kind,
            "error_offset": len(data) if offset_of is None else offset_of(apng),
            "default_image_sha256": sha(to_rgba(imagecodecs.png_decode(data), 255), False) if truncate_at is None else None,
            "libpng_apng": libpng_apng_outcome(data),
        }

    # acTL problems that make the file a still image (not an error).
    still = {}
    frames = [Frame(0, 0, RGBA8.random_samples(rng, 6, 5, PARTIAL)), Frame(1, 1, RGBA8.random_samples(rng, 3, 3, PARTIAL), "none", "over")]
    zero = APNG(RGBA8, 6, 5, frames[0].samples, frames, declared_frames=0)
    after = APNG(RGBA8, 6, 5, frames[0].samples, frames)

    def actl_after_idat(apng_):
        data = apng_.build()
        actl_at = apng_.offset(b"acTL", 0)
        actl = data[actl_at:actl_at + 20]
        data = data[:actl_at] + data[actl_at + 20:]
        iend = data.rindex(b"IEND") - 4
        return data[:iend] + actl + data[iend:]

    def actl_twice(apng_):
        data = apng_.build()
        actl_at = apng_.offset(b"acTL", 0)
        return data[:actl_at + 20] + data[actl_at:]

    for name, data in [("actl_zero_frames.png", zero.build()), ("actl_after_idat.png", actl_after_idat(after)),
                       ("actl_twice.png", actl_twice(APNG(RGBA8, 6, 5, frames[0].samples, frames)))]:
        (HERE / name).write_bytes(data)
        still[name] = {"default_image_sha256": sha(to_rgba(imagecodecs.png_decode(data), 255), False),
                       "libpng_apng": libpng_apng_outcome(data)}

    out = {"animations": references, "broken": broken, "still": still}
    (HERE / "references.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    for name, entry in references.items():
        agree = entry.get("pillow_agrees")
        print(f"{name}: {len(entry['frames'])} frames" + (f", Pillow agrees on {sum(agree)}" if agree is not None else ", 16-bit"))
    for name, entry in broken.items():
        print(f"{name}: {entry['error_kind']} at {entry['error_offset']} after {len(entry['frames_before_error'])} frames; libpng-apng: {entry['libpng_apng']}")
    for name, entry in still.items():
        print(f"{name}: still image; libpng-apng: {entry['libpng_apng']}")


if __name__ == "__main__":
    main()
