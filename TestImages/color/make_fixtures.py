#!/usr/bin/env python3
"""Colour-management fixtures and their LittleCMS references (run from anywhere).

Writes, into TestImages/color/:
  profiles/*.icc          the profiles this project makes (the copied ones are already there, see
                          profiles/LICENSE.md): a v4 Display P3 (para curves, chad), synthetic
                          CMYK press profiles as lut16 (v2), lut8 (v2) and lutAToB (v4), a v4 RGB
                          LUT profile (mAB, XYZ PCS) and a v4 gray profile (para)
  reference/*.bin         LittleCMS (Pillow's ImageCms, lcms 2.x) output for the test charts:
                          NAME-perceptual.bin, NAME-relative.bin and NAME-saturation.bin, RGB
                          8-bit (gray for gray); jpeg-NAME-INTENT.bin for the CMYK JPEGs with
                          Adobe's press profiles (their decoded CMYK through LittleCMS)
  *.png, *.jpg, *.webp    the charts in files that carry the colour information (iCCP, gAMA+cHRM,
                          cICP, sRGB; JPEG APP2; WebP ICCP)
  manifest.json           what each file is and which reference it must match

The charts are computed, never decoded: rgb = 16 levels per channel (64x64 = 4096 colours),
gray = a 4096-step ramp, cmyk = 8 levels per ink (64x64). The Swift tests build the same charts.
"""
import io
import json
import math
import os
import struct
import zlib

import numpy as np
from PIL import Image, ImageCms

HERE = os.path.dirname(os.path.abspath(__file__))
PROFILES = os.path.join(HERE, "profiles")
REFERENCE = os.path.join(HERE, "reference")

D50 = np.array([0.9642, 1.0, 0.8249])
BRADFORD = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])


# ---------------------------------------------------------------- charts

def rgb_chart():
    levels = [round(i * 255 / 15) for i in range(16)]
    px = [(r, g, b) for r in levels for g in levels for b in levels]
    return np.array(px, dtype=np.uint8).reshape(64, 64, 3)


def gray_chart():
    return np.array([round(i * 255 / 4095) for i in range(4096)], dtype=np.uint8).reshape(64, 64)


def cmyk_chart():
    levels = [round(i * 255 / 7) for i in range(8)]
    px = [(c, m, y, k) for c in levels for m in levels for y in levels for k in levels]
    return np.array(px, dtype=np.uint8).reshape(64, 64, 4)


# ---------------------------------------------------------------- ICC writing (ICC.1:2010)

def s15(v):
    return struct.pack(">i", int(round(v * 65536)))


def xyz_tag(xyz):
    return b"XYZ " + b"\0" * 4 + b"".join(s15(v) for v in xyz)


def para_tag(function, params):
    return b"para" + b"\0" * 4 + struct.pack(">HH", function, 0) + b"".join(s15(p) for p in params)


def curv_gamma(g):
    return b"curv" + b"\0" * 4 + struct.pack(">IH", 1, int(round(g * 256))) + b"\0\0"


def curv_table(values):
    return b"curv" + b"\0" * 4 + struct.pack(">I", len(values)) + b"".join(struct.pack(">H", v) for v in values)


def sf32_tag(m):
    return b"sf32" + b"\0" * 4 + b"".join(s15(v) for v in np.asarray(m).flatten())


def text_tag(version, text):
    if version >= 4:
        utf16 = text.encode("utf-16-be")
        return b"mluc" + b"\0" * 4 + struct.pack(">II", 1, 12) + b"enUS" + struct.pack(">II", len(utf16), 28) + utf16
    ascii_ = text.encode("ascii") + b"\0"
    return b"desc" + b"\0" * 4 + struct.pack(">I", len(ascii_)) + ascii_ + b"\0" * (4 + 4 + 3 + 67)


def pad4(b):
    return b + b"\0" * (-len(b) % 4)


