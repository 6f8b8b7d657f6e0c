#!/usr/bin/env python3
"""Makes djpeg reference hashes for the damaged sequential JPEGs in this folder (developer use; tests only
read the JSON).

Run from this folder: python3 make_references.py  (needs `djpeg`, Debian package libjpeg-turbo-progs 2.1.5,
on x86-64, where djpeg runs libjpeg-turbo's SIMD inverse DCT).

The files are cjpeg outputs with a few bytes of entropy-coded data overwritten at random (the damaged twins
of Benchmarks/djpeg_crosscheck.py --damage). libjpeg decodes past the damage with a warning. The garbage
decodes to coefficients far outside what a valid file holds, which is where libjpeg-turbo's SIMD IDCT
(16-bit lanes: wrapping sums, saturating packs) differs from plain 32-bit arithmetic. Writes
references.json: per file its size, djpeg's first warning, and the SHA-256 of djpeg's raw pixels.
"""
import json, os, subprocess, sys

# The PNM parsing and djpeg call are shared with ../make_references.py.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import make_references as parent_references  # noqa: E402

# What each file exercises (found by tracing its coefficients through both IDCTs).
DESCRIPTIONS = {
    'bad_code_17th_bit_3x16.jpg': 'an invalid Huffman code consumes 17 bits; the 17th is real data, '
                                  'not a bit past the end of the segment',
    'damaged_9x31.jpg': 'first-pass results saturate to 16 bits; x0 + x4 wraps to 16 bits; '
                        'z3 + z4 is never formed on its own (no wrap)',
    'damaged_640x9.jpg': 'x2 + x6, z3 + z4, x7 + x1 and x5 + x3 are never formed on their own (no wrap)',
    'damaged_127x9.jpg': 'x2 + x6 is never formed on its own; first-pass saturation',
    'damaged_200x16.jpg': 'x0 ± x4 wraps to 16 bits; first-pass saturation',
    'damaged_333x7.jpg': 'blocks whose rows 1...7 are zero skip the first pass (x << 2 wraps, no '
                         'saturation), among them DC-only blocks with a DC beyond ±8192',
}


def djpeg(path):
    """djpeg's output for the file at `path`, parsed by the parent folder's script."""
    with open(path, 'rb') as data:
        ref = parent_references.djpeg(data.read())
    ref['djpeg_warning'] = ref.pop('djpeg_stderr')
    return ref


def main():
    folder = os.path.dirname(os.path.abspath(__file__))
    names = sorted(name for name in os.listdir(folder) if name.endswith('.jpg'))
    assert set(names) == set(DESCRIPTIONS), 'describe every file (and only those present)'
    files = []
    for name in names:
        path = os.path.join(folder, name)
        ref = djpeg(path)
        assert ref['djpeg_rc'] == 2 and ref['djpeg_warning'].startswith('Corrupt JPEG data'), (name, ref)
        files.append({'name': name, 'description': DESCRIPTIONS[name], 'bytes': os.path.getsize(path), **ref})
    version = subprocess.run(['dpkg-query', '-W', '-f', '${Version}', 'libjpeg-turbo-progs'],
                             capture_output=True, text=True).stdout
    with open(os.path.join(folder, 'references.json'), 'w') as out:
        json.dump({'made_with': 'TestImages/jpeg-extra/damaged/make_references.py, djpeg (libjpeg-turbo) '
                                + version + ', x86-64', 'files': files}, out, indent=1)
        out.write('\n')
    print(len(files), 'damaged references')


if __name__ == '__main__':
    sys.exit(main())
