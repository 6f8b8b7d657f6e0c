#!/usr/bin/env python3
"""Compares the Swift decoders with C libraries, in the same run, on the same files.

Runs `benchmark --json` (our decoders) and then times the C libraries of PyPI's
`imagecodecs` on every file it measured, with the same method as the benchmark: the
file is in memory, one warm-up decode, then the median of --repeat timed samples; a
sample repeats the decode until it lasts at least --min-sample-ms and divides.

  kind     libraries (column names)
  zlib     zlib (imagecodecs.zlib_decode), zlib-ng (zlibng_decode), libdeflate (deflate_decode),
           ISA-L (PyPI isal: isal_zlib.decompress)
  gzip     zlib (Python's zlib module, wbits=31), libdeflate (imagecodecs.gzip_decode), ISA-L
  raw      zlib (Python's zlib module, wbits=-15), libdeflate (deflate_decode raw=True), ISA-L
  png      libpng (imagecodecs.png_decode), libspng (spng_decode): natural format, against ours
           in the natural format; Wuffs (PyPI pywuffs, RGBA_NONPREMUL): against ours asked for
           rgba8 (`benchmark --format rgba8`, timed as its own run, column "ours rgba8 ms").
           Wuffs's PNG decoder skips CRC and Adler-32 checks (pywuffs always sets its
           IGNORE_CHECKSUM quirk); ours verifies them. pywuffs has no zlib entry point, so Wuffs
           is not in the stream tables.
  jpeg     libjpeg-turbo (imagecodecs.jpeg8_decode; with --scale N, Pillow's draft, which asks
           libjpeg-turbo for scale_denom N, the same DCT-domain scaling as `djpeg -scale 1/N`)
  webp     libwebp (imagecodecs.webp_decode: RGB without alpha, else RGBA, like ours)

Streams are decoded into a preallocated output buffer of the right size (`out=`; libdeflate
needs the size, and it is the fastest way for zlib too); ours likewise decodes into a reused
buffer of the size its warm-up run found (`Inflater.decompress(_:format:into:)`), or with
--streaming through the streaming API (`feed` with a sink, output copied into a reused
buffer). Images are returned as new arrays by both sides.

Each library's output is checked against ours with CRC-32 (a mismatch is flagged with '!').
The ratio is our speed over the library's (library time / our time): > 1 means ours is faster.

With --checksum crc32|adler32 it compares checksums instead: `benchmark --checksum ALG` over each
file's bytes against zlib (Python's zlib module), zlib-ng and libdeflate (imagecodecs) and ISA-L.

With --encode-png [--level N] it compares encoders instead: `benchmark --encode-png` times
PNGEncoder at level N (default 6) on each image's decoded picture, and libpng
(imagecodecs.png_encode) at levels 6 and 1 and libspng (spng_encode) encode the same pixels
(decoded by imagecodecs, not timed); it prints speed ratios (library time / ours) and size
ratios (our bytes / the library's: < 1 means ours is smaller).

Usage:
  python3 Benchmarks/compare.py [--repeat N] [--min-sample-ms MS] [--chunk BYTES] [--streaming]
                                [--threads N] [--scale N] [--encode-png [--level N]] [--checksum ALG]
                                [--bin PATH | --scratch-path DIR] [PATH ...]
Without --bin, the benchmark is built with `swift build -c release` (in --scratch-path if
given) and its binary run directly. PATH defaults to TestImages/.
Install: pip install imagecodecs pillow numpy isal pywuffs
"""

import argparse
import gc
import io
import json
import math
import statistics
import subprocess
import sys
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_RUNS_PER_SAMPLE = 100_000   # same cap as SampleTimer.maximumRunsPerSample

try:
    import imagecodecs
except ImportError:   # degrade to Python's zlib module only
    imagecodecs = None

try:
    import numpy
except ImportError:
    numpy = None

try:
    from isal import isal_zlib
except ImportError:
    isal_zlib = None

try:
    import pywuffs
    import pywuffs.aux as pywuffs_aux
except ImportError:
    pywuffs = None

try:
    from PIL import Image as PILImage
except ImportError:
    PILImage = None


# ---------------------------------------------------------------------------
# Libraries
# ---------------------------------------------------------------------------

def has(name):
    return imagecodecs is not None and hasattr(imagecodecs, name)


