#!/usr/bin/env python3
"""Makes PNGs whose ancillary chunks are damaged the ways real files are (bad CRCs on iCCP,
tEXt, zTXt, iTXt, cLLI and a private chunk; bad compression inside zTXt, iTXt and iCCP) plus
the same damage on critical chunks (IHDR, PLTE, IDAT), and records what libpng (through PyPI's
imagecodecs, libpng's default CRC handling) makes of each: the SHA-256 of its RGBA8 pixels, or
that it refuses the file. references.json is what the Swift tests compare against.

Needs numpy and imagecodecs. Writes beside itself.
"""
import hashlib
import json
import struct
import zlib
from pathlib import Path

import imagecodecs
import numpy

here = Path(__file__).parent


def chunk(kind, data, damage_crc=False):
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    if damage_crc:
        crc ^= 0x00010000
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def png(chunks):
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunks)


width, height = 23, 17
rows = b"".join(b"\x00" + bytes((x * 11 + y * 7) & 0xFF for x in range(width * 3)) for y in range(height))
ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
idat = zlib.compress(rows, 9)
palette_rows = b"".join(b"\x00" + bytes((x + y) % 4 for x in range(width)) for y in range(height))
plte = bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9])
icc_payload = b"fake profile\x00\x00" + zlib.compress(b"\x00" * 200)

cases = {
    "iccp_bad_crc.png": [chunk(b"IHDR", ihdr), chunk(b"iCCP", icc_payload, True), chunk(b"IDAT", idat), chunk(b"IEND", b"")],
    "text_bad_crc.png": [chunk(b"IHDR", ihdr), chunk(b"tEXt", b"Title\x00hello", True), chunk(b"IDAT", idat), chunk(b"IEND", b"")],
    "ztxt_bad_crc.png": [chunk(b"IHDR", ihdr), chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress(b"hi")), chunk(b"IDAT", idat),
                         chunk(b"zTXt", b"Late\x00\x00" + zlib.compress(b"x" * 50), True), chunk(b"IEND", b"")],
    "itxt_bad_crc.png": [chunk(b"IHDR", ihdr), chunk(b"iTXt", b"Key\x00\x00\x00en\x00Key\x00value", True), chunk(b"IDAT", idat),
                         chunk(b"IEND", b"")],
    "clli_bad_crc.png": [chunk(b"IHDR", ihdr), chunk(b"cLLI", struct.pack(">II", 10000, 4000), True), chunk(b"IDAT", idat),
                         chunk(b"IEND", b"")],
    "private_bad_crc.png": [chunk(b"IHDR", ihdr), chunk(b"prVt", bytes(range(200)) * 30, True), chunk(b"IDAT", idat),
                            chunk(b"IEND", b"")],
    "ztxt_bad_compression.png": [chunk(b"IHDR", ihdr), chunk(b"zTXt", b"Comment\x00\x00" + b"\x78\x9c\xff\xff\xff"),
                                 chunk(b"IDAT", idat), chunk(b"IEND", b"")],
    "itxt_bad_compression.png": [chunk(b"IHDR", ihdr), chunk(b"iTXt", b"Key\x00\x01\x00en\x00Key\x00\x78\x9c\xff\xff"),
                                 chunk(b"IDAT", idat), chunk(b"IEND", b"")],
    "iccp_bad_compression.png": [chunk(b"IHDR", ihdr), chunk(b"iCCP", b"fake profile\x00\x00\x78\x9c\xff\xff"),
                                 chunk(b"IDAT", idat), chunk(b"IEND", b"")],
    "ihdr_bad_crc.png": [chunk(b"IHDR", ihdr, True), chunk(b"IDAT", idat), chunk(b"IEND", b"")],
    "plte_bad_crc.png": [chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)), chunk(b"PLTE", plte, True),
                         chunk(b"IDAT", zlib.compress(palette_rows)), chunk(b"IEND", b"")],
    "idat_bad_crc.png": [chunk(b"IHDR", ihdr), chunk(b"IDAT", idat, True), chunk(b"IEND", b"")],
}


def packed_gray_rows(depth):
    """Rows of gray samples 0 ... 2^depth - 1 in a diagonal pattern, packed MSB first."""
    out = b""
    for y in range(height):
        bits = "".join(format((x + y) % (1 << depth), "0%db" % depth) for x in range(width))
        bits += "0" * (-len(bits) % 8)
        out += b"\x00" + bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
    return out


# tRNS keys wider than the bit depth: libpng warns ("tRNS chunk has out-of-range samples for
# bit_depth") and its expansion compares only the low bits (png_do_expand masks the key).
for depth, key in [(1, 0x00FF), (2, 0x0006), (4, 0x0015), (8, 0x0107)]:
    cases["trns_gray%d_out_of_range.png" % depth] = [
        chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, 0, 0, 0, 0)), chunk(b"tRNS", struct.pack(">H", key)),
        chunk(b"IDAT", zlib.compress(packed_gray_rows(depth))), chunk(b"IEND", b"")]
# RGB 8-bit: pixel (0, 0) is (0, 11, 22); the key has a high byte on every sample.
cases["trns_rgb8_out_of_range.png"] = [chunk(b"IHDR", ihdr), chunk(b"tRNS", struct.pack(">HHH", 0x0100, 0x010B, 0x0116)),
                                       chunk(b"IDAT", idat), chunk(b"IEND", b"")]

references = {}
for name, parts in cases.items():
    data = png(parts)
    (here / name).write_bytes(data)
    try:
        pixels = imagecodecs.png_decode(data)
    except Exception as error:  # libpng refused the file
        references[name] = {"libpng": "error", "message": str(error)[:120]}
        continue
    if pixels.ndim == 2:
        pixels = pixels[:, :, None]
    if pixels.shape[2] <= 2:  # gray (+ alpha from tRNS): RGBA is (g, g, g, a)
        alpha = pixels[:, :, 1:2] if pixels.shape[2] == 2 else numpy.full(pixels.shape[:2] + (1,), 255, pixels.dtype)
        pixels = numpy.concatenate([pixels[:, :, :1]] * 3 + [alpha], axis=2)
    if pixels.shape[2] == 3:
        pixels = numpy.concatenate([pixels, numpy.full(pixels.shape[:2] + (1,), 255, pixels.dtype)], axis=2)
    transparent = int((pixels[:, :, 3] == 0).sum())
    references[name] = {"libpng": "decoded", "rgba8_sha256": hashlib.sha256(pixels.astype(numpy.uint8).tobytes()).hexdigest(),
                        "transparent_pixels": transparent}

(here / "references.json").write_text(json.dumps(references, indent=1, sort_keys=True) + "\n")
print(json.dumps(references, indent=1, sort_keys=True))
