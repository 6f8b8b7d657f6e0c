#!/usr/bin/env python3
"""Writes APNG benchmark inputs into Benchmarks/generated/apng/ (git-ignored):

- sprites_rgba8.png: 480x360 RGBA, 40 frames: a photo-like background (smooth gradients plus
  noise) as the default image, then sprites with soft edges (partial alpha) moving over it.
  Pillow's encoder picks each frame's region, dispose and blend ops (sub-regions, OVER).
- full_rgb8.png: 480x360 RGB, 24 full-canvas frames (a scrolling gradient with noise), SOURCE.

`benchmark Benchmarks/generated/apng` decodes each file and pulls every frame.
Needs numpy and Pillow.
"""
from pathlib import Path

import numpy as np
from PIL import Image

OUT = Path(__file__).parent / "generated" / "apng"


def background(width, height, rng):
    y, x = np.mgrid[0:height, 0:width]
    base = np.stack([128 + 100 * np.sin(x / 37.0), 128 + 100 * np.cos(y / 29.0), 128 + 80 * np.sin((x + y) / 53.0)], axis=2)
    return np.clip(base + rng.normal(0, 3, base.shape), 0, 255).astype(np.uint8)


def sprites(width, height, count, rng):
    back = background(width, height, rng)
    canvas = np.concatenate([back, np.full((height, width, 1), 255, np.uint8)], axis=2)
    frames = [Image.fromarray(canvas)]
    y, x = np.mgrid[0:64, 0:64]
    soft = np.clip(255 * (1 - np.hypot(x - 32, y - 32) / 32), 0, 255).astype(np.uint8)
    for n in range(1, count):
        frame = canvas.copy()
        for k in range(3):
            px, py = (n * 11 + k * 150) % (width - 64), (n * 7 + k * 90) % (height - 64)
            colour = np.array([(k * 90 + n * 5) % 256, (200 - k * 60) % 256, (n * 13) % 256], np.float64)
            alpha = soft[..., None] / 255.0
            patch = frame[py:py + 64, px:px + 64, :3].astype(np.float64)
            frame[py:py + 64, px:px + 64, :3] = (patch * (1 - alpha) + colour * alpha).astype(np.uint8)
        frames.append(Image.fromarray(frame))
    return frames


def scrolling(width, height, count, rng):
    wide = background(width * 2, height, rng)
    return [Image.fromarray(np.ascontiguousarray(wide[:, n * 9:n * 9 + width])) for n in range(count)]


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(13)
    frames = sprites(480, 360, 40, rng)
    frames[0].save(OUT / "sprites_rgba8.png", save_all=True, append_images=frames[1:], duration=40, loop=0, blend=1)
    frames = scrolling(480, 360, 24, rng)
    frames[0].save(OUT / "full_rgb8.png", save_all=True, append_images=frames[1:], duration=40, loop=0, blend=0, disposal=0)
    for path in sorted(OUT.glob("*.png")):
        print(path, path.stat().st_size)


if __name__ == "__main__":
    main()
