"""Post-processing (NumPy and OpenCV): letterbox, decoding the localiser's output, and the pile rules.

Pile rules (:func:`assign_cards`): every card id appears at most once per photo; the plain
chaff of one month (e.g. ``pine-chaff-1`` / ``pine-chaff-2``) are interchangeable, so their
probabilities are pooled and the detections get distinct ids of that month; a detection
whose confidence is below the threshold is marked ``uncertain``, never dropped.
Confidences are calibrated probabilities when the models ship a calibration
(:mod:`vision.calibration`).
"""

from __future__ import annotations

import re

import cv2
import numpy as np
from PIL import Image

from referee.cards import CARD_IDS, CARDS
from vision.detection import CERTAIN_AT, Detection
from vision.geometry import in_obb, nms_obb, obb_grid, obb_iou, obb_to_xyxy

_PLAIN_CHAFF = re.compile(r"-chaff-\d+$")


def chaff_groups() -> list[list[int]]:
    """Class-index groups: same-month plain chaff together, every other card alone.

    ``paulownia-chaff-yellow`` and ``willow-lightning`` are not plain chaff and stay alone.
    """
    groups: dict[object, list[int]] = {}
    for i, c in enumerate(CARDS):
        key = ("chaff", c.month) if _PLAIN_CHAFF.search(c.id) else c.id
        groups.setdefault(key, []).append(i)
    return list(groups.values())


GROUPS = chaff_groups()
#: Each class index's group in :data:`GROUPS`.
GROUP_OF: dict[int, int] = {c: n for n, g in enumerate(GROUPS) for c in g}


def pooled_groups(probs: np.ndarray) -> np.ndarray:
    """Class probabilities ``(K, 48)`` summed over each group of :data:`GROUPS`: ``(K, G)``."""
    return np.stack([probs[:, g].sum(1) for g in GROUPS], 1)


def letterbox(
    im: Image.Image | np.ndarray, size: int, blur: float = 0.0
) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Resize keeping aspect and pad to ``size`` x ``size`` (grey 114, as ultralytics).

    ``im``: a PIL RGB image or an ``(H, W, 3)`` uint8 array.  Resized with
    ``cv2.INTER_AREA`` (pixel-area averaging, no aliasing when shrinking a photo);
    ``blur``: optional Gaussian blur sigma in output pixels, applied after resizing.

    Returns ``(x, r, (px, py))``: ``x`` float32 ``(1, 3, size, size)`` in 0-1; ``r`` the
    resize ratio; ``(px, py)`` the left/top padding in model pixels.  A model pixel maps
    back to ``((u - px) / r, (v - py) / r)``.
    """
    a = np.asarray(im.convert("RGB")) if isinstance(im, Image.Image) else im
    h, w = a.shape[:2]
    r = min(size / w, size / h)
    nw, nh = max(1, round(w * r)), max(1, round(h * r))
    px, py = (size - nw) // 2, (size - nh) // 2
    small = cv2.resize(a, (nw, nh), interpolation=cv2.INTER_AREA if r < 1 else cv2.INTER_LINEAR)
    if blur > 0:
        small = cv2.GaussianBlur(small, (0, 0), blur)
    canvas = cv2.copyMakeBorder(
        small, py, size - nh - py, px, size - nw - px, cv2.BORDER_CONSTANT, value=(114, 114, 114)
    )
    x = cv2.dnn.blobFromImage(canvas, 1 / 255.0)
    return x, r, (float(px), float(py))


def decode_obb(
    output: np.ndarray, conf: float = 0.25, iou: float = 0.5, max_det: int = 64
) -> tuple[np.ndarray, np.ndarray]:
    """Decode a one-class ultralytics OBB head ``(1, 6, N)``: cx, cy, w, h, score, angle.

    Returns ``(obbs (K, 5), scores (K,))`` after the score threshold and rotated NMS, in
    model-input pixels.  Raises ValueError for another shape.
    """
    out = np.asarray(output)
    if out.ndim != 3 or out.shape[0] != 1 or out.shape[1] != 6:
        raise ValueError(f"localiser output: expected shape (1, 6, N), got {out.shape}")
    p = out[0].T  # (N, 6)
    keep = p[:, 4] >= conf
    p = p[keep]
    obbs = p[:, [0, 1, 2, 3, 5]].astype(np.float64)
    scores = p[:, 4].astype(np.float64)
    idx = nms_obb(obbs, scores, iou)[:max_det]
    return obbs[idx], scores[idx]


def merge_passes(
    obbs_a: np.ndarray, scores_a: np.ndarray, obbs_b: np.ndarray, scores_b: np.ndarray, iou: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    """Merge two localiser passes over one photo (same pixel frame).

    First a box lying mostly (>= 60% of its area) inside a box at least 1.5 times larger
    is dropped, so a fragment of a big card found by one pass does not survive beside (or
    instead of) the whole card; then rotated NMS runs over the rest.
    Returns ``(obbs (K, 5), scores (K,))``, best score first.
    """
    obbs = np.concatenate([np.asarray(obbs_a, float).reshape(-1, 5), np.asarray(obbs_b, float).reshape(-1, 5)])
    scores = np.concatenate([np.asarray(scores_a, float), np.asarray(scores_b, float)])
    obbs, scores = drop_fragments(obbs, scores)
    keep = nms_obb(obbs, scores, iou)
    return obbs[keep], scores[keep]


def drop_fragments(
    obbs: np.ndarray, scores: np.ndarray, inside: float = 0.6, larger: float = 1.5, undersized: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Oriented boxes ``(K, 5)`` and their ``scores`` ``(K,)`` less every box lying mostly
    (at least ``inside`` of its area, by default 60%) inside a kept box at least ``larger``
    times its area (1.5): a fragment of a card (a flower or ribbon of its picture) rather
    than a card.  With ``undersized``, only a box under that share of the median box area is
    a fragment, so a card-sized box inside an over-large box across two cards stays.  All
    hanafuda cards have one size, so a whole card can lie so deep inside a larger one only
    where the larger box is a fragment's host: a card fully under another is not seen at
    all.  Order is kept."""
    obbs = np.asarray(obbs, float).reshape(-1, 5)
    scores = np.asarray(scores, float)
    area = obbs[:, 2] * obbs[:, 3]
    drop = np.zeros(len(obbs), bool)
    small = area < undersized * np.median(area) if undersized and len(area) else np.ones(len(area), bool)
    for i in np.argsort(area, kind="stable"):
        if not small[i]:
            continue
        for j in range(len(obbs)):
            if not drop[j] and area[j] > larger * area[i] and _inside_share(obbs[i], obbs[j]) >= inside:
                drop[i] = True
                break
    return obbs[~drop], scores[~drop]


