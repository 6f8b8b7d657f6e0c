#!/usr/bin/env python3
"""Makes the WebP test files and their reference hashes (developer tool, not needed to build or test).

Sources are small images drawn here (and crops of ../demo/harvesters_adam7.png); each is encoded
with Debian's `cwebp` / `img2webp` / `webpmux` (package `webp`, libwebp 1.2.4) in many modes, then
decoded with `dwebp -pam` (default options: fancy upsampling, no dithering). references.json holds,
per file: width, height, the pixel format libwebp reports (`rgba8` when it says has_alpha, else
`rgb8`) and the SHA-256 of those pixels, rows top to bottom.

Run from this folder: python3 make_fixtures.py
"""
import hashlib, json, math, os, random, subprocess, sys, tempfile
from PIL import Image, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "files")
TMP = tempfile.mkdtemp()


def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def source(name, image):
    path = os.path.join(TMP, name + ".png")
    image.save(path)
    return path


def photo(w, h, x=150, y=90):
    im = Image.open(os.path.join(HERE, "..", "demo", "harvesters_adam7.png")).convert("RGB")
    return im.crop((x, y, x + w, y + h))


def with_alpha(im):
    w, h = im.size
    alpha = Image.new("L", (w, h))
    px = alpha.load()
    for yy in range(h):
        for xx in range(w):
            d = math.hypot(xx - w / 2, yy - h / 2) / (max(w, h) / 2)
            px[xx, yy] = 0 if d > 0.95 else 255 if d < 0.5 else int(255 * (0.95 - d) / 0.45)
    out = im.convert("RGBA")
    out.putalpha(alpha)
    return out


def palette_image(w, h, colours, seed):
    rng = random.Random(seed)
    cols = [tuple(rng.randrange(256) for _ in range(3)) for _ in range(colours)]
    im = Image.new("RGB", (w, h), cols[0])
    d = ImageDraw.Draw(im)
    for i in range(40):
        x0, y0 = rng.randrange(w), rng.randrange(h)
        d.rectangle([x0, y0, x0 + rng.randrange(1, 12), y0 + rng.randrange(1, 9)], fill=cols[i % colours])
    return im


