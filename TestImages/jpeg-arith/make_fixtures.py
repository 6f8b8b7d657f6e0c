#!/usr/bin/env python3
"""Makes the arithmetic-coded JPEG fixtures and their djpeg references (developer use; tests only
read the files and the JSON).

Run from this folder: python3 make_fixtures.py  (needs Debian's `cjpeg`, `jpegtran` and `djpeg`,
libjpeg-turbo 2.1.5 built with arithmetic coding, package libjpeg-turbo-progs).

Writes files/*.jpg and references.json with
  * fixtures: every file with djpeg's picture at -scale 1/1, 1/2, 1/4, 1/8 (SHA-256 of the raw pixels,
    gray8 or rgb8 as djpeg writes them into PNM) and how the file was made. Files come from
    `cjpeg -arithmetic` (testorig.ppm = djpeg of corpus libjpeg-turbo/testorig.jpg, and crops of it) and
    `jpegtran -arithmetic` of corpus files (all samplings, odd sizes, CMYK/YCCK, restarts, scan scripts),
    plus DAC edits: conditioning values changed (decoded as djpeg decodes the resulting data) or the
    segment removed (the defaults apply).
  * damaged: deterministic edits of fixtures (applied in the order set, flip, insert, delete, truncate) (cut short, bits flipped, restart markers renumbered,
    removed or preceded by junk, a stuffed 0xFF written as 0xFF 0xFF 0x00) and djpeg's picture of each
    (sha256 null where djpeg's picture comes from block smoothing of a progressive file cut short,
    which this decoder does not reproduce exactly yet); djpeg_rc 2 means djpeg warned.
"""
import json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'jpeg-extra'))
from make_references import djpeg  # noqa: E402  (djpeg's picture: size, SHA-256 of the pixels, exit code)
CORPUS = os.path.join(HERE, '..', 'corpus', 'jpeg')
FILES = os.path.join(HERE, 'files')


def run(args, data=None):
    result = subprocess.run(args, input=data, capture_output=True)
    assert result.returncode == 0, (args, result.stderr)
    return result.stdout


def parse_ppm(ppm):
    """(width, height, pixels) of a binary P6 PPM as djpeg writes it ('P6\\n<w> <h>\\n255\\n')."""
    _, size, _, pixels = ppm.split(b'\n', 3)
    width, height = (int(v) for v in size.split())
    return width, height, pixels


def ppm(width, height, rows):
    return b'P6\n%d %d\n255\n' % (width, height) + b''.join(rows)


def ppm_crop(source, x, y, width, height):
    """A width×height crop at (x, y)."""
    full_width, _, pixels = parse_ppm(source)
    return ppm(width, height, [pixels[((y + r) * full_width + x) * 3:((y + r) * full_width + x + width) * 3]
                               for r in range(height)])


