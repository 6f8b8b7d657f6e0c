#!/usr/bin/env python3
"""Makes the GIF fixtures in this folder and references.json (run from anywhere; needs Pillow,
gifsicle, ImageMagick `convert` and giflib's `gifbuild`; the tests need none of them).

Two kinds of files:
- made by tools (Pillow, gifsicle, ImageMagick): real LZW compression, interlacing, local
  colour tables, transparency, disposal methods, loop counts, frames smaller than the canvas;
- written by `write_gif` below, for what the tools never write: minimum code sizes 0, 1, 9-11,
  deferred clear codes, one-byte sub-blocks, a missing trailer, disposal values 4-7, frames
  outside the canvas, zero-size frames, indices past the colour table, early end codes, extra
  pixels, ... These use a "literal only" LZW stream (every pixel one code, the code width
  tracked exactly as the decoder grows it), so their palette indices are known without decoding.

References: the palette indices of every frame come from giflib (`gifbuild -d`, an independent
LZW decoder) for every file giflib reads (the literal-only files too, which cross-checks the
writer), or from the writer's own list where giflib cannot follow (code sizes 0, 1 and 9-11, index
streams that stop early or run long). The compositing is done here, from the indices, the
way browsers do it (Chromium; Wuffs agrees), because Pillow differs: canvas starts transparent,
disposal 2 clears the frame rectangle to (0,0,0,0), disposal 3 restores the rectangle, 0/1/4-7
keep it, a Graphic Control Extension applies to the next image only, frames are clipped to the
canvas, the transparent index is transparent (0,0,0,0) and indices past the colour table (or
in a frame with no table at all) are opaque black (0,0,0,255), as Wuffs gives them.
Pillow is used as a cross-check only where it agrees (frames that Pillow composites the same
way: see `pillow_agrees`); the script prints how many frames it compared.
"""
import glob
import hashlib
import json
import os
import subprocess
import sys

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
NAME_TABLE = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


# ----------------------------------------------------------------------------- writer

class BitWriter:
    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.n = 0

    def put(self, code, width):
        self.acc |= code << self.n
        self.n += width
        while self.n >= 8:
            self.out.append(self.acc & 0xFF)
            self.acc >>= 8
            self.n -= 8

    def flush(self):
        if self.n:
            self.out.append(self.acc & 0xFF)
        self.acc = self.n = 0
        return bytes(self.out)


def literal_lzw(codes, lw, clear_every=None, end_code=True, leading_clear=True):
    """Every code is a literal; the width follows the decoder's rule (next free code reaches 1 << width)."""
    clear, end = 1 << lw, (1 << lw) + 1
    w = BitWriter()
    width, nxt, prev = lw + 1, end, None

    def emit(code):
        nonlocal width, nxt, prev
        w.put(code, width)
        if code == clear:
            width, nxt, prev = lw + 1, end, None
            return
        if nxt < 4096:
            nxt += 1
            if width < 12 and nxt >= (1 << width):
                width += 1
        prev = code

    if leading_clear:
        emit(clear)
    for i, code in enumerate(codes):
        if clear_every and i and i % clear_every == 0:
            emit(clear)
        emit(code)
    if end_code:
        w.put(end, width)
    return w.flush()


def sub_blocks(data, sizes=(255,)):
    out, i, k = bytearray(), 0, 0
    while i < len(data):
        n = min(sizes[k % len(sizes)], len(data) - i, 255)
        out.append(n)
        out += data[i:i + n]
        i += n
        k += 1
    out.append(0)
    return bytes(out)


def color_table_bits(count):
    bits = 0
    while (2 << bits) < count:
        bits += 1
    return bits


