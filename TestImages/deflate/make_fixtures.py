#!/usr/bin/env python3
"""Writes the DEFLATE / zlib / gzip fixtures of TestImages/deflate/ and expected.json.

Only Python's zlib and gzip modules (plus a few hand-built streams). Every input is
generated from fixed seeds with a private SplitMix64, so running the script again gives
byte-identical files. Run from anywhere:  python3 TestImages/deflate/make_fixtures.py

expected.json maps each fixture file name to {"sha256": hex of the decompressed bytes,
"size": their length}. The wrapper is given by the extension: .zlib (RFC 1950),
.gz (RFC 1952, possibly several members) or .deflate (raw RFC 1951).
"""
import gzip
import hashlib
import json
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS_PNG = os.path.join(HERE, "..", "corpus", "png")
EXTENSIONS = (".zlib", ".gz", ".deflate")


class SplitMix64:
    """Deterministic generator independent of Python's `random` (its algorithms may change)."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n

    def bytes(self, n):
        out = bytearray()
        while len(out) < n:
            out += self.next().to_bytes(8, "little")
        return bytes(out[:n])


WORDS = """the of and to in is that it for as with was on be by this are or from at an which
have not but all were they one had their can has more will if no so been would there its other
what when into some than only may also them could these two first any time new such like over
most after our made many should each very through where must well between because same under
stream block code length distance literal window byte bit huffman table tree symbol window
compress decompress inflate deflate header trailer checksum adler crc offset buffer output input
image pixel row filter palette alpha gamma chunk signature interlace pass scan marker quantization
sample colour channel progressive baseline entropy coefficient decoder encoder incremental
network download partial preview render cache request response server client socket""".split()


def make_text(seed, size):
    """Pseudo-English: sentences of random words, wrapped at 72 columns, with paragraphs."""
    rng = SplitMix64(seed)
    lines, line, out_len = [], "", 0
    while out_len < size:
        count = 4 + rng.below(14)
        words = [WORDS[rng.below(len(WORDS))] for _ in range(count)]
        if rng.below(5) == 0:
            words.insert(rng.below(count), str(rng.below(100000)))
        sentence = " ".join(words).capitalize() + (". " if rng.below(6) else ", ")
        for word in sentence.split(" "):
            if not word:
                continue
            if len(line) + len(word) + 1 > 72:
                lines.append(line)
                out_len += len(line) + 1
                line = ""
            line = word if not line else line + " " + word
        if rng.below(12) == 0:
            lines.append(line)
            lines.append("")
            out_len += len(line) + 2
            line = ""
    lines.append(line)
    return ("\n".join(lines) + "\n").encode("ascii")[:size]


def make_runs(seed, size):
    """Runs of one byte value, lengths 1...3000: long matches at distance 1."""
    rng = SplitMix64(seed)
    out = bytearray()
    while len(out) < size:
        out += bytes([rng.below(256)]) * (1 + rng.below(3000))
    return bytes(out[:size])


def make_records(seed, count):
    """16-byte binary records with counters and a few random fields: matches at many distances."""
    rng = SplitMix64(seed)
    out = bytearray()
    for i in range(count):
        out += struct.pack("<IIHHI", i, i * 3 + 7, rng.below(16), 0xBEEF, rng.below(1 << 12))
    return bytes(out)


def compress(data, level=6, wbits=15, mem_level=8, strategy=zlib.Z_DEFAULT_STRATEGY, flush_every=None,
             flush_mode=zlib.Z_SYNC_FLUSH):
    c = zlib.compressobj(level, zlib.DEFLATED, wbits, mem_level, strategy)
    if flush_every is None:
        return c.compress(data) + c.flush()
    out = bytearray()
    for start in range(0, len(data), flush_every):
        out += c.compress(data[start:start + flush_every]) + c.flush(flush_mode)
    return bytes(out + c.flush())


def gzip_member(data, level=6, flags=0, extra=None, name=None, comment=None, header_crc=False, mtime=0):
    """One gzip member built by hand (RFC 1952 2.3), so every optional field can be chosen."""
    FTEXT, FHCRC, FEXTRA, FNAME, FCOMMENT = 1, 2, 4, 8, 16
    flg = flags
    if header_crc:
        flg |= FHCRC
    if extra is not None:
        flg |= FEXTRA
    if name is not None:
        flg |= FNAME
    if comment is not None:
        flg |= FCOMMENT
    header = bytearray(b"\x1f\x8b\x08" + bytes([flg]) + struct.pack("<I", mtime) + b"\x00\x03")
    if extra is not None:
        header += struct.pack("<H", len(extra)) + extra
    if name is not None:
        header += name + b"\x00"
    if comment is not None:
        header += comment + b"\x00"
    if header_crc:
        header += struct.pack("<H", zlib.crc32(header) & 0xFFFF)
    body = compress(data, level, wbits=-15)
    return bytes(header) + body + struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)


class BitWriter:
    """LSB-first bit packing for the hand-built raw streams (RFC 1951 3.1.1)."""

    def __init__(self):
        self.out, self.acc, self.n = bytearray(), 0, 0

    def bits(self, value, count):
        self.acc |= value << self.n
        self.n += count
        while self.n >= 8:
            self.out.append(self.acc & 0xFF)
            self.acc >>= 8
            self.n -= 8

    def huffman(self, code, length):
        """Huffman codes go most-significant bit first."""
        self.bits(int(format(code, "0%db" % length)[::-1], 2), length)

    def align(self):
        if self.n:
            self.bits(0, 8 - self.n)

    def done(self):
        self.align()
        return bytes(self.out)


def fixed_literal_length(w, symbol):
    """Fixed literal/length code (RFC 1951 3.2.6)."""
    if symbol < 144:
        w.huffman(0x30 + symbol, 8)
    elif symbol < 256:
        w.huffman(0x190 + symbol - 144, 9)
    elif symbol < 280:
        w.huffman(symbol - 256, 7)
    else:
        w.huffman(0xC0 + symbol - 280, 8)


def max_distance_stream():
    """A stored block of 32768 random bytes, then a fixed block copying length 258 from distance
    32768 (symbols 285 and 29 + 13 extra bits 4095) five times: the farthest reach DEFLATE allows."""
    data = bytearray(SplitMix64(32768).bytes(32768))
    w = BitWriter()
    w.bits(0, 1)  # BFINAL 0
    w.bits(0, 2)  # BTYPE 00 stored
    w.align()
    w.bits(32768, 16)
    w.bits(32768 ^ 0xFFFF, 16)
    for b in data:
        w.bits(b, 8)
    w.bits(1, 1)  # BFINAL 1
    w.bits(1, 2)  # BTYPE 01 fixed
    for _ in range(5):
        fixed_literal_length(w, 285)
        w.huffman(29, 5)
        w.bits(32768 - 24577, 13)
        for _ in range(258):
            data.append(data[-32768])
    fixed_literal_length(w, 256)
    return w.done(), bytes(data)


def overlapping_copy_stream():
    """Fixed block: literals 'ab', then length 258 at distance 2, 17 at distance 1 and 3 at distance 2,
    where each copy overlaps its own output (RFC 1951 3.2.3 allows it)."""
    w = BitWriter()
    w.bits(1, 1)
    w.bits(1, 2)
    data = bytearray(b"ab")
    fixed_literal_length(w, ord("a"))
    fixed_literal_length(w, ord("b"))
    for length, distance, lsym, lextra, lbits, dsym in ((258, 2, 285, 0, 0, 1), (17, 1, 268, 0, 1, 0),
                                                        (3, 2, 257, 0, 0, 1)):
        fixed_literal_length(w, lsym)
        if lbits:
            w.bits(lextra, lbits)
        w.huffman(dsym, 5)
        for _ in range(length):
            data.append(data[-distance])
    fixed_literal_length(w, 256)
    return w.done(), bytes(data)


def png_idat_stream(path):
    """The zlib stream of a PNG: its IDAT payloads concatenated (PNG 10.1)."""
    with open(path, "rb") as f:
        png = f.read()
    pos, stream = 8, bytearray()
    while pos + 8 <= len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        if kind == b"IDAT":
            stream += png[pos + 8:pos + 8 + length]
        pos += 12 + length
    return bytes(stream)


def main():
    for name in os.listdir(HERE):
        if name.endswith(EXTENSIONS):
            os.remove(os.path.join(HERE, name))
    expected = {}

    def write(name, stream, output):
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(stream)
        expected[name] = {"sha256": hashlib.sha256(output).hexdigest(), "size": len(output)}

    text = make_text(1, 100_000)
    small_text = text[:8000]
    runs = make_runs(2, 120_000)
    records = make_records(3, 6000)
    random_bytes = SplitMix64(4).bytes(40_000)
    zeros = bytes(1 << 20)

    for level in range(10):
        write("text_level%d.zlib" % level, compress(text, level), text)
    for name, strategy in (("filtered", zlib.Z_FILTERED), ("huffman_only", zlib.Z_HUFFMAN_ONLY),
                           ("rle", zlib.Z_RLE), ("fixed", zlib.Z_FIXED)):
        write("text_strategy_%s.zlib" % name, compress(text, strategy=strategy), text)
        write("runs_strategy_%s.zlib" % name, compress(runs, strategy=strategy), runs)
    for wbits in range(9, 16):
        write("text_window%d.zlib" % wbits, compress(text, wbits=wbits), text)
    write("text_window9_raw.deflate", compress(text, wbits=-9), text)
    write("text_memlevel1.zlib", compress(text, mem_level=1), text)   # blocks of 128 symbols
    write("text_memlevel9.zlib", compress(text, level=9, mem_level=9), text)
    write("text_sync_flush.zlib", compress(text, flush_every=1000, flush_mode=zlib.Z_SYNC_FLUSH), text)
    write("text_full_flush.zlib", compress(text, flush_every=3000, flush_mode=zlib.Z_FULL_FLUSH), text)
    write("text_partial_flush.zlib", compress(small_text, flush_every=100, flush_mode=zlib.Z_PARTIAL_FLUSH),
          small_text)
    write("text_block_flush.zlib", compress(small_text, flush_every=300, flush_mode=zlib.Z_BLOCK), small_text)
    write("runs_level1.zlib", compress(runs, 1), runs)
    write("runs_level9.zlib", compress(runs, 9), runs)
    write("records_level6.zlib", compress(records, 6), records)
    write("records_level1.zlib", compress(records, 1), records)
    write("random_level0.zlib", compress(random_bytes, 0), random_bytes)
    write("random_level6.zlib", compress(random_bytes, 6), random_bytes)
    write("random_huffman_only.zlib", compress(random_bytes, strategy=zlib.Z_HUFFMAN_ONLY), random_bytes)
    write("zeros_1mb_level9.zlib", compress(zeros, 9), zeros)
    write("zeros_1mb.gz", gzip_member(zeros, 6), zeros)
    write("empty_level0.zlib", compress(b"", 0), b"")
    write("empty_level6.zlib", compress(b"", 6), b"")
    write("empty.gz", gzip_member(b""), b"")
    write("empty.deflate", compress(b"", wbits=-15), b"")
    write("one_byte.zlib", compress(b"x"), b"x")
    write("one_byte.deflate", compress(b"x", wbits=-15), b"x")

    write("text_raw.deflate", compress(text, wbits=-15), text)
    write("runs_raw_level9.deflate", compress(runs, 9, wbits=-15), runs)
    write("random_raw.deflate", compress(random_bytes, wbits=-15), random_bytes)
    write("text_fixed_raw.deflate", compress(small_text, strategy=zlib.Z_FIXED, wbits=-15), small_text)
    # Many non-final blocks, with empty 10-bit fixed blocks (partial flush) or byte-aligned empty
    # stored blocks (sync flush) between them, and a 10-bit empty final block at the end: the
    # shortest stream end a raw stream can have after a block (what bytes may wait before).
    write("text_partial_flush_raw.deflate",
          compress(small_text, wbits=-15, flush_every=100, flush_mode=zlib.Z_PARTIAL_FLUSH), small_text)
    write("text_sync_flush_raw.deflate",
          compress(small_text, wbits=-15, flush_every=150, flush_mode=zlib.Z_SYNC_FLUSH), small_text)
    write("text_block_flush_raw.deflate",
          compress(small_text, wbits=-15, flush_every=70, flush_mode=zlib.Z_BLOCK), small_text)
    stream, output = max_distance_stream()
    write("hand_max_distance.deflate", stream, output)
    stream, output = overlapping_copy_stream()
    write("hand_overlapping_copies.deflate", stream, output)

    # gzip: header fields one by one and all together (RFC 1952 2.3.1), then several members.
    write("gzip_plain.gz", gzip.compress(text, 6, mtime=0), text)
    write("gzip_fname.gz", gzip_member(small_text, name=b"fixture.txt", mtime=1_700_000_000), small_text)
    write("gzip_fcomment.gz", gzip_member(small_text, comment=b"made by make_fixtures.py"), small_text)
    write("gzip_fextra.gz", gzip_member(small_text, extra=b"AP\x04\x00\x01\x02\x03\x04"), small_text)
    write("gzip_fhcrc.gz", gzip_member(small_text, header_crc=True), small_text)
    write("gzip_all_fields.gz", gzip_member(small_text, flags=1, extra=b"XY\x02\x00hiZZ\x00\x00",
                                            name=b"caf\xe9.txt", comment=b"a comment\nwith two lines",
                                            header_crc=True, mtime=1), small_text)
    write("gzip_two_members.gz", gzip_member(small_text, 9) + gzip_member(runs[:50_000], 1, name=b"runs"),
          small_text + runs[:50_000])
    write("gzip_three_members_one_empty.gz",
          gzip_member(b"first\n") + gzip_member(b"") + gzip_member(records[:4096], 0), b"first\n" + records[:4096])

    # zlib streams of PNGs from the corpus (IDAT payloads joined).
    for folder, names in (("extras", ["photo_900x600_adam7", "rgba16_photo", "zlib_fixed_huffman_only",
                                      "zlib_stored_blocks_only", "zlib_sync_flush_every_row", "zlib_window_256",
                                      "idat_varied_and_empty_chunks"]),
                          ("pngsuite", ["basi6a16", "basn2c16", "basn3p01", "f04n2c08", "z00n2c08", "z03n2c08",
                                        "z06n2c08", "z09n2c08"])):
        for name in names:
            stream = png_idat_stream(os.path.join(CORPUS_PNG, folder, name + ".png"))
            write("png_%s.zlib" % name, stream, zlib.decompress(stream))

    # Self-check: every fixture decodes with Python to what is recorded.
    for name, info in expected.items():
        with open(os.path.join(HERE, name), "rb") as f:
            data = f.read()
        if name.endswith(".gz"):
            out = gzip.decompress(data)
        else:
            d = zlib.decompressobj(15 if name.endswith(".zlib") else -15)
            out = d.decompress(data) + d.flush()
            assert d.eof and not d.unused_data, name
        assert hashlib.sha256(out).hexdigest() == info["sha256"] and len(out) == info["size"], name

    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(HERE, n)) for n in expected)
    print("%d fixtures, %d bytes" % (len(expected), total))


if __name__ == "__main__":
    main()