def build_profile(version, device_class, color_space, pcs, tags):
    """tags: list of (signature, bytes). Returns the profile bytes with header and table."""
    count = len(tags)
    offset = 128 + 4 + 12 * count
    table, data = b"", b""
    for sig, body in tags:
        table += sig.encode() + struct.pack(">II", offset + len(data), len(body))
        data += pad4(body)
    size = offset + len(data)
    major, minor = (4, 0x30) if version >= 4 else (2, 0x10)
    header = struct.pack(">I", size) + b"lcms" + bytes([major, minor, 0, 0]) + device_class.encode() + \
        color_space.encode() + pcs.encode() + struct.pack(">6H", 2026, 1, 1, 0, 0, 0) + b"acsp" + \
        b"APPL" + struct.pack(">I", 0) + b"\0" * 8 + b"\0" * 8 + struct.pack(">I", 0) + \
        b"".join(s15(v) for v in D50) + b"lcms" + b"\0" * 16 + b"\0" * 28
    assert len(header) == 128, len(header)
    return header + struct.pack(">I", count) + table + data


def bradford(src_white, dst_white):
    s, d = BRADFORD @ src_white, BRADFORD @ dst_white
    return np.linalg.inv(BRADFORD) @ np.diag(d / s) @ BRADFORD


def xy_to_xyz(x, y):
    return np.array([x / y, 1.0, (1 - x - y) / y])


def rgb_to_pcs(white, primaries):
    """Linear RGB -> XYZ D50 (Bradford), the way LittleCMS builds RGB profiles."""
    w = xy_to_xyz(*white)
    p = np.column_stack([xy_to_xyz(*c) for c in primaries])
    scale = np.linalg.solve(p, w)
    m = p * scale
    return bradford(w, D50) @ m, w


def matrix_profile(white, primaries, curve_tags, description, version=4):
    m, w = rgb_to_pcs(white, primaries)
    tags = [("desc", text_tag(version, description)), ("cprt", text_tag(version, "No copyright, use freely")),
            ("wtpt", xyz_tag(D50)),
            ("rXYZ", xyz_tag(m[:, 0])), ("gXYZ", xyz_tag(m[:, 1])), ("bXYZ", xyz_tag(m[:, 2]))]
    if version >= 4:
        tags.append(("chad", sf32_tag(bradford(w, D50))))
    tags += [("rTRC", curve_tags[0]), ("gTRC", curve_tags[1]), ("bTRC", curve_tags[2])]
    return build_profile(version, "mntr", "RGB ", "XYZ ", tags)


SRGB_PARA = (3, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
D65 = (0.3127, 0.3290)
P3 = [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
BT2020 = [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)]
BT709 = [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]


# ---------------------------------------------------------------- synthetic CMYK press

def lab_from_xyz(xyz):
    def f(t):
        return np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    fx, fy, fz = (f(xyz[..., i] / D50[i]) for i in range(3))
    return np.stack([116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)], axis=-1)


SRGB_TO_PCS, _ = rgb_to_pcs(D65, BT709)


def press_xyz(cmyk):
    """Ink (0..1) -> XYZ (D50) of a simple press: dot gain, per-band absorption, paper white."""
    gain = 1 - (1 - cmyk) ** 1.35
    c, m, y, k = (gain[..., i] for i in range(4))
    absorb = np.array([[0.86, 0.12, 0.05, 0.92], [0.30, 0.84, 0.10, 0.92], [0.08, 0.28, 0.90, 0.91]])
    bands = []
    for row in absorb:
        bands.append((1 - row[0] * c) * (1 - row[1] * m) * (1 - row[2] * y) * (1 - row[3] * k))
    paper = np.array([0.88, 0.89, 0.85])
    linear = np.stack(bands, axis=-1) * paper
    return linear @ SRGB_TO_PCS.T, SRGB_TO_PCS @ paper


