#!/usr/bin/env python3
"""Makes the byte-fed fixture (developer use; tests read the JPEG and references.json only).

Run from this folder: python3 make_bytefed.py  (needs djpeg and cjpeg, Debian libjpeg-turbo-progs).
harvesters_gray_baseline.jpg: the demo photo in gray, baseline, 888x592 (8,214 one-block MCUs in
about 60 KB, several MCUs per 256 bytes). references.json: SHA-256 of djpeg's samples of it.
"""
import hashlib, json, subprocess

gray = subprocess.run(['djpeg', '-grayscale', '../../demo/harvesters_progressive.jpg'], capture_output=True, check=True).stdout
jpeg = subprocess.run(['cjpeg', '-quality', '90', '-optimize'], input=gray, capture_output=True, check=True).stdout
open('harvesters_gray_baseline.jpg', 'wb').write(jpeg)
pnm = subprocess.run(['djpeg'], input=jpeg, capture_output=True, check=True).stdout
# Binary PGM: magic, width, height, maxval, each followed by one whitespace byte.
fields, index = [], 0
while len(fields) < 4:
    while pnm[index:index + 1].isspace(): index += 1
    start = index
    while not pnm[index:index + 1].isspace(): index += 1
    fields.append(pnm[start:index].decode())
pixels = pnm[index + 1:]
json.dump({'made_with': 'TestImages/jpeg-extra/bytefed/make_bytefed.py, djpeg/cjpeg (libjpeg-turbo)',
           'harvesters_gray_baseline.jpg': {'width': int(fields[1]), 'height': int(fields[2]),
                                            'sha256': hashlib.sha256(pixels).hexdigest()}},
          open('references.json', 'w'), indent=1)
