#!/usr/bin/env python3
"""Differential sweep of folders of images the project has never seen: every PNG, JPEG, GIF and
WebP is decoded by `imagefeed decode --format rgba8` and by the C libraries (libpng, libjpeg-turbo
and libwebp through imagecodecs, Wuffs through pywuffs for GIF: the first frame), and the RGBA8
pixels compared (16-bit sources: within 1 after scaling). Prints every file that is not
identical (OURS-FAIL: we throw and keep nothing where the library decodes; DIFF / SHAPE;
ref-fail: only the library refuses it; "-partial": we throw, as for damaged or cut files, and
the pixels decoded before are compared) and a count per verdict.

    swift build -c release --product imagefeed
    python3 Benchmarks/crosscheck_folder.py DIR [DIR ...]

Developer tool (pip install imagecodecs pywuffs numpy); not used by the build or the tests. A
failing file found this way gets a fixture and a reference made by a committed script.
"""
import os, subprocess, sys, numpy as np, imagecodecs
from pywuffs import aux, ImageDecoderType, PixelFormat
BIN = os.environ.get("IMAGEFEED", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "release", "imagefeed"))
def read_pam(path):
    data = open(path, "rb").read(); end = data.index(b"ENDHDR\n") + 7
    hdr = dict(l.split(" ", 1) for l in data[:end].decode().splitlines()[1:-1])
    return np.frombuffer(data[end:], np.uint8).reshape(int(hdr["HEIGHT"]), int(hdr["WIDTH"]), int(hdr["DEPTH"]))
def to_rgba8(a):
    sixteen = a.dtype == np.uint16
    if sixteen: a = ((a.astype(np.uint32) * 255 + 32767) // 65535).astype(np.uint8)
    if a.ndim == 2: a = a[:, :, None]
    c = a.shape[2]
    if c == 1: a = np.concatenate([a, a, a, np.full(a.shape[:2] + (1,), 255, np.uint8)], 2)
    elif c == 2: a = np.concatenate([a[:, :, :1]] * 3 + [a[:, :, 1:]], 2)
    elif c == 3: a = np.concatenate([a, np.full(a.shape[:2] + (1,), 255, np.uint8)], 2)
    return a, sixteen
def reference(path, data):
    if data[:8] == b"\x89PNG\r\n\x1a\n": return "png", imagecodecs.png_decode(data)
    if data[:2] == b"\xff\xd8":
        pixels = imagecodecs.jpeg8_decode(data)
        if pixels.ndim == 3 and pixels.shape[2] == 4: raise ValueError("CMYK: libjpeg gives raw CMYK, not compared")
        return "jpeg", pixels
    if data[:4] == b"RIFF": return "webp", imagecodecs.webp_decode(data)
    if data[:3] == b"GIF":
        cfg = aux.ImageDecoderConfig(); cfg.enabled_decoders = [ImageDecoderType.GIF]; cfg.pixel_format = PixelFormat.RGBA_NONPREMUL
        r = aux.ImageDecoder(cfg).decode(data)
        if r.error_message: raise ValueError(r.error_message)
        return "gif", np.asarray(r.pixbuf)
    raise ValueError("unknown")
res = {}
for d in sys.argv[1:]:
  for name in sorted(os.listdir(d)):
    path = os.path.join(d, name); data = open(path, "rb").read()
    out = "/tmp/sweep-out.pam"
    if os.path.exists(out): os.remove(out)
    p = subprocess.run([BIN, "decode", path, "-o", out, "--format", "rgba8"], capture_output=True, text=True, timeout=60)
    ours = read_pam(out) if p.returncode == 0 and os.path.exists(out) else None
    partial = False
    if ours is None:
        # Damaged or cut files throw by design; compare what was decoded (--partial) too.
        q = subprocess.run([BIN, "decode", path, "-o", out, "--format", "rgba8", "--partial"], capture_output=True, text=True, timeout=60)
        if os.path.exists(out) and q.returncode in (0, 1):
            try: ours, partial = read_pam(out), True
            except ValueError: ours = None
    try: kind, ref = reference(path, data); rerr = None
    except Exception as e: kind, ref, rerr = "?", None, str(e)[:70]
    if ours is None and ref is None: verdict = "both-fail"
    elif ours is None: verdict = "OURS-FAIL"
    elif ref is None: verdict = "ref-fail"
    else:
        ref8, sixteen = to_rgba8(ref)
        if ours.shape != ref8.shape: verdict = "SHAPE"
        else:
            diff = int(np.abs(ours.astype(int) - ref8.astype(int)).max())
            verdict = ("same" if diff == 0 or (sixteen and diff <= 1) else "DIFF") + ("-partial" if partial else "")
    res.setdefault(verdict, []).append(name)
    if verdict not in ("same", "same-partial", "both-fail"):
        why = (p.stderr.strip().splitlines() or [""])[-1][:120] if ours is None else (f"max {diff}" if verdict == "DIFF" else f"{ours.shape} vs {None if ref is None else ref.shape}")
        print(f"{verdict:10} {kind:4} {d.split('/')[-1]}/{name}: {why} {('| ref: ' + rerr) if rerr else ''}", flush=True)
print({k: len(v) for k, v in res.items()})