def press_lab(cmyk, perceptual):
    xyz, paper = press_xyz(cmyk)
    relative = xyz / paper * D50     # media-relative colorimetry (A2B1)
    lab = lab_from_xyz(relative)
    if perceptual:
        # The perceptual rendering maps the press black (about L 13) to L 0 and lifts shadows,
        # as a reference-medium rendering does; a and b are compressed a little.
        black = lab_from_xyz(press_xyz(np.ones(4))[0] / paper * D50)[0]
        lab = lab.copy()
        lab[..., 0] = (lab[..., 0] - black) * 100 / (100 - black)
        lab[..., 1:] *= 0.92
    return lab


def grid_inputs(points, inputs):
    axes = np.linspace(0, 1, points)
    mesh = np.meshgrid(*([axes] * inputs), indexing="ij")
    return np.stack([a.flatten() for a in mesh], axis=-1)


def encode_lab16_legacy(lab):
    l = np.clip(lab[..., 0] / 100 * 65280, 0, 65535)
    a = np.clip((lab[..., 1] + 128) * 256, 0, 65535)
    b = np.clip((lab[..., 2] + 128) * 256, 0, 65535)
    return np.round(np.stack([l, a, b], axis=-1)).astype(">u2")


def encode_lab16_v4(lab):
    l = np.clip(lab[..., 0] / 100 * 65535, 0, 65535)
    a = np.clip((lab[..., 1] + 128) * 257, 0, 65535)
    b = np.clip((lab[..., 2] + 128) * 257, 0, 65535)
    return np.round(np.stack([l, a, b], axis=-1)).astype(">u2")


def encode_lab8(lab):
    l = np.clip(lab[..., 0] / 100 * 255, 0, 255)
    a = np.clip(lab[..., 1] + 128, 0, 255)
    b = np.clip(lab[..., 2] + 128, 0, 255)
    return np.round(np.stack([l, a, b], axis=-1)).astype(np.uint8)


IDENTITY9 = [1, 0, 0, 0, 1, 0, 0, 0, 1]


def lut16_tag(points, clut16, inputs, outputs, in_curve=None):
    n = 256
    head = b"mft2" + b"\0" * 4 + bytes([inputs, outputs, points, 0]) + b"".join(s15(v) for v in IDENTITY9)
    head += struct.pack(">HH", n, n)
    ramp = [round(i * 65535 / (n - 1)) for i in range(n)]
    in_table = in_curve if in_curve is not None else ramp
    body = b"".join(struct.pack(">%dH" % n, *in_table) for _ in range(inputs))
    body += clut16.tobytes()
    body += b"".join(struct.pack(">%dH" % n, *ramp) for _ in range(outputs))
    return head + body


def lut8_tag(points, clut8, inputs, outputs):
    head = b"mft1" + b"\0" * 4 + bytes([inputs, outputs, points, 0]) + b"".join(s15(v) for v in IDENTITY9)
    ramp = bytes(range(256))
    return head + ramp * inputs + clut8.tobytes() + ramp * outputs


def curve_set(curves):
    return b"".join(pad4(c) for c in curves)


def mab_tag(inputs, outputs, grid, clut16, a_curves, b_curves, m_curves=None, matrix=None):
    """lutAToBType with A curves, CLUT (16-bit), optional M curves and matrix, B curves."""
    parts = {}
    cursor = 32
    body = b""

    def place(name, blob):
        nonlocal cursor, body
        parts[name] = cursor
        body += pad4(blob)
        cursor += len(pad4(blob))
    place("B", curve_set(b_curves))
    if matrix is not None:
        place("matrix", b"".join(s15(v) for v in matrix))
    if m_curves is not None:
        place("M", curve_set(m_curves))
    clut = bytes(list(grid) + [0] * (16 - len(grid))) + bytes([2, 0, 0, 0]) + clut16.tobytes()
    place("CLUT", clut)
    place("A", curve_set(a_curves))
    head = b"mAB " + b"\0" * 4 + bytes([inputs, outputs, 0, 0]) + struct.pack(
        ">5I", parts["B"], parts.get("matrix", 0), parts.get("M", 0), parts["CLUT"], parts["A"])
    return head + body


