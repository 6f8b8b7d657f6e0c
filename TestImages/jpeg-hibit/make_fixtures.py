#!/usr/bin/env python3
"""Makes the 12-bit and lossless JPEG fixtures in this directory and their references.

Every reference is libjpeg-turbo 3.1 (the build PyPI's imagecodecs bundles):
- whole decodes: imagecodecs.jpeg8_decode, hashed as the bytes ImageCore holds (gray/RGB,
  8-bit samples for lossless precision <= 8, else big-endian 16-bit samples);
- 12-bit scaled decodes (1/2, 1/4, 1/8): `hibit_tool decode12`, a small C program (beside this
  script) that drives the same library with scale_num/scale_denom; it is compiled here with gcc
  against the system jpeglib.h (ABI version 80) and linked to imagecodecs' libjpeg;
- 12-bit progressive files are written by `hibit_tool encode12p` (jpeg_simple_progression) or
  `encode12s` (the scan scripts in PROGRESSIVE below: odd sizes, 4:2:0 / 4:4:4 / gray, successive
  approximation, non-interleaved DC, scripts that stop before every coefficient is exact).
- Block smoothing of incomplete 12-bit progressive data: every progressive file cut at each scan
  boundary (EOI appended), in the middle of each scan's data (no EOI) and whole, at 1/1
  (imagecodecs.jpeg8_decode) and 1/2, 1/4, 1/8 (`hibit_tool decode12`, checked equal to
  imagecodecs at 1/1), in "cuts".

Lossless files come from imagecodecs.jpeg8_encode (predictors 1-7, precisions 2-16) and from
`encode_lossless` below, a minimal writer for what imagecodecs cannot ask for: point transforms,
restart intervals, sampling factors and one scan per component. It predicts exactly as
libjpeg-turbo's decoder reconstructs (restarts reset prediction from the first row of the iMCU
row being undifferenced), so libjpeg-turbo decodes its files to the source samples >> Pt << Pt.

Truncated and damaged copies have references too (libjpeg-turbo decodes past the damage).

Usage: python3 TestImages/jpeg-hibit/make_fixtures.py   (needs numpy, imagecodecs, gcc)
"""

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import imagecodecs
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "jpeg-extra" / "smoothing"))
from make_smoothing_references import scans  # noqa: E402  (the 8-bit smoothing fixtures' scan finder)
RNG = np.random.default_rng(1212)


