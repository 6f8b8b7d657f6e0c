#!/usr/bin/env python3
"""Writes 20 progressive 1600x1067 JPEGs (from the corpus photo, scaled up) into photos/."""
from pathlib import Path
from PIL import Image

here = Path(__file__).parent
source = here / "../../TestImages/corpus/png/extras/photo_900x600_adam7.png"
(here / "photos").mkdir(exist_ok=True)
photo = Image.open(source).convert("RGB").resize((1800, 1200), Image.LANCZOS)
for number in range(20):
    picture = photo.rotate(0 if number % 2 == 0 else 180).crop((number * 10, 0, 1600 + number * 10, 1067))
    picture.save(here / "photos" / f"p{number:02d}.jpg", quality=88, progressive=True, optimize=True)
