"""Oriented boxes: corners, axis-aligned bounds, rotated NMS and upright crops.

An oriented box (OBB) is ``(cx, cy, w, h, theta)``: centre and size in pixels, ``theta``
the rotation in radians of the ``w`` side from the x axis (ultralytics' ``xywhr``).

NMS and crops run through OpenCV (``cv2.dnn.NMSBoxesRotated``, ``cv2.warpAffine``): both
were faster than the NumPy / Pillow code they replaced (docs/BENCHMARKS.md, OpenCV).
"""

from __future__ import annotations

import cv2
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


def nms_obb(obbs: np.ndarray, scores: np.ndarray, iou: float = 0.5) -> np.ndarray:
    """Greedy NMS on oriented boxes; returns kept indices, best score first.

    ``obbs``: ``(N, 5)``; ``scores``: ``(N,)``, candidates scoring 0 or less are dropped;
    ``iou``: suppression threshold (0-1) on the polygon IoU of the two rotated rectangles
    (OpenCV's ``NMSBoxesRotated``; ultralytics uses a probabilistic IoU of two Gaussians
    instead; the effect on detections is in docs/BENCHMARKS.md).  Equal
    scores keep their input order.  Raises ValueError on mismatched shapes.
    """
    obbs = _check_obbs(obbs)
    scores = np.asarray(scores, dtype=np.float64)
    if scores.shape != (obbs.shape[0],):
        raise ValueError(f"scores: expected shape ({obbs.shape[0]},), got {scores.shape}")
    if obbs.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    cx, cy, w, h = obbs[:, :4].T.tolist()
    deg = np.degrees(obbs[:, 4]).tolist()
    rects = [((x, y), (bw, bh), a) for x, y, bw, bh, a in zip(cx, cy, w, h, deg, strict=True)]
    keep = cv2.dnn.NMSBoxesRotated(rects, scores.tolist(), 0.0, float(iou))
    return np.asarray(keep, dtype=np.int64).reshape(-1)


