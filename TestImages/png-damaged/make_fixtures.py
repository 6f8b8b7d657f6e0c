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

references = {}
for name, parts in cases.items():
    data = png(parts)
    (here / name).write_bytes(data)
    try:
        pixels = imagecodecs.png_decode(data)
    except Exception as error:  # libpng refused the file
        references[name] = {"libpng": "error", "message": str(error)[:120]}
        continue
    if pixels.ndim == 3 and pixels.shape[2] == 3:
        pixels = numpy.concatenate([pixels, numpy.full(pixels.shape[:2] + (1,), 255, pixels.dtype)], axis=2)
    references[name] = {"libpng": "decoded", "rgba8_sha256": hashlib.sha256(pixels.astype(numpy.uint8).tobytes()).hexdigest()}

(here / "references.json").write_text(json.dumps(references, indent=1, sort_keys=True) + "\n")
print(json.dumps(references, indent=1, sort_keys=True))
