"""Oriented boxes: corners, axis-aligned bounds, rotated IoU, NMS and upright crops.

An oriented box (OBB) is ``(cx, cy, w, h, theta)``: centre and size in pixels, ``theta``
the rotation in radians of the ``w`` side from the x axis (ultralytics' ``xywhr``).
"""

from __future__ import annotations

import numpy as np
from PIL import Image

#: Classifier input: width x height in pixels (portrait, like a card).
CROP_SIZE: tuple[int, int] = (72, 112)


def _check_obbs(obbs: np.ndarray) -> np.ndarray:
    a = np.asarray(obbs, dtype=np.float64)
    if a.ndim != 2 or a.shape[1] != 5:
        raise ValueError(f"obbs: expected shape (N, 5) as cx, cy, w, h, theta; got {a.shape}")
    return a


def obb_corners(obbs: np.ndarray) -> np.ndarray:
    """``(N, 5)`` OBBs -> ``(N, 4, 2)`` corners in pixels (order: -w-h, +w-h, +w+h, -w+h)."""
    a = _check_obbs(obbs)
    c, s = np.cos(a[:, 4]), np.sin(a[:, 4])
    u = np.stack([c, s], 1) * (a[:, 2:3] / 2)  # half of the w side
    v = np.stack([-s, c], 1) * (a[:, 3:4] / 2)  # half of the h side
    ctr = a[:, :2]
    return np.stack([ctr - u - v, ctr + u - v, ctr + u + v, ctr - u + v], 1)


def quad_bounds(quads: np.ndarray) -> np.ndarray:
    """``(N, 4, 2)`` corner sets -> ``(N, 4)`` axis-aligned ``x1, y1, x2, y2`` bounds."""
    q = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    return np.concatenate([q.min(1), q.max(1)], 1)


def obb_to_xyxy(obbs: np.ndarray) -> np.ndarray:
    """``(N, 5)`` OBBs -> ``(N, 4)`` axis-aligned ``x1, y1, x2, y2`` bounds in pixels."""
    return quad_bounds(obb_corners(obbs))


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


def nms_obb(obbs: np.ndarray, scores: np.ndarray, iou: float = 0.5) -> np.ndarray:
    """Greedy NMS on oriented boxes; returns kept indices, best score first.

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


def upright_quad(obb: tuple[float, float, float, float, float]) -> np.ndarray:
    """Corners ``(4, 2)`` of one OBB ordered for a portrait crop: long side vertical.

    Order: top-left, bottom-left, bottom-right, top-right (PIL's QUAD order).
    Which of the two short sides becomes the top is arbitrary (the classifier is trained
    on both).
    """
    cx, cy, w, h, t = (float(v) for v in obb)
    if w > h:  # turn so the long side is vertical
        w, h, t = h, w, t + np.pi / 2
    p = obb_corners(np.array([[cx, cy, w, h, t]]))[0]
    # p: (-w-h), (+w-h), (+w+h), (-w+h) -> TL, BL, BR, TR in the card's own frame
    return np.array([p[0], p[3], p[2], p[1]])


def crop_obb(
    image: Image.Image, obb, size: tuple[int, int] = CROP_SIZE, flip: bool = False
) -> Image.Image:
    """Cut one oriented box out of ``image`` as an upright RGB crop of ``size`` (w, h) px.

    ``flip`` turns the crop by 180 degrees.  Pixels outside the image are black.
    """
    q = upright_quad(obb)
    if flip:
        q = q[[2, 3, 0, 1]]
    return image.transform(
        size, Image.Transform.QUAD, tuple(q.flatten()), Image.Resampling.BILINEAR
    )
