"""Procedural table surfaces for synthetic scenes: the kinds training draws from
(:data:`TRAIN_BACKGROUNDS`) and the kinds kept for the held-out sets
(:data:`TEST_BACKGROUNDS`).  A new surface is a new ``kind`` in :func:`background`.

Part of :mod:`vision.synth`: imports numpy and Pillow only; never the runtime's detector,
nor :mod:`vision.train`, nor ``referee``.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

TRAIN_BACKGROUNDS: tuple[str, ...] = ("plain", "wood", "felt", "cloth", "paper", "floral")
#: Background kinds never used in training, for the held-out test set.
TEST_BACKGROUNDS: tuple[str, ...] = ("marble", "tiles")


def _smooth_noise(rng, w, h, cells, channels=1):
    small = rng.random((max(2, cells), max(2, cells), channels)).astype(np.float32)
    img = Image.fromarray((small * 255).astype(np.uint8).squeeze())
    return np.asarray(img.resize((w, h), Image.Resampling.BICUBIC), np.float32) / 255.0


def background(kind: str, w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """Procedural table surface, float32 ``(h, w, 3)`` in 0-1."""
    base = rng.uniform(0, 1, 3).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "plain":
        col = base * rng.uniform(0.4, 1.0)
        img = np.ones((h, w, 3), np.float32) * col
        img += (_smooth_noise(rng, w, h, 4)[..., None] - 0.5) * 0.1
    elif kind == "wood":
        col = np.array([rng.uniform(0.35, 0.75), rng.uniform(0.2, 0.5), rng.uniform(0.08, 0.3)])
        ang = rng.uniform(0, math.pi)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        warp = _smooth_noise(rng, w, h, 6) * rng.uniform(20, 80)
        freq = rng.uniform(0.02, 0.12)
        grain = 0.5 + 0.5 * np.sin((u + warp) * freq)
        grain = grain ** rng.uniform(1, 4)
        img = col * (0.75 + 0.35 * grain[..., None])
        img += (rng.random((h, w, 1)) - 0.5) * 0.04
    elif kind == "felt":
        col = base * rng.uniform(0.3, 0.8)
        img = col + (_smooth_noise(rng, w, h, w // 3, 1)[..., None] - 0.5) * 0.12
    elif kind == "cloth":
        col = base
        p = rng.uniform(3, 10)
        weave = (np.sin(xx * 2 * math.pi / p) * np.sin(yy * 2 * math.pi / p)) * 0.08
        img = col * (0.8 + weave[..., None])
        if rng.random() < 0.5:  # checks
            q = rng.uniform(20, 80)
            chk = ((xx // q + yy // q) % 2)[..., None]
            img = img * (0.75 + 0.25 * chk)
    elif kind == "paper":
        img = np.ones((h, w, 3), np.float32) * rng.uniform(0.82, 1.0) * rng.uniform(0.93, 1.0, 3)
        img += (rng.random((h, w, 1)) - 0.5) * 0.05
        if rng.random() < 0.3:  # ruled lines
            img[(yy.astype(int) % int(rng.integers(18, 40))) == 0] *= 0.8
    elif kind == "floral":  # a printed floral cloth: scattered flowers on a plain ground
        img = np.ones((h, w, 3), np.float32) * base * rng.uniform(0.5, 1.0)
        canvas = Image.fromarray((np.clip(img, 0, 1) * 255).astype(np.uint8))
        d = ImageDraw.Draw(canvas)
        cell = rng.uniform(0.04, 0.12) * max(w, h)
        cols = [tuple(int(v) for v in rng.integers(0, 256, 3)) for _ in range(3)]
        for gy in np.arange(0, h + cell, cell):
            for gx in np.arange(0, w + cell, cell):
                x, y = gx + rng.normal(0, cell * 0.2), gy + rng.normal(0, cell * 0.2)
                r = cell * rng.uniform(0.15, 0.3)
                c = cols[int(rng.integers(3))]
                for k in range(5):
                    t = 2 * math.pi * k / 5
                    px, py = x + r * math.cos(t), y + r * math.sin(t)
                    d.ellipse((px - r * 0.6, py - r * 0.6, px + r * 0.6, py + r * 0.6), fill=c)
                d.ellipse((x - r * 0.4, y - r * 0.4, x + r * 0.4, y + r * 0.4), fill=cols[0][::-1])
        img = np.asarray(canvas, np.float32) / 255.0
    elif kind == "marble":
        col = rng.uniform(0.6, 0.95) * np.ones(3) * rng.uniform(0.9, 1.0, 3)
        n = _smooth_noise(rng, w, h, 8) * 12
        vein = np.abs(np.sin(xx * 0.01 + yy * 0.013 + n)) ** 0.2
        img = col * (0.75 + 0.25 * vein[..., None])
    elif kind == "tiles":
        q = rng.uniform(40, 120)
        grout = ((xx % q) < 3) | ((yy % q) < 3)
        img = np.ones((h, w, 3), np.float32) * base
        img[grout] = rng.uniform(0.2, 0.9)
        img += (_smooth_noise(rng, w, h, 5)[..., None] - 0.5) * 0.1
    else:
        raise ValueError(
            f"unknown background kind {kind!r}; expected one of "
            f"{TRAIN_BACKGROUNDS + TEST_BACKGROUNDS}"
        )
    return np.clip(img, 0, 1).astype(np.float32)