def drop_same_card(obbs: np.ndarray, scores: np.ndarray, whole_probs: np.ndarray, iou: float) -> np.ndarray:
    """Bool ``(K,)``: which of the oriented boxes ``(K, 5)`` to keep when two boxes that
    overlap at polygon IoU ``iou`` or more read as the same card: the lower-scored one is
    dropped as a second box on that card.  ``scores`` ``(K,)``: localiser scores;
    ``whole_probs`` ``(K, 48)``: each box's whole crop read by the classifier (same-month
    plain chaff pooled, :data:`GROUPS`).  Rotated NMS at one threshold cannot tell two
    fanned cards, whose whole-card boxes overlap by more than half, from two boxes on one
    card; what they show can.  Raises ValueError on mismatched shapes."""
    obbs = np.asarray(obbs, float).reshape(-1, 5)
    scores = np.asarray(scores, float).reshape(-1)
    whole = np.asarray(whole_probs, np.float64).reshape(-1, len(CARD_IDS))
    if not len(obbs) == len(scores) == len(whole):
        raise ValueError(f"drop_same_card: {len(obbs)} boxes, {len(scores)} scores, {len(whole)} rows of probabilities")
    keep = np.ones(len(obbs), bool)
    if len(obbs) < 2:
        return keep
    group = pooled_groups(whole).argmax(1)
    over = obb_iou(obbs, obbs) >= iou
    order = np.argsort(-scores, kind="stable")
    for n, i in enumerate(order):
        if keep[i]:
            for j in order[n + 1 :]:
                if keep[j] and over[i, j] and group[i] == group[j]:
                    keep[j] = False
    return keep


