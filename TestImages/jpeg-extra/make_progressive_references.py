#!/usr/bin/env python3
"""Makes djpeg reference hashes for progressive JPEGs (developer use; tests only read the JSON).

Run from this folder: python3 make_progressive_references.py  (needs `djpeg`, Debian package libjpeg-turbo-progs).

Writes progressive_references.json with
  * scaled: `djpeg -scale 1/N` (defaults otherwise) for every non-optional progressive `expect: decode`
    corpus JPEG and for ../demo/harvesters_progressive.jpg, N = 1, 2, 4, 8: SHA-256 of the raw pixels.
    Paths are relative to TestImages/.
Also writes djpeg_smoothed_synth_progressive_truncated_50pct.ppm: djpeg's whole PPM output (with its
block smoothing of the missing coefficients) for corpus jpeg/malformed/synth_progressive_truncated_50pct.jpg.
"""
import json, os, subprocess

from make_references import djpeg

HERE = os.path.dirname(os.path.abspath(__file__))
TEST_IMAGES = os.path.join(HERE, '..')


def main():
    manifest = json.load(open(os.path.join(TEST_IMAGES, 'corpus', 'manifest.json')))
    paths = ['corpus/' + entry['path'] for entry in manifest['files']
             if entry['path'].startswith('jpeg/') and entry['expect'] == 'decode'
             and entry['features'].get('progressive') and not entry.get('optional')]
    paths.append('demo/harvesters_progressive.jpg')
    scaled = []
    for path in paths:
        data = open(os.path.join(TEST_IMAGES, path), 'rb').read()
        for n in (1, 2, 4, 8):
            result = djpeg(data, '-scale', '1/%d' % n)
            assert result['djpeg_rc'] == 0, (path, result['djpeg_stderr'])
            scaled.append({'path': path, 'scale': n, 'width': result['width'], 'height': result['height'],
                           'sha256': result['sha256']})
    truncated = os.path.join(TEST_IMAGES, 'corpus', 'jpeg', 'malformed', 'synth_progressive_truncated_50pct.jpg')
    ppm = subprocess.run(['djpeg', truncated], capture_output=True).stdout
    with open(os.path.join(HERE, 'djpeg_smoothed_synth_progressive_truncated_50pct.ppm'), 'wb') as out:
        out.write(ppm)
    with open(os.path.join(HERE, 'progressive_references.json'), 'w') as out:
        json.dump({'scaled': scaled}, out, indent=1)
        out.write('\n')


if __name__ == '__main__':
    main()