def synthetic(width, height, channels, bits):
    """Gradients, a checker and noise, `bits` wide."""
    y, x = np.mgrid[0:height, 0:width]
    top = (1 << bits) - 1
    planes = []
    for c in range(channels):
        gradient = (x * (c + 1) * 37 + y * (3 - c) * 23) % (top + 1)
        checker = ((x // 5 + y // 7) % 2) * (top // 3)
        noise = RNG.integers(0, max(top // 16, 2), size=(height, width))
        planes.append((gradient + checker + noise) % (top + 1))
    image = np.stack(planes, axis=-1) if channels > 1 else planes[0]
    return image.astype(np.uint8 if bits <= 8 else np.uint16)


def image_bytes(array):
    """The pixels as ImageCore holds them."""
    return array.astype(">u2" if array.dtype == np.uint16 else "u1").tobytes()


def reference(data):
    decoded = imagecodecs.jpeg8_decode(data)
    return {"width": int(decoded.shape[1]), "height": int(decoded.shape[0]),
            "channels": 1 if decoded.ndim == 2 else int(decoded.shape[2]),
            "sha256": hashlib.sha256(image_bytes(decoded)).hexdigest()}


# --- a minimal lossless JPEG writer --------------------------------------------------------

class BitWriter:
    def __init__(self):
        self.out = bytearray()
        self.accumulator = 0
        self.count = 0

    def put(self, value, bits):
        for shift in range(bits - 1, -1, -1):
            self.accumulator = self.accumulator << 1 | (value >> shift & 1)
            self.count += 1
            if self.count == 8:
                self.out.append(self.accumulator)
                if self.accumulator == 0xFF:
                    self.out.append(0)
                self.accumulator = self.count = 0

    def flush(self):
        while self.count:
            self.put(1, 1)


def segment(marker, payload):
    return bytes([0xFF, marker]) + (len(payload) + 2).to_bytes(2, "big") + bytes(payload)


def encode_lossless(size, components, precision, sampling, scans, restart_rows=0):
    """`size`: (width, height) of the image; `components`: sample planes, each
    ceil(height * V / Vmax) x ceil(width * H / Hmax); `sampling`: (H, V) per component;
    `scans`: (component indices, predictor, point transform) per scan; `restart_rows`: restart
    interval in MCU rows of each scan (0: none)."""
    width, height = size
    hmax, vmax = max(h for h, _ in sampling), max(v for _, v in sampling)
    widths = [-(-width * h // hmax) for h, _ in sampling]
    heights = [-(-height * v // vmax) for _, v in sampling]
    assert [c.shape for c in components] == list(zip(heights, widths)), "plane sizes"
    out = bytearray(b"\xff\xd8")
    sof = [precision] + list(height.to_bytes(2, "big")) + list(width.to_bytes(2, "big")) + [len(components)]
    for index, (h, v) in enumerate(sampling):
        sof += [index + 1, h << 4 | v, 0]
    out += segment(0xC3, sof)
    # DC table 0: the 17 sizes 0...16, all with 5-bit codes.
    out += segment(0xC4, [0x00] + [0, 0, 0, 0, 17] + [0] * 11 + list(range(17)))
    for members, predictor, shift in scans:
        interleaved = len(members) > 1
        if interleaved:
            mcus_per_row = -(-width // hmax)
            mcu_rows = -(-height // vmax)
        else:
            mcus_per_row, mcu_rows = widths[members[0]], heights[members[0]]
        interval = restart_rows * mcus_per_row
        out += segment(0xDD, list(interval.to_bytes(2, "big")))
        out += segment(0xDA, [len(members)] + sum(([m + 1, 0x00] for m in members), []) + [predictor, 0, shift])
        samples = [(components[m].astype(np.int64) >> shift) for m in members]
        # Undifferenced rows the decoder will hold, per member, and its first-row flags.
        first_row = [True] * len(members)
        writer = BitWriter()
        v_of = [sampling[m][1] for m in members]
        h_of = [sampling[m][0] for m in members]
        imcu_rows = -(-height // vmax)
        rows_per_imcu = 1 if interleaved else v_of[0]
        differences = {}   # (member, row, column) -> difference

        def predict(k, row, column, reset_row):
            plane = samples[k]
            if row == reset_row:
                return (1 << (precision - shift - 1)) if column == 0 else int(plane[row, column - 1])
            if column == 0:
                return int(plane[row - 1, 0])
            a, b, c = int(plane[row, column - 1]), int(plane[row - 1, column]), int(plane[row - 1, column - 1])
            return [None, a, b, c, a + b - c, a + ((b - c) >> 1), b + ((a - c) >> 1), (a + b) >> 1][predictor]

        mcu_row = 0
        restarts = 0
        for imcu in range(imcu_rows):
            rows_here = rows_per_imcu
            if not interleaved:
                rows_here = min(v_of[0], heights[members[0]] - imcu * v_of[0])
            # A restart before any MCU row of this iMCU row resets prediction from its first row.
            reset = imcu == 0 or (restart_rows and any((mcu_row + r) % restart_rows == 0 for r in range(rows_here)))
            for k, m in enumerate(members):
                v = sampling[m][1]
                first = imcu * v
                for row in range(first, min(first + v, heights[m])):
                    reset_row = first if reset else -1
                    for column in range(widths[m]):
                        value = int(samples[k][row, column]) - predict(k, row, column, reset_row)
                        differences[(k, row, column)] = value & 0xFFFF
            for r in range(rows_here):
                if restart_rows and mcu_row and mcu_row % restart_rows == 0:
                    writer.flush()
                    out += writer.out
                    writer.out = bytearray()
                    out += bytes([0xFF, 0xD0 + restarts % 8])
                    restarts += 1
                for mcu in range(mcus_per_row):
                    for k, m in enumerate(members):
                        hh, vv = (h_of[k], v_of[k]) if interleaved else (1, 1)
                        for by in range(vv):
                            for bx in range(hh):
                                row = (mcu_row * vv + by) if interleaved else mcu_row
                                column = mcu * hh + bx
                                d = differences.get((k, row, column), 0)
                                if d == 0x8000:
                                    writer.put(16, 5)
                                    continue
                                if d > 0x8000:
                                    d -= 0x10000
                                size = abs(d).bit_length()
                                writer.put(size, 5)
                                if size:
                                    writer.put(d if d > 0 else d + (1 << size) - 1, size)
                mcu_row += 1
        writer.flush()
        out += writer.out
    return bytes(out + b"\xff\xd9")


# --- the fixtures ---------------------------------------------------------------------------

# 12-bit progressive fixtures beyond jpeg_simple_progression: (name, width, height, channels,
# quality, luma sampling, scan script: "components Ss Se Ah Al" per scan).
PROGRESSIVE = [
    ("twelve_progressive_420_odd.jpg", 37, 23, 3, 75, None, None),
    ("twelve_progressive_444_scans.jpg", 45, 29, 3, 85, "11",
     ["012 0 0 0 1", "0 1 5 0 2", "2 1 63 0 1", "1 1 63 0 1", "0 6 63 0 2", "0 1 63 2 1",
      "012 0 0 1 0", "2 1 63 1 0", "1 1 63 1 0", "0 1 63 1 0"]),
    # Stops with AC 1-2 at Al = 1 and AC 10-63 never sent: even the whole file is smoothed.
    ("twelve_progressive_gray_short.jpg", 53, 31, 1, 80, "11", ["0 0 0 0 0", "0 1 2 0 1", "0 3 9 0 0"]),
    # 34 rows: 3 iMCU rows, the last with one luma block row; DC one component at a time;
    # Cr never gets AC, luma only 1-5.
    ("twelve_progressive_420_short.jpg", 50, 34, 3, 70, "22",
     ["0 0 0 0 0", "1 0 0 0 0", "2 0 0 0 0", "0 1 5 0 0", "1 1 63 0 0"]),
]


def cut_references(name, data, tool, scratch):
    """libjpeg-turbo's pictures of `data` cut at every scan boundary (EOI appended), inside every
    scan (no EOI) and whole, at every scale."""
    found = scans(data)
    cuts = [(start, "boundary") for start, _, _ in found[1:]] + [((first + end) // 2, "mid") for _, first, end in found]
    cuts.append((len(data), "whole"))
    result = []
    for cut, kind in sorted(cuts):
        prefix = data[:cut] + (b"\xff\xd9" if kind == "boundary" else b"")
        whole = reference(prefix)
        path = scratch / "cut.jpg"
        path.write_bytes(prefix)
        for denominator in (1, 2, 4, 8):
            out = scratch / "cut.raw"
            run = subprocess.run([str(tool), "decode12", str(path), str(denominator), str(out)],
                                 check=True, capture_output=True, text=True)
            w, h, c = map(int, run.stdout.split())
            digest = hashlib.sha256(out.read_bytes()).hexdigest()
            if denominator == 1:
                assert digest == whole["sha256"], f"hibit_tool and imagecodecs disagree on {name} cut at {cut}"
            result.append({"path": name, "cut": cut, "kind": kind, "eoiAppended": kind == "boundary",
                           "scale": denominator, "width": w, "height": h, "channels": c, "sha256": digest})
    return result


def build_tool(directory):
    """Compiles hibit_tool.c against the system jpeglib.h (ABI 80) and imagecodecs' libjpeg."""
    libs = Path(imagecodecs.__file__).resolve().parent.parent / "imagecodecs.libs"
    library = next(libs.glob("libjpeg-*.so*"))
    config = Path("/usr/include/x86_64-linux-gnu/jconfig.h").read_text().replace(
        "#define JPEG_LIB_VERSION  62", "#define JPEG_LIB_VERSION  80")
    (directory / "jconfig.h").write_text(config)
    tool = directory / "hibit_tool"
    subprocess.run(["gcc", "-O1", "-I", str(directory), str(HERE / "hibit_tool.c"), "-o", str(tool),
                    str(library), f"-Wl,-rpath,{libs}"], check=True)
    return tool


def main():
    files = {}
    twelve = synthetic(83, 61, 3, 12)
    files["twelve_420.jpg"] = imagecodecs.jpeg8_encode(twelve, level=85, bitspersample=12)
    files["twelve_422.jpg"] = imagecodecs.jpeg8_encode(twelve, level=95, bitspersample=12, subsampling=(2, 1))
    files["twelve_gray.jpg"] = imagecodecs.jpeg8_encode(np.ascontiguousarray(twelve[..., 1]), level=90, bitspersample=12)
    files["lossless_12bit_rgb_p1.jpg"] = imagecodecs.jpeg8_encode(twelve, lossless=True, predictor=1, bitspersample=12)
    for predictor, bits in zip(range(1, 8), (2, 3, 6, 8, 9, 13, 16)):
        for channels in (1, 3):
            source = synthetic(29 + predictor, 17 + 2 * predictor, channels, bits)
            name = f"lossless_{bits}bit_{'gray' if channels == 1 else 'rgb'}_p{predictor}.jpg"
            files[name] = imagecodecs.jpeg8_encode(source, lossless=True, predictor=predictor, bitspersample=bits)
    # Restarts, point transforms, sampling, one scan per component (our writer).
    rgb12 = synthetic(45, 33, 3, 12)
    planes = [rgb12[..., 0], rgb12[:, ::2, 1], rgb12[::2, ::2, 2]]
    files["lossless_12bit_subsampled_restarts.jpg"] = encode_lossless(
        (45, 33), planes, 12, [(2, 2), (1, 2), (1, 1)], [([0, 1, 2], 6, 0)], restart_rows=2)
    files["lossless_16bit_gray_pt3_restarts.jpg"] = encode_lossless(
        (37, 23), [synthetic(37, 23, 1, 16)], 16, [(1, 1)], [([0], 5, 3)], restart_rows=1)
    rgb8 = synthetic(31, 26, 3, 8)
    files["lossless_8bit_three_scans.jpg"] = encode_lossless(
        (31, 26), [rgb8[::2, :, 0], rgb8[..., 1], rgb8[:, ::2, 2]], 8, [(2, 1), (2, 2), (1, 2)],
        [([0], 1, 0), ([1], 4, 1), ([2], 7, 2)])
    files["lossless_10bit_noninterleaved_v2_restarts.jpg"] = encode_lossless(
        (21, 19), [synthetic(21, 19, 1, 10)], 10, [(1, 2)], [([0], 3, 0)], restart_rows=1)
    cmyk = synthetic(9, 7, 3, 8)
    files["lossless_8bit_cmyk_unsupported.jpg"] = encode_lossless(
        (9, 7), [cmyk[..., 0], cmyk[..., 1], cmyk[..., 2], cmyk[..., 0]], 8, [(1, 1)] * 4, [([0, 1, 2, 3], 1, 0)])
    files["lossless_6bit_1x1.jpg"] = encode_lossless((1, 1), [synthetic(1, 1, 1, 6)], 6, [(1, 1)], [([0], 7, 0)])

    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        tool = build_tool(scratch)
        for name, channels, quality in (("twelve_progressive.jpg", 3, 88), ("twelve_progressive_gray.jpg", 1, 70)):
            source = twelve if channels == 3 else np.ascontiguousarray(twelve[..., 2])
            raw = scratch / "in.raw"
            raw.write_bytes(image_bytes(source))
            subprocess.run([str(tool), "encode12p", str(raw), str(source.shape[1]), str(source.shape[0]),
                            str(channels), str(quality), str(scratch / name)], check=True)
            files[name] = (scratch / name).read_bytes()
        for name, width, height, channels, quality, sampling, script in PROGRESSIVE:
            source = synthetic(width, height, channels, 12)
            raw = scratch / "in.raw"
            raw.write_bytes(image_bytes(source))
            shape = [str(raw), str(width), str(height), str(channels), str(quality)]
            if script is None:
                subprocess.run([str(tool), "encode12p", *shape, str(scratch / name)], check=True)
            else:
                (scratch / "scans.txt").write_text("\n".join(script) + "\n")
                subprocess.run([str(tool), "encode12s", *shape, sampling, str(scratch / "scans.txt"), str(scratch / name)],
                               check=True)
            files[name] = (scratch / name).read_bytes()
        # Damaged copies: cut short, and a flipped byte inside the entropy-coded data.
        for name in ("twelve_420.jpg", "lossless_12bit_rgb_p1.jpg", "lossless_12bit_subsampled_restarts.jpg"):
            data = files[name]
            files[name.replace(".jpg", "_truncated.jpg")] = data[:len(data) * 6 // 10]
        for name in ("lossless_16bit_gray_pt3_restarts.jpg", "lossless_12bit_rgb_p1.jpg"):
            damaged = bytearray(files[name])
            damaged[len(damaged) // 2] ^= 0x5A
            files[name.replace(".jpg", "_damaged.jpg")] = bytes(damaged)

        references = {"generator": "TestImages/jpeg-hibit/make_fixtures.py",
                      "decoder": f"libjpeg-turbo {imagecodecs.jpeg8_version()} via imagecodecs (whole) and hibit_tool (scaled)",
                      "files": {}, "scaled": [], "cuts": []}
        for name, data in sorted(files.items()):
            (HERE / name).write_bytes(data)
            references["files"][name] = reference(data)
        for name in sorted(n for n in files if n.startswith("twelve_") and "truncated" not in n):
            for denominator in (2, 4, 8):
                out = scratch / "scaled.raw"
                result = subprocess.run([str(tool), "decode12", str(HERE / name), str(denominator), str(out)],
                                        check=True, capture_output=True, text=True)
                w, h, c = map(int, result.stdout.split())
                references["scaled"].append({"path": name, "scale": denominator, "width": w, "height": h,
                                             "channels": c, "sha256": hashlib.sha256(out.read_bytes()).hexdigest()})
        for name in sorted(n for n in files if n.startswith("twelve_progressive")):
            references["cuts"] += cut_references(name, files[name], tool, scratch)
    (HERE / "references.json").write_text(json.dumps(references, indent=1, sort_keys=True) + "\n")
    print(f"{len(files)} files, {len(references['scaled'])} scaled references, {len(references['cuts'])} cut references")


if __name__ == "__main__":
    main()
