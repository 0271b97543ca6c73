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
from vision.detector import load_verifier
from vision.errors import ModelError
from vision.geometry import obb_iou
from vision.imageio import load_image
from vision.postprocess import GROUPS, pooled_groups
from vision.synth.scenes import quad_to_obb
from vision.train.evaluate import identity_key
from vision.verify import box_features

#: A candidate is on a card when its polygon IoU with the card's whole-face box is at
#: least this, and no higher-scored candidate claimed that card first.
ON_CARD_IOU = 0.5


def label_candidates(
    obbs: np.ndarray, scores: np.ndarray, whole_obbs: np.ndarray, thr: float = ON_CARD_IOU
) -> np.ndarray:
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


def photo_candidates(det, photo) -> dict:
    """One photo's candidate boxes with what the verifier is fitted on: ``obbs`` ``(K, 5)``
    and ``scores`` ``(K,)`` (``det``'s localiser, working pixels), ``whole`` ``(K, 48)`` (the
    whole crops' card probabilities), ``card`` ``(K,)`` (:func:`label_candidates`: the card's
    index in ``photo.cards`` or -1) and ``reads_right`` (bool ``(K,)``: the whole crop's first
    card is the card the box lies on).  ``det``: a :class:`vision.detector.Detector` set to
    the verifier's candidate ``conf`` and ``iou``; ``photo``: a
    :class:`vision.train.testset.Photo` with whole quads."""
    loaded = load_image(photo.path, det.max_side)
    obbs, scores = det.localise(loaded.array)
    whole = det.classify_views(loaded.array, obbs)[0]
    gt = np.array([quad_to_obb(q / loaded.scale) for q in photo.gt_quads("whole")]).reshape(-1, 5)
    card = label_candidates(obbs, scores, gt)
    first = pooled_groups(whole).argmax(1) if len(obbs) else np.zeros(0, int)
    right = [
        j >= 0 and identity_key(CARD_IDS[GROUPS[g][0]], photo.style) == identity_key(photo.cards[j], photo.style)
        for g, j in zip(first, card, strict=True)
    ]
    return {"obbs": obbs, "scores": scores, "whole": whole, "card": card, "reads_right": np.array(right, bool)}


def candidate_table(photos, found: list[dict]) -> dict[str, np.ndarray]:
    """One row per candidate box of ``photos`` (:class:`vision.train.testset.Photo`), from
    each photo's :func:`photo_candidates` in ``found``: ``x`` ``(N, F)`` features
    (:func:`vision.verify.box_features`), ``on_card`` (bool), ``reads_right`` (bool),
    ``visible`` (the card's true visible share, 0 off cards), ``score`` (localiser),
    ``photo`` (index), ``layout`` and ``style``."""
    cols = ("on_card", "reads_right", "visible", "score", "photo", "layout", "style")
    rows: dict[str, list] = {k: [] for k in cols}
    xs = []
    for n, (ph, c) in enumerate(zip(photos, found, strict=True)):
        k = len(c["obbs"])
        xs.append(box_features(c["obbs"], c["scores"], c["whole"]))
        rows["on_card"] += list(c["card"] >= 0)
        rows["reads_right"] += list(c["reads_right"])
        rows["visible"] += [float(ph.visible[j]) if j >= 0 else 0.0 for j in c["card"]]
        rows["score"] += list(c["scores"])
        rows["photo"] += [n] * k
        rows["layout"] += [ph.layout] * k
        rows["style"] += [ph.style] * k
    out = {k: np.array(v) for k, v in rows.items()}
    out["x"] = np.concatenate(xs) if xs else np.zeros((0, 0))
    out["on_card"] = out["on_card"].astype(bool)
    out["reads_right"] = out["reads_right"].astype(bool)
    return out


def verifier_arg(path: str | None, keep_at: float | None):
    """``Detector(verifier=...)`` from a script's command line: ``"false"`` for none, a JSON file
    or the shipped one (None), with its keep threshold replaced by ``keep_at`` when given.  Raises ValueError
    when there is no verifier to load, ModelError for a malformed file or a ``keep_at`` outside
    [0, 1]."""
    if path and path.lower() == "false":
        return False
    v = load_verifier(Path(path) if path else None)
    if v is None:
        raise ValueError("no shipped verifier: give a verifier file")
    try:
        return dataclasses.replace(v, keep_at=keep_at) if keep_at is not None else v
    except ValueError as e:
        raise ModelError(f"--keep-at {keep_at}: {e}") from None


def add_verifier_options(parser) -> None:
    """Add ``--verifier FILE|false`` and ``--keep-at P`` to a script's argparse ``parser``."""
    parser.add_argument("--verifier", default=None, help="box verifier JSON file (false: none; default: shipped)")
    parser.add_argument("--keep-at", type=float, default=None, help="the verifier's keep threshold (0-1)")


def verifier_option(args) -> dict:
    """``Detector`` keywords from the options of :func:`add_verifier_options`: ``{}`` when
    neither was given (the shipped verifier), else ``{"verifier": ...}`` (:func:`verifier_arg`)."""
    if args.verifier or args.keep_at is not None:
        return {"verifier": verifier_arg(args.verifier, args.keep_at)}
    return {}
