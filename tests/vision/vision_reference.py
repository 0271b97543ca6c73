"""The Pillow / NumPy image code that OpenCV replaced, kept as the reference the agreement
tests (tests/vision/test_opencv_matches_reference.py) and scripts/bench_opencv.py compare against.

Copied from vision/ as it was before OpenCV: probabilistic-IoU rotated NMS (as ultralytics),
Pillow QUAD crops, Pillow letterbox, and Pillow's DCT-scaled JPEG decode.  Not used at
run time.
"""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageFilter, ImageOps

from vision.geometry import CROP_SIZE, _check_obbs, upright_quad


def probiou(a: np.ndarray, b: np.ndarray, eps: float = 1e-7) -> np.ndarray:
    """Pairwise probabilistic IoU (Gaussian-Bhattacharyya, as ultralytics' OBB NMS).

    ``a``: ``(N, 5)``, ``b``: ``(M, 5)`` -> ``(N, M)`` in 0-1.
    """
    a, b = _check_obbs(a), _check_obbs(b)

    def cov(x):
        w2, h2 = x[:, 2] ** 2 / 12, x[:, 3] ** 2 / 12
        c, s = np.cos(x[:, 4]), np.sin(x[:, 4])
        return w2 * c**2 + h2 * s**2, w2 * s**2 + h2 * c**2, (w2 - h2) * c * s

    a1, b1, c1 = (v[:, None] for v in cov(a))
    a2, b2, c2 = (v[None, :] for v in cov(b))
    x1, y1 = a[:, 0:1], a[:, 1:2]
    x2, y2 = b[None, :, 0], b[None, :, 1]
    den = (a1 + a2) * (b1 + b2) - (c1 + c2) ** 2 + eps
    t1 = ((a1 + a2) * (y1 - y2) ** 2 + (b1 + b2) * (x1 - x2) ** 2) / den * 0.25
    t2 = ((c1 + c2) * (x2 - x1) * (y1 - y2)) / den * 0.5
    t3 = (
        np.log(
            ((a1 + a2) * (b1 + b2) - (c1 + c2) ** 2)
            / (
                4 * np.sqrt(np.clip(a1 * b1 - c1**2, 0, None) * np.clip(a2 * b2 - c2**2, 0, None))
                + eps
            )
            + eps
        )
        * 0.5
    )
    bd = np.clip(t1 + t2 + t3, eps, 100.0)
    hd = np.sqrt(1.0 - np.exp(-bd) + eps)
    return np.clip(1 - hd, 0, 1)


def nms_probiou(obbs: np.ndarray, scores: np.ndarray, iou: float = 0.5) -> np.ndarray:
    """Greedy NMS on oriented boxes by probabilistic IoU (the NumPy code OpenCV replaced).

    ``obbs``: ``(N, 5)``; ``scores``: ``(N,)``; ``iou``: suppression threshold (0-1).
    Raises ValueError on mismatched shapes.
    """
    obbs = _check_obbs(obbs)
    scores = np.asarray(scores, dtype=np.float64)
    if scores.shape != (obbs.shape[0],):
        raise ValueError(f"scores: expected shape ({obbs.shape[0]},), got {scores.shape}")
    order = np.argsort(-scores, kind="stable")
    if order.size == 0:
        return order
    ious = probiou(obbs[order], obbs[order])
    keep: list[int] = []
    suppressed = np.zeros(order.size, bool)
    for i in range(order.size):
        if suppressed[i]:
            continue
        keep.append(int(order[i]))
        suppressed |= ious[i] > iou
    return np.array(keep, dtype=np.int64)


def letterbox_pil(
    im: Image.Image, size: int, blur: float = 0.0
) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Pillow letterbox (the code OpenCV replaced): BILINEAR resize, GaussianBlur, paste.

    ``blur``: optional Gaussian blur radius in output pixels, applied after resizing.

    Returns ``(x, r, (px, py))``: ``x`` float32 ``(1, 3, size, size)`` in 0-1; ``r`` the
    resize ratio; ``(px, py)`` the left/top padding in model pixels.  A model pixel maps
    back to ``((u - px) / r, (v - py) / r)``.
    """
    w, h = im.size
    r = min(size / w, size / h)
    nw, nh = max(1, round(w * r)), max(1, round(h * r))
    canvas = Image.new("RGB", (size, size), (114, 114, 114))
    px, py = (size - nw) // 2, (size - nh) // 2
    small = im.resize((nw, nh), Image.Resampling.BILINEAR)
    if blur > 0:
        small = small.filter(ImageFilter.GaussianBlur(blur))
    canvas.paste(small, (px, py))
    x = np.asarray(canvas, dtype=np.float32).transpose(2, 0, 1)[None] / 255.0
    return np.ascontiguousarray(x), r, (float(px), float(py))


def crop_quad_pil(image: Image.Image, obb, size: tuple[int, int] = CROP_SIZE, flip: bool = False) -> Image.Image:
    """Pillow's QUAD transform crop (the code OpenCV replaced); outside pixels are black."""
    q = upright_quad(obb)
    if flip:
        q = q[[2, 3, 0, 1]]
    return image.transform(size, Image.Transform.QUAD, tuple(q.flatten()), Image.Resampling.BILINEAR)


def decode_jpeg_pil(data: bytes, max_side: int = 1280) -> np.ndarray:
    """Pillow's JPEG decode with DCT scaling (``draft``) and EXIF orientation, as the code
    OpenCV replaced: ``(H, W, 3)`` uint8 RGB at about 3/4 of ``max_side`` or more."""
    im = Image.open(io.BytesIO(data))
    w, h = im.size
    if max(w, h) > max_side:
        r = 0.75 * max_side / max(w, h)
        im.draft("RGB", (max(1, int(w * r)), max(1, int(h * r))))
    im.load()
    return np.asarray(ImageOps.exif_transpose(im).convert("RGB"))