def padded(palette):
    """RGB triples padded to a power of two (2..256) entries."""
    count = max(len(palette) // 3, 2)
    size = 2 << color_table_bits(count)
    return bytes(palette) + bytes(3 * size - len(palette))


def gce(disposal=0, delay=0, transparent=None, size=4):
    flags = (disposal & 7) << 2 | (1 if transparent is not None else 0)
    body = bytes([flags, delay & 0xFF, delay >> 8, transparent or 0]) + bytes(max(0, size - 4))
    return b"\x21\xF9" + bytes([size]) + body[:size] + b"\x00"


def netscape(loops, name=b"NETSCAPE2.0"):
    return b"\x21\xFF\x0B" + name + b"\x03\x01" + bytes([loops & 0xFF, loops >> 8]) + b"\x00"


def image_block(left, top, w, h, data, lw, local=None, interlace=False, sizes=(255,)):
    flags = 0x40 if interlace else 0
    table = b""
    if local is not None:
        table = padded(local)
        flags |= 0x80 | color_table_bits(len(table) // 3)
    desc = b"\x2C" + bytes([left & 0xFF, left >> 8, top & 0xFF, top >> 8, w & 0xFF, w >> 8, h & 0xFF, h >> 8, flags])
    return desc + table + bytes([lw]) + sub_blocks(data, sizes)


def header(w, h, palette=None, version=b"89a"):
    flags, table = 0, b""
    if palette is not None:
        table = padded(palette)
        flags = 0x80 | 0x70 | color_table_bits(len(table) // 3)
    return b"GIF" + version + bytes([w & 0xFF, w >> 8, h & 0xFF, h >> 8, flags, 0, 0]) + table


def interlace_order(h):
    rows = []
    for start, step in ((0, 8), (4, 8), (2, 4), (1, 2)):
        rows += list(range(start, h, step))
    return rows


def stored_order(indices, w, h, interlace):
    """Display-order indices -> the order they are stored in the file."""
    if not interlace:
        return list(indices)
    out = []
    for y in interlace_order(h):
        out += indices[y * w:(y + 1) * w]
    return out


# ----------------------------------------------------------------------------- parsing and compositing

def parse(data):
    """Block structure (no LZW): screen, loop count, and per image its descriptor, table and control."""
    assert data[:3] == b"GIF"
    sw, sh, flags = data[6] | data[7] << 8, data[8] | data[9] << 8, data[10]
    pos = 13
    gct = None
    if flags & 0x80:
        n = 2 << (flags & 7)
        gct = data[pos:pos + 3 * n]
        pos += 3 * n
    frames, control, loop = [], None, None
    while pos < len(data):
        b = data[pos]
        if b == 0x21:
            label = data[pos + 1]
            pos += 2
            blocks = []
            while data[pos] != 0:
                blocks.append(data[pos + 1:pos + 1 + data[pos]])
                pos += 1 + data[pos]
            pos += 1
            if label == 0xF9 and blocks and len(blocks[0]) >= 4:
                f = blocks[0][0]
                control = dict(disposal=(f >> 2) & 7, delay=blocks[0][1] | blocks[0][2] << 8,
                               transparent=blocks[0][3] if f & 1 else None)
            if label == 0xFF and len(blocks) >= 2 and blocks[0] in (b"NETSCAPE2.0", b"ANIMEXTS1.0"):  # the last one wins
                if len(blocks[1]) >= 3 and blocks[1][0] & 7 == 1:
                    loop = blocks[1][1] | blocks[1][2] << 8
        elif b == 0x2C:
            left, top, w, h = (data[pos + 1 + 2 * i] | data[pos + 2 + 2 * i] << 8 for i in range(4))
            f = data[pos + 9]
            pos += 10
            table = gct
            if f & 0x80:
                n = 2 << (f & 7)
                table = data[pos:pos + 3 * n]
                pos += 3 * n
            pos += 1  # minimum code size
            while data[pos] != 0:
                pos += 1 + data[pos]
            pos += 1
            frames.append(dict(left=left, top=top, w=w, h=h, interlace=bool(f & 0x40), table=table,
                               control=control or dict(disposal=0, delay=0, transparent=None)))
            control = None
        else:
            break  # trailer, or a byte that starts no block
    return sw, sh, loop, frames


def giflib_indices(path):
    """Display-order indices of every image, from `gifbuild -d`."""
    text = subprocess.run(["gifbuild", "-d", path], capture_output=True, text=True, check=True).stdout
    images, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("image bits"):
            parts = lines[i].split()
            w, h, hexa = int(parts[2]), int(parts[4]), parts[-1] == "hex"
            pixels = []
            for row in lines[i + 1:i + 1 + h]:
                if hexa:
                    pixels += [int(row[2 * k:2 * k + 2], 16) for k in range(w)]
                else:
                    pixels += [NAME_TABLE.index(c) for c in row[:w]]
            images.append(pixels)
            i += 1 + h
        else:
            i += 1
    return images


def composite(sw, sh, frames, indices):
    """Browser-style compositing; indices[k] is display order, None where no pixel arrived."""
    canvas = bytearray(sw * sh * 4)
    pending = None
    out = []
    for frame, idx in zip(frames, indices):
        if pending:
            kind, (x0, y0, rw, rh), saved = pending
            for y in range(rh):
                a = ((y0 + y) * sw + x0) * 4
                canvas[a:a + 4 * rw] = saved[y * 4 * rw:(y + 1) * 4 * rw] if kind == 3 else bytes(4 * rw)
        x0, y0 = min(frame["left"], sw), min(frame["top"], sh)
        rw, rh = min(frame["w"], sw - x0), min(frame["h"], sh - y0)
        control = frame["control"]
        saved = b"".join(bytes(canvas[((y0 + y) * sw + x0) * 4:((y0 + y) * sw + x0 + rw) * 4]) for y in range(rh))
        table = frame["table"] or b""
        # Indices past the table (or with no table at all) are opaque black, as Wuffs shows them
        # (and Chromium, which decodes GIF through Wuffs via SkWuffsCodec).
        colours = [b"\x00\x00\x00\xff"] * 256
        for k in range(len(table) // 3):
            colours[k] = bytes(table[3 * k:3 * k + 3]) + b"\xff"
        if control["transparent"] is not None:
            colours[control["transparent"]] = None
        for y in range(rh):
            for x in range(rw):
                i = idx[y * frame["w"] + x] if y * frame["w"] + x < len(idx) else None
                if i is None or colours[i] is None:
                    continue
                a = ((y0 + y) * sw + x0 + x) * 4
                canvas[a:a + 4] = colours[i]
        out.append(dict(sha256=hashlib.sha256(bytes(canvas)).hexdigest(), duration_cs=control["delay"],
                        disposal={2: "background", 3: "previous"}.get(control["disposal"], "none"),
                        region=[x0, y0, rw, rh], rgba=bytes(canvas)))
        disposal = control["disposal"]
        pending = (disposal, (x0, y0, rw, rh), saved) if disposal in (2, 3) else None
    return out


def pillow_agrees(path, frames, composited):
    """Compares with Pillow the frames where Pillow composites as browsers do: the first frame when it
    covers the canvas, and later frames while every earlier disposal was 0/1 and the first frame is opaque."""
    compared = 0
    im = Image.open(path)
    for k, frame in enumerate(frames):
        if k > 0 and any(f["control"]["disposal"] not in (0, 1) for f in frames[:k]):
            break
        if (frames[0]["left"], frames[0]["top"], frames[0]["w"], frames[0]["h"]) != (0, 0, im.width, im.height):
            break
        if k > 0 and frames[0]["control"]["transparent"] is not None:
            break
        im.seek(k)
        mine = composited[k]["rgba"]
        theirs = im.convert("RGBA").tobytes()
        # Pillow keeps colour under alpha 0; compare colour only where opaque.
        for a in range(0, len(mine), 4):
            if mine[a + 3] != theirs[a + 3] or (mine[a + 3] and mine[a:a + 3] != theirs[a:a + 3]):
                raise SystemExit(f"{path}: frame {k} differs from Pillow at pixel {a // 4}")
        compared += 1
    return compared


# ----------------------------------------------------------------------------- fixtures

def pattern(w, h, colours, seed=1):
    return [((x * 7 + y * 13 + seed * 5 + (x * y) % 3) % colours) for y in range(h) for x in range(w)]


def rgb_palette(n, seed=0):
    return [((k * 67 + seed * 31) % 256, (k * 151 + seed * 17) % 256, (k * 29 + seed * 101) % 256)[c]
            for k in range(n) for c in range(3)]


def made_by_tools(tmp):
    files = []

    def pil_frames(w, h, n, colours, seed=0):
        frames = []
        for k in range(n):
            im = Image.new("P", (w, h))
            im.putdata(pattern(w, h, colours, seed + k))
            im.putpalette(rgb_palette(colours, seed))
            frames.append(im)
        return frames

    # Pillow: 1x1, odd sizes, a full 256-colour still (real LZW with 12-bit codes and clears).
    pil_frames(1, 1, 1, 2)[0].save(f"{HERE}/pillow_1x1.gif")
    files.append("pillow_1x1.gif")
    pil_frames(37, 23, 1, 16, seed=3)[0].save(f"{HERE}/pillow_odd_37x23.gif", interlace=False)
    files.append("pillow_odd_37x23.gif")
    big = Image.new("P", (97, 61))
    big.putdata([(x * x + 3 * y * y + x * y) % 256 for y in range(61) for x in range(97)])
    big.putpalette(rgb_palette(256, 5))
    big.save(f"{HERE}/pillow_256_colours.gif", optimize=False, interlace=False)
    files.append("pillow_256_colours.gif")
    # Pillow interlaces images of 16 rows or more by default.
    big.save(f"{HERE}/pillow_interlaced.gif", optimize=False)
    files.append("pillow_interlaced.gif")
    # Pillow animation: transparency, disposal 2 and 1, loop forever, frames cropped to what changed.
    frames = []
    for k in range(4):
        im = Image.new("P", (24, 18), 0)
        im.putpalette([0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0])
        for y in range(4 + k, 10 + k):
            for x in range(3 * k, 3 * k + 8):
                im.putpixel((x, y), 1 + k % 4)
        frames.append(im)
    frames[0].save(f"{HERE}/pillow_anim_transparency.gif", save_all=True, append_images=frames[1:],
                   duration=[50, 70, 90, 110], loop=0, transparency=0, disposal=[2, 1, 2, 1])
    files.append("pillow_anim_transparency.gif")

    # gifsicle: merged frames with their own palettes (local colour tables), interlaced, loop count,
    # disposal previous, frames placed inside a larger screen and outside a smaller one.
    parts = []
    for k in range(3):
        im = Image.new("P", (20, 14))
        im.putdata(pattern(20, 14, 8, k))
        im.putpalette(rgb_palette(8, 10 + k))
        path = f"{tmp}/part{k}.gif"
        im.save(path, optimize=False)
        parts.append(path)
    run = lambda *args: subprocess.run(["gifsicle", *args], check=True)
    run("--no-warnings", "--loopcount=3", "--delay=12", parts[0], parts[1], parts[2], "-o", f"{HERE}/gifsicle_local_palettes.gif")
    files.append("gifsicle_local_palettes.gif")
    run("--no-warnings", "-i", "--loopcount=0", "--delay=5", parts[0], parts[1], parts[2], "-o", f"{HERE}/gifsicle_interlaced_anim.gif")
    files.append("gifsicle_interlaced_anim.gif")
    run("--no-warnings", "--disposal=previous", "--delay=7", parts[0], "--position=3,2", parts[1], "--position=6,4", parts[2],
        "--logical-screen=30x22", "-o", f"{HERE}/gifsicle_dispose_previous.gif")
    files.append("gifsicle_dispose_previous.gif")
    run("--no-warnings", "--disposal=background", parts[0], "--position=10,8", parts[1], "--position=15,2", parts[2],
        "--logical-screen=24x16", "-o", f"{HERE}/gifsicle_outside_canvas.gif")
    files.append("gifsicle_outside_canvas.gif")
    run("--no-warnings", "-O3", "--loopcount=2", parts[0], parts[1], parts[2], parts[0], "-o", f"{HERE}/gifsicle_optimized.gif")
    files.append("gifsicle_optimized.gif")

    # ImageMagick: disposal Background/Previous with transparency, GIF87a-style still, interlaced still.
    def magick(*args):
        subprocess.run(["convert", *args], check=True, capture_output=True)
    magick("-size", "16x12", "xc:none", "-fill", "red", "-draw", "rectangle 2,2 9,7", f"{tmp}/m0.png")
    magick("-size", "16x12", "xc:none", "-fill", "blue", "-draw", "circle 10,6 13,6", f"{tmp}/m1.png")
    magick("-size", "16x12", "xc:none", "-fill", "lime", "-draw", "rectangle 5,4 14,10", f"{tmp}/m2.png")
    magick("-delay", "20", "-dispose", "Background", f"{tmp}/m0.png", "-dispose", "Previous", f"{tmp}/m1.png",
           "-dispose", "None", f"{tmp}/m2.png", "-loop", "5", f"{HERE}/magick_dispose_mix.gif")
    files.append("magick_dispose_mix.gif")
    magick("-size", "33x19", "gradient:yellow-navy", "-colors", "32", "-interlace", "GIF", f"{HERE}/magick_interlaced_still.gif")
    files.append("magick_interlaced_still.gif")
    return files


def hand_written():
    """(name, bytes, display-order indices per frame or None to take giflib's)."""
    out = []
    pal4 = [200, 30, 30, 30, 200, 30, 30, 30, 200, 240, 240, 40]

    def still(name, w, h, idx, lw, palette=pal4, sizes=(255,), interlace=False, trailer=True, version=b"89a", **kw):
        giflib = kw.pop("giflib", True)
        data = literal_lzw(kw.pop("codes", stored_order(idx, w, h, interlace)), lw, **kw)
        body = header(w, h, palette, version) + image_block(0, 0, w, h, data, lw, interlace=interlace, sizes=sizes)
        out.append((name, body + (b"\x3B" if trailer else b""), [idx], giflib))

    still("gif87a.gif", 6, 4, pattern(6, 4, 4), 2, version=b"87a")
    still("code_size_0.gif", 3, 2, [0] * 6, 0, giflib=False)
    still("code_size_1.gif", 5, 3, [(x + y) % 2 for y in range(3) for x in range(5)], 1)
    idx9 = pattern(7, 5, 4)
    still("code_size_9.gif", 7, 5, idx9, 9, giflib=False, codes=[i + 256 * (k % 2) for k, i in enumerate(idx9)])
    idx11 = pattern(9, 4, 4)
    still("code_size_11.gif", 9, 4, idx11, 11, giflib=False, codes=[i + 512 * (k % 4) for k, i in enumerate(idx11)])
    still("deferred_clear.gif", 80, 80, pattern(80, 80, 4), 2, leading_clear=False)
    still("one_byte_sub_blocks.gif", 13, 11, pattern(13, 11, 4), 2, sizes=(1, 2, 3, 255, 7))
    still("no_trailer.gif", 8, 5, pattern(8, 5, 4), 2, trailer=False)
    still("no_end_code.gif", 8, 5, pattern(8, 5, 4), 2, end_code=False)
    still("interlaced_literal.gif", 11, 19, pattern(11, 19, 4), 3, interlace=True, clear_every=20)
    # Indices 4-7 with a 4-entry table: opaque black, as Wuffs pads its palettes.
    still("index_past_table.gif", 6, 6, pattern(6, 6, 8), 3)
    # No colour table at all: every index is past the (empty) table, so all opaque black.
    still("no_color_table.gif", 4, 3, pattern(4, 3, 4), 2, palette=None)

    # Early end code in a sequential first frame: the rest stays transparent.
    idx = pattern(9, 6, 4)
    data = literal_lzw(idx[:23], 2)
    out.append(("early_end_code.gif", header(9, 6, pal4) + image_block(0, 0, 9, 6, data, 2) + b"\x3B",
                [idx[:23] + [None] * (54 - 23)], False))
    # More pixels than the frame holds: the extra ones are dropped.
    data = literal_lzw(idx + [3] * 40, 2)
    out.append(("extra_pixels.gif", header(9, 6, pal4) + image_block(0, 0, 9, 6, data, 2) + b"\x3B", [idx], False))

    # Animations.
    def anim(name, w, h, frames, palette=pal4, loop=None, pre=b"", giflib=True, trailer=True):
        body = header(w, h, palette) + pre + (netscape(loop) if loop is not None else b"")
        indices = []
        for f in frames:
            fw, fh = f["w"], f["h"]
            idx = f.get("idx") or pattern(fw, fh, f.get("colours", 4), f.get("seed", len(indices)))
            for c in f.get("controls", [f.get("control")]):
                if c is not None:
                    body += gce(**c)
            body += f.get("extra", b"")
            lw = f.get("lw", 2)
            body += image_block(f.get("x", 0), f.get("y", 0), fw, fh,
                                literal_lzw(stored_order(idx, fw, fh, f.get("interlace", False)), lw, clear_every=f.get("clear_every")),
                                lw, local=f.get("local"), interlace=f.get("interlace", False))
            indices.append(idx)
        out.append((name, body + (b"\x3B" if trailer else b""), indices, giflib))

    anim("disposal_all.gif", 12, 10, [
        dict(w=12, h=10, control=dict(disposal=1, delay=10)),
        dict(x=2, y=2, w=6, h=5, control=dict(disposal=2, delay=20, transparent=1)),
        dict(x=4, y=3, w=7, h=6, control=dict(disposal=3, delay=30, transparent=0)),
        dict(x=1, y=1, w=5, h=5, control=dict(disposal=0, delay=40)),
        dict(x=0, y=5, w=12, h=5, control=dict(disposal=2, delay=50)),
        dict(x=3, y=0, w=4, h=10, control=dict(disposal=3, delay=60)),
        dict(x=6, y=6, w=3, h=3),
    ], loop=0)
    anim("disposal_unknown_values.gif", 10, 8, [
        dict(w=10, h=8, control=dict(disposal=4, delay=3)),
        dict(x=1, y=1, w=5, h=4, control=dict(disposal=5, delay=3, transparent=2)),
        dict(x=3, y=2, w=6, h=5, control=dict(disposal=6, delay=3)),
        dict(x=0, y=0, w=4, h=4, control=dict(disposal=7, delay=3, transparent=0)),
        dict(x=2, y=3, w=4, h=4, control=dict(disposal=0, delay=3)),
    ], loop=1)
    anim("disposal_previous_first.gif", 9, 7, [
        dict(x=1, y=1, w=6, h=4, control=dict(disposal=3, delay=5)),
        dict(x=3, y=2, w=5, h=5, control=dict(disposal=3, delay=5, transparent=3)),
        dict(x=0, y=0, w=4, h=3, control=dict(disposal=0, delay=5)),
    ])
    anim("control_next_image_only.gif", 8, 8, [
        dict(w=8, h=8, controls=[dict(disposal=0, delay=99, transparent=2), dict(disposal=2, delay=4)]),
        dict(x=2, y=2, w=4, h=4, control=None),
        dict(x=1, y=1, w=3, h=3, control=None),
    ], loop=7)
    anim("outside_canvas.gif", 10, 8, [
        dict(w=10, h=8, control=dict(disposal=1, delay=2)),
        dict(x=7, y=5, w=6, h=6, control=dict(disposal=2, delay=2)),
        dict(x=12, y=1, w=3, h=3, control=dict(disposal=1, delay=2)),
        dict(x=2, y=300, w=3, h=3, control=dict(disposal=3, delay=2)),
        dict(x=8, y=0, w=9, h=20, control=dict(disposal=0, delay=2, transparent=1)),
    ])
    anim("first_frame_larger.gif", 6, 5, [
        dict(x=2, y=1, w=10, h=9, control=dict(disposal=2, delay=8)),
        dict(x=0, y=0, w=3, h=3, control=dict(disposal=0, delay=8)),
    ])
    anim("zero_size_frame.gif", 7, 6, [
        dict(w=7, h=6, control=dict(disposal=1, delay=10)),
        dict(x=3, y=3, w=0, h=0, control=dict(disposal=2, delay=20)),
        dict(x=1, y=1, w=4, h=0, control=dict(disposal=0, delay=30)),
        dict(x=2, y=2, w=3, h=3, control=dict(disposal=0, delay=40, transparent=0)),
    ], giflib=False)
    anim("interlaced_heights.gif", 9, 12, [
        dict(w=9, h=12, interlace=True, control=dict(delay=1)),
        dict(w=5, h=1, interlace=True, control=dict(delay=1)),
        dict(w=6, h=2, interlace=True, control=dict(delay=1)),
        dict(x=1, w=5, h=3, interlace=True, control=dict(delay=1)),
        dict(x=2, w=4, h=4, interlace=True, control=dict(delay=1)),
        dict(y=2, w=7, h=5, interlace=True, control=dict(delay=1)),
        dict(y=1, w=8, h=9, interlace=True, control=dict(delay=1, transparent=2)),
    ], loop=0)
    anim("local_palettes.gif", 8, 6, [
        dict(w=8, h=6, colours=4, local=[10, 10, 10, 250, 0, 0, 0, 250, 0, 0, 0, 250], control=dict(delay=6)),
        dict(x=1, y=1, w=6, h=4, colours=16, lw=4, local=rgb_palette(16, 9), control=dict(delay=6, transparent=5)),
        dict(x=2, y=2, w=5, h=4, colours=4, control=dict(delay=6)),
    ], loop=0)
    anim("other_extensions.gif", 6, 4, [
        dict(w=6, h=4, extra=b"\x21\xFE\x05hello\x00" + b"\x21\x01\x0C" + bytes(12) + b"\x02hi\x00", control=dict(delay=3)),
        dict(x=1, y=1, w=4, h=2, extra=b"\x21\xFF\x0BXMP DataXMP\x03abc\x00", control=dict(delay=3)),
    ], pre=b"\x21\xFE\x03abc\x00")
    anim("animexts_loop.gif", 5, 5, [
        dict(w=5, h=5, control=dict(delay=2)),
        dict(x=1, y=1, w=3, h=3, control=dict(delay=2)),
    ], pre=netscape(4, b"ANIMEXTS1.0"))
    anim("animation_no_trailer.gif", 6, 6, [
        dict(w=6, h=6, control=dict(disposal=1, delay=10)),
        dict(x=1, y=2, w=4, h=3, control=dict(disposal=1, delay=10)),
    ], loop=0, trailer=False)
    return out


def main():
    import tempfile
    references = {}
    compared = 0
    with tempfile.TemporaryDirectory() as tmp:
        tool_files = made_by_tools(tmp)
    for name in tool_files:
        path = f"{HERE}/{name}"
        with open(path, "rb") as f:
            data = f.read()
        sw, sh, loop, frames = parse(data)
        composited = composite(sw, sh, frames, giflib_indices(path))
        compared += pillow_agrees(path, frames, composited)
        references[name] = (sw, sh, loop, composited)
    unread = []
    for name, data, known, giflib in hand_written():
        path = f"{HERE}/{name}"
        with open(path, "wb") as f:
            f.write(data)
        sw, sh, loop, frames = parse(data)
        if giflib:
            try:
                decoded = giflib_indices(path)
            except subprocess.CalledProcessError:
                decoded = None
                unread.append(name)
            if decoded is not None and [list(i) for i in known] != decoded:
                raise SystemExit(f"{name}: giflib decodes other indices than were written")
        composited = composite(sw, sh, frames, known)
        references[name] = (sw, sh, loop, composited)
    # Public test files copied from Wuffs (TestImages/gif/wuffs/README.md): referenced wherever
    # giflib reads them; the others are checked by dedicated tests.
    for path in sorted(glob.glob(f"{HERE}/wuffs/*.gif")):
        name = "wuffs/" + os.path.basename(path)
        try:
            indices = giflib_indices(path)
        except subprocess.CalledProcessError:
            continue
        with open(path, "rb") as f:
            sw, sh, loop, frames = parse(f.read())
        references[name] = (sw, sh, loop, composite(sw, sh, frames, indices))
    manifest = {}
    for name, (sw, sh, loop, composited) in sorted(references.items()):
        manifest[name] = dict(
            width=sw, height=sh,
            play_count=1 if loop is None else (0 if loop == 0 else loop + 1),
            frames=[{k: v for k, v in f.items() if k != "rgba"} for f in composited])
    with open(f"{HERE}/references.json", "w") as f:
        # One line per frame keeps the file short and its diffs readable.
        f.write("{\n")
        for n, (name, entry) in enumerate(manifest.items()):
            f.write(f' {json.dumps(name)}: {{"width": {entry["width"]}, "height": {entry["height"]}, '
                    f'"play_count": {entry["play_count"]}, "frames": [\n')
            f.write(",\n".join("  " + json.dumps(frame, sort_keys=True) for frame in entry["frames"]))
            f.write("\n ]}" + ("," if n < len(manifest) - 1 else "") + "\n")
        f.write("}\n")
    json.load(open(f"{HERE}/references.json"))
    print(f"{len(manifest)} files, {sum(len(m['frames']) for m in manifest.values())} frames; "
          f"{compared} frames also match Pillow; giflib cross-checked every written file except "
          f"{', '.join(unread)} (giflib rejects them) and the ones marked giflib=False")


if __name__ == "__main__":
    main()