def _inside_share(a: np.ndarray, b: np.ndarray) -> float:
    """Share of box ``a``'s area inside box ``b`` (both ``(5,)``), from a 7 x 7 point grid;
    a point on ``b``'s edge counts as inside."""
    return float(in_obb(obb_grid(a, 7), b, edge_inside=True).mean())


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax of ``(K, C)`` logits."""
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def assign_cards(
    probs: np.ndarray,
    det_scores: np.ndarray,
    calibration=None,
    visible: np.ndarray | None = None,
    context: np.ndarray | None = None,
    printcheck: np.ndarray | None = None,
) -> list[tuple[int, float]]:
    """Give each detection a distinct card under the pile rules.

    ``probs``: ``(K, 48)`` class probabilities; ``det_scores``: ``(K,)`` box scores (the box
    verifier's probabilities, :mod:`vision.verify`, or the localiser's scores);
    ``calibration``: a callable ``(score, pooled prob, visible) -> confidence`` on arrays
    (:class:`vision.calibration.Calibration`), or None for the raw product; ``visible``:
    optional ``(K,)`` visible share of each card (default 1); ``context``: optional ``(K, 3)``
    photo-context features of each box (:func:`vision.calibration.context_features`), passed to
    ``calibration`` as a fourth argument when given; ``printcheck``: optional ``(K,)`` print check
    logits of each box (:mod:`vision.printcheck`), passed to ``calibration`` as ``printcheck=``.
    Returns, per detection, ``(class index, confidence)`` with confidence =
    ``calibration(box score, pooled class probability)``, or their product without
    one.  Greedy over (detection, group) pairs by confidence; a group
    of ``n`` interchangeable chaff takes at most ``n`` detections.  If there are more
    detections than cards (impossible in a real photo), the extra ones get index -1.
    Raises ValueError on mismatched shapes.
    """
    probs = np.asarray(probs, dtype=np.float64)
    det_scores = np.asarray(det_scores, dtype=np.float64)
    if probs.ndim != 2 or probs.shape[1] != len(CARD_IDS):
        raise ValueError(f"probs: expected shape (K, {len(CARD_IDS)}), got {probs.shape}")
    if det_scores.shape != (probs.shape[0],):
        raise ValueError(f"det_scores: expected shape ({probs.shape[0]},), got {det_scores.shape}")
    k = probs.shape[0]
    pooled = pooled_groups(probs)  # (K, G)
    if calibration is None:
        gp = pooled * det_scores[:, None]
    else:
        vis = np.ones(k) if visible is None else np.asarray(visible, np.float64)
        args = (np.broadcast_to(det_scores[:, None], pooled.shape), pooled, vis[:, None])
        if context is not None:
            args += (np.asarray(context, np.float64)[:, None, :],)
        extra = {} if printcheck is None else {"printcheck": np.asarray(printcheck, np.float64).reshape(k, 1)}
        gp = np.asarray(calibration(*args, **extra), np.float64)
    free = [list(g) for g in GROUPS]
    result: list[tuple[int, float]] = [(-1, 0.0)] * k
    done = np.zeros(k, bool)
    for flat in np.argsort(-gp, axis=None, kind="stable"):
        d, g = divmod(int(flat), len(GROUPS))
        if done[d] or not free[g]:
            continue
        result[d] = (free[g].pop(0), float(gp[d, g]))
        done[d] = True
        if done.all():
            break
    return result


#: Pooled class probability (0-1) at which a box's whole crop, read alone, names its card
#: well enough to keep the name however covered the stacking order says it is
#: (:func:`reads_whole`).  Chosen on the calib split (docs/VISION.md, "Named by the whole
#: crop"): of the boxes the stacking order called too covered, 0.5 named 39 cards showing
#: 30% or more right and 3 wrong.
WHOLE_READS = 0.5


def reads_whole(assigned: list[tuple[int, float]], whole_probs: np.ndarray, at: float = WHOLE_READS) -> np.ndarray:
    """Bool ``(K,)``: which boxes' whole crops (other cards' faces included) name the card
    the pile rules gave them (``assigned``, :func:`assign_cards`): its group (same-month
    plain chaff pooled) is the most probable one in ``whole_probs`` ``(K, 48)``, at ``at``
    or more.  The crop of a card truly lying under others shows mostly those others and
    names them; a crop that names the box's own card says the stacking order was wrong
    about it (:mod:`vision.visibility`), so the card is not reported too covered.
    Raises ValueError on mismatched shapes."""
    whole = np.asarray(whole_probs, np.float64).reshape(-1, len(CARD_IDS))
    if len(whole) != len(assigned):
        raise ValueError(f"whole_probs: expected {len(assigned)} rows, got {len(whole)}")
    pooled = pooled_groups(whole)
    out = np.zeros(len(assigned), bool)
    for i, (cls, _) in enumerate(assigned):
        if cls >= 0:
            g = GROUP_OF[cls]
            out[i] = pooled[i].argmax() == g and pooled[i, g] >= at
    return out


def to_detections(
    obbs_px: np.ndarray,
    assigned: list[tuple[int, float]],
    size: tuple[int, int],
    uncertain_below: float = CERTAIN_AT,
    visible: np.ndarray | None = None,
    readable_from: float = 0.0,
    named_anyway: np.ndarray | None = None,
) -> list[Detection]:
    """Build :class:`Detection`s from OBBs in original-image pixels ``(K, 5)``.

    Boxes are clipped to ``size`` = (width, height).  Sorted by confidence, highest first;
    detections with class -1 are skipped.  ``visible``: optional ``(K,)`` visible share of
    each card (0-1); an uncertain detection showing less than ``readable_from`` of its face
    is marked ``covered`` (too covered to read), unless ``named_anyway`` (optional bool
    ``(K,)``, e.g. :func:`reads_whole`) says its crop reads as its card; a certain one
    keeps its name.
    """
    vis = np.ones(len(assigned)) if visible is None else np.asarray(visible, float)
    keep = np.zeros(len(assigned), bool) if named_anyway is None else np.asarray(named_anyway, bool)
    xyxy = obb_to_xyxy(obbs_px) if len(obbs_px) else np.zeros((0, 4))
    w, h = size
    dets = []
    for (cls, conf), b, v, named in zip(assigned, xyxy, vis, keep, strict=True):
        if cls < 0:
            continue
        box = (
            float(np.clip(b[0], 0, w)),
            float(np.clip(b[1], 0, h)),
            float(np.clip(b[2], 0, w)),
            float(np.clip(b[3], 0, h)),
        )
        c = float(np.clip(conf, 0.0, 1.0))
        unsure = c < uncertain_below
        v = float(np.clip(v, 0.0, 1.0))
        dets.append(Detection(CARD_IDS[cls], c, box, unsure, unsure and v < readable_from and not named, v))
    dets.sort(key=lambda d: -d.confidence)
    return dets
