"""Which part of each whole-card box shows: stacking order from edges, visible masks, masked crops.

A whole-card localiser (docs/VISION.md, "Whole cards") returns each card's whole face as an
oriented box, however much of it other cards cover.  Its crop then holds other cards'
faces too.  This module works out, from the boxes and the photo alone:

- **which of two overlapping cards lies on top** (:func:`stacking`): the top card's border
  is printed where it crosses the card below, so the image gradient across the top card's
  edges inside the other box is strong, while the lower card's edges inside the top card
  are not there to see;
- **each card's visible mask** in its upright crop (:func:`visible_masks`): its box less
  the boxes stacked above it, and the visible share of its face;
- **masked crops** (:func:`mask_crops`): hidden pixels set to :data:`HIDDEN_GREY`, the
  input the classifier is trained on (with the generator's true masks).

NumPy and OpenCV only (runtime package: no torch, no scene synthesis).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import CROP_SIZE, _quad_to_crop, in_obb, obb_corners, obb_grid, upright_quad

#: Grey level (0-255, every channel) of hidden pixels in a masked crop.
HIDDEN_GREY = 114

#: Visible share of a card's face (0-1) under which it is reported as too covered to read.
#: Given perfect visible-region boxes the run-3 classifier named 4% of the cards showing
#: 15-30% of their face and 45% at 30-60% (issue 17's diagnosis).
READABLE_FROM = 0.30


def crop_maps(obbs: np.ndarray, size: tuple[int, int] = CROP_SIZE) -> list[np.ndarray]:
    """The 2x3 affine maps from upright crop pixels to image pixels, one per box ``(K, 5)``
    (the maps :func:`vision.geometry.crop_obbs` cuts with)."""
    return [_quad_to_crop(upright_quad(o), size) for o in np.asarray(obbs, np.float64).reshape(-1, 5)]


def _edge_strength(grad: np.ndarray, a_obb, a_corners, b_obb, margin: float, band: float) -> float | None:
    """How plainly box A's edges show where they cross box B: the median, over the points
    of A's edges lying inside B (by ``margin`` pixels), of the strongest gradient across
    the edge within ``band`` pixels of it (boxes are a few pixels off the printed edge).
    ``grad``: ``(2, H, W)`` image gradient.  None when no edge point lies inside B."""
    _, h, w = grad.shape
    vals = []
    offs = np.linspace(-band, band, 5)
    for k in range(4):
        p0, p1 = a_corners[k], a_corners[(k + 1) % 4]
        d = p1 - p0
        length = float(np.hypot(*d))
        if length < 2:
            continue
        n = np.array([-d[1], d[0]]) / length
        ts = np.linspace(0.02, 0.98, max(8, int(length / 3)))
        pts = p0 + ts[:, None] * d
        pts = pts[in_obb(pts, b_obb, margin)]
        if len(pts) == 0:
            continue
        across = pts[:, None, :] + offs[None, :, None] * n  # (P, 5, 2)
        xi = np.clip(across[..., 0].round().astype(int), 0, w - 1)
        yi = np.clip(across[..., 1].round().astype(int), 0, h - 1)
        g = np.abs(grad[0][yi, xi] * n[0] + grad[1][yi, xi] * n[1])
        vals.append(g.max(1))
    if not vals:
        return None
    return float(np.median(np.concatenate(vals)))


def _hist(codes: np.ndarray) -> np.ndarray | None:
    if len(codes) < 4:
        return None
    h = np.bincount(codes, minlength=64).astype(np.float64)
    return h / h.sum()


def _colour_vote(codes: np.ndarray, a_obb, b_obb) -> float:
    """From -1 to 1: how much more the overlap of boxes A and B looks like A's own part
    than like B's (colour histograms, 4 levels a channel); positive says A is on top.
    ``codes``: ``(H, W)`` colour code (0-63) of each pixel."""
    h, w = codes.shape

    def look(pts):
        xi = np.clip(pts[:, 0].astype(int), 0, w - 1)
        yi = np.clip(pts[:, 1].astype(int), 0, h - 1)
        return codes[yi, xi]

    pa, pb = obb_grid(a_obb, 15), obb_grid(b_obb, 15)
    a_in_b, b_in_a = in_obb(pa, b_obb), in_obb(pb, a_obb)
    over = _hist(np.concatenate([look(pa[a_in_b]), look(pb[b_in_a])]))
    own_a, own_b = _hist(look(pa[~a_in_b])), _hist(look(pb[~b_in_a]))
    if over is None or own_a is None or own_b is None:
        return 0.0
    da, db = np.abs(over - own_a).sum(), np.abs(over - own_b).sum()
    return float((db - da) / max(da + db, 1e-9))


def stacking(image: np.ndarray, obbs: np.ndarray) -> np.ndarray:
    """Boolean ``(K, K)``: ``above[i, j]`` is True when box ``j`` lies on top of box ``i``.

    ``image``: ``(H, W, 3)`` uint8 RGB; ``obbs``: ``(K, 5)`` whole-card boxes in its pixels.
    Boxes that do not overlap, or whose edges inside each other cannot be compared, are in
    no order.  Raises ValueError for a bad ``obbs`` shape.
    """
    obbs = np.asarray(obbs, np.float64).reshape(-1, 5)
    k = len(obbs)
    above = np.zeros((k, k), bool)
    if k < 2:
        return above
    gray = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY).astype(np.float32)
    gray = cv2.GaussianBlur(gray, (0, 0), 1.0)
    grad = np.stack([cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)])
    q = (image >> 6).astype(np.int32)
    codes = q[..., 0] * 16 + q[..., 1] * 4 + q[..., 2]
    corners = obb_corners(obbs)
    # boxes overlap when their centres are closer than their half-diagonals
    ctr, rad = obbs[:, :2], np.hypot(obbs[:, 2], obbs[:, 3]) / 2
    near = np.hypot(*(ctr[:, None] - ctr[None]).transpose(2, 0, 1)) < rad[:, None] + rad[None]
    for i in range(k):
        for j in range(i + 1, k):
            if not near[i, j]:
                continue
            short = float(min(obbs[i, 2:4].min(), obbs[j, 2:4].min()))
            margin, band = 0.04 * short, max(1.5, 0.03 * short)
            ei = _edge_strength(grad, obbs[i], corners[i], obbs[j], margin, band)
            ej = _edge_strength(grad, obbs[j], corners[j], obbs[i], margin, band)
            if ei is None and ej is None:
                continue
            # i's edges showing inside j, and the overlap looking like i: i is on top
            edge = 1.0 if ej is None else -1.0 if ei is None else (ei - ej) / max(ei + ej, 1e-9)
            if edge + _colour_vote(codes, obbs[i], obbs[j]) > 0:
                above[j, i] = True
            else:
                above[i, j] = True
    return above


def visible_masks(
    obbs: np.ndarray, above: np.ndarray, size: tuple[int, int] = CROP_SIZE
) -> tuple[np.ndarray, np.ndarray]:
    """Each box's visible mask in its upright crop, and its visible share.

    ``obbs``: ``(K, 5)`` whole-card boxes; ``above``: ``(K, K)`` from :func:`stacking`.
    Returns ``masks``: bool ``(K, h, w)`` (True where the card shows; ``size`` is the crop's
    ``(w, h)`` in pixels) and ``visible``: float ``(K,)`` in 0-1, the True share.
    """
    obbs = np.asarray(obbs, np.float64).reshape(-1, 5)
    w, h = size
    masks = np.ones((len(obbs), h, w), np.uint8)
    corners = obb_corners(obbs)
    for i, m in enumerate(crop_maps(obbs, size)):
        tops = np.nonzero(above[i])[0]
        if len(tops) == 0:
            continue
        inv = cv2.invertAffineTransform(m)  # image pixels -> crop pixels
        for j in tops:
            pts = corners[j] @ inv[:, :2].T + inv[:, 2]
            cv2.fillPoly(masks[i], [np.round(pts * 4).astype(np.int32)], 0, shift=2)
    b = masks.astype(bool)
    return b, b.reshape(len(b), -1).mean(1) if len(b) else np.zeros(0)


def mask_crops(crops: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """``crops`` ``(K, h, w, 3)`` uint8 with the pixels where ``masks`` ``(K, h, w)`` is
    False set to :data:`HIDDEN_GREY`; a new array."""
    out = np.array(crops, copy=True)
    out[~np.asarray(masks, bool)] = HIDDEN_GREY
    return out


def crop_mask(mask: np.ndarray, obb, size: tuple[int, int] = CROP_SIZE, flip: bool = False) -> np.ndarray:
    """Cut a boolean ``(H, W)`` image mask along one oriented box, as :func:`crop_obbs` cuts
    the image: a bool ``(h, w)`` upright mask (outside the image: False); ``flip`` turns it
    by 180 degrees like :func:`vision.geometry.crop_obb`."""
    m = crop_maps(np.asarray([obb], np.float64), size)[0]
    out = cv2.warpAffine(
        mask.astype(np.uint8) * 255, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_CONSTANT, borderValue=0,
    ) >= 128
    return np.ascontiguousarray(out[::-1, ::-1]) if flip else out
