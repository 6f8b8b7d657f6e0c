#!/usr/bin/env python3
"""Cross-checks our JPEG decoder against libjpeg-turbo's djpeg on files it has never seen.

Developer tool (needs Debian's libjpeg-turbo-progs for cjpeg/djpeg, and Pillow): makes N JPEGs
with cjpeg from random crops of a photo (random sizes from 1 px, every sampling mode, quality
5-100, restart intervals, -optimize, -smooth, gray, and -progressive when --progressive is given),
decodes each with `imagefeed decode --chunk 1000` and with djpeg, and compares the pixels.
Extra JPEG files or folders given as arguments are checked too. With --damage, each made file
also gets a damaged twin (a few random bytes of its entropy-coded data overwritten): libjpeg
decodes past such damage with warnings, and ours (with --partial) must give the same pixels.

    swift build -c release --product imagefeed
    python3 Benchmarks/djpeg_crosscheck.py --count 60 [--progressive] [--damage] [--seed 7] [more.jpg folder/ ...]
"""
import argparse, random, subprocess, sys, tempfile
from pathlib import Path

from PIL import Image

SAMPLING = ["1x1", "2x1", "2x2", "1x2", "4x1", "4x2", "3x1", "2x2,2x1,1x1", "1x2,1x1,1x1"]


def pnm_pixels(data):
    """Pixels of a binary PGM/PPM (header: magic, width, height, maxval, one whitespace)."""
    fields, index = [], 0
    while len(fields) < 4:
        while data[index:index + 1].isspace():
            index += 1
        start = index
        while not data[index:index + 1].isspace():
            index += 1
        fields.append(data[start:index])
    return data[index + 1:]


def pam_pixels(data):
    return data[data.index(b"ENDHDR\n") + 7:]


def make_inputs(source, count, seed, progressive, folder):
    rng = random.Random(seed)
    photo = Image.open(source).convert("RGB")
    made = []
    for number in range(count):
        width = rng.choice([1, 2, 3, 5, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 127, 200, 333, 640, photo.width - 1])
        height = rng.choice([1, 2, 3, 7, 8, 9, 16, 17, 31, 33, 64, 65, 100, 301, photo.height - 1])
        x, y = rng.randint(0, photo.width - width), rng.randint(0, photo.height - height)
        crop = photo.crop((x, y, x + width, y + height))
        gray = rng.random() < 0.15
        plain = folder / ("in.pgm" if gray else "in.ppm")
        (crop.convert("L") if gray else crop).save(plain)
        command = ["cjpeg", "-quality", str(rng.choice([5, 30, 50, 75, 90, 95, 100]))]
        if not gray:
            command += ["-sample", rng.choice(SAMPLING)]
        if rng.random() < 0.3:
            command += ["-restart", str(rng.choice([1, 2, 5])) + rng.choice(["", "B"])]
        if rng.random() < 0.3:
            command += ["-optimize"]
        if rng.random() < 0.2:
            command += ["-smooth", "30"]
        if progressive and rng.random() < 0.6:
            command += ["-progressive"]
        encoded = subprocess.run(command + [str(plain)], capture_output=True, check=True).stdout
        path = folder / f"random_{number:03d}_{width}x{height}.jpg"
        path.write_bytes(encoded)
        made.append(path)
    return made


def damaged_twin(path, rng):
    """A copy of `path` with 1-4 bytes after the first SOS header replaced by random values."""
    data = bytearray(path.read_bytes())
    start = data.find(b"\xff\xda")
    if start < 0 or len(data) - start < 40:
        return None
    start += 2 + int.from_bytes(data[start + 2:start + 4], "big")
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(start, len(data) - 2)] = rng.randrange(256)
    twin = path.with_name(path.stem + "_damaged.jpg")
    twin.write_bytes(bytes(data))
    return twin


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("extra", nargs="*", help="more JPEG files or folders to check")
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--progressive", action="store_true", help="make some files progressive")
    parser.add_argument("--source", default="TestImages/corpus/png/extras/photo_900x600_adam7.png")
    parser.add_argument("--damage", action="store_true", help="also check a damaged twin of every made file")
    parser.add_argument("--imagefeed", default=".build/release/imagefeed")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        files = make_inputs(args.source, args.count, args.seed, args.progressive, folder)
        if args.damage:
            rng = random.Random(args.seed)
            files += [twin for twin in (damaged_twin(path, rng) for path in list(files)) if twin]
        for extra in args.extra:
            path = Path(extra)
            files += sorted(path.rglob("*.jp*g")) if path.is_dir() else [path]
        counts = {"identical": 0, "different": 0, "ours failed": 0, "both failed": 0, "unsupported": 0}
        for path in files:
            damaged = path.stem.endswith("_damaged")
            (folder / "ours.pam").unlink(missing_ok=True)
            reference = subprocess.run(["djpeg", str(path)], capture_output=True)
            ours = subprocess.run([args.imagefeed, "decode", str(path), "-o", str(folder / "ours.pam"),
                                   "--chunk", "1000"] + (["--partial"] if damaged else []), capture_output=True, text=True)
            if damaged and (not reference.stdout or not (folder / "ours.pam").exists()):
                # One side gave no picture at all (a structural error): nothing to compare.
                counts["both failed" if not reference.stdout else "ours failed"] += 1
                if reference.stdout:
                    print(f"ours failed: {path}: {ours.stderr.strip()}")
                continue
            if ours.returncode != 0 and not damaged:
                if "unsupported" in ours.stderr:
                    counts["unsupported"] += 1
                elif reference.returncode != 0:
                    counts["both failed"] += 1
                else:
                    counts["ours failed"] += 1
                    print(f"ours failed: {path}: {ours.stderr.strip()}")
                continue
            same = pam_pixels((folder / "ours.pam").read_bytes()) == pnm_pixels(reference.stdout)
            counts["identical" if same else "different"] += 1
            if not same:
                print(f"different: {path}")
        print(", ".join(f"{name}: {number}" for name, number in counts.items()))
        sys.exit(1 if counts["different"] or counts["ours failed"] else 0)


if __name__ == "__main__":
    main()