def identity_curv():
    return b"curv" + b"\0" * 8


def press_profiles():
    points = 9
    nodes = grid_inputs(points, 4)
    perceptual = press_lab(nodes, True)
    relative = press_lab(nodes, False)
    common = [("wtpt", xyz_tag(D50))]
    # v2 lut16 (the common press-profile layout), with a B2A0 placeholder (identity-ish) left out.
    v2 = build_profile(2, "prtr", "CMYK", "Lab ", [("desc", text_tag(2, "Press CMYK (synthetic) lut16"))] + common + [
        ("A2B0", lut16_tag(points, encode_lab16_legacy(perceptual), 4, 3)),
        ("A2B1", lut16_tag(points, encode_lab16_legacy(relative), 4, 3))])
    lut8 = build_profile(2, "prtr", "CMYK", "Lab ", [("desc", text_tag(2, "Press CMYK (synthetic) lut8"))] + common + [
        ("A2B0", lut8_tag(points, encode_lab8(perceptual), 4, 3)),
        ("A2B1", lut8_tag(points, encode_lab8(relative), 4, 3))])
    # v4 lutAToB: A curves shape the ink axes (the CLUT is sampled through their inverse).
    a_curve = para_tag(0, [0.8])
    shaped = nodes ** (1 / 0.8)
    v4 = build_profile(4, "prtr", "CMYK", "Lab ", [("desc", text_tag(4, "Press CMYK (synthetic) mAB"))] + common + [
        ("A2B0", mab_tag(4, 3, [points] * 4, encode_lab16_v4(press_lab(shaped, True)), [a_curve] * 4, [identity_curv()] * 3)),
        ("A2B1", mab_tag(4, 3, [points] * 4, encode_lab16_v4(press_lab(shaped, False)), [a_curve] * 4, [identity_curv()] * 3))])
    return {"PressCMYK-v2-lut16": v2, "PressCMYK-v2-lut8": lut8, "PressCMYK-v4-mAB": v4}


def wide_rgb_lut_profile():
    """A v4 RGB profile whose A2B0 is a 17-point mAB to XYZ: gamma-2.2 A curves, a CLUT holding a
    wide-gamut primaries matrix with a slight hue twist, M curves identity, matrix, B curves."""
    points = 17
    nodes = grid_inputs(points, 3)
    m, _ = rgb_to_pcs(D65, [(0.700, 0.295), (0.190, 0.760), (0.140, 0.050)])
    linear = nodes.copy()
    linear[..., 1] = np.clip(linear[..., 1] + 0.04 * linear[..., 0] * (1 - linear[..., 1]), 0, 1)
    xyz = linear @ m.T
    # The CLUT stores XYZ / 2 (u1Fixed15 encoding: 1.0 is 0x8000), the matrix doubles ... no: keep
    # the PCS encoding in the CLUT and an identity matrix, so the matrix element is exercised too.
    clut = np.round(np.clip(xyz * 32768 / 65535, 0, 1) * 65535).astype(">u2")
    matrix = IDENTITY9 + [0, 0, 0]
    tags = [("desc", text_tag(4, "Wide RGB (synthetic) mAB")), ("wtpt", xyz_tag(D50)),
            ("A2B0", mab_tag(3, 3, [points] * 3, clut, [para_tag(0, [2.2])] * 3, [identity_curv()] * 3,
                             m_curves=[identity_curv()] * 3, matrix=matrix))]
    return build_profile(4, "mntr", "RGB ", "XYZ ", tags)


