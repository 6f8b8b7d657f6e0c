#!/usr/bin/env python3
"""Makes the fill-byte cases for JPEG entropy-coded data and their references (developer use; tests only
read the JSON and the files).

Run from anywhere: python3 make_fill_references.py  (needs Debian's djpeg/jpegtran, libjpeg-turbo-progs
2.1.5 with arithmetic coding, and python3 imagecodecs for the lossless case).

T.81 allows 0xFF fill bytes only before markers (B.1.1.2). libjpeg also reads any run of 0xFF before the
0x00 stuffed after an 0xFF data byte as that one data byte (jdhuff.c and jdarith.c fill their bit buffers
that way), so `FF FF 00` inside a scan decodes as `FF 00`. Each case inserts runs of 0xFF into a file:
1 before the first stuffed 0xFF 0x00 of its entropy-coded data, 7 before the middle one and 300 (more
than a fuzz piece, an MCU's worst case and the reader's look-ahead) before the last; 2 before each of
the first three restart markers; 1 before each marker that starts another scan's segments; 5 before
EOI. djpeg decodes every edited file to the same pixels as the original, without a warning; the
reference is the SHA-256 of djpeg's raw pixels (libjpeg-turbo 3.1.3 through imagecodecs for the
lossless file, which djpeg 2.1.5 does not read; the test compares it with the unedited file's picture).

Files written here (derived from TestImages/corpus/jpeg/libjpeg-turbo/testorig.jpg with jpegtran):
testorig_restart.jpg (-restart 2: RST markers every 2 MCU rows), testorig_progressive.jpg
(-progressive), testorig_arith_restart.jpg (-arithmetic -restart 2). references.json lists per case the
source file, the insertions ([offset in the source file, count of 0xFF]), and the reference.
"""
import hashlib, os, struct, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import make_references as parent_references  # noqa: E402  (djpeg call and PNM parsing)

FOLDER = os.path.dirname(os.path.abspath(__file__))
TEST_IMAGES = os.path.normpath(os.path.join(FOLDER, '..', '..'))
TESTORIG = 'corpus/jpeg/libjpeg-turbo/testorig.jpg'


def scan_layout(data):
    """Offsets of stuffed 0xFF 0x00 pairs, RST markers, markers after the first scan, and EOI."""
    stuffed, restarts, later_markers, eoi = [], [], [], None
    index, scans = 2, 0
    while index < len(data) - 1:
        marker = data[index + 1]
        if marker == 0xD9:
            eoi = index
            break
        if scans > 0:
            later_markers.append(index)
        length = struct.unpack('>H', data[index + 2:index + 4])[0]
        end = index + 2 + length
        if marker == 0xDA:
            scans += 1
            while not (data[end] == 0xFF and data[end + 1] != 0 and not 0xD0 <= data[end + 1] <= 0xD7):
                if data[end] == 0xFF:
                    (stuffed if data[end + 1] == 0 else restarts).append(end)
                    end += 1
                end += 1
        index = end
    return stuffed, restarts, later_markers, eoi


def insertions(data):
    stuffed, restarts, later_markers, eoi = scan_layout(data)
    assert len(stuffed) >= 3, 'each file needs three stuffed bytes'
    edits = [[stuffed[0], 1], [stuffed[len(stuffed) // 2], 7], [stuffed[-1], 300]]
    edits += [[offset, 2] for offset in restarts[:3]]
    edits += [[offset, 1] for offset in later_markers]
    edits.append([eoi, 5])
    return sorted(edits)


def apply(data, edits):
    data = bytearray(data)
    for offset, count in sorted(edits, reverse=True):
        data[offset:offset] = b'\xff' * count
    return bytes(data)


def read(path):
    with open(os.path.join(TEST_IMAGES, path), 'rb') as source:
        return source.read()


def derived_files():
    original = os.path.join(TEST_IMAGES, TESTORIG)
    for name, args in [('testorig_restart.jpg', ['-restart', '2']), ('testorig_progressive.jpg', ['-progressive']),
                       ('testorig_arith_restart.jpg', ['-arithmetic', '-restart', '2'])]:
        result = subprocess.run(['jpegtran', *args, original], capture_output=True, check=True)
        with open(os.path.join(FOLDER, name), 'wb') as out:
            out.write(result.stdout)


def lossless_sha256(data):
    """libjpeg-turbo 3's lossless samples as the decoder lays them out (16-bit big-endian above 8 bits)."""
    import imagecodecs
    pixels = imagecodecs.jpeg8_decode(data)
    if pixels.dtype.itemsize == 2:
        pixels = pixels.astype('>u2')
    return hashlib.sha256(pixels.tobytes()).hexdigest(), pixels.shape


def main():
    derived_files()
    cases = []
    sources = [TESTORIG, 'jpeg-extra/fill/testorig_restart.jpg', 'jpeg-extra/fill/testorig_progressive.jpg',
               'corpus/jpeg/libjpeg-turbo/testimgari.jpg', 'jpeg-extra/fill/testorig_arith_restart.jpg']
    for path in sources:
        data = read(path)
        edits = insertions(data)
        filled = parent_references.djpeg(apply(data, edits))
        plain = parent_references.djpeg(data)
        assert filled['djpeg_rc'] == 0 and not filled['djpeg_stderr'], (path, filled)
        assert filled['sha256'] == plain['sha256'], path
        cases.append({'path': path, 'insert': edits, 'width': filled['width'], 'height': filled['height'],
                      'sha256': filled['sha256'], 'reference': 'djpeg'})
    path = 'jpeg-hibit/lossless_16bit_gray_pt3_restarts.jpg'
    data = read(path)
    edits = insertions(data)
    digest, shape = lossless_sha256(apply(data, edits))
    assert digest == lossless_sha256(data)[0], path
    cases.append({'path': path, 'insert': edits, 'width': shape[1], 'height': shape[0], 'sha256': digest,
                  'reference': 'imagecodecs jpeg8_decode ' + __import__('imagecodecs').__version__})
    parent_references.write_references(FOLDER, 'TestImages/jpeg-extra/fill/make_fill_references.py', {'cases': cases})
    print(len(cases), 'fill references')


if __name__ == '__main__':
    main()