def obb_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise polygon IoU of oriented boxes ``a`` ``(N, 5)`` and ``b`` ``(M, 5)`` ->
    ``(N, M)`` in 0-1 (OpenCV's ``rotatedRectangleIntersection``, the overlap measure
    :func:`nms_obb` uses).  Raises ValueError on malformed boxes."""
    a, b = _check_obbs(a), _check_obbs(b)

    def rects(o):
        return [((x, y), (w, h), float(np.degrees(t))) for x, y, w, h, t in o.tolist()]

    ra, rb = rects(a), rects(b)
    area_a, area_b = a[:, 2] * a[:, 3], b[:, 2] * b[:, 3]
    out = np.zeros((len(ra), len(rb)))
    for i, p in enumerate(ra):
        for j, q in enumerate(rb):
            kind, pts = cv2.rotatedRectangleIntersection(p, q)
            if kind == cv2.INTERSECT_NONE or pts is None:
                continue
            inter = cv2.contourArea(cv2.convexHull(pts))
            union = area_a[i] + area_b[j] - inter
            out[i, j] = inter / union if union > 0 else 0.0
    return out


def obb_grid(obb: np.ndarray, n: int) -> np.ndarray:
    """``(n * n, 2)`` points spread evenly over the oriented box ``obb`` ``(5,)``: the
    centres of its ``n x n`` equal cells (so inside it by half a cell)."""
    cx, cy, w, h, t = obb
    u, v = np.meshgrid((np.arange(n) + 0.5) / n - 0.5, (np.arange(n) + 0.5) / n - 0.5)
    u, v = u.ravel() * w, v.ravel() * h
    c, s = np.cos(t), np.sin(t)
    return np.stack([cx + u * c - v * s, cy + u * s + v * c], 1)


def in_obb(points: np.ndarray, obb: np.ndarray, margin: float = 0.0, *, edge_inside: bool = False) -> np.ndarray:
    """Boolean ``(N,)``: which of ``points`` ``(N, 2)`` lie inside the oriented box ``obb``
    ``(5,)`` by more than ``margin`` pixels.  A point exactly ``margin`` from an edge counts
    as inside only with ``edge_inside`` (the nested-box share of
    :func:`vision.postprocess.merge_passes` counts it; the stacking and mask code of
    :mod:`vision.visibility` does not)."""
    obb = np.asarray(obb)
    cos_sin = np.array([np.cos(obb[4]), np.sin(obb[4])])
    return in_obbs(points, obb, cos_sin, margin, edge_inside=edge_inside)


def in_obbs(
    points: np.ndarray, boxes: np.ndarray, cos_sin: np.ndarray, margin=0.0, *, edge_inside: bool = False
) -> np.ndarray:
    """:func:`in_obb` for many boxes at once: ``points`` ``(..., 2)`` against ``boxes``
    ``(..., 5)`` of the same or a broadcasting shape, whose angles' cosine and sine are
    ``cos_sin`` ``(..., 2)`` (computed once per box by the caller); ``margin`` in pixels, a
    scalar or broadcasting array.  Boolean of the broadcast shape."""
    d = points - boxes[..., :2]
    c, s = cos_sin[..., 0], cos_sin[..., 1]
    u, v = np.abs(d[..., 0] * c + d[..., 1] * s), np.abs(-d[..., 0] * s + d[..., 1] * c)
    hw, hh = boxes[..., 2] / 2 - margin, boxes[..., 3] / 2 - margin
    if edge_inside:
        return (u <= hw) & (v <= hh)
    return (u < hw) & (v < hh)


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


def _quad_to_crop(q: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The 2x3 affine map from crop pixels to image pixels for corners ``q`` (TL, BL, BR, TR).

    Pixel centres sit at +0.5 in both images (Pillow's QUAD convention), so a crop agrees
    with ``Image.transform(size, QUAD, q)``.
    """
    w, h = size
    tl, bl, _, tr = q
    a = np.stack([(tr - tl) / w, (bl - tl) / h], 1)  # columns: one crop pixel along x, y
    t = tl + a @ np.array([0.5, 0.5]) - 0.5
    return np.hstack([a, t[:, None]])


def crop_obbs(image: np.ndarray, obbs: np.ndarray, size: tuple[int, int] = CROP_SIZE) -> np.ndarray:
    """Cut oriented boxes out of an ``(H, W, 3)`` uint8 array as upright crops.

    ``obbs``: ``(K, 5)`` in pixels of ``image``; ``size``: crop ``(w, h)`` in pixels.
    Returns ``(K, h, w, 3)`` uint8 (bilinear, ``cv2.warpAffine``); pixels outside the image
    are black.  Raises ValueError for a bad ``obbs`` shape.
    """
    obbs = _check_obbs(obbs)
    out = np.zeros((len(obbs), size[1], size[0], 3), np.uint8)
    for i, obb in enumerate(obbs):
        m = _quad_to_crop(upright_quad(obb), size)
        cv2.warpAffine(
            image, m, size, dst=out[i], flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0),
        )
    return out


def crop_obb(image, obb, size: tuple[int, int] = CROP_SIZE, flip: bool = False):
    """Cut one oriented box out of ``image`` as an upright RGB crop of ``size`` (w, h) px.

    ``image``: a PIL RGB image (returns a PIL image) or an ``(H, W, 3)`` uint8 array
    (returns an ``(h, w, 3)`` array).  ``flip`` turns the crop by 180 degrees.  Pixels
    outside the image are black.
    """
    a = np.asarray(image.convert("RGB")) if isinstance(image, Image.Image) else image
    crop = crop_obbs(a, np.asarray([obb], dtype=np.float64), size)[0]
    if flip:
        crop = np.ascontiguousarray(crop[::-1, ::-1])
    return Image.fromarray(crop) if isinstance(image, Image.Image) else crop
