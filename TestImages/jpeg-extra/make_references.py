#!/usr/bin/env python3
"""Makes extra JPEG reference hashes with libjpeg-turbo's djpeg (developer use; tests only read the JSON).

Run from this folder: python3 make_references.py  (needs `djpeg`, Debian package libjpeg-turbo-progs).

Writes references.json with
  * scaled: djpeg -scale 1/N output (default options otherwise) for every sequential `expect: decode`
    corpus JPEG that is not optional (plus CMYK/YCCK), N = 2, 4, 8: SHA-256 of the raw pixels.
  * damaged: deterministic edits of corpus files (restart markers renumbered or removed, files cut short)
    and djpeg's output for them, SHA-256 of the raw pixels. djpeg warns (exit code 2) but writes
    the whole picture: lost data reads as zeros, lost restart intervals come out gray.
"""
import hashlib, json, os, subprocess, sys

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'corpus')


def djpeg(data, *args):
    result = subprocess.run(['djpeg', *args], input=data, capture_output=True)
    out = result.stdout
    # Binary PNM: magic, width, height, maxval, each followed by one whitespace byte.
    fields, index = [], 0
    while len(fields) < 4:
        while index < len(out) and out[index:index + 1].isspace():
            index += 1
        start = index
        while index < len(out) and not out[index:index + 1].isspace():
            index += 1
        fields.append(out[start:index].decode())
    pixels = out[index + 1:]
    return {'width': int(fields[1]), 'height': int(fields[2]), 'channels': 1 if fields[0] == 'P5' else 3,
            'sha256': hashlib.sha256(pixels).hexdigest(), 'djpeg_rc': result.returncode,
            'djpeg_stderr': result.stderr.decode().strip()}


def write_references(folder, script, payload):
    """Writes folder/references.json: `payload` with a 'made_with' naming `script` and djpeg's version."""
    version = subprocess.run(['dpkg-query', '-W', '-f', '${Version}', 'libjpeg-turbo-progs'],
                             capture_output=True, text=True).stdout
    with open(os.path.join(folder, 'references.json'), 'w') as out:
        json.dump({'made_with': script + ', djpeg (libjpeg-turbo) ' + version + ', x86-64', **payload}, out, indent=1)
        out.write('\n')


def restart_markers(data):
    """Offsets of RSTn markers (0xFF 0xD0..0xD7) in the entropy-coded data."""
    return [i for i in range(len(data) - 1) if data[i] == 0xFF and 0xD0 <= data[i + 1] <= 0xD7]


def apply(data, edit):
    data = bytearray(data)
    if 'set' in edit:
        offset, value = edit['set']
        data[offset] = value
    if 'delete' in edit:
        offset, count = edit['delete']
        del data[offset:offset + count]
    if 'truncate' in edit:
        del data[edit['truncate']:]
    return bytes(data)


def main():
    manifest = json.load(open(os.path.join(CORPUS, 'manifest.json')))
    scaled = []
    for entry in manifest['files']:
        if not entry['path'].startswith('jpeg/') or entry['expect'] != 'decode':
            continue
        if entry['features'].get('progressive') or (entry.get('optional') and not entry['optional'].startswith('CMYK')):
            continue
        data = open(os.path.join(CORPUS, entry['path']), 'rb').read()
        for denominator in (2, 4, 8):
            ref = djpeg(data, '-scale', f'1/{denominator}')
            assert ref['djpeg_rc'] == 0, (entry['path'], ref)
            scaled.append({'path': entry['path'], 'scale': denominator, 'width': ref['width'],
                           'height': ref['height'], 'sha256': ref['sha256']})

    damaged = []
    def add(path, description, edit):
        data = open(os.path.join(CORPUS, path), 'rb').read()
        ref = djpeg(apply(data, edit))
        damaged.append({'path': path, 'description': description, 'edit': edit, **ref})

    for path in ('jpeg/generated/testorig_restart_1row.jpg', 'jpeg/generated/synth_restart_3B.jpg'):
        data = open(os.path.join(CORPUS, path), 'rb').read()
        rst = restart_markers(data)
        third = rst[2]
        add(path, 'third restart marker renumbered to the one after next',
            {'set': [third + 1, 0xD0 + ((data[third + 1] - 0xD0 + 2) & 7)]})
        add(path, 'third restart marker renumbered to a far one',
            {'set': [third + 1, 0xD0 + ((data[third + 1] - 0xD0 + 4) & 7)]})
        add(path, 'third restart marker renumbered to the previous one',
            {'set': [third + 1, 0xD0 + ((data[third + 1] - 0xD0 - 1) & 7)]})
        add(path, 'third restart marker removed', {'delete': [third, 2]})
        add(path, 'cut in the middle of the fifth restart interval', {'truncate': (rst[4] + rst[5]) // 2})
    for path in ('jpeg/generated/testorig_baseline_q75_420.jpg', 'jpeg/generated/synth_baseline_q95_444.jpg',
                 'jpeg/generated/synth_422.jpg', 'jpeg/generated/testorig_gray.jpg'):
        size = os.path.getsize(os.path.join(CORPUS, path))
        for percent in (35, 70, 95):
            add(path, f'cut to {percent}% of its bytes', {'truncate': size * percent // 100})

    json.dump({'made_with': 'TestImages/jpeg-extra/make_references.py, djpeg (libjpeg-turbo) '
                            + subprocess.run(['dpkg-query', '-W', '-f', '${Version}', 'libjpeg-turbo-progs'],
                                             capture_output=True, text=True).stdout,
               'scaled': scaled, 'damaged': damaged},
              open('references.json', 'w'), indent=1)
    print(len(scaled), 'scaled,', len(damaged), 'damaged references')


if __name__ == '__main__':
    sys.exit(main())
