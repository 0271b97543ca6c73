"""``vision.visibility.stacking`` as it was before it was vectorised (a Python loop over box
pairs, the gradient and colour codes of the whole image), kept as the reference that
tests/vision/test_visibility_fast.py and scripts/bench_stacking.py compare against.

The logic is the old code's, line for line; :func:`pair_scores_reference` also returns the
score each compared pair was decided on (edge vote + colour vote; positive: the first box of
the pair is on top).  Not used at run time.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import in_obb, obb_corners, obb_grid


def _edge_strength(grad, a_obb, a_corners, b_obb, margin, band):
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


def _hist(codes):
    if len(codes) < 4:
        return None
    h = np.bincount(codes, minlength=64).astype(np.float64)
    return h / h.sum()


def _colour_vote(codes, a_obb, b_obb):
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


def pair_scores_reference(image: np.ndarray, obbs: np.ndarray) -> dict[tuple[int, int], float]:
    """``{(i, j): score}`` for each pair ``i < j`` the old code compared."""
    obbs = np.asarray(obbs, np.float64).reshape(-1, 5)
    k = len(obbs)
    scores: dict[tuple[int, int], float] = {}
    if k < 2:
        return scores
    gray = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY).astype(np.float32)
    gray = cv2.GaussianBlur(gray, (0, 0), 1.0)
    grad = np.stack([cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)])
    q = (image >> 6).astype(np.int32)
    codes = q[..., 0] * 16 + q[..., 1] * 4 + q[..., 2]
    corners = obb_corners(obbs)
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
            edge = 1.0 if ej is None else -1.0 if ei is None else (ei - ej) / max(ei + ej, 1e-9)
            scores[i, j] = edge + _colour_vote(codes, obbs[i], obbs[j])
    return scores


def stacking_reference(image: np.ndarray, obbs: np.ndarray) -> np.ndarray:
    """Boolean ``(K, K)``: ``above[i, j]`` when box ``j`` lies on top of box ``i`` (the old
    ``vision.visibility.stacking``)."""
    k = len(np.asarray(obbs, np.float64).reshape(-1, 5))
    above = np.zeros((k, k), bool)
    for (i, j), s in pair_scores_reference(image, obbs).items():
        if s > 0:
            above[j, i] = True
        else:
            above[i, j] = True
    return above
