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

from vision.geometry import CROP_SIZE, _quad_to_crop, in_obbs, obb_corners, obb_grid, upright_quad

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


#: Pixels beyond a sampled pixel that its gradient depends on: the blur's 4 px radius at
#: sigma 1 (OpenCV's 9-tap kernel for float images) and the Sobel's 1, rounded up.
_GRAD_REACH = 8

#: The gradient window's left edge and width are multiples of this many columns (or the
#: window ends at the image's right edge), so that OpenCV's SIMD filters treat each sampled
#: column as they treat it in the whole image and the values are bit-identical.
_GRAD_COLUMNS = 64

#: The dtype the gradient across an edge is weighed in: that of ``float32 array * float64
#: scalar`` (NumPy 2: float64; 1.26: float32), as the pair loop this code replaced had it.
_ACROSS_DTYPE = (np.ones(1, np.float32) * np.float64(0.5)).dtype


def _gradient_at(image: np.ndarray, xi: np.ndarray, yi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The x and y gradient (float32) of the blurred grey image at the integer pixels ``xi``,
    ``yi`` (any equal shapes, inside the image), bit-identical to a Gaussian blur (sigma 1 px)
    and 3x3 Sobel over the whole ``(H, W, 3)`` uint8 RGB ``image``, computed only over the
    pixels' bounding window, padded by :data:`_GRAD_REACH` and aligned to
    :data:`_GRAD_COLUMNS`."""
    h, w = image.shape[:2]
    y0, y1 = max(0, int(yi.min()) - _GRAD_REACH), min(h, int(yi.max()) + 1 + _GRAD_REACH)
    x0 = max(0, int(xi.min()) - _GRAD_REACH) // _GRAD_COLUMNS * _GRAD_COLUMNS
    x1 = x0 + -(-(int(xi.max()) + 1 + _GRAD_REACH - x0) // _GRAD_COLUMNS) * _GRAD_COLUMNS
    if x1 > w - _GRAD_COLUMNS:
        x1 = w
    gray = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_RGB2GRAY).astype(np.float32)
    gray = cv2.GaussianBlur(gray, (0, 0), 1.0)
    ys, xs = yi - y0, xi - x0
    return cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)[ys, xs], cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)[ys, xs]


def _edge_samples(obbs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points along each box's four edges (one every 3 px, at least 8 an edge, none on an
    edge under 2 px long): the points ``(K, P, 2)`` in pixels (``P``: the most any box has),
    each point's unit normal ``(K, P, 2)``, and which of the ``P`` slots hold a point ``(K, P)``."""
    corners = obb_corners(obbs)
    d = (np.roll(corners, -1, axis=1) - corners).reshape(-1, 2)  # edge k: corner k to k + 1
    length = np.array([np.hypot(x, y) for x, y in d])  # one call an edge, as in the pair loop
    count = np.where(length < 2, 0, np.maximum(8, (length / 3).astype(int)))
    spread = {n: np.linspace(0.02, 0.98, n) for n in set(count.tolist()) - {0}}
    edge = np.repeat(np.arange(len(d)), count)
    ts = np.concatenate([np.zeros(0)] + [spread[n] for n in count.tolist() if n])
    normal = np.stack([-d[:, 1], d[:, 0]], 1) / np.maximum(length, 2)[:, None]
    per_box = count.reshape(-1, 4).sum(1)
    box = edge // 4
    slot = np.arange(len(edge)) - (np.cumsum(per_box) - per_box)[box]
    shape = (len(obbs), per_box.max(initial=0))
    pts, nrm, valid = np.zeros((*shape, 2)), np.zeros((*shape, 2)), np.zeros(shape, bool)
    pts[box, slot] = corners.reshape(-1, 2)[edge] + ts[:, None] * d[edge]
    nrm[box, slot] = normal[edge]
    valid[box, slot] = True
    return pts, nrm, valid


def _edge_votes(image, obbs, cos_sin, pi, pj, short) -> tuple[np.ndarray, np.ndarray]:
    """How plainly each box's edges show where they cross the other box of its pair: for
    pair ``p`` and each way round (``[:, 0]``: box ``pi[p]``'s edges inside box ``pj[p]``;
    ``[:, 1]``: the reverse), the median, over the edge points lying inside the other box
    by ``0.04 * short[p]`` pixels, of the strongest gradient across the edge within
    ``max(1.5, 0.03 * short[p])`` pixels of it (boxes are a few pixels off the printed edge).
    Returns the medians ``(M, 2)`` and whether any point was inside ``(M, 2)``."""
    h, w = image.shape[:2]
    m = len(pi)
    pts, nrm, valid = _edge_samples(obbs)
    # one entry per pair and way round: entry 2p, pi's edges in pj; entry 2p + 1, the reverse
    own, other = np.stack([pi, pj], 1).ravel(), np.stack([pj, pi], 1).ravel()
    margin = 0.04 * np.repeat(short, 2)[:, None]
    inside = valid[own] & in_obbs(pts[own], obbs[other, None], cos_sin[other, None], margin)
    entry, slot = np.nonzero(inside)  # entry ascending
    band = np.maximum(1.5, 0.03 * short)
    offs = np.linspace(-band, band, 5, axis=-1)[entry // 2]  # (R, 5) px across the edge
    n = nrm[own[entry], slot]
    across = pts[own[entry], slot][:, None, :] + offs[:, :, None] * n[:, None, :]  # (R, 5, 2)
    xi = np.clip(across[..., 0].round().astype(int), 0, w - 1)
    yi = np.clip(across[..., 1].round().astype(int), 0, h - 1)
    found = np.bincount(entry, minlength=2 * m)
    med = np.zeros(2 * m)
    if len(entry):
        gx, gy = _gradient_at(image, xi, yi)
        n = n.astype(_ACROSS_DTYPE)
        vals = np.abs(gx * n[:, :1] + gy * n[:, 1:]).max(1)
        # each entry's median: the mean of its middle two values once sorted (one when odd)
        vals = vals[np.lexsort((vals, entry))]
        start = np.cumsum(found) - found
        has = found > 0
        lo, hi = (start + (found - 1) // 2)[has], (start + found // 2)[has]
        med[has] = (vals[lo] + vals[hi]) / 2
    return med.reshape(m, 2), (found > 0).reshape(m, 2)


def _colour_votes(image, obbs, cos_sin, pi, pj) -> np.ndarray:
    """From -1 to 1 for each pair ``p``: how much more the overlap of boxes ``pi[p]`` and
    ``pj[p]`` looks like ``pi[p]``'s own part than like ``pj[p]``'s (colour histograms of 4
    levels a channel over a 15 x 15 grid of points in each box); positive says ``pi[p]`` is
    on top, 0 where a part has under 4 points.  ``(M,)``."""
    h, w = image.shape[:2]
    grid = np.stack([obb_grid(o, 15) for o in obbs])  # (K, 225, 2)
    rgb = image[np.clip(grid[..., 1].astype(int), 0, h - 1), np.clip(grid[..., 0].astype(int), 0, w - 1)]
    q = (rgb >> 6).astype(np.int32)
    codes = q[..., 0] * 16 + q[..., 1] * 4 + q[..., 2]  # (K, 225), 0-63
    a_in_b = in_obbs(grid[pi], obbs[pj, None], cos_sin[pj, None], 0.0)  # (M, 225)
    b_in_a = in_obbs(grid[pj], obbs[pi, None], cos_sin[pi, None], 0.0)
    slot = np.arange(len(pi))[:, None] * 64

    def counts(c, mask):  # (M, 64): how many points of each colour code where mask
        return np.bincount((slot + c)[mask], minlength=len(pi) * 64).reshape(-1, 64).astype(np.float64)

    over = counts(codes[pi], a_in_b) + counts(codes[pj], b_in_a)
    own_a, own_b = counts(codes[pi], ~a_in_b), counts(codes[pj], ~b_in_a)
    sizes = np.stack([over.sum(1), own_a.sum(1), own_b.sum(1)])
    over, own_a, own_b = (c / np.maximum(n, 1)[:, None] for c, n in zip((over, own_a, own_b), sizes, strict=True))
    da, db = np.abs(over - own_a).sum(1), np.abs(over - own_b).sum(1)
    vote = (db - da) / np.maximum(da + db, 1e-9)
    return np.where((sizes >= 4).all(0), vote, 0.0)


def _pair_scores(image: np.ndarray, obbs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs ``i < j`` of overlapping boxes whose edges inside each other can be compared,
    ``(M,)`` each, and the score ``(M,)`` each pair is decided on: the edge vote (from -1 to 1,
    or 1 / -1 when only ``i``'s / ``j``'s edges cross the other box) plus the colour vote;
    positive says ``i`` is on top.  ``obbs``: ``(K, 5)`` float64."""
    k = len(obbs)
    # boxes overlap when their centres are closer than their half-diagonals
    ctr, rad = obbs[:, :2], np.hypot(obbs[:, 2], obbs[:, 3]) / 2
    near = np.hypot(*(ctr[:, None] - ctr[None]).transpose(2, 0, 1)) < rad[:, None] + rad[None]
    pi, pj = np.nonzero(np.triu(near, 1))
    if len(pi) == 0:
        return pi, pj, np.zeros(0)
    cos_sin = np.array([(np.cos(t), np.sin(t)) for t in obbs[:, 4]]).reshape(k, 2)  # as in_obb computes them
    sides = obbs[:, 2:4].min(1)
    short = np.minimum(sides[pi], sides[pj])
    med, found = _edge_votes(image, obbs, cos_sin, pi, pj, short)
    ei, ej = med[:, 0], med[:, 1]
    edge = np.where(~found[:, 1], 1.0, np.where(~found[:, 0], -1.0, (ei - ej) / np.maximum(ei + ej, 1e-9)))
    keep = found.any(1)
    pi, pj = pi[keep], pj[keep]
    return pi, pj, edge[keep] + _colour_votes(image, obbs, cos_sin, pi, pj)


def stacking(image: np.ndarray, obbs: np.ndarray) -> np.ndarray:
    """Boolean ``(K, K)``: ``above[i, j]`` is True when box ``j`` lies on top of box ``i``.

    ``image``: ``(H, W, 3)`` uint8 RGB; ``obbs``: ``(K, 5)`` whole-card boxes in its pixels.
    Boxes that do not overlap, or whose edges inside each other cannot be compared, are in
    no order.  Raises ValueError for a bad ``obbs`` shape.

    Two votes decide each overlapping pair: the edges (the top card's border shows where it
    crosses the other box, the lower card's does not), and the colours (the overlap looks
    like the top card's own part).  Each box's edge points and colour grid are laid out once
    and all pairs are weighed together; the gradient is computed only around the edge points
    inside another box.
    """
    obbs = np.asarray(obbs, np.float64).reshape(-1, 5)
    k = len(obbs)
    above = np.zeros((k, k), bool)
    if k < 2:
        return above
    pi, pj, score = _pair_scores(image, obbs)
    top = score > 0  # i on top of j
    above[pj[top], pi[top]] = True
    above[pi[~top], pj[~top]] = True
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
