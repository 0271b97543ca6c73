"""Confidence calibration: turning the detector's raw scores into "probability it is right".

A detection's raw evidence is its box score ``s`` (is there a card?: the box verifier's
probability when the detector has one, :mod:`vision.verify`, else the localiser score) and
the pooled class probability ``p`` of the card it was given (which card?).  Their product was the old
confidence; it was not a probability (issue 9: certain detections far from 99% right on
overlapping piles).  :class:`Calibration` is a Platt scaling in two features,

    confidence = sigmoid(a * logit(s) + b * logit(p) + d * (v - 1) + c),

where ``v`` is the visible share of the card's face a whole-card detector judged to show
(1 for a localiser of visible regions, and ``d`` 0 in a fit without it: a heap's cards are
read less reliably than a spread's at the same scores, and ``v`` tells them apart), fitted
by logistic regression on a held-out calibration split (never the test split):
a fit may add the photo's context, ``+ e . context`` (:data:`CONTEXT_FEATURES`, from the kept boxes
alone: how many, how large against the photo's median box, how much of each box other boxes cover),
so that one threshold means the same precision in a crowded heap as on a spread;
and the print check's logit, ``+ f * q`` (:mod:`vision.printcheck`: whether the box lies on a
physical card or on a card's picture printed on a box; clipped to +-8), so that a printed box
does not reach the certain threshold;
each detection is labelled right when the photo holds that card (identity) and the box is
on it.  The fitted ``(a, b, c)`` ship next to the weights (``vision/models/calibration.json``)
because they belong to them.  The numbers, the reliability table and the chosen thresholds
are in docs/VISION.md.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from vision.geometry import obb_to_xyxy

_EPS = 1e-6

#: The photo-context features a calibration may weigh (``Calibration.e``, in this order), computed by
#: :func:`context_features` from the boxes the detector kept: ``log_boxes``, the log of their number;
#: ``log_area``, the log of a box's area over the photo's median box area (clipped to 0.05-20);
#: ``cover``, the summed areas of a box's overlaps with the other boxes over its own area (clipped to
#: 0-3).  All from axis-aligned bounds, so they do not depend on the photo's size in pixels.
CONTEXT_FEATURES: tuple[str, ...] = ("log_boxes", "log_area", "cover")


def context_features(obbs: np.ndarray) -> np.ndarray:
    """The :data:`CONTEXT_FEATURES` of each kept box: ``(K, 5)`` oriented boxes (pixels, any scale) ->
    ``(K, 3)``.  One box alone: zeros.  Raises ValueError for a malformed ``obbs``."""
    xy = obb_to_xyxy(np.asarray(obbs, np.float64).reshape(-1, 5))
    k = len(xy)
    if k == 0:
        return np.zeros((0, len(CONTEXT_FEATURES)))
    area = np.maximum(np.prod(xy[:, 2:] - xy[:, :2], axis=1), 1e-9)
    lt = np.maximum(xy[:, None, :2], xy[None, :, :2])
    rb = np.minimum(xy[:, None, 2:], xy[None, :, 2:])
    inter = np.prod(np.clip(rb - lt, 0, None), axis=2)
    np.fill_diagonal(inter, 0.0)
    return np.stack(
        [
            np.full(k, np.log(k)),
            np.log(np.clip(area / np.median(area), 0.05, 20)),
            np.clip(inter.sum(1) / area, 0, 3),
        ],
        1,
    )


def logit(x, eps: float = _EPS) -> np.ndarray:
    """``log(x / (1 - x))`` of probabilities ``x`` (any shape), clipped to ``[eps, 1 - eps]``
    first so that 0 and 1 stay finite."""
    x = np.clip(np.asarray(x, np.float64), eps, 1 - eps)
    return np.log(x / (1 - x))


def newton_logistic(
    x: np.ndarray, y: np.ndarray, w: np.ndarray, penalty: np.ndarray, iters: int, tol: float, jitter: float = 0.0
) -> np.ndarray:
    """Logistic regression weights ``(F,)`` of ``y`` (``(N,)``, 0/1) on ``x`` ``(N, F)`` (its
    last column the constant 1 when a bias is wanted) by Newton's method from ``w`` ``(F,)``,
    with an L2 term ``w . penalty . w / 2`` (``penalty`` ``(F, F)``); stops after ``iters`` steps
    or when no weight moves more than ``tol``.  ``jitter`` is added to the Hessian's diagonal
    (keeps the solve defined for a constant column).  A step that would raise the penalised loss
    is halved until it does not (a full Newton step from far off can overshoot into saturated
    probabilities and a singular Hessian: a feature that nearly separates right from wrong)."""
    w = np.array(w, np.float64)
    y = np.asarray(y, np.float64)

    def loss(v: np.ndarray) -> float:
        z = x @ v
        return float(np.sum(np.logaddexp(0.0, z) - y * z) + v @ penalty @ v / 2)

    for _ in range(iters):
        q = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -700, 700)))
        g = x.T @ (q - y) + penalty @ w
        h = (x * (q * (1 - q))[:, None]).T @ x + penalty
        step = np.linalg.lstsq(h + jitter * np.eye(len(w)) if jitter else h, g, rcond=None)[0]
        before, t = loss(w), 1.0
        while t > 1e-6 and loss(w - t * step) > before:
            t /= 2
        w -= t * step
        if np.abs(t * step).max() < tol:
            break
    return w


@dataclass(frozen=True)
class Calibration:
    """``confidence = sigmoid(a * logit(score) + b * logit(prob) + d * (visible - 1) + e . context
    + f * printcheck + c)``; see the module doc.  ``e``: the weights of :data:`CONTEXT_FEATURES`
    (empty: a fit without them), or of those ``context_names`` (a subset of :data:`CONTEXT_FEATURES`
    in its order; empty with three weights: all three); ``f``: the weight of the print check's logit
    (:mod:`vision.printcheck`; 0: a fit without it, and a detector then runs no print check).

    ``fitted_on``: a note of the data it was fitted on (set, photos, detections).
    ``certain_at`` and ``suggest_floor``: the thresholds chosen with this fit on the same
    split (``scripts/calibrate_detector.py``); the shipped ones must equal
    :data:`vision.detection.CERTAIN_AT` and :data:`vision.detection.SUGGEST_FLOOR` (a test
    pins them).  None when not chosen.  ``verifier``: whether the box scores it was fitted on
    were the box verifier's probabilities (True) or the localiser's scores (False); a
    detector refuses a calibration fitted for the other kind (:class:`vision.detector.Detector`).
    ``masker``: whether the visible shares it was fitted on were the masker's (:mod:`vision.masker`)
    or the stacking order's; a detector refuses a calibration fitted for the other.
    """

    a: float
    b: float
    c: float
    fitted_on: str = ""
    certain_at: float | None = None
    suggest_floor: float | None = None
    d: float = 0.0
    verifier: bool = False
    e: tuple[float, ...] = ()
    f: float = 0.0
    context_names: tuple[str, ...] = ()
    masker: bool = False

    def __post_init__(self) -> None:
        e = tuple(float(w) for w in self.e)
        names = tuple(str(n) for n in self.context_names) or (CONTEXT_FEATURES if e else ())
        unknown = [n for n in names if n not in CONTEXT_FEATURES]
        if unknown or list(names) != sorted(names, key=CONTEXT_FEATURES.index):
            raise ValueError(f"context_names: expected names of {CONTEXT_FEATURES} in that order, got {names}")
        if len(e) != len(names):
            raise ValueError(f"e: expected {len(names)} weights {names} or none, got {len(e)}")
        object.__setattr__(self, "e", e)
        object.__setattr__(self, "context_names", names)
        object.__setattr__(self, "f", float(self.f))

    def __call__(self, score, prob, visible=1.0, context=None, printcheck=None) -> np.ndarray:
        """Calibrated confidence (0-1) for box scores (see the module doc), class probabilities
        and visible shares (0-1; broadcasting arrays of any shape), ``context`` ``(..., 3)``
        (:func:`context_features`, broadcasting the same way; ignored by a fit without ``e``) and
        ``printcheck``, the print check's clipped logits (broadcasting like ``score``; ignored by a
        fit without ``f``).  Raises ValueError when a fit with ``e`` gets no context or a fit with
        ``f`` no print check."""
        v = np.asarray(visible, np.float64)
        z = self.a * logit(score) + self.b * logit(prob) + self.d * (v - 1.0) + self.c
        if self.e:
            if context is None:
                raise ValueError("this calibration weighs the photo's context: pass context_features(obbs)")
            cols = [CONTEXT_FEATURES.index(n) for n in self.context_names]
            z = z + np.asarray(context, np.float64)[..., cols] @ np.asarray(self.e)
        if self.f:
            if printcheck is None:
                raise ValueError("this calibration weighs the print check: pass its logits (vision.printcheck)")
            z = z + self.f * np.asarray(printcheck, np.float64)
        return 1.0 / (1.0 + np.exp(-z))

    def save(self, path: Path) -> None:
        """Write as JSON."""
        Path(path).write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Calibration:
        """Read a JSON file written by :meth:`save`.  Raises ValueError for a malformed file."""
        try:
            d = json.loads(Path(path).read_text(encoding="utf-8"))
            opt = {k: float(d[k]) for k in ("certain_at", "suggest_floor", "d", "f") if d.get(k) is not None}
            return cls(
                float(d["a"]), float(d["b"]), float(d["c"]), str(d.get("fitted_on", "")),
                **opt, verifier=bool(d.get("verifier", False)), e=tuple(d.get("e", ())),
                context_names=tuple(d.get("context_names", ())), masker=bool(d.get("masker", False)),
            )
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{path}: not a calibration file ({e})") from None


def fit_platt(
    score, prob, right, visible=None, l2: float = 1e-3, iters: int = 50, context=None, printcheck=None,
    context_features: tuple[str, ...] = CONTEXT_FEATURES,
) -> Calibration:
    """Fit :class:`Calibration` by logistic regression (Newton's method, a small L2 term).

    ``score``, ``prob``: ``(N,)`` box scores (localiser or verifier) and class probabilities; ``right``:
    ``(N,)`` booleans; ``visible``: optional ``(N,)`` visible shares (0-1), fitted as the
    third feature when given (else ``d`` is 0); ``context``: optional ``(N, 3)``
    :func:`context_features` of each detection's box, its ``context_features`` columns (names of
    :data:`CONTEXT_FEATURES`, in its order) fitted as ``e`` when given; ``printcheck``:
    optional ``(N,)`` print check logits of each detection's box (:mod:`vision.printcheck`), fitted
    as ``f`` when given.  Raises ValueError when ``right`` is all one value (nothing to fit).
    """
    y = np.asarray(right, np.float64)
    if len(y) == 0 or y.min() == y.max():
        raise ValueError("fit_platt: need both right and wrong detections")
    cols = [logit(score), logit(prob)]
    if visible is not None:
        cols.append(np.asarray(visible, np.float64) - 1.0)
    n_ctx = 0
    if context is not None:
        names = tuple(context_features)
        ctx = np.asarray(context, np.float64).reshape(len(y), len(CONTEXT_FEATURES))
        ctx = ctx[:, [CONTEXT_FEATURES.index(n) for n in names]]
        cols.extend(ctx.T)
        n_ctx = ctx.shape[1]
    if printcheck is not None:
        cols.append(np.asarray(printcheck, np.float64).reshape(len(y)))
    x = np.stack([*cols, np.ones(len(y))], 1)
    k = len(cols)
    w0 = np.r_[np.ones(2), np.zeros(k - 2), 0.0]
    w = newton_logistic(x, y, w0, l2 * np.diag([1.0] * k + [0.0]), iters, 1e-9)
    d = float(w[2]) if visible is not None else 0.0
    end = k - 1 if printcheck is not None else k
    e = tuple(float(v) for v in w[end - n_ctx : end]) if n_ctx else ()
    f = float(w[k - 1]) if printcheck is not None else 0.0
    names = tuple(context_features) if n_ctx else ()
    return Calibration(float(w[0]), float(w[1]), float(w[-1]), d=d, e=e, f=f, context_names=names)


def reliability(conf, right, bins: int = 10) -> list[dict]:
    """Reliability table: for each confidence bin of width ``1 / bins``, the detections in
    it, their mean confidence and the share that were right."""
    conf = np.asarray(conf, np.float64)
    right = np.asarray(right, bool)
    edges = np.linspace(0, 1, bins + 1)
    rows = []
    for lo, hi in itertools.pairwise(edges):
        sel = (conf >= lo) & ((conf < hi) if hi < 1 else (conf <= hi))
        n = int(sel.sum())
        rows.append(
            {
                "bin": f"{lo:.1f}-{hi:.1f}",
                "n": n,
                "mean_confidence": float(conf[sel].mean()) if n else float("nan"),
                "right": float(right[sel].mean()) if n else float("nan"),
            }
        )
    return rows


def expected_calibration_error(conf, right, bins: int = 10) -> float:
    """ECE: the detection-weighted mean gap between confidence and the share right per bin."""
    rows = reliability(conf, right, bins)
    n = sum(r["n"] for r in rows)
    return float(sum(r["n"] * abs(r["mean_confidence"] - r["right"]) for r in rows if r["n"]) / max(n, 1))


def threshold_for_precision(conf, right, target: float = 0.99, min_count: int = 50) -> float:
    """The lowest confidence threshold at which detections at or above it are right at
    least ``target`` of the time, counting only thresholds that keep ``min_count`` or more
    detections (a precision over a handful proves nothing).  Returns 1.0 if none does."""
    conf = np.asarray(conf, np.float64)
    right = np.asarray(right, bool)
    order = np.argsort(-conf, kind="stable")
    c, r = conf[order], right[order]
    prec = np.cumsum(r) / np.arange(1, len(r) + 1)
    best = 1.0
    for k in range(len(c) - 1, min_count - 2, -1):
        # a threshold must keep all detections with the same confidence together
        if k + 1 < len(c) and c[k + 1] == c[k]:
            continue
        if prec[k] >= target:
            best = float(c[k])
            break
    return best