def library_versions():
    versions = {"zlib (Python module)": zlib.ZLIB_RUNTIME_VERSION}
    if imagecodecs is not None:
        for label, fn in (("zlib", "zlib_version"), ("zlib-ng", "zlibng_version"),
                          ("libdeflate", "deflate_version"), ("libpng", "png_version"),
                          ("libspng", "spng_version"), ("libjpeg-turbo", "jpeg8_version"),
                          ("libwebp", "webp_version")):
            if has(fn):
                try:
                    versions[label] = getattr(imagecodecs, fn)()
                except Exception as error:   # a codec built without its library
                    versions[label] = f"unavailable ({error})"
    if isal_zlib is not None:
        import isal
        versions["ISA-L (isal)"] = getattr(isal, "__version__", "?")
    if pywuffs is not None:
        try:
            from importlib.metadata import version
            versions["Wuffs (pywuffs)"] = version("pywuffs")
        except Exception:
            versions["Wuffs (pywuffs)"] = "?"
    return versions


def stream_decoders(kind, output_size):
    """(column, decode function) pairs for a compressed stream; each returns bytes-like output.
    `out=` gets a buffer reused across calls, like the Swift side's OutputCollector."""
    out = bytearray(output_size)
    decoders = []
    if kind == "zlib":
        if has("zlib_decode"):
            decoders.append(("zlib", lambda data: imagecodecs.zlib_decode(data, out=out)))
        else:
            decoders.append(("zlib", lambda data: zlib.decompress(data, 15, max(output_size, 1))))
        if has("zlibng_decode"):
            decoders.append(("zlib-ng", lambda data: imagecodecs.zlibng_decode(data, out=out)))
        if has("deflate_decode"):
            decoders.append(("libdeflate", lambda data: imagecodecs.deflate_decode(data, out=out)))
    elif kind == "gzip":
        decoders.append(("zlib", lambda data: zlib.decompress(data, 31, max(output_size, 1))))
        if has("gzip_decode"):   # imagecodecs builds gzip_decode on libdeflate
            decoders.append(("libdeflate", lambda data: imagecodecs.gzip_decode(data, out=out)))
    elif kind == "raw":
        decoders.append(("zlib", lambda data: zlib.decompress(data, -15, max(output_size, 1))))
        if has("deflate_decode"):
            decoders.append(("libdeflate", lambda data: imagecodecs.deflate_decode(data, raw=True, out=out)))
    if isal_zlib is not None:
        # ISA-L's inflate (igzip) with the output size as its buffer size: one allocation, no growth.
        wbits = {"zlib": 15, "gzip": 31, "raw": -15}[kind]
        decoders.append(("ISA-L", lambda data: isal_zlib.decompress(data, wbits, max(output_size, 1))))
    return decoders


def reference_output_size(data, kind):
    """Decompressed size by Python's zlib module (every gzip member), 0 if it fails."""
    wbits = {"zlib": 15, "gzip": 31, "raw": -15}[kind]
    size = 0
    try:
        while data:
            decompressor = zlib.decompressobj(wbits)
            size += len(decompressor.decompress(data)) + len(decompressor.flush())
            data = decompressor.unused_data if kind == "gzip" else b""
    except zlib.error:
        return size
    return size