def gray_v4_profile():
    tags = [("desc", text_tag(4, "Gray gamma 1.8 (para)")), ("wtpt", xyz_tag(D50)), ("kTRC", para_tag(0, [1.8]))]
    return build_profile(4, "mntr", "GRAY", "XYZ ", tags)


def made_profiles():
    bt709_para = (3, [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081])
    out = {
        "DisplayP3-v4": matrix_profile(D65, P3, [para_tag(*SRGB_PARA)] * 3, "Display P3"),
        "WideRGB-v4-mAB": wide_rgb_lut_profile(),
        "Gray-v4-para": gray_v4_profile(),
        # What the PNG chunks / cICP code points say, as profiles for LittleCMS:
        "equivalent-gAMA45455-cHRM-P3": matrix_profile(D65, P3, [para_tag(0, [100000 / 45455])] * 3, "gAMA+cHRM"),
        "equivalent-gAMA55556": matrix_profile(D65, BT709, [para_tag(0, [100000 / 55556])] * 3, "gAMA 0.55556"),
        "equivalent-cICP-12-13": matrix_profile(D65, P3, [para_tag(*SRGB_PARA)] * 3, "cICP 12/13"),
        "equivalent-cICP-9-1": matrix_profile(D65, BT2020, [para_tag(*bt709_para)] * 3, "cICP 9/1"),
        "equivalent-cICP-1-4": matrix_profile(D65, BT709, [para_tag(0, [2.2])] * 3, "cICP 1/4"),
    }
    out.update(press_profiles())
    return out


# ---------------------------------------------------------------- references

SRGB = ImageCms.createProfile("sRGB")
INTENTS = {"perceptual": ImageCms.Intent.PERCEPTUAL, "relative": ImageCms.Intent.RELATIVE_COLORIMETRIC,
           "saturation": ImageCms.Intent.SATURATION}
# Real press profiles (lut16, Lab PCS, A2B0/A2B1/A2B2), copied unmodified: see profiles/LICENSE.md.
ADOBE_CMYK = ["USWebCoatedSWOP", "CoatedFOGRA39"]


def lcms(profile_bytes, chart, mode, intent, exact):
    """exact: LittleCMS evaluates the profile for every pixel (cmsFLAGS_NOOPTIMIZE); otherwise it
    resamples the whole conversion on its own grid first (the default, what applications get).
    Matrix/TRC and gray profiles are compared with the exact output: LittleCMS's default 33-point
    resampling of a gray-to-RGB conversion is 10 off near black for a linear (gamma 1.0) gray.
    LUT profiles are compared with the default output, whose grid (33 points for RGB, 17 for
    CMYK) interpolates clipped values at the gamut edge exactly as this project's grid does."""
    src = ImageCms.ImageCmsProfile(io.BytesIO(profile_bytes))
    flags = ImageCms.Flags.NOOPTIMIZE if exact else ImageCms.Flags.NONE
    t = ImageCms.buildTransform(src, SRGB, mode, "RGB", renderingIntent=INTENTS[intent], flags=flags)
    return np.asarray(ImageCms.applyTransform(Image.fromarray(chart, mode), t))


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_png(path, pixels, color_type, bit_depth, chunks):
    h, w = pixels.shape[:2]
    raw = b""
    rows = pixels.reshape(h, -1)
    for row in rows:
        raw += b"\0" + (row.astype(">u2").tobytes() if bit_depth == 16 else row.astype(np.uint8).tobytes())
    ihdr = struct.pack(">IIBBBBB", w, h, bit_depth, color_type, 0, 0, 0)
    body = png_chunk(b"IHDR", ihdr) + b"".join(png_chunk(k, d) for k, d in chunks) + \
        png_chunk(b"IDAT", zlib.compress(raw, 9)) + png_chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + body)


def iccp(name, profile):
    return (b"iCCP", name.encode() + b"\0\0" + zlib.compress(profile))