def gradient(w, h):
    im = Image.new("RGB", (w, h))
    px = im.load()
    for yy in range(h):
        for xx in range(w):
            px[xx, yy] = ((xx * 255) // max(w - 1, 1), (yy * 255) // max(h - 1, 1), ((xx + yy) * 7) & 255)
    return im


def noise(w, h, seed, alpha=False):
    rng = random.Random(seed)
    mode = "RGBA" if alpha else "RGB"
    im = Image.new(mode, (w, h))
    im.putdata([tuple(rng.randrange(256) for _ in range(len(mode))) for _ in range(w * h)])
    return im


def libwebp_has_alpha(data):
    """libwebp's WebPGetFeatures().has_alpha for a still file (webp_dec.c ParseHeadersInternal)."""
    pos, flags_alpha, alph = 12, False, False
    first = data[pos:pos + 4]
    if first == b"VP8X":
        flags_alpha = bool(data[20] & 0x10)
        pos = 30
    while pos + 8 <= len(data):
        tag, size = data[pos:pos + 4], int.from_bytes(data[pos + 4:pos + 8], "little")
        if tag == b"VP8L":
            return bool(data[pos + 8 + 4] >> 4 & 1)
        if tag == b"VP8 ":
            return flags_alpha or alph
        if tag == b"ALPH":
            alph = True
        pos += 8 + size + (size & 1)
    return flags_alpha or alph


def read_pam(path):
    raw = open(path, "rb").read()
    header_end = raw.index(b"ENDHDR\n") + len(b"ENDHDR\n")
    fields = dict(line.split(b" ", 1) for line in raw[:header_end].split(b"\n")[1:-2])
    w, h, depth = int(fields[b"WIDTH"]), int(fields[b"HEIGHT"]), int(fields[b"DEPTH"])
    assert depth == 4
    return w, h, raw[header_end:header_end + w * h * 4]


def reference(path):
    pam = os.path.join(TMP, "out.pam")
    run("dwebp", path, "-pam", "-o", pam)
    w, h, rgba = read_pam(pam)
    has_alpha = libwebp_has_alpha(open(path, "rb").read())
    pixels = rgba if has_alpha else bytes(b for i, b in enumerate(rgba) if i % 4 != 3)
    return {"width": w, "height": h, "format": "rgba8" if has_alpha else "rgb8",
            "sha256": hashlib.sha256(pixels).hexdigest()}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        os.remove(os.path.join(OUT, name))
    made = []

    def cwebp(name, src, *options):
        path = os.path.join(OUT, name + ".webp")
        run("cwebp", "-quiet", *options, src, "-o", path)
        made.append(name + ".webp")
        return path

    photo_small = source("photo", photo(64, 48))
    photo_odd = source("photo_odd", photo(67, 45, 20, 200))
    photo_alpha = source("photo_alpha", with_alpha(photo(61, 47, 300, 40)))
    photo_large = source("photo_large", photo(200, 150, 100, 100))
    one = source("one", Image.new("RGB", (1, 1), (200, 30, 90)))
    one_alpha = source("one_alpha", Image.new("RGBA", (1, 1), (200, 30, 90, 77)))
    tiny = source("tiny", photo(3, 2))
    grad = source("gradient", gradient(70, 33))
    rand = source("noise", noise(37, 29, 1))
    rand_alpha = source("noise_alpha", noise(23, 19, 2, alpha=True))
    palettes = {n: source("palette%d" % n, palette_image(53, 31, n, n)) for n in (2, 3, 4, 11, 16, 17, 200)}

    # Lossless: every -z preset (they pick methods, transforms, cache and meta codes), exact, near-lossless.
    for z in range(10):
        cwebp("lossless_photo_z%d" % z, photo_small, "-lossless", "-z", str(z))
    for z in (0, 3, 6, 9):
        cwebp("lossless_odd_z%d" % z, photo_odd, "-lossless", "-z", str(z))
        cwebp("lossless_alpha_z%d" % z, photo_alpha, "-lossless", "-z", str(z))
        cwebp("lossless_alpha_exact_z%d" % z, photo_alpha, "-lossless", "-exact", "-z", str(z))
    for n, src in palettes.items():
        cwebp("lossless_palette%d" % n, src, "-lossless", "-z", "6")
        cwebp("lossless_palette%d_m0" % n, src, "-lossless", "-m", "0", "-q", "0")
    for q in (0, 50, 100):
        for m in (0, 4, 6):
            cwebp("lossless_gradient_q%d_m%d" % (q, m), grad, "-lossless", "-q", str(q), "-m", str(m))
    cwebp("lossless_noise", rand, "-lossless")
    cwebp("lossless_noise_alpha", rand_alpha, "-lossless", "-exact")
    cwebp("lossless_near40", photo_small, "-lossless", "-near_lossless", "40")
    cwebp("lossless_near60_odd", photo_odd, "-near_lossless", "60")
    cwebp("lossless_1x1", one, "-lossless")
    cwebp("lossless_1x1_alpha", one_alpha, "-lossless", "-exact")
    cwebp("lossless_3x2", tiny, "-lossless")
    cwebp("lossless_large", photo_large, "-lossless", "-z", "9")
    cwebp("lossless_large_fast", photo_large, "-lossless", "-z", "0")

    # Lossy: qualities, noise shaping, filter strength and type, sharpness, segments.
    for q in (0, 5, 50, 75, 90, 100):
        cwebp("lossy_q%d" % q, photo_small, "-q", str(q))
    cwebp("lossy_odd", photo_odd, "-q", "80")
    cwebp("lossy_sns0", photo_small, "-sns", "0")
    cwebp("lossy_sns100", photo_small, "-sns", "100")
    cwebp("lossy_f0", photo_small, "-f", "0")
    cwebp("lossy_f100_strong", photo_small, "-f", "100", "-strong")
    cwebp("lossy_f100_simple", photo_small, "-f", "100", "-nostrong")
    cwebp("lossy_simple_sharp7", photo_odd, "-f", "70", "-nostrong", "-sharpness", "7")
    cwebp("lossy_sharp4", photo_small, "-sharpness", "4", "-f", "50")
    cwebp("lossy_seg1", photo_small, "-segments", "1")
    cwebp("lossy_seg2_m6", photo_odd, "-segments", "2", "-m", "6")
    cwebp("lossy_m0", photo_small, "-m", "0")
    cwebp("lossy_gradient", grad, "-q", "60")
    cwebp("lossy_noise", rand, "-q", "70")
    cwebp("lossy_1x1", one, "-q", "80")
    cwebp("lossy_3x2", tiny)
    cwebp("lossy_large", photo_large, "-q", "85")
    cwebp("lossy_large_simple", photo_large, "-q", "30", "-nostrong", "-f", "40")
    cwebp("lossy_sharp_yuv", photo_small, "-sharp_yuv")

    # Lossy with alpha: ALPH raw and lossless, every filter, alpha quality.
    for method in (0, 1):
        for filt in ("none", "fast", "best"):
            cwebp("alpha_m%d_%s" % (method, filt), photo_alpha, "-alpha_method", str(method), "-alpha_filter", filt)
    cwebp("alpha_q50", photo_alpha, "-alpha_q", "50")
    cwebp("alpha_q0_exact", photo_alpha, "-alpha_q", "0", "-exact")
    cwebp("alpha_noise", rand_alpha, "-q", "90", "-alpha_filter", "best")
    cwebp("alpha_1x1", one_alpha)
    # A 1440×960 alpha gradient: its lossless ALPH stream uses meta codes and ends with a backward
    # reference that reaches the last pixel (once a decoder bug: the group lookup after it).
    gradient_alpha = Image.new("RGB", (1440, 960), (90, 120, 150)).convert("RGBA")
    gradient_alpha.putalpha(Image.linear_gradient("L").resize(gradient_alpha.size))
    cwebp("alpha_copy_ends_image", source("gradient_alpha", gradient_alpha), "-q", "1")

    # Metadata: ICC profile and Exif orientation attached with webpmux.
    exif = os.path.join(TMP, "exif.bin")
    # TIFF little-endian, IFD0 with one entry: Orientation (0x0112) SHORT 1 = 6.
    open(exif, "wb").write(b"II*\x00\x08\x00\x00\x00\x01\x00\x12\x01\x03\x00\x01\x00\x00\x00\x06\x00\x00\x00\x00\x00\x00\x00")
    icc = os.path.join(TMP, "profile.icc")
    open(icc, "wb").write(bytes(range(131)))  # odd size: exercises chunk padding
    base = os.path.join(OUT, "lossless_photo_z3.webp")
    run("webpmux", "-set", "exif", exif, base, "-o", os.path.join(OUT, "meta_exif.webp"))
    run("webpmux", "-set", "icc", icc, base, "-o", os.path.join(OUT, "meta_icc.webp"))
    run("webpmux", "-set", "icc", icc, os.path.join(OUT, "alpha_m1_fast.webp"), "-o", os.path.join(OUT, "meta_icc_alpha.webp"))
    made += ["meta_exif.webp", "meta_icc.webp", "meta_icc_alpha.webp"]

    references = {name: reference(os.path.join(OUT, name)) for name in sorted(made)}
    with open(os.path.join(HERE, "references.json"), "w") as f:
        json.dump(references, f, indent=1, sort_keys=True)
        f.write("\n")
    animations = make_animations()
    with open(os.path.join(HERE, "animation_references.json"), "w") as f:
        json.dump(animations, f, indent=1, sort_keys=True)
        f.write("\n")
    print("made %d still files and %d animations" % (len(made), len(animations)))


def moving_frames(count, w, h, alpha, seed):
    """Frames of a square moving over a photo crop (some with holes of transparency)."""
    rng = random.Random(seed)
    base = photo(w, h, 200, 150).convert("RGBA")
    frames = []
    for i in range(count):
        im = base.copy() if not alpha else Image.new("RGBA", (w, h), (0, 0, 0, 0))
        d = ImageDraw.Draw(im)
        x, y = (i * 7) % (w - 10), (i * 5) % (h - 10)
        d.rectangle([x, y, x + 9 + rng.randrange(6), y + 9], fill=(rng.randrange(256), 40, 200, 255 if not alpha else 160))
        if alpha:
            d.ellipse([w - 20 - i, 2, w - 4 - i, 18], fill=(250, 200, 10, 255))
        frames.append(im)
    return frames


def make_animations():
    """Animated files and, per frame, Pillow's composited canvas (libwebp's WebPAnimDecoder,
    MODE_RGBA) as SHA-256, with durations and the loop count."""
    from PIL import Image as PILImage
    made = {}

    def img2webp(name, frames, file_options, frame_options):
        paths = []
        for i, im in enumerate(frames):
            path = os.path.join(TMP, "%s_%d.png" % (name, i))
            im.save(path)
            paths.append(path)
        args = ["img2webp", *file_options]
        for i, path in enumerate(paths):
            args += [*frame_options(i), path]
        out = os.path.join(OUT, name + ".webp")
        run(*args, "-o", out)
        return out

    def gif2webp(name, frames, disposal, options, transparency=True):
        gif = os.path.join(TMP, name + ".gif")
        pal = [im.convert("RGB").quantize(colors=63) for im in frames]
        pal[0].save(gif, save_all=True, append_images=pal[1:], duration=[70, 40, 120, 90, 60, 50][:len(pal)],
                    loop=2, disposal=disposal, transparency=0 if transparency else None, optimize=False)
        out = os.path.join(OUT, name + ".webp")
        run("gif2webp", "-quiet", *options, gif, "-o", out)
        return out

    outputs = [
        img2webp("anim_lossless", moving_frames(5, 48, 36, False, 1), ["-loop", "3"], lambda i: ["-d", str(50 + 10 * i)]),
        img2webp("anim_lossy", moving_frames(4, 48, 36, False, 2), ["-kmax", "2"], lambda i: ["-lossy", "-q", "60", "-d", "80"]),
        img2webp("anim_mixed_alpha", moving_frames(5, 40, 30, True, 3), ["-mixed", "-kmin", "2", "-kmax", "3"], lambda i: ["-d", "30"]),
        img2webp("anim_alpha_lossless", moving_frames(4, 33, 25, True, 4), ["-kmin", "0"], lambda i: ["-d", "100"]),
        img2webp("anim_alpha_lossy", moving_frames(4, 33, 25, True, 5), [], lambda i: ["-lossy", "-q", "70", "-d", "100"]),
        gif2webp("anim_gif_dispose_background", moving_frames(5, 32, 24, True, 6), 2, []),
        gif2webp("anim_gif_dispose_none", moving_frames(5, 32, 24, True, 7), 1, ["-lossy", "-q", "50"]),
        gif2webp("anim_gif_mixed", moving_frames(6, 32, 24, True, 8), [1, 2, 1, 2, 2, 1], ["-mixed", "-kmax", "4"]),
    ]
    for out in outputs:
        name = os.path.basename(out)
        im = PILImage.open(out)
        frames = []
        for i in range(im.n_frames):
            im.seek(i)
            rgba = im.convert("RGBA")
            frames.append({"sha256": hashlib.sha256(rgba.tobytes()).hexdigest(), "duration_ms": im.info.get("duration")})
        made[name] = {"width": im.size[0], "height": im.size[1], "loop": im.info.get("loop"), "frames": frames}
    return made


if __name__ == "__main__":
    main()