def tiled(source, width, height):
    """A width×height picture tiling `source` (for long 1-pixel strips)."""
    w, h, pixels = parse_ppm(source)
    rows = [pixels[(r % h) * w * 3:((r % h) + 1) * w * 3] for r in range(height)]
    return ppm(width, height, [(row * (width // w + 1))[:width * 3] for row in rows])


SCRIPTS = {
    # Successive approximation two bits deep on DC and AC, refinements interleaved with first scans.
    'deep_successive_approximation': """
0,1,2: 0-0, 0, 2;
0: 1-5, 0, 2;
2: 1-63, 0, 1;
1: 1-63, 0, 1;
0: 6-63, 0, 2;
0,1,2: 0-0, 2, 1;
0: 1-63, 2, 1;
0,1,2: 0-0, 1, 0;
2: 1-63, 1, 0;
1: 1-63, 1, 0;
0: 1-63, 1, 0;
""",
    # DC scans one component at a time, AC by spectral selection only, bands of one coefficient too.
    'noninterleaved_dc_spectral': """
0: 0-0, 0, 0;
1: 0-0, 0, 0;
2: 0-0, 0, 0;
0: 1-1, 0, 0;
0: 2-2, 0, 0;
0: 3-20, 0, 0;
0: 21-63, 0, 0;
1: 1-63, 0, 0;
2: 1-63, 0, 0;
""",
    # Sequential, one scan per component (the image is stored whole).
    'sequential_noninterleaved': """
0: 0-63, 0, 0;
1: 0-63, 0, 0;
2: 0-63, 0, 0;
""",
}


def dac_offsets(data):
    """Offsets of DAC segments (0xFF 0xCC) before the first SOS."""
    sos = data.index(b'\xff\xda')
    found, index = [], 2
    while index < sos:
        if data[index] == 0xFF and data[index + 1] == 0xCC:
            found.append(index)
        index = index + 2 + (data[index + 2] << 8 | data[index + 3]) if data[index] == 0xFF and data[index + 1] not in (0xD8, 0x01) else index + 1
    return found


def main():
    os.makedirs(FILES, exist_ok=True)
    testorig = run(['djpeg', os.path.join(CORPUS, 'libjpeg-turbo', 'testorig.jpg')])
    made = []   # (name, bytes, how)

    def cjpeg(name, source, *args):
        made.append((name, run(['cjpeg', '-arithmetic', *args], source),
                     'cjpeg -arithmetic %s (%s)' % (' '.join(args), 'testorig.ppm' if source is testorig else 'crop of testorig.ppm')))

    def jpegtran(name, corpus_path, *args, script=None):
        extra = []
        if script:
            handle = tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False)
            handle.write(SCRIPTS[script])
            handle.close()
            extra = ['-scans', handle.name]
        data = run(['jpegtran', '-arithmetic', '-copy', 'all', *args, *extra, os.path.join(CORPUS, corpus_path)])
        made.append((name, data, 'jpegtran -arithmetic -copy all %s%s corpus/jpeg/%s'
                     % (' '.join(args), (' -scans ' + script) if script else '', corpus_path)))

    cjpeg('seq_gray.jpg', testorig, '-grayscale')
    cjpeg('seq_444_q95.jpg', testorig, '-sample', '1x1', '-quality', '95')
    cjpeg('seq_422_restart3B.jpg', testorig, '-sample', '2x1', '-restart', '3B')
    cjpeg('seq_420_restart1.jpg', testorig, '-restart', '1')
    cjpeg('seq_rgb.jpg', testorig, '-rgb')
    cjpeg('seq_q100.jpg', testorig, '-quality', '100')
    cjpeg('prog_420.jpg', testorig, '-progressive')
    cjpeg('prog_gray_restart2B.jpg', testorig, '-progressive', '-grayscale', '-restart', '2B')
    cjpeg('prog_444_restart1.jpg', testorig, '-progressive', '-sample', '1x1', '-restart', '1')
    cjpeg('prog_q100_444.jpg', testorig, '-progressive', '-sample', '1x1', '-quality', '100')
    cjpeg('seq_1x1.jpg', ppm_crop(testorig, 100, 70, 1, 1))
    cjpeg('prog_1x1_444.jpg', ppm_crop(testorig, 100, 70, 1, 1), '-progressive', '-sample', '1x1')
    cjpeg('seq_17x13_420.jpg', ppm_crop(testorig, 60, 40, 17, 13))
    cjpeg('prog_17x13_420.jpg', ppm_crop(testorig, 60, 40, 17, 13), '-progressive')
    cjpeg('seq_13x17_422_restart1B.jpg', ppm_crop(testorig, 90, 20, 13, 17), '-sample', '2x1', '-restart', '1B')
    cjpeg('seq_1000x1_420.jpg', tiled(testorig, 1000, 1))
    cjpeg('prog_1000x1_gray.jpg', tiled(testorig, 1000, 1), '-progressive', '-grayscale')
    cjpeg('seq_1x1000_444.jpg', ppm_crop(tiled(testorig, 227, 1000), 113, 0, 1, 1000), '-sample', '1x1')

    generated = 'generated/'
    for base in ('testorig_440', 'testorig_411', 'testorig_410_4x2', 'testorig_nonstd_3x1', 'testorig_nonstd_3x2',
                 'testorig_nonstd_2x2_2x1_1x1', 'testorig_nonstd_1x2_2x1_1x1', 'testorig_q1_16bit_dqt',
                 'testorig_cmyk_adobe', 'testorig_ycck_adobe', 'odd_7x9_420', 'odd_33x17_444', 'odd_16x8_420',
                 'synth_baseline_q95_444'):
        jpegtran('tran_%s.jpg' % base, generated + base + '.jpg')
    for base in ('testorig_progressive', 'odd_1x1_422_progressive', 'odd_7x9_422_progressive',
                 'odd_17x33_422_progressive', 'odd_1000x1_422_progressive', 'testorig_cmyk_adobe',
                 'testorig_nonstd_3x2', 'testorig_410_4x2', 'synth_baseline_q95_444'):
        jpegtran('tran_prog_%s.jpg' % base.replace('_progressive', ''), generated + base + '.jpg', '-progressive')
    jpegtran('tran_prog_422_restart2B.jpg', generated + 'testorig_422.jpg', '-progressive', '-restart', '2B')
    jpegtran('tran_411_restart1.jpg', generated + 'synth_411.jpg', '-restart', '1')
    jpegtran('tran_odd_1000x1_restart3B.jpg', generated + 'odd_1000x1_420.jpg', '-restart', '3B')
    jpegtran('tran_deep_successive_approximation.jpg', generated + 'synth_baseline_q95_444.jpg',
             script='deep_successive_approximation')
    jpegtran('tran_deep_successive_approximation_restart1.jpg', generated + 'testorig_baseline_q75_420.jpg',
             '-restart', '1', script='deep_successive_approximation')
    jpegtran('tran_noninterleaved_dc_spectral.jpg', generated + 'testorig_422.jpg', script='noninterleaved_dc_spectral')
    jpegtran('tran_sequential_noninterleaved_restart2B.jpg', generated + 'testorig_baseline_q75_420.jpg',
             '-restart', '2B', script='sequential_noninterleaved')

    # DAC edits. cjpeg writes one DAC with the default conditioning (DC L=0 U=1, AC Kx=5).
    sequential = dict((name, data) for name, data, _ in made)['seq_420_restart1.jpg']
    progressive = dict((name, data) for name, data, _ in made)['prog_444_restart1.jpg']
    for name, source, values in (
            ('dac_seq_dc_L2_U5_ac_K20.jpg', sequential, {0x00: 0x52, 0x01: 0x31, 0x10: 20, 0x11: 1}),
            ('dac_prog_dc_L1_U3_ac_K63.jpg', progressive, {0x00: 0x31, 0x01: 0x00, 0x10: 63, 0x11: 0})):
        data = bytearray(source)
        dac = dac_offsets(data)[0]
        length = data[dac + 2] << 8 | data[dac + 3]
        body = b''.join(bytes([selector, value]) for selector, value in values.items())
        data[dac:dac + 2 + length] = b'\xff\xcc' + bytes([0, 2 + len(body)]) + body
        made.append((name, bytes(data), 'DAC segment rewritten: ' + ', '.join(
            '%s table %d = 0x%02x' % ('AC' if s >> 4 else 'DC', s & 15, v) for s, v in values.items())))
    data = bytearray(sequential)
    dac = dac_offsets(data)[0]
    del data[dac:dac + 2 + (data[dac + 2] << 8 | data[dac + 3])]
    made.append(('dac_removed.jpg', bytes(data), 'seq_420_restart1.jpg without its DAC segment (defaults apply)'))

    fixtures = []
    for name, data, how in made:
        with open(os.path.join(FILES, name), 'wb') as out:
            out.write(data)
        entry = {'path': 'files/' + name, 'made_with': how}
        for n in (1, 2, 4, 8):
            ref = djpeg(data, '-scale', '1/%d' % n)
            if n == 1:
                entry.update(width=ref['width'], height=ref['height'], djpeg_rc=ref['djpeg_rc'], sha256=ref['sha256'])
            else:
                entry['scale%d' % n] = {'width': ref['width'], 'height': ref['height'], 'sha256': ref['sha256']}
        fixtures.append(entry)

    damaged = []
    def damage(name, description, edit, smoothed=False):
        data = bytearray(open(os.path.join(FILES, name), 'rb').read())
        if 'set' in edit:
            offset, value = edit['set']
            data[offset] = value
        if 'flip' in edit:
            offset, bit = edit['flip']
            data[offset] ^= 1 << bit
        if 'insert' in edit:
            offset, values = edit['insert']
            data[offset:offset] = bytes(values)
        if 'delete' in edit:
            offset, count = edit['delete']
            del data[offset:offset + count]
        if 'truncate' in edit:
            del data[edit['truncate']:]
        ref = djpeg(bytes(data))
        damaged.append({'path': 'files/' + name, 'description': description, 'edit': edit,
                        'width': ref['width'], 'height': ref['height'], 'djpeg_rc': ref['djpeg_rc'],
                        'sha256': None if smoothed else ref['sha256']})

    def entropy_start(data):
        sos = data.index(b'\xff\xda')
        return sos + 2 + (data[sos + 2] << 8 | data[sos + 3])

    for name in ('seq_444_q95.jpg', 'seq_422_restart3B.jpg', 'tran_synth_baseline_q95_444.jpg'):
        data = open(os.path.join(FILES, name), 'rb').read()
        start, end = entropy_start(data), len(data) - 2
        damage(name, 'cut right after the scan header', {'truncate': start})
        for percent in (3, 30, 60, 95):
            damage(name, 'entropy-coded data cut at %d%%' % percent, {'truncate': start + (end - start) * percent // 100})
        for percent in (10, 50, 80):
            offset = start + (end - start) * percent // 100
            while data[offset] == 0xFF or data[offset - 1] == 0xFF:
                offset += 1
            damage(name, 'bit 3 flipped at %d%% of the entropy-coded data' % percent, {'flip': [offset, 3]})
    for name in ('prog_420.jpg', 'tran_deep_successive_approximation_restart1.jpg'):
        data = open(os.path.join(FILES, name), 'rb').read()
        sos = [i for i in range(len(data) - 1) if data[i] == 0xFF and data[i + 1] == 0xDA]
        for index in (1, len(sos) // 2, len(sos) - 1):
            offset = sos[index] + 2 + (data[sos[index] + 2] << 8 | data[sos[index] + 3]) + 7
            while data[offset] == 0xFF or data[offset - 1] == 0xFF:
                offset += 1
            damage(name, 'bit 5 flipped in scan %d' % (index + 1), {'flip': [offset, 5]})
            damage(name, 'cut inside scan %d' % (index + 1), {'truncate': offset}, smoothed=True)
    for name in ('seq_422_restart3B.jpg', 'prog_444_restart1.jpg'):
        data = open(os.path.join(FILES, name), 'rb').read()
        rst = [i for i in range(entropy_start(data), len(data) - 1) if data[i] == 0xFF and 0xD0 <= data[i + 1] <= 0xD7]
        third = rst[2]
        damage(name, 'third restart marker renumbered to the one after next',
               {'set': [third + 1, 0xD0 + ((data[third + 1] - 0xD0 + 2) & 7)]})
        damage(name, 'fifth restart marker removed', {'delete': [rst[4], 2]})
        damage(name, 'three junk bytes before the fourth restart marker', {'insert': [rst[3], [0x12, 0x34, 0x56]]})
        stuffed = next(i for i in range(entropy_start(data), len(data) - 1) if data[i] == 0xFF and data[i + 1] == 0)
        damage(name, 'a stuffed 0xFF 0x00 written as 0xFF 0xFF 0x00 (libjpeg reads the same byte)',
               {'insert': [stuffed, [0xFF]]})

    with open(os.path.join(HERE, 'references.json'), 'w') as out:
        json.dump({'fixtures': fixtures, 'damaged': damaged}, out, indent=1)
    print(len(fixtures), 'fixtures,', len(damaged), 'damaged variants,',
          sum(os.path.getsize(os.path.join(FILES, f)) for f in os.listdir(FILES)), 'bytes')


if __name__ == '__main__':
    main()
