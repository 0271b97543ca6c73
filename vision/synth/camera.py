"""The phone camera's part of a synthetic photo: light, glare, blur, noise, processing, JPEG.

:func:`photometric` takes a flat render and returns what a phone would save.  Everything is
drawn from the caller's ``rng``.

Part of :mod:`vision.synth`: numpy and Pillow only.
"""

from __future__ import annotations

import io
import math

import numpy as np
from PIL import Image, ImageFilter


def motion_blur(img: Image.Image, length: float, angle: float) -> Image.Image:
    """Blur along a straight line ``length`` pixels long at ``angle`` radians (a shaken
    phone): the mean of the image shifted to evenly spaced points on that line."""
    n = max(2, round(length))
    a = np.asarray(img, np.float32)
    h, w = a.shape[:2]
    pad = n + 1
    padded = np.pad(a, ((pad, pad), (pad, pad), (0, 0)), mode="edge")
    acc = np.zeros_like(a)
    for t in np.linspace(-length / 2, length / 2, n):
        dx, dy = round(t * math.cos(angle)), round(t * math.sin(angle))
        acc += padded[pad + dy : pad + dy + h, pad + dx : pad + dx + w]
    return Image.fromarray(np.clip(acc / n, 0, 255).astype(np.uint8))


def phone_noise(img: Image.Image, rng: np.random.Generator, strength: float) -> Image.Image:
    """Sensor noise as a phone leaves it: fine luminance grain plus blotchy colour noise at a
    quarter of the resolution (``strength``: standard deviation in 8-bit levels)."""
    a = np.asarray(img, np.float32)
    h, w = a.shape[:2]
    a = a + rng.normal(0, strength, (h, w, 1))
    small = rng.normal(0, strength * 0.6, (max(1, h // 4), max(1, w // 4), 3)).astype(np.float32)
    chroma = np.asarray(
        Image.fromarray(np.clip(small * 8 + 128, 0, 255).astype(np.uint8)).resize((w, h), Image.Resampling.BILINEAR),
        np.float32,
    )
    a = a + (chroma - 128) / 8
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def photometric(img: Image.Image, rng: np.random.Generator, jpeg: bool = True) -> Image.Image:
    """Lighting gradient and exposure, colour temperature, glare, focus or motion blur, sensor
    noise, the phone's denoise-and-sharpen, and JPEG (quality 40-95).  RGB in, RGB out."""
    w, h = img.size
    a = np.asarray(img, np.float32) / 255.0
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    g = (xx * math.cos(ang) + yy * math.sin(ang)) / max(w, h)
    a = a * (1 + rng.uniform(-0.35, 0.2) * (g - g.mean()) * 2)[..., None]
    a = a * rng.uniform(0.6, 1.25)
    a = a * np.array([1 + rng.normal(0, 0.08), 1.0, 1 + rng.normal(0, 0.08)])
    if rng.random() < 0.25:  # glare from a lamp: a soft bright spot
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.05, 0.3) * max(w, h)
        a += (np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)) * rng.uniform(0.2, 0.7))[..., None]
    a = np.clip(a, 0, 1)
    out = Image.fromarray((a * 255).astype(np.uint8))
    r = rng.random()
    if r < 0.25:  # out of focus
        out = out.filter(ImageFilter.GaussianBlur(rng.uniform(0.5, 2.0) * max(w, h) / 1000))
    elif r < 0.4:  # hand shake
        out = motion_blur(out, rng.uniform(2, 12) * max(w, h) / 1000, rng.uniform(0, math.pi))
    if rng.random() < 0.7:
        out = phone_noise(out, rng, rng.uniform(1, 9))
    if rng.random() < 0.5:  # the phone's own processing: smooth, then sharpen
        out = out.filter(ImageFilter.GaussianBlur(0.6))
        out = out.filter(ImageFilter.UnsharpMask(radius=2, percent=int(rng.integers(60, 160)), threshold=2))
    if jpeg:
        buf = io.BytesIO()
        out.save(buf, "JPEG", quality=int(rng.integers(40, 96)))
        buf.seek(0)
        out = Image.open(buf).convert("RGB")
    return out