def main():
    os.makedirs(REFERENCE, exist_ok=True)
    profiles = {}
    for name in ["Gray", "Gray-CIE_L", "compatibleWithAdobeRGB1998", "AdobeRGB1998", "ProPhotoRGB"] + ADOBE_CMYK:
        with open(os.path.join(PROFILES, name + ".icc"), "rb") as f:
            profiles[name] = f.read()
    made = made_profiles()
    for name, data in made.items():
        if not name.startswith("equivalent-"):
            with open(os.path.join(PROFILES, name + ".icc"), "wb") as f:
                f.write(data)
    profiles.update(made)

    charts = {"RGB": rgb_chart(), "L": gray_chart(), "CMYK": cmyk_chart()}
    kinds = {}
    manifest = {"profiles": {}, "files": []}
    for name, data in sorted(profiles.items()):
        p = ImageCms.ImageCmsProfile(io.BytesIO(data)).profile
        mode = {"RGB ": "RGB", "GRAY": "L", "CMYK": "CMYK"}[p.xcolor_space]
        kinds[name] = mode
        is_lut = mode == "CMYK" or name.endswith("mAB")
        manifest["profiles"][name] = {"chart": {"RGB": "rgb", "L": "gray", "CMYK": "cmyk"}[mode], "lut": is_lut,
                                      "tolerance": 4 if is_lut else 2,
                                      "littlecms_flags": "default" if is_lut else "NOOPTIMIZE"}
        for intent in INTENTS:
            ref = lcms(data, charts[mode], mode, intent, exact=not is_lut)
            with open(os.path.join(REFERENCE, f"{name}-{intent}.bin"), "wb") as f:
                f.write(ref.tobytes())

    rgb, gray = charts["RGB"], charts["L"]
    files = manifest["files"]

    def add(name, reference, note):
        files.append({"file": name, "reference": reference, "note": note})

    write_png(os.path.join(HERE, "chart-adobergb-v4.png"), rgb, 2, 8, [iccp("AdobeRGB", profiles["AdobeRGB1998"])])
    add("chart-adobergb-v4.png", "AdobeRGB1998-perceptual", "iCCP, v4 matrix/TRC")
    write_png(os.path.join(HERE, "chart-displayp3.png"), rgb, 2, 8, [iccp("Display P3", profiles["DisplayP3-v4"])])
    add("chart-displayp3.png", "DisplayP3-v4-perceptual", "iCCP, v4 para curves")
    write_png(os.path.join(HERE, "chart-prophoto-16.png"), rgb.astype(np.uint16) * 257, 2, 16,
              [iccp("ProPhoto", profiles["ProPhotoRGB"])])
    add("chart-prophoto-16.png", "ProPhotoRGB-perceptual", "iCCP, 16-bit in and out (compared at 8 bits)")
    alpha = np.dstack([rgb, np.full((64, 64), 77, np.uint8)])
    write_png(os.path.join(HERE, "chart-widergb-lut-alpha.png"), alpha, 6, 8, [iccp("Wide", profiles["WideRGB-v4-mAB"])])
    add("chart-widergb-lut-alpha.png", "WideRGB-v4-mAB-perceptual", "iCCP, mAB LUT profile, RGBA (alpha 77 kept)")
    write_png(os.path.join(HERE, "chart-gray.png"), gray, 0, 8, [iccp("Gray", profiles["Gray"])])
    add("chart-gray.png", "Gray-perceptual", "iCCP gray (kTRC)")
    write_png(os.path.join(HERE, "chart-gama-chrm.png"), rgb, 2, 8, [
        (b"gAMA", struct.pack(">I", 45455)),
        (b"cHRM", struct.pack(">8I", 31270, 32900, 68000, 32000, 26500, 69000, 15000, 6000))])
    add("chart-gama-chrm.png", "equivalent-gAMA45455-cHRM-P3-perceptual", "gAMA 45455 + cHRM Display P3")
    write_png(os.path.join(HERE, "chart-gama.png"), rgb, 2, 8, [(b"gAMA", struct.pack(">I", 55556))])
    add("chart-gama.png", "equivalent-gAMA55556-perceptual", "gAMA 55556 alone (BT.709 primaries assumed)")
    for (prim, tf), ref in {(12, 13): "equivalent-cICP-12-13", (9, 1): "equivalent-cICP-9-1",
                            (1, 4): "equivalent-cICP-1-4"}.items():
        name = f"chart-cicp-{prim}-{tf}.png"
        # cICP wins over the iCCP that is present too (PNG 3rd edition 4.3).
        write_png(os.path.join(HERE, name), rgb, 2, 8, [iccp("ProPhoto", profiles["ProPhotoRGB"]),
                                                         (b"cICP", bytes([prim, tf, 0, 1]))])
        add(name, ref + "-perceptual", f"cICP {prim}/{tf}/0/1 beside an iCCP that must lose")
    write_png(os.path.join(HERE, "chart-srgb-chunk.png"), rgb, 2, 8, [(b"sRGB", b"\0"), (b"gAMA", struct.pack(">I", 80000))])
    add("chart-srgb-chunk.png", "identity", "sRGB chunk wins over a wild gAMA: pixels unchanged")
    write_png(os.path.join(HERE, "chart-cicp-pq.png"), rgb, 2, 8, [(b"cICP", bytes([9, 16, 0, 1]))])
    add("chart-cicp-pq.png", "identity", "cICP PQ: unsupported, pixels unchanged")

    Image.fromarray(rgb, "RGB").save(os.path.join(HERE, "chart-prophoto.webp"), lossless=True,
                                     icc_profile=profiles["ProPhotoRGB"], exact=True)
    add("chart-prophoto.webp", "ProPhotoRGB-perceptual", "WebP lossless with ICCP")
    # JPEGs are lossy: the tests compare a .sRGB decode with the .original decode converted.
    Image.fromarray(rgb, "RGB").save(os.path.join(HERE, "chart-displayp3.jpg"), quality=95,
                                     icc_profile=profiles["DisplayP3-v4"])
    add("chart-displayp3.jpg", None, "JPEG APP2 Display P3")
    Image.fromarray(charts["CMYK"], "CMYK").save(os.path.join(HERE, "chart-press-cmyk.jpg"), quality=95,
                                                 icc_profile=profiles["PressCMYK-v2-lut16"])
    add("chart-press-cmyk.jpg", None, "Adobe CMYK JPEG (inverted) with the lut16 press profile")
    # The real press profiles: the JPEG's CMYK as libjpeg decodes it (Pillow undoes Adobe's
    # inversion), converted by LittleCMS with each intent, is the reference.
    for name, file in [("USWebCoatedSWOP", "chart-swop-cmyk.jpg"), ("CoatedFOGRA39", "chart-fogra39-cmyk.jpg")]:
        Image.fromarray(charts["CMYK"], "CMYK").save(os.path.join(HERE, file), quality=95, icc_profile=profiles[name])
        decoded = np.asarray(Image.open(os.path.join(HERE, file)))
        for intent in INTENTS:
            ref = lcms(profiles[name], decoded, "CMYK", intent, exact=False)
            with open(os.path.join(REFERENCE, f"jpeg-{name}-{intent}.bin"), "wb") as f:
                f.write(ref.tobytes())
        files.append({"file": file, "reference": f"jpeg-{name}-perceptual", "tolerance": 4,
                      "note": f"Adobe CMYK JPEG with Adobe's {name} profile (real press profile, lut16 9^4 / 11^4)"})
    Image.fromarray(charts["CMYK"], "CMYK").save(os.path.join(HERE, "chart-cmyk-noprofile.jpg"), quality=95)
    add("chart-cmyk-noprofile.jpg", None, "Adobe CMYK JPEG without a profile: libjpeg's conversion")
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
