#!/usr/bin/env python3
"""Makes the multi-scan sequential fixtures in this folder and their djpeg references (developer use;
tests only read the JSON and the files).

Run from anywhere: python3 make_multiscan_references.py  (needs numpy, Pillow, and Debian's cjpeg/djpeg,
libjpeg-turbo-progs 2.1.5 with arithmetic coding, on x86-64).

- recoded_luma.jpg, recoded_luma_arith.jpg (Huffman, arithmetic): a 96x64 4:2:0 sequential file whose
  components come in separate scans, with its luma scan followed by the luma scan of a second picture
  coded with the same tables. T.81 does not allow a component twice in a sequential frame, but libjpeg
  decodes it: blocks keep what the first scan gave them and the second writes its DC and its non-zero
  AC coefficients over them (a mix of both pictures, not the second one alone). Cases: the whole file
  and cuts inside the second luma scan and inside the Cb scan (djpeg's picture of the cut file).
- fuzz_multiscan_4_scans.bin, fuzz_multiscan_10_scans.bin: two libFuzzer inputs (the first two bytes
  choose the fuzz target's pieces, the rest is a damaged SOF0 file with 4 and 10 scans, two of them
  coding luma twice). A scan header selects a Huffman table libjpeg rejects (fatal in djpeg); the
  picture left then is djpeg's picture of the file cut before that SOS with EOI appended.

Writes references.json: per case the file, the prefix bytes to skip, the bytes the decoder is fed (null:
all), the error it reports (kind, and offset in the file after the skipped prefix), what djpeg decoded
for the reference, and the SHA-256 of djpeg's raw pixels.
"""
import os, struct, subprocess, sys, tempfile

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import make_references as parent_references  # noqa: E402  (djpeg call and PNM parsing)

FOLDER = os.path.dirname(os.path.abspath(__file__))


def segments(data):
    """(marker, start, end) of each marker segment, SOS segments with their entropy-coded data."""
    index, found = 2, []
    while index < len(data) - 1:
        marker = data[index + 1]
        if marker == 0xD9:
            found.append((marker, index, index + 2))
            break
        length = struct.unpack('>H', data[index + 2:index + 4])[0]
        end = index + 2 + length
        if marker == 0xDA:
            while not (data[end] == 0xFF and data[end + 1] != 0 and not 0xD0 <= data[end + 1] <= 0xD7):
                end += 1
        found.append((marker, index, end))
        index = end
    return found


def pictures():
    """Two 96x64 RGB pictures: smooth ramps, and seeded noise (very different luma)."""
    y, x = np.indices((64, 96))
    ramp = (x + y) * 2 % 256
    first = np.stack([ramp, 255 - ramp, ramp * 3 % 256], -1).astype(np.uint8)
    second = np.random.default_rng(1).integers(0, 256, (64, 96, 3)).astype(np.uint8)
    return first, second


def cjpeg(picture, *args):
    with tempfile.TemporaryDirectory() as work:
        ppm, script = os.path.join(work, 'in.ppm'), os.path.join(work, 'scans.txt')
        Image.fromarray(picture).save(ppm)
        with open(script, 'w') as out:
            out.write('0;\n1;\n2;\n')   # one scan per component: a multi-scan sequential file
        return subprocess.run(['cjpeg', '-quality', '80', '-scans', script, *args, ppm],
                              capture_output=True, check=True).stdout


def recoded_luma(*args):
    """The first picture's file with the second picture's luma scan after its own."""
    first, second = (cjpeg(picture, *args) for picture in pictures())
    a, b = segments(first), segments(second)
    scans_a = [first[s:e] for m, s, e in a if m == 0xDA]
    scans_b = [second[s:e] for m, s, e in b if m == 0xDA]
    header_a = first[:[s for m, s, e in a if m == 0xDA][0]]
    header_b = second[:[s for m, s, e in b if m == 0xDA][0]]
    assert header_a == header_b, 'the two files must share their tables'
    data = header_a + scans_a[0] + scans_b[0] + scans_a[1] + scans_a[2] + b'\xff\xd9'
    second_luma = len(header_a) + len(scans_a[0])
    cb = second_luma + len(scans_b[0])
    # Cuts: inside the second luma scan (a third, two thirds) and inside the Cb scan.
    cuts = [second_luma + len(scans_b[0]) // 3, second_luma + 2 * len(scans_b[0]) // 3, cb + len(scans_a[1]) // 2]
    return data, cuts


def reference(data):
    ref = parent_references.djpeg(bytes(data))
    return {key: ref[key] for key in ('width', 'height', 'sha256')}, ref


def main():
    cases = []
    for name, args in [('recoded_luma.jpg', ()), ('recoded_luma_arith.jpg', ('-arithmetic',))]:
        data, cuts = recoded_luma(*args)
        with open(os.path.join(FOLDER, name), 'wb') as out:
            out.write(data)
        ref, raw = reference(data)
        assert raw['djpeg_rc'] == 0, raw
        cases.append({'file': name, 'skip': 0, 'keep': None, 'error': None, 'errorOffset': None,
                      'reference': 'djpeg', **ref})
        for cut in cuts:
            ref, raw = reference(data[:cut])
            assert raw['djpeg_rc'] == 2 and 'Premature end' in raw['djpeg_stderr'], raw
            cases.append({'file': name, 'skip': 0, 'keep': cut, 'error': 'truncated', 'errorOffset': cut,
                          'reference': 'djpeg', **ref})
    # The fuzz findings: the SOS libjpeg rejects, and why.
    for name, sos, message in [('fuzz_multiscan_4_scans.bin', 7972, 'Huffman table 0x0c was not defined'),
                               ('fuzz_multiscan_10_scans.bin', 4994, 'Bogus Huffman table definition')]:
        with open(os.path.join(FOLDER, name), 'rb') as source:
            data = source.read()[2:]
        assert data[sos:sos + 2] == b'\xff\xda'
        whole = subprocess.run(['djpeg'], input=data, capture_output=True)
        assert whole.returncode == 1 and message in whole.stderr.decode(), whole.stderr
        ref, raw = reference(data[:sos] + b'\xff\xd9')
        cases.append({'file': name, 'skip': 2, 'keep': None, 'error': 'invalidData', 'errorOffset': sos,
                      'reference': 'djpeg of the bytes before errorOffset and EOI', **ref})
    parent_references.write_references(FOLDER, 'TestImages/jpeg-extra/multiscan/make_multiscan_references.py', {'cases': cases})
    print(len(cases), 'multi-scan references')


if __name__ == '__main__':
    main()