def pillow_scaled_jpeg(data, scale):
    """libjpeg-turbo's DCT-domain scaling (scale_denom) through Pillow's `draft`, as `djpeg -scale 1/N`."""
    image = PILImage.open(io.BytesIO(data))
    image.draft(image.mode, ((image.width + scale - 1) // scale, (image.height + scale - 1) // scale))
    return numpy.asarray(image)


def image_decoders(kind, scale=1):
    decoders = []
    if kind == "jpeg" and scale > 1:
        if PILImage is not None and numpy is not None:
            decoders.append(("libjpeg-turbo", lambda data: pillow_scaled_jpeg(data, scale)))
        return decoders
    if kind == "png":
        if has("png_decode"):
            decoders.append(("libpng", imagecodecs.png_decode))
        if has("spng_decode"):
            decoders.append(("libspng", imagecodecs.spng_decode))
        if pywuffs is not None:
            decoders.append(("Wuffs", wuffs_png_decoder()))
    elif kind == "jpeg":
        if has("jpeg8_decode"):
            decoders.append(("libjpeg-turbo", imagecodecs.jpeg8_decode))
    elif kind == "webp":
        if has("webp_decode"):
            decoders.append(("libwebp", imagecodecs.webp_decode))
    return decoders


def wuffs_png_decoder():
    """Wuffs's PNG decoder to RGBA (not premultiplied), one decoder reused for every call."""
    config = pywuffs_aux.ImageDecoderConfig()
    config.enabled_decoders = [pywuffs.ImageDecoderType.PNG]
    config.pixel_format = pywuffs.PixelFormat.RGBA_NONPREMUL
    decoder = pywuffs_aux.ImageDecoder(config)

    def decode(data):
        result = decoder.decode(data)
        if result.error_message:
            raise ValueError(result.error_message)
        return result.pixbuf
    return decode


# Columns timed against our decoder asked for rgba8 (the format the library produces).
RGBA8_COLUMNS = {"Wuffs"}


def output_crc32(output):
    """CRC-32 of a decoder's output laid out as the Swift decoders lay it out (rows top to
    bottom, samples interleaved, 16-bit samples big-endian)."""
    if numpy is not None and isinstance(output, numpy.ndarray):
        if output.dtype.itemsize == 2:
            output = output.astype(">u2")
        return zlib.crc32(output.tobytes()), output.nbytes
    view = memoryview(output)
    return zlib.crc32(view), view.nbytes


# ---------------------------------------------------------------------------
# Timing: the same method as Benchmarks/benchmark/SampleTimer.swift
# ---------------------------------------------------------------------------

def measure(work, repeat, min_sample_seconds):
    """Warm-up run (its result is returned), then the median of `repeat` samples of one run."""
    start = time.perf_counter()
    result = work()
    warm_up = time.perf_counter() - start
    runs = 1
    if warm_up < min_sample_seconds:
        runs = int(min(math.ceil(min_sample_seconds / max(warm_up, 1e-9)), MAX_RUNS_PER_SAMPLE))
    samples = []
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            for _ in range(runs):
                work()
            samples.append((time.perf_counter() - start) / runs)
    finally:
        gc.enable()
    return result, statistics.median(samples)


# ---------------------------------------------------------------------------
# Running our benchmark
# ---------------------------------------------------------------------------

def benchmark_binary(args):
    if args.bin:
        return args.bin
    common = ["swift", "build", "-c", "release", "--package-path", str(ROOT)]
    if args.scratch_path:
        common += ["--scratch-path", args.scratch_path]
    build = common + ["--product", "benchmark"]
    print("building: " + " ".join(build), file=sys.stderr, flush=True)
    subprocess.run(build, check=True, stdout=sys.stderr)
    bin_dir = subprocess.run(common + ["--show-bin-path"], check=True, capture_output=True, text=True)
    return str(Path(bin_dir.stdout.strip()) / "benchmark")


def run_ours(binary, args, paths=None, repeat=None, quiet=False, extra=()):
    command = [binary, "--json", "--repeat", str(repeat or args.repeat), "--min-sample-ms",
               str(args.min_sample_ms if repeat is None else 0)]
    if args.chunk:
        command += ["--chunk", str(args.chunk)]
    if args.encode_png:
        command += ["--encode-png", "--level", str(args.level)]
    if args.streaming:
        command += ["--streaming"]
    command += list(extra)
    if args.threads > 1:
        command += ["--threads", str(args.threads)]
    if args.scale > 1:
        command += ["--scale", str(args.scale)]
    command += paths if paths is not None else args.paths
    if not quiet:
        print("running: " + " ".join(command), file=sys.stderr, flush=True)
    completed = subprocess.run(command, capture_output=True, text=True)
    if completed.returncode != 0:
        sys.exit(f"benchmark failed (exit {completed.returncode}):\n{completed.stderr}")
    return json.loads(completed.stdout)["results"]


def results_file_by_file(binary, args):
    """Our results, each timed right before the libraries are timed on the same file.

    One quick pass (1 sample) finds the files and their kinds; then each decodable file is timed
    again on its own just before its libraries, so a shared machine's load drifting during a
    long run skews both sides of a ratio alike instead of one side only.
    """
    listing = run_ours(binary, args, repeat=1)
    for entry in listing:
        if entry.get("kind") is None or entry.get("error"):
            yield entry
            continue
        result = run_ours(binary, args, paths=[entry["file"]], quiet=True)[0]
        if entry["kind"] == "png" and pywuffs is not None:
            # Wuffs gives RGBA8: time ours asked for the same.
            result["rgba8"] = run_ours(binary, args, paths=[entry["file"]], quiet=True, extra=["--format", "rgba8"])[0]
        yield result


# ---------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------

def ours_for(result, column):
    """Our result a column is compared with: the rgba8 run for RGBA-only libraries."""
    return result.get("rgba8", result) if column in RGBA8_COLUMNS else result


def compare_file(result, args):
    """Times every library on one file. Returns {column: (seconds or None, note)}."""
    kind = result.get("kind")
    path = result["file"]
    ours_ok = result.get("error") is None
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        return {"?": (None, f"cannot read: {error}")}
    if kind in ("zlib", "gzip", "raw"):
        # The output size comes from Python's zlib, not from us, so a wrong size on our
        # side shows up as a CRC mismatch instead of breaking the libraries' runs.
        decoders = stream_decoders(kind, reference_output_size(data, kind))
    else:
        decoders = image_decoders(kind, args.scale)

    timings = {}
    min_sample = args.min_sample_ms / 1000
    for column, decode in decoders:
        try:
            output, seconds = measure(lambda: decode(data), args.repeat, min_sample)
        except Exception as error:   # the library rejects the file, or lacks the feature
            message = str(error).splitlines()[0] if str(error) else type(error).__name__
            timings[column] = (None, f"{column}: {message[:80]}")
            continue
        note = ""
        ours = ours_for(result, column)
        if ours_ok and ours.get("error") is None:
            crc, length = output_crc32(output)
            if length != ours["output_bytes"] or crc != ours["crc32"]:
                note = (f"{column} output differs from ours: {length} bytes crc32 {crc:08x}, "
                        f"ours {ours['output_bytes']} bytes crc32 {ours['crc32']:08x}")
        timings[column] = (seconds, note)
    return timings


# ---------------------------------------------------------------------------
# Encoding (--encode-png)
# ---------------------------------------------------------------------------

def image_encoders():
    """(column, encode function) pairs: each takes a numpy array and returns PNG bytes."""
    encoders = []
    if has("png_encode"):
        encoders.append(("libpng-6", lambda pixels: imagecodecs.png_encode(pixels, level=6)))
        encoders.append(("libpng-1", lambda pixels: imagecodecs.png_encode(pixels, level=1)))
    if has("spng_encode"):
        encoders.append(("libspng", lambda pixels: imagecodecs.spng_encode(pixels)))
    return encoders


def decoded_pixels(path, kind):
    """The picture our benchmark encodes, decoded by imagecodecs (PNG: libpng's natural format)."""
    data = Path(path).read_bytes()
    if kind == "png":
        return imagecodecs.png_decode(data)
    if kind == "jpeg":
        return imagecodecs.jpeg8_decode(data)
    if kind == "webp":
        return imagecodecs.webp_decode(data)
    return None


def encode_main(args, binary):
    if imagecodecs is None or numpy is None:
        sys.exit("--encode-png needs imagecodecs and numpy (pip install imagecodecs numpy)")
    print(f"libraries: {imagecodecs.png_version()}" +
          (f", {imagecodecs.spng_version()}" if has("spng_version") else ""))
    print(f"encoding: ours PNGEncoder level {args.level}; warm-up + median of {args.repeat} samples "
          f"(each >= {args.min_sample_ms:g} ms); speed = library time / ours (> 1: ours faster), "
          "size = our bytes / library bytes (< 1: ours smaller)")
    columns = [column for column, _ in image_encoders()]
    header = f"{'file':<48}{'ours ms':>10}{'ours bytes':>12}" + "".join(
        f"{c + ' ms':>13}{'speed':>8}{'size':>7}" for c in columns)
    print(header)
    print("-" * len(header))
    speed, size, notes = {}, {}, []
    for result in results_file_by_file(binary, args):
        if result.get("kind") is None or result.get("error"):
            if not result.get("skipped"):
                notes.append(f"{result['file']}: ours: {result.get('error')}")
            continue
        pixels = decoded_pixels(result["file"], result["kind"])
        if pixels is None:
            continue
        ours, our_bytes = result["median_seconds"], result["output_bytes"]
        line = f"{result['file'][-48:]:<48}{ours * 1000:>10.2f}{our_bytes:>12}"
        for column, encode in image_encoders():
            try:
                encoded, seconds = measure(lambda: encode(pixels), args.repeat, args.min_sample_ms / 1000)
            except Exception as error:
                notes.append(f"{result['file']}: {column}: {str(error)[:80]}")
                line += f"{'error':>13}{'':>15}"
                continue
            speed.setdefault(column, []).append(seconds / ours)
            size.setdefault(column, []).append(our_bytes / len(encoded))
            line += f"{seconds * 1000:>13.2f}{seconds / ours:>7.2f}x{our_bytes / len(encoded):>7.3f}"
        print(line, flush=True)
    print("-" * len(header))
    for column in columns:
        if column in speed:
            print(f"ours (level {args.level}) vs {column}: geomean speed {geometric_mean(speed[column]):.3f}x, "
                  f"size {geometric_mean(size[column]):.3f}x over {len(speed[column])} files "
                  f"(speed {min(speed[column]):.2f}-{max(speed[column]):.2f}x, "
                  f"size {min(size[column]):.3f}-{max(size[column]):.3f}x)")
    for note in notes:
        print("  " + note)


def checksum_functions(algorithm):
    """The C libraries' checksum of `algorithm` (crc32 or adler32) over a bytes object."""
    functions = {"zlib": getattr(zlib, algorithm)}
    if imagecodecs is not None:
        for column, name in (("zlib-ng", "zlibng_"), ("libdeflate", "deflate_")):
            function = getattr(imagecodecs, name + algorithm, None)
            if function is not None:
                functions[column] = function
    if isal_zlib is not None:
        functions["ISA-L"] = getattr(isal_zlib, algorithm)
    return functions


def checksum_main(args, binary):
    """--checksum ALG: our CRC32 / Adler32 against the C libraries' over each file's bytes."""
    listing = run_ours(binary, args, repeat=1, extra=["--checksum", args.checksum])
    functions = checksum_functions(args.checksum)
    print(f"{args.checksum} over each file's bytes; timing: warm-up + median of {args.repeat} samples "
          f"(each >= {args.min_sample_ms:g} ms); ratio = library time / our time (> 1: ours faster)")
    header = f"{'file':<60}{'MB':>8}{'ours GB/s':>11}" + "".join(f"{c + ' GB/s':>17}{'ratio':>8}" for c in functions)
    print(header)
    print("-" * len(header))
    ratios = {}
    for entry in listing:
        if entry.get("error"):
            continue
        ours = run_ours(binary, args, paths=[entry["file"]], quiet=True, extra=["--checksum", args.checksum])[0]
        data = Path(entry["file"]).read_bytes()
        line = f"{entry['file'][-59:]:<60}{len(data) / 1e6:>8.2f}{len(data) / ours['median_seconds'] / 1e9:>11.2f}"
        for column, function in functions.items():
            value, seconds = measure(lambda: function(data), args.repeat, args.min_sample_ms / 1000)
            flag = "" if (value & 0xFFFFFFFF) == ours["crc32"] else "!"
            ratio = seconds / ours["median_seconds"]
            if not flag:
                ratios.setdefault(column, []).append(ratio)
            line += f"{len(data) / seconds / 1e9:>17.2f}{f'{ratio:.2f}x' + flag:>8}"
        print(line, flush=True)
    print("-" * len(header))
    for column, values in ratios.items():
        print(summary_line(column, "", values))


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def summary_line(column, scope, values):
    return (f"geomean speed ratio ours vs {column}{scope}: {geometric_mean(values):.3f}x over {len(values)} files "
            f"(min {min(values):.2f}x, max {max(values):.2f}x; > 1 means ours is faster)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", default=["TestImages/"], help="files or folders (default TestImages/)")
    parser.add_argument("--repeat", type=int, default=7, help="timed samples per file (default 7)")
    parser.add_argument("--min-sample-ms", type=float, default=5.0,
                        help="shortest timed sample; short decodes repeat inside it (default 5)")
    parser.add_argument("--chunk", type=int, help="our side feeds this many bytes at a time (libraries: whole file)")
    parser.add_argument("--encode-png", action="store_true",
                        help="compare PNG encoders on each image's decoded picture instead of decoders")
    parser.add_argument("--level", type=int, default=6, help="our PNGEncoder level with --encode-png (default 6)")
    parser.add_argument("--streaming", action="store_true",
                        help="our side inflates whole streams through the streaming API (default: into a buffer of known size)")
    parser.add_argument("--threads", type=int, default=1,
                        help="our side may use this many threads per decode (libraries: one)")
    parser.add_argument("--scale", type=int, default=1, choices=[1, 2, 4, 8],
                        help="JPEG: decode at 1/N size (ours: --scale N; libjpeg-turbo: scale_denom through Pillow's draft)")
    parser.add_argument("--checksum", choices=["crc32", "adler32"],
                        help="compare checksums over each file's bytes instead of decoders")
    parser.add_argument("--bin", help="an already built benchmark executable")
    parser.add_argument("--scratch-path", help="swift build --scratch-path for building the benchmark")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    if imagecodecs is None:
        print("note: imagecodecs is not installed (pip install imagecodecs pillow numpy); "
              "comparing with Python's zlib module only", file=sys.stderr)

    if args.encode_png:
        encode_main(args, benchmark_binary(args))
        return
    if args.checksum:
        checksum_main(args, benchmark_binary(args))
        return
    results = results_file_by_file(benchmark_binary(args), args)
    versions = library_versions()
    print("libraries: " + ", ".join(f"{name} {version}" for name, version in versions.items()))
    print(f"timing: warm-up + median of {args.repeat} samples (each >= {args.min_sample_ms:g} ms), "
          f"ours fed {'in %d-byte chunks' % args.chunk if args.chunk else 'whole'}"
          f"{', streams through the streaming API' if args.streaming else ''}"
          f"{', ours on up to %d threads' % args.threads if args.threads > 1 else ''}"
          f"{', JPEG at 1/%d scale' % args.scale if args.scale > 1 else ''}; "
          "ratio = library time / our time (> 1: ours faster)")

    rows, columns, notes = [], [], []
    skipped = {}   # our skip reason -> number of files
    ratios = {}
    for result in results:
        if result.get("kind") is None:
            notes.append(f"{result['file']}: ours: {result.get('error')}")
            continue
        timings = compare_file(result, args)
        for column in timings:
            if column not in columns:
                columns.append(column)
        ours = result.get("median_seconds")
        rows.append((result, ours, timings))
        if "rgba8" in result and "ours rgba8" not in columns:
            columns.append("ours rgba8")
        if result.get("skipped"):
            skipped[result["error"]] = skipped.get(result["error"], 0) + 1
        elif result.get("error"):
            notes.append(f"{result['file']}: ours: {result['error']}")
        for column, (seconds, note) in timings.items():
            if note:
                notes.append(f"{result['file']}: {note}")
            ours_seconds = ours_for(result, column).get("median_seconds")
            if ours_seconds and seconds and not note:
                ratios.setdefault(column, []).append((seconds / ours_seconds, result["kind"]))

    order = ["zlib", "zlib-ng", "libdeflate", "ISA-L", "libpng", "libspng", "ours rgba8", "Wuffs",
             "libjpeg-turbo", "libwebp"]
    columns.sort(key=lambda c: order.index(c) if c in order else len(order))
    width = max([len("file")] + [len(r[0]["file"]) for r in rows])
    column_width = max([12] + [len(c) + 5 for c in columns])
    header = f"{'file':<{width}}  {'kind':<5}{'ours ms':>11}" + "".join(
        f"{c + ' ms':>{column_width}}{'ratio':>9}" for c in columns)
    print(header)
    print("-" * len(header))
    for result, ours, timings in rows:
        line = f"{result['file']:<{width}}  {result['kind']:<5}"
        line += f"{ours * 1000:>11.3f}" if ours else f"{'skipped' if result.get('skipped') else 'error':>11}"
        for column in columns:
            if column == "ours rgba8":
                seconds = result.get("rgba8", {}).get("median_seconds")
                line += f"{seconds * 1000:>{column_width}.3f}{'':>9}" if seconds else f"{'-':>{column_width}}{'':>9}"
                continue
            seconds, note = timings.get(column, (None, ""))
            if seconds is None:
                line += f"{'-' if column not in timings else 'error':>{column_width}}{'':>9}"
            else:
                ours_seconds = ours_for(result, column).get("median_seconds")
                ratio = f"{seconds / ours_seconds:.2f}x" if ours_seconds else ""
                line += f"{seconds * 1000:>{column_width}.3f} {ratio + ('!' if note else ''):>8}"
        print(line)
    print("-" * len(header))
    for column in columns:
        if column == "ours rgba8":
            continue
        pairs = ratios.get(column, [])
        if not pairs:
            print(f"geomean speed ratio ours vs {column}: no files where both decoded")
            continue
        print(summary_line(column, "", [ratio for ratio, _ in pairs]))
        kinds = sorted({kind for _, kind in pairs})
        if len(kinds) > 1:   # e.g. the zlib column covers zlib, gzip and raw streams
            for kind in kinds:
                print(summary_line(column, f" [{kind} only]", [ratio for ratio, k in pairs if k == kind]))
    for reason, count in skipped.items():
        notes.append(f"ours skipped {count} files: {reason}")
    if notes:
        print("notes:")
        for note in notes:
            print("  " + note)


if __name__ == "__main__":
    main()
