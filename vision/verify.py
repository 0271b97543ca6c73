"""Box verifier: which of the localiser's candidate boxes lie on exactly one card.

The whole-card localiser finds a box for most readable cards of a pile, but with the
pipeline before this module, rotated NMS at 0.5 deleted many of them (two fanned cards'
whole boxes overlap by more than half) and in heaps they scored under the 0.35 threshold;
lowering both brought in boxes across two cards, second boxes on one card and boxes on the
table (docs/VISION.md, "Boxes that NMS deletes").  The detector now proposes candidates at
score 0.2 and NMS 0.7 and lets the verifier choose.  The localiser's score alone cannot tell
them apart; the photo's other boxes and what each box's crop shows can.  :class:`Verifier`
is a logistic regression on :data:`FEATURES`, computed for every candidate of a photo (:func:`box_features`):

- the box's own evidence: localiser score, how well its whole crop reads as one card, the
  classifier's "not a card" share;
- its shape against the photo's other boxes: every hanafuda card has one size and one
  aspect, so a box across two cards is too large or too long for the photo's cards;
- its neighbours: how much of it higher-scored boxes cover, whether one of them reads as
  the same card (a second box on that card), how many boxes' centres it holds.

It is fitted on the ``verify`` set (training backgrounds, seed 11;
:data:`vision.train.testset.SPLIT_SEEDS`), never on calib or test, by
``scripts/fit_verifier.py``; the weights ship as ``vision/models/verifier.json``.  The
detector then keeps boxes by the verifier's probability (:meth:`Verifier.select`), which
replaces the localiser score in the calibration.  NumPy only.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from referee.cards import CARD_IDS
from vision.calibration import logit, newton_logistic
from vision.geometry import CROP_SIZE, in_obbs, obb_grid, obb_iou
from vision.postprocess import pooled_groups

#: The features of one candidate box, in :func:`box_features`' column order.
FEATURES: tuple[str, ...] = (
    "score",  # logit of the localiser score
    "reads",  # logit of the whole crop's most probable card (same-month chaff pooled)
    "not_card",  # logit of the classifier's "not a card" share for the whole crop
    "size",  # log of the box's area over the photo's typical card area
    "size_off",  # its absolute value
    "aspect_off",  # |log(long side / short side / a card's)|
    "iou_above",  # largest polygon IoU with a higher-scored box
    "same_above",  # largest IoU with a higher-scored box read as the same card
    "covered_above",  # share of the box under higher-scored boxes (7 x 7 points)
    "centres_inside",  # how many other boxes' centres lie inside this one
    "boxes",  # log(1 + candidate boxes in the photo)
    "rank",  # the box's place by score, 0 (best) to 1 (last)
    "second",  # logit of the whole crop's second most probable card: a box across two reads as both
    "crowd_above",  # how many higher-scored boxes overlap it at IoU 0.3 or more
    "score_gap",  # logit of its score less that of the photo's best
)
#: A card's long side over its short side, as the classifier's crop has it (112 / 72).
CARD_ASPECT = CROP_SIZE[1] / CROP_SIZE[0]
_EPS = 1e-4  # the features' logits clip at this (the shipped weights were fitted so)


def _logit(x) -> np.ndarray:
    return logit(x, _EPS)


def _check(obbs, scores, whole_probs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    obbs = np.asarray(obbs, np.float64).reshape(-1, 5)
    scores = np.asarray(scores, np.float64).reshape(-1)
    whole = np.asarray(whole_probs, np.float64).reshape(-1, len(CARD_IDS))
    if not len(obbs) == len(scores) == len(whole):
        raise ValueError(f"box_features: {len(obbs)} boxes, {len(scores)} scores, {len(whole)} rows of probabilities")
    return obbs, scores, whole


def box_features(
    obbs: np.ndarray, scores: np.ndarray, whole_probs: np.ndarray, iou: np.ndarray | None = None
) -> np.ndarray:
    """Features ``(K, len(FEATURES))`` of one photo's candidate boxes.

    ``obbs`` ``(K, 5)``: oriented boxes in photo pixels; ``scores`` ``(K,)``: localiser scores
    (0-1); ``whole_probs`` ``(K, 48)``: the classifier's card probabilities for each box's
    whole crop (rows sum to 1 minus the "not a card" probability).  The photo's typical card
    area is the median area of its boxes scoring 0.5 or more (of all boxes when none does).
    ``iou``: the boxes' pairwise polygon IoU ``(K, K)`` when already computed.
    Raises ValueError on mismatched shapes."""
    obbs, scores, whole = _check(obbs, scores, whole_probs)
    k = len(obbs)
    out = np.zeros((k, len(FEATURES)))
    if k == 0:
        return out
    pooled = pooled_groups(whole)
    group = pooled.argmax(1)
    area = np.maximum(obbs[:, 2] * obbs[:, 3], 1e-9)
    good = scores >= 0.5
    ref = np.median(area[good]) if good.any() else np.median(area)
    long_ = np.maximum(obbs[:, 2], obbs[:, 3])
    short = np.maximum(np.minimum(obbs[:, 2], obbs[:, 3]), 1e-9)
    order = np.argsort(-scores, kind="stable")
    rank = np.empty(k)
    rank[order] = np.arange(k) / max(k - 1, 1)
    if iou is None:
        iou = obb_iou(obbs, obbs)
    above = rank[None, :] < rank[:, None]  # [i, j]: j ranks before i (equal scores: input order)
    cos_sin = np.stack([np.cos(obbs[:, 4]), np.sin(obbs[:, 4])], 1)
    # centres_inside[i]: boxes j != i whose centre lies inside box i
    inside = in_obbs(obbs[None, :, :2], obbs[:, None, :], cos_sin[:, None, :])
    np.fill_diagonal(inside, False)
    covered = np.zeros(k)
    for i in range(k):
        js = np.flatnonzero(above[i])
        if len(js):
            pts = obb_grid(obbs[i], 7)
            hit = in_obbs(pts[:, None, :], obbs[js][None], cos_sin[js][None]).any(1)
            covered[i] = hit.mean()
    same = group[None, :] == group[:, None]
    out[:, 0] = _logit(scores)
    out[:, 1] = _logit(pooled.max(1))
    out[:, 2] = _logit(1.0 - whole.sum(1))
    out[:, 3] = np.log(area / ref)
    out[:, 4] = np.abs(out[:, 3])
    out[:, 5] = np.abs(np.log(long_ / short / CARD_ASPECT))
    out[:, 6] = np.where(above, iou, 0).max(1)
    out[:, 7] = np.where(above & same, iou, 0).max(1)
    out[:, 8] = covered
    out[:, 9] = inside.sum(1)
    out[:, 10] = np.log1p(k)
    out[:, 11] = rank
    out[:, 12] = _logit(np.sort(pooled, 1)[:, -2])
    out[:, 13] = (above & (iou >= 0.3)).sum(1)
    out[:, 14] = out[:, 0] - out[:, 0].max()
    return out


@dataclass(frozen=True)
class Verifier:
    """``P(one card) = sigmoid(((x - mean) / scale) . weights + bias)`` over :data:`FEATURES`.

    ``conf`` and ``iou``: the localiser's score threshold and rotated NMS threshold (0-1)
    for the candidates it judges; ``keep_at``: the probability (0-1) under which a box is
    dropped; ``same_iou``: of two kept boxes overlapping at this IoU or more that read as
    the same card, the less probable is dropped.  ``fitted_on``: a note of the data.
    The features' meaning depends on the candidates: a verifier judges well only candidates
    made at its own ``conf`` and ``iou``, from whole crops read without test-time augmentation,
    as it was fitted.  Raises ValueError for a threshold outside [0, 1] or a scale not above 0.
    """

    weights: tuple[float, ...]
    bias: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    conf: float = 0.2
    iou: float = 0.7
    keep_at: float = 0.5
    same_iou: float = 0.5
    features: tuple[str, ...] = FEATURES
    fitted_on: str = ""

    def __post_init__(self):
        # every way of making one checks its bounds: a file, dataclasses.replace, a script option
        if not all(0 <= t <= 1 for t in (self.conf, self.iou, self.keep_at, self.same_iou)):
            raise ValueError(
                f"conf, iou, keep_at and same_iou must lie in [0, 1], got {self.conf}, {self.iou}, "
                f"{self.keep_at}, {self.same_iou}"
            )
        if self.scale and min(self.scale) <= 0:
            raise ValueError("the feature scales must be above 0")

    def prob(self, x: np.ndarray) -> np.ndarray:
        """Probability (0-1) that each row of features ``(K, F)`` is a box on one card."""
        z = (np.asarray(x, np.float64) - np.asarray(self.mean)) / np.asarray(self.scale)
        return 1.0 / (1.0 + np.exp(-(z @ np.asarray(self.weights) + self.bias)))

    def select(self, obbs: np.ndarray, scores: np.ndarray, whole_probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The boxes to keep of one photo's candidates, and their verified probabilities:
        ``(indices (M,), probabilities (M,))``, most probable first.  Greedy by probability:
        a box is kept when it reaches :attr:`keep_at`, overlaps no kept box at :attr:`iou`
        or more, and no kept box at :attr:`same_iou` or more reads as the same card.
        Arguments as :func:`box_features`."""
        obbs, scores, whole = _check(obbs, scores, whole_probs)
        if len(obbs) == 0:
            return np.zeros(0, np.int64), np.zeros(0)
        iou = obb_iou(obbs, obbs)
        p = self.prob(box_features(obbs, scores, whole, iou))
        group = pooled_groups(whole).argmax(1)
        kept: list[int] = []
        for i in np.argsort(-p, kind="stable"):
            if p[i] < self.keep_at:
                break
            if any(iou[i, j] >= self.iou or (iou[i, j] >= self.same_iou and group[i] == group[j]) for j in kept):
                continue
            kept.append(int(i))
        idx = np.asarray(kept, np.int64)
        return idx, p[idx]

    def save(self, path: Path) -> None:
        """Write as JSON."""
        Path(path).write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Verifier:
        """Read a JSON file written by :meth:`save`.  Raises ValueError for a malformed file,
        thresholds outside [0, 1], or one fitted on other features than :data:`FEATURES`."""
        try:
            d = json.loads(Path(path).read_text(encoding="utf-8"))
            v = cls(
                tuple(map(float, d["weights"])),
                float(d["bias"]),
                tuple(map(float, d["mean"])),
                tuple(map(float, d["scale"])),
                float(d.get("conf", 0.2)),
                float(d.get("iou", 0.7)),
                float(d.get("keep_at", 0.5)),
                float(d.get("same_iou", 0.5)),
                tuple(d.get("features", FEATURES)),
                str(d.get("fitted_on", "")),
            )
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{path}: not a verifier file ({e})") from None
        if v.features != FEATURES or not len(v.weights) == len(v.mean) == len(v.scale) == len(FEATURES):
            raise ValueError(f"{path}: fitted on features {v.features}, this code computes {FEATURES}")
        return v


def fit_logistic(
    x: np.ndarray, y: np.ndarray, l2: float = 1e-2, iters: int = 100
) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """Logistic regression of ``y`` (bool ``(N,)``) on standardised ``x`` ``(N, F)`` by
    Newton's method with an L2 term ``l2`` on the weights.  Returns ``(weights (F,), bias,
    mean (F,), scale (F,))`` as :class:`Verifier` takes them.  Raises ValueError when ``y``
    holds one class only."""
    x = np.asarray(x, np.float64)
    y = np.asarray(y, bool).astype(np.float64)
    if y.min() == y.max():
        raise ValueError("fit_logistic: the labels hold one class only")
    mean, scale = x.mean(0), x.std(0)
    scale = np.where(scale > 1e-9, scale, 1.0)
    z = np.column_stack([(x - mean) / scale, np.ones(len(x))])
    reg = np.full(z.shape[1], l2 * len(x))
    reg[-1] = 0.0  # the bias is not penalised
    w = newton_logistic(z, y, np.zeros(z.shape[1]), np.diag(reg), iters, 1e-8, jitter=1e-9)
    return w[:-1], float(w[-1]), mean, scale
