"""Training data for the box verifier (:mod:`vision.verify`): every candidate box of a set
of labelled photos, its features and whether it lies on one card.

Part of :mod:`vision.train`: runs the detector's localiser and classifier (ONNX), never
torch.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from referee.cards import CARD_IDS
from vision.detector import _load_verifier
from vision.geometry import obb_iou
from vision.imageio import load_image
from vision.postprocess import GROUPS, pooled_groups
from vision.synth.scenes import quad_to_obb
from vision.train.evaluate import identity_key
from vision.verify import box_features

#: A candidate is on a card when its polygon IoU with the card's whole-face box is at
#: least this, and no higher-scored candidate claimed that card first.
ON_CARD_IOU = 0.5


def label_candidates(obbs: np.ndarray, scores: np.ndarray, whole_obbs: np.ndarray, thr: float = ON_CARD_IOU) -> np.ndarray:
    """Per candidate ``(K,)``: the index of the card (row of ``whole_obbs`` ``(N, 5)``, the
    true whole-face boxes, same pixels as ``obbs`` ``(K, 5)``) it lies on, or -1.  Greedy by
    localiser ``scores`` ``(K,)``: the best-scored candidate at IoU ``thr`` or more takes
    the card it overlaps most; a later one on the same card is a second box (-1)."""
    out = np.full(len(obbs), -1, np.int64)
    if not len(obbs) or not len(whole_obbs):
        return out
    iou = obb_iou(np.asarray(obbs, float), np.asarray(whole_obbs, float))
    taken = np.zeros(len(whole_obbs), bool)
    for i in np.argsort(-np.asarray(scores), kind="stable"):
        row = np.where(taken, -1.0, iou[i])
        j = int(row.argmax())
        if row[j] >= thr:
            out[i], taken[j] = j, True
    return out


def candidate_table(det, photos) -> dict[str, np.ndarray]:
    """Run ``det`` (a :class:`vision.detector.Detector` set to the verifier's candidate
    ``conf`` and ``iou``) over ``photos`` (:class:`vision.train.testset.Photo` with whole
    quads) and return one row per candidate box: ``x`` ``(N, F)`` features
    (:func:`vision.verify.box_features`), ``on_card`` (bool), ``reads_right`` (bool: the
    whole crop's first card is the card it lies on), ``visible`` (the card's true visible
    share, 0 off cards), ``score`` (localiser), ``photo`` (index), ``layout`` and ``style``.
    """
    rows: dict[str, list] = {k: [] for k in ("x", "on_card", "reads_right", "visible", "score", "photo", "layout", "style")}
    for n, ph in enumerate(photos):
        loaded = load_image(ph.path, det.max_side)
        obbs, scores = det.localise(loaded.array)
        whole = det.classify_views(loaded.array, obbs)[0]
        gt = np.array([quad_to_obb(q / loaded.scale) for q in ph.gt_quads("whole")]).reshape(-1, 5)
        card = label_candidates(obbs, scores, gt)
        first = pooled_groups(whole).argmax(1) if len(obbs) else np.zeros(0, int)
        rows["x"].append(box_features(obbs, scores, whole))
        rows["on_card"] += list(card >= 0)
        for i, j in enumerate(card):
            named = CARD_IDS[GROUPS[first[i]][0]]
            right = j >= 0 and identity_key(named, ph.style) == identity_key(ph.cards[j], ph.style)
            rows["reads_right"].append(bool(right))
            rows["visible"].append(float(ph.visible[j]) if j >= 0 else 0.0)
        rows["score"] += list(scores)
        rows["photo"] += [n] * len(obbs)
        rows["layout"] += [ph.layout] * len(obbs)
        rows["style"] += [ph.style] * len(obbs)
    out = {k: np.array(v) for k, v in rows.items() if k != "x"}
    out["x"] = np.concatenate(rows["x"]) if rows["x"] else np.zeros((0, 0))
    out["on_card"] = out["on_card"].astype(bool)
    out["reads_right"] = out["reads_right"].astype(bool)
    return out


def verifier_arg(path: str | None, keep_at: float | None):
    """``Detector(verifier=...)`` from a script's command line: ``"false"`` for none, a JSON file
    or the shipped one (None), with its keep threshold replaced by ``keep_at`` when given.  Raises ValueError
    when there is no verifier to load, ModelError for a malformed file."""
    if path and path.lower() == "false":
        return False
    v = _load_verifier(Path(path) if path else None)
    if v is None:
        raise ValueError("no shipped verifier: give a verifier file")
    return dataclasses.replace(v, keep_at=keep_at) if keep_at is not None else v
