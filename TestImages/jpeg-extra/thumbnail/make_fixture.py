#!/usr/bin/env python3
"""Makes exif_thumbnail.jpg: a sequential 4:2:0 photo whose APP1 Exif block carries a 120x80
JPEG thumbnail in IFD1 (JPEGInterchangeFormat / JPEGInterchangeFormatLength), as cameras write
it, and references.json with djpeg's SHA-256 of the photo and of the thumbnail.

Needs Pillow and Debian's djpeg (libjpeg-turbo-progs). Run from anywhere; writes beside itself.
"""
import hashlib
import io
import json
import struct
import subprocess
from pathlib import Path

from PIL import Image

here = Path(__file__).parent
source = here / "../../corpus/png/extras/photo_900x600_adam7.png"
photo = Image.open(source).convert("RGB")

thumb_buffer = io.BytesIO()
photo.resize((120, 80), Image.LANCZOS).save(thumb_buffer, "JPEG", quality=75)
thumbnail = thumb_buffer.getvalue()


def ifd(entries, next_offset):
    """A big-endian IFD: count, 12-byte entries (tag, type, count, value), next IFD offset."""
    out = struct.pack(">H", len(entries))
    for tag, kind, count, value in entries:
        if kind == 3:
            out += struct.pack(">HHIHH", tag, kind, count, value, 0)
        else:
            out += struct.pack(">HHII", tag, kind, count, value)
    return out + struct.pack(">I", next_offset)


# TIFF header (8) + IFD0 with Orientation (2 + 12 + 4 = 18) + IFD1 with 3 entries (2 + 36 + 4 = 42).
ifd0_offset = 8
ifd1_offset = ifd0_offset + 18
thumb_offset = ifd1_offset + 42
tiff = b"MM" + struct.pack(">HI", 42, ifd0_offset)
tiff += ifd([(0x0112, 3, 1, 1)], ifd1_offset)
tiff += ifd([(0x0103, 3, 1, 6), (0x0201, 4, 1, thumb_offset), (0x0202, 4, 1, len(thumbnail))], 0)
assert len(tiff) == thumb_offset
exif = b"Exif\x00\x00" + tiff + thumbnail

photo.save(here / "exif_thumbnail.jpg", "JPEG", quality=85, subsampling=2, exif=exif)


def djpeg_sha256(jpeg_bytes):
    ppm = subprocess.run(["djpeg", "-pnm"], input=jpeg_bytes, capture_output=True, check=True).stdout
    # Binary PPM: "P6\n<w> <h>\n255\n" then the samples.
    header_end = 0
    for _ in range(3):
        header_end = ppm.index(b"\n", header_end) + 1
    return hashlib.sha256(ppm[header_end:]).hexdigest()


references = {
    "exif_thumbnail.jpg": {
        "width": photo.width, "height": photo.height,
        "sha256": djpeg_sha256((here / "exif_thumbnail.jpg").read_bytes()),
        "thumbnail": {"width": 120, "height": 80, "sha256": djpeg_sha256(thumbnail)},
    }
}
(here / "references.json").write_text(json.dumps(references, indent=1) + "\n")
print(json.dumps(references, indent=1))
