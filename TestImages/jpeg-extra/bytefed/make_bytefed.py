#!/usr/bin/env python3
"""Makes the byte-fed fixtures (developer use; tests read the JPEGs and references.json only).

Run from this folder: python3 make_bytefed.py  (needs djpeg and cjpeg, Debian libjpeg-turbo-progs).
harvesters_gray_baseline.jpg: the demo photo in gray, baseline, 888x592 (8,214 one-block MCUs in
about 60 KB, several MCUs per 256 bytes). harvesters_10block_baseline.jpg: the photo at half size
in colour, sampled 2x2,2x2,2x1 (ten blocks per MCU, the most T.81 allows: an MCU may need more bytes
than a decoder holds back before running its parser). references.json: SHA-256 of djpeg's samples.
"""
import hashlib, json, subprocess


def samples(jpeg):
    """Width, height and the SHA-256 of djpeg's samples of `jpeg`."""
    pnm = subprocess.run(['djpeg'], input=jpeg, capture_output=True, check=True).stdout
    # Binary PNM: magic, width, height, maxval, each followed by one whitespace byte.
    fields, index = [], 0
    while len(fields) < 4:
        while pnm[index:index + 1].isspace(): index += 1
        start = index
        while not pnm[index:index + 1].isspace(): index += 1
        fields.append(pnm[start:index].decode())
    return {'width': int(fields[1]), 'height': int(fields[2]), 'sha256': hashlib.sha256(pnm[index + 1:]).hexdigest()}


demo = '../../demo/harvesters_progressive.jpg'
gray = subprocess.run(['djpeg', '-grayscale', demo], capture_output=True, check=True).stdout
jpeg = subprocess.run(['cjpeg', '-quality', '90', '-optimize'], input=gray, capture_output=True, check=True).stdout
open('harvesters_gray_baseline.jpg', 'wb').write(jpeg)
colour = subprocess.run(['djpeg', '-scale', '1/2', demo], capture_output=True, check=True).stdout
ten = subprocess.run(['cjpeg', '-quality', '95', '-sample', '2x2,2x2,2x1'], input=colour, capture_output=True, check=True).stdout
open('harvesters_10block_baseline.jpg', 'wb').write(ten)
json.dump({'made_with': 'TestImages/jpeg-extra/bytefed/make_bytefed.py, djpeg/cjpeg (libjpeg-turbo)',
           'harvesters_gray_baseline.jpg': samples(jpeg),
           'harvesters_10block_baseline.jpg': samples(ten)},
          open('references.json', 'w'), indent=1)
