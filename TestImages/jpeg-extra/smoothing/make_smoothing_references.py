#!/usr/bin/env python3
"""Makes the block-smoothing fixtures and their djpeg references (developer use; tests only read the JSON).

Run from this folder: python3 make_smoothing_references.py
(needs `cjpeg`/`djpeg` from Debian's libjpeg-turbo-progs, imagecodecs and Pillow).

The reference is libjpeg-turbo 3.x: imagecodecs' jpeg8_decode (libjpeg-turbo 3.1.3) at full size,
Pillow's bundled libjpeg-turbo 3.x with draft() (libjpeg's DCT scaling) at 1/2, 1/4 and 1/8; the two
are checked against each other at full size. Debian's djpeg is libjpeg-turbo 2.1.5, whose 5x5
smoothing picks the wrong neighbour rows in vertically subsampled pictures (fixed in 3.0.1,
libjpeg-turbo issue #721) and the wrong right-hand column in pictures two blocks wide (#700):
`djpeg215` says whether djpeg 2.1.5 gives the same pixels.

libjpeg-turbo 2.1+ smooths every picture drawn from incomplete progressive data (jdcoefct.c
decompress_smooth_data). The fixtures, made from corpus/jpeg/libjpeg-turbo/testorig.jpg with cjpeg:
  * *_default.jpg, color420_37x20.jpg: cjpeg's default progressive script (gray, 4:2:0, 4:4:4 at
    61x45, and a 4:2:0 picture of two iMCU rows whose last one has one luma block row);
  * short_*.jpg: complete files whose scan script (scans/*.txt) stops before every coefficient is
    exact, so djpeg smooths them too.
Writes references.json: for each fixture and cut (`cut`: the file's first `cut` bytes; null = the
whole file) and scale 1/N, libjpeg-turbo 3.x's pixels (SHA-256 of the raw samples). `kind` says what
the cut is: "boundary" (just before an SOS marker: every scan before it complete, so a decoder's
preview fed up to and including that FF DA must show the same picture), "mid" (inside a scan's
entropy-coded data), "whole".
"""
import hashlib, io, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, '..', '..', 'corpus', 'jpeg', 'libjpeg-turbo', 'testorig.jpg')

import imagecodecs


def run(args, data):
    result = subprocess.run(args, input=data, capture_output=True)
    return result


def pnm_pixels(out):
    fields, index = [], 0
    while len(fields) < 4:
        while out[index:index + 1].isspace():
            index += 1
        start = index
        while index < len(out) and not out[index:index + 1].isspace():
            index += 1
        fields.append(out[start:index].decode())
    return int(fields[1]), int(fields[2]), out[index + 1:]


def source_pnm(crop=None, gray=False):
    from PIL import Image
    ppm = run(['djpeg'], open(SOURCE, 'rb').read()).stdout
    image = Image.open(io.BytesIO(ppm))
    if crop:
        image = image.crop(crop)
    if gray:
        image = image.convert('L')
    buffer = io.BytesIO()
    image.save(buffer, format='PPM')
    return buffer.getvalue()


def make_fixtures():
    fixtures = {
        'gray_default.jpg': (source_pnm(gray=True), ['-progressive']),
        'color420_default.jpg': (source_pnm(), ['-progressive', '-sample', '2x2']),
        'color444_61x45_default.jpg': (source_pnm(crop=(40, 30, 101, 75)), ['-progressive', '-sample', '1x1']),
        'color420_37x20.jpg': (source_pnm(crop=(90, 60, 127, 80)), ['-progressive', '-sample', '2x2']),
        'short_dc_only.jpg': (source_pnm(), ['-sample', '2x2', '-scans', 'scans/dc_only.txt']),
        'short_no_refinement.jpg': (source_pnm(), ['-sample', '2x2', '-scans', 'scans/no_refinement.txt']),
        'short_dc_noninterleaved_444.jpg': (source_pnm(crop=(40, 30, 101, 75)),
                                            ['-sample', '1x1', '-scans', 'scans/dc_noninterleaved_two_ac.txt']),
        'short_gray_spectral.jpg': (source_pnm(gray=True), ['-scans', 'scans/gray_spectral.txt']),
    }
    for name, (pnm, options) in fixtures.items():
        result = subprocess.run(['cjpeg', '-quality', '80', *options], input=pnm, capture_output=True, cwd=HERE)
        assert result.returncode == 0, (name, result.stderr)
        open(os.path.join(HERE, name), 'wb').write(result.stdout)
    return sorted(fixtures)


def scans(data):
    """(SOS offset, first entropy-coded byte, end of the entropy-coded data) of every scan."""
    result, index = [], 2
    while index + 4 <= len(data):
        assert data[index] == 0xFF, index
        marker = data[index + 1]
        if marker == 0xD9:
            break
        length = data[index + 2] << 8 | data[index + 3]
        if marker == 0xDA:
            start = index
            index += 2 + length
            first = index
            # Skip entropy-coded data: 0xFF is followed by 0x00 or RSTn inside it.
            while not (data[index] == 0xFF and data[index + 1] not in (0x00, *range(0xD0, 0xD8))):
                index += 1
            result.append((start, first, index))
        else:
            index += 2 + length
    return result


def cuts(data):
    """(cut, kind): every scan boundary, the middle of every scan's data, two odd places, the whole file."""
    found = scans(data)
    result = [(start, 'boundary') for start, _, _ in found[1:]]
    result += [((first + end) // 2, 'mid') for _, first, end in found]
    result += [(found[0][1] + 5, 'mid'), (found[-1][2] - 3, 'mid'), (None, 'whole')]
    return sorted(set(result), key=lambda item: (item[0] is None, item[0] or 0))


def reference(data, scale):
    """libjpeg-turbo 3.x's pixels for `data` at 1/`scale`, and whether djpeg 2.1.5 agrees."""
    from PIL import Image, ImageFile
    ImageFile.LOAD_TRUNCATED_IMAGES = True
    image = Image.open(io.BytesIO(data))
    if scale > 1:
        image.draft(image.mode, (max(image.size[0] // scale, 1), max(image.size[1] // scale, 1)))
    image.load()
    pixels = image.tobytes()
    if scale == 1:
        assert imagecodecs.jpeg8_decode(data).tobytes() == pixels, 'Pillow and imagecodecs disagree'
    result = run(['djpeg', '-scale', '1/%d' % scale], data)
    width, height, djpeg_pixels = pnm_pixels(result.stdout)
    assert (width, height) == image.size
    return {'width': width, 'height': height, 'sha256': hashlib.sha256(pixels).hexdigest(),
            'djpeg215': djpeg_pixels == pixels}


def main():
    references = []
    for name in make_fixtures():
        data = open(os.path.join(HERE, name), 'rb').read()
        for cut, kind in cuts(data):
            prefix = data if cut is None else data[:cut]
            scales = (1, 2, 4, 8) if kind != 'mid' or cut % 2 == 0 else (1,)
            for scale in scales:
                references.append({'file': name, 'cut': cut, 'kind': kind, 'scale': scale, **reference(prefix, scale)})
    with open(os.path.join(HERE, 'references.json'), 'w') as out:
        json.dump({'references': references}, out, indent=1)
        out.write('\n')
    print(len(references), 'references,', sum(not r['djpeg215'] for r in references), 'where djpeg 2.1.5 differs')


if __name__ == '__main__':
    main()
