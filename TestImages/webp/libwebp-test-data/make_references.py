#!/usr/bin/env python3
"""References for the files copied from libwebp's test data (developer tool).

Each file is decoded with Debian's `dwebp -pam` (libwebp 1.2.4, default options); the PAM is
checked against the upstream MD5 in upstream_pam.md5 (from libwebp_tests.md5) where there is one,
and references.json records width, height, format and the SHA-256 of the pixels (RGB when
libwebp reports no alpha), or "error" when dwebp refuses the file. Animated files are skipped.
Run from this folder: python3 make_references.py
"""
import hashlib, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from make_fixtures import libwebp_has_alpha, read_pam  # noqa: E402


def main():
    upstream = {}
    for line in open(os.path.join(HERE, "upstream_pam.md5")):
        digest, name = line.split()
        upstream[name[:-len(".pam")]] = digest
    references = {}
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(HERE)):
            if not name.endswith(".webp"):
                continue
            path, pam = os.path.join(HERE, name), os.path.join(tmp, "out.pam")
            result = subprocess.run(["dwebp", path, "-pam", "-o", pam], capture_output=True)
            if result.returncode != 0:
                references[name] = {"error": True}
                continue
            raw = open(pam, "rb").read()
            if name in upstream:
                assert hashlib.md5(raw).hexdigest() == upstream[name], name
                checked += 1
            w, h, rgba = read_pam(pam)
            has_alpha = libwebp_has_alpha(open(path, "rb").read())
            pixels = rgba if has_alpha else bytes(b for i, b in enumerate(rgba) if i % 4 != 3)
            references[name] = {"width": w, "height": h, "format": "rgba8" if has_alpha else "rgb8",
                                "sha256": hashlib.sha256(pixels).hexdigest()}
    with open(os.path.join(HERE, "references.json"), "w") as f:
        json.dump(references, f, indent=1, sort_keys=True)
        f.write("\n")
    print("%d files, %d checked against upstream MD5s, %d refused by dwebp"
          % (len(references), checked, sum(1 for r in references.values() if r.get("error"))))


if __name__ == "__main__":
    main()
