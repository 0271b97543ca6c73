"""Evaluation on synthetic scenes with known labels (numpy only; no torch).

Identity: the plain chaff of one month are interchangeable for scoring, so "identity" maps
``pine-chaff-1`` and ``pine-chaff-2`` to one key; ``paulownia-chaff-yellow`` and
``willow-lightning`` keep their own.  Card-level metrics compare the *set* of identities in a
photo; box metrics (mAP) match visible-region boxes (axis-aligned) with identity classes.

Part of :mod:`vision.train`: may import the runtime and :mod:`vision.synth`; never ``referee``'s
scoring or web code.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np

from referee.cards import CARD_IDS
from vision.calibration import CONTEXT_FEATURES
from vision.geometry import obb_iou
from vision.postprocess import GROUPS
from vision.synth.render import MERGED_IDS

IDENTITY: dict[str, str] = {}
for _g in GROUPS:
    for _i in _g:
        IDENTITY[CARD_IDS[_i]] = CARD_IDS[_g[0]].rsplit("-", 1)[0] if len(_g) > 1 else CARD_IDS[_i]



def identity_key(card: str, style: str | None = None) -> str:
    """The identity key of ``card``: same-month plain chaff share one; a style's
    :data:`vision.synth.render.MERGED_IDS` share one too (timomt's three Paulownia chaff)."""
    merged = MERGED_IDS.get(style or "", ())
    if card in merged:
        return "|".join(merged)
    return IDENTITY[card]


#: Look-alike sets whose confusions are reported.
LOOKALIKES: dict[str, list[tuple[str, ...]]] = {
    "paulownia yellow vs plain chaff": [
        ("paulownia-chaff-yellow", "paulownia-chaff-1", "paulownia-chaff-2")
    ],
    "the four willow cards": [
        ("willow-rain-man", "willow-swallow", "willow-ribbon", "willow-lightning")
    ],
    "same-month ribbon vs chaff": [],
}
for _m_ribbon, _m_chaff in (
    ("pine-poetry-ribbon", "pine-chaff"),
    ("plum-poetry-ribbon", "plum-chaff"),
    ("cherry-poetry-ribbon", "cherry-chaff"),
    ("wisteria-ribbon", "wisteria-chaff"),
    ("iris-ribbon", "iris-chaff"),
    ("peony-blue-ribbon", "peony-chaff"),
    ("bush-clover-ribbon", "bush-clover-chaff"),
    ("chrysanthemum-blue-ribbon", "chrysanthemum-chaff"),
    ("maple-blue-ribbon", "maple-chaff"),
):
    LOOKALIKES["same-month ribbon vs chaff"].append((_m_ribbon, _m_chaff + "-1", _m_chaff + "-2"))


def label_detections(det, photos) -> dict:
    """Run ``det`` (a :class:`vision.detector.Detector`) over held-out ``photos``
    (:class:`vision.train.testset.Photo`) and label each detection right or wrong by identity.

    A detection is right when the photo holds that card (:func:`identity_key`) and no more
    confident detection already claimed it.  Returns numpy arrays of length N (detections):
    ``score`` (localiser score), ``prob`` (pooled class probability), ``right`` (bool),
    ``layout`` (str), ``photo`` (index into ``photos``), ``visible`` (the detector's visible
    share, 1 for a visible-region localiser), ``context`` (``(N, 3)``, the box's photo-context
    features, :func:`vision.calibration.context_features`), ``printcheck`` (``(N,)``, the box's print
    check logit, :mod:`vision.printcheck`; NaN for a detector without one), and ``cards_total``
    (int, cards in all photos).
    Used to fit and check the confidence calibration.
    """
    rows: dict[str, list] = {
        "score": [], "prob": [], "right": [], "layout": [], "photo": [], "visible": [], "context": [],
        "printcheck": [],
    }
    cards_total = 0
    for k, ph in enumerate(photos):
        tr = det.trace(ph.image())
        want = Counter(identity_key(c, ph.style) for c in ph.cards)
        cards_total += len(ph.cards)
        order = sorted(range(len(tr.assigned)), key=lambda i: -tr.assigned[i][1])
        for i in order:
            cls, conf = tr.assigned[i]
            if cls < 0:
                continue
            key = identity_key(CARD_IDS[cls], ph.style)
            ok = want[key] > 0
            if ok:
                want[key] -= 1
            score = float(tr.scores[i])
            rows["score"].append(score)
            rows["prob"].append(conf / max(score, 1e-9))  # raw confidence = score x pooled prob
            rows["right"].append(ok)
            rows["layout"].append(ph.layout)
            rows["photo"].append(k)
            rows["visible"].append(1.0 if tr.visible is None else float(tr.visible[i]))
            rows["context"].append(tr.context[i])
            rows["printcheck"].append(float("nan") if tr.printcheck is None else float(tr.printcheck[i]))
    out: dict = {k: np.array(v) for k, v in rows.items()}
    out["context"] = out["context"].reshape(-1, len(CONTEXT_FEATURES))
    out["right"] = out["right"].astype(bool)
    out["cards_total"] = cards_total
    return out


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise IoU of axis-aligned boxes ``(N, 4)`` x ``(M, 4)`` -> ``(N, M)``."""
    a = np.asarray(a, float).reshape(-1, 4)
    b = np.asarray(b, float).reshape(-1, 4)
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(rb - lt, 0, None), axis=2)
    area_a = np.prod(a[:, 2:] - a[:, :2], axis=1)
    area_b = np.prod(b[:, 2:] - b[:, :2], axis=1)
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


def _ap(tp: np.ndarray, conf: np.ndarray, n_gt: int) -> float:
    if n_gt == 0:
        return float("nan")
    if len(tp) == 0:
        return 0.0
    o = np.argsort(-conf, kind="stable")
    tp = tp[o]
    ctp = np.cumsum(tp)
    cfp = np.cumsum(1 - tp)
    rec = ctp / n_gt
    prec = ctp / np.maximum(ctp + cfp, 1e-9)
    mrec = np.concatenate([[0], rec, [1]])
    mpre = np.concatenate([[1], prec, [0]])
    mpre = np.flip(np.maximum.accumulate(np.flip(mpre)))
    xs = np.linspace(0, 1, 101)
    return float(np.trapezoid(np.interp(xs, mrec, mpre), xs))


class Evaluator:
    """Accumulates predictions and ground truth, one photo at a time (see :meth:`add`)."""

    def __init__(self):
        self.photos: list[dict] = []

    def add(
        self,
        layout: str,
        gt_cards: list[str],
        gt_boxes: np.ndarray,
        pred_cards: list[str],
        pred_conf: list[float],
        pred_boxes: np.ndarray,
        style: str | None = None,
        gt_visible: list[float] | None = None,
        pred_covered: list[bool] | None = None,
        gt_whole: np.ndarray | None = None,
    ) -> None:
        """One photo: ground-truth ids and ``(N, 4)`` boxes; predicted ids, confidences
        (0-1) and ``(M, 4)`` boxes, all in pixels; ``style``: the art style (for
        :func:`identity_key`); ``gt_visible``: each card's visible share (0-1, default 1);
        ``pred_covered``: which predictions the detector reported too covered to read
        (default none); ``gt_whole``: ``(N, 4)`` bounds of each card's whole face (default
        ``gt_boxes``), to match covered reports to cards."""
        gtb = np.asarray(gt_boxes, float).reshape(-1, 4)
        self.photos.append(
            {
                "layout": layout,
                "style": style,
                "gt": list(gt_cards),
                "gtb": gtb,
                "gtw": gtb if gt_whole is None else np.asarray(gt_whole, float).reshape(-1, 4),
                "vis": np.ones(len(gt_cards)) if gt_visible is None else np.asarray(gt_visible, float),
                "pred": list(pred_cards),
                "conf": np.asarray(pred_conf, float),
                "pb": np.asarray(pred_boxes, float).reshape(-1, 4),
                "covered": np.zeros(len(pred_cards), bool) if pred_covered is None else np.asarray(pred_covered, bool),
            }
        )

    def card_level(
        self, layout: str | None = None, identity: bool = True, style: str | None = None, min_visible: float = 0.0
    ) -> dict:
        """Precision, recall and F1 over photos: a predicted card is right when the photo
        holds it (with ``identity``, same-month plain chaff count as the same card).
        ``layout`` / ``style``: only the photos of that layout / art style.

        ``min_visible``: count only the cards showing at least this share of their face;
        a prediction of a card that shows less is neither right nor wrong, and predictions
        reported covered are left out (:meth:`covered_report` counts both apart)."""
        tp = fp = fn = 0
        n = 0
        for p in self._photos(layout, style):
            n += 1

            def key(c, st=p["style"]):
                return identity_key(c, st) if identity else c

            g = Counter(key(c) for c, v in zip(p["gt"], p["vis"], strict=True) if v >= min_visible)
            low = Counter(key(c) for c, v in zip(p["gt"], p["vis"], strict=True) if v < min_visible)
            q = Counter(key(c) for c, cov in zip(p["pred"], p["covered"], strict=True) if not cov)
            inter = sum((g & q).values())
            neutral = sum(((q - g) & low).values())
            tp += inter
            fp += sum(q.values()) - inter - neutral
            fn += sum(g.values()) - inter
        pr = tp / max(tp + fp, 1)
        rc = tp / max(tp + fn, 1)
        return {
            "precision": pr,
            "recall": rc,
            "f1": 2 * pr * rc / max(pr + rc, 1e-9),
            "tp": tp,
            "fp": fp,
            "fn": fn,
            "photos": n,
        }

    def _photos(self, layout: str | None, style: str | None):
        return [
            p for p in self.photos if (not layout or p["layout"] == layout) and (not style or p["style"] == style)
        ]

    def covered_report(self, below: float, layout: str | None = None, iou: float = 0.3) -> dict:
        """What became of the cards showing under ``below`` of their face: ``covered`` (a
        detection reported too covered to read lies on the card: axis-aligned IoU at least
        ``iou`` with its whole face's bounds), ``named_right`` (otherwise, a prediction has
        its identity), ``named_wrong`` (otherwise, an uncovered prediction's box lies on it
        under another name) and ``unseen`` (none of these); counts, and ``cards``.
        ``false_covered``: the detections reported too covered that lie on no such card (a
        readable card's duplicate, or a box across a card and the table), each of which asks
        the player to uncover a card for nothing."""
        out = Counter()
        for p in self._photos(layout, None):
            low = [j for j, v in enumerate(p["vis"]) if v < below]
            iou_m = box_iou(p["gtw"], p["pb"]) if len(p["pb"]) else np.zeros((len(p["gt"]), 0))
            out["false_covered"] += int((p["covered"] & ~(iou_m[low] >= iou).any(0)).sum()) if len(p["pb"]) else 0
            named = [c for c, cov in zip(p["pred"], p["covered"], strict=True) if not cov]
            keys = Counter(identity_key(c, p["style"]) for c in named)
            for j in low:
                out["cards"] += 1
                on = iou_m[j] >= iou
                k = identity_key(p["gt"][j], p["style"])
                if (on & p["covered"]).any():
                    out["covered"] += 1
                elif keys[k] > 0:
                    keys[k] -= 1
                    out["named_right"] += 1
                elif (on & ~p["covered"]).any():
                    out["named_wrong"] += 1
                else:
                    out["unseen"] += 1
        return {k: int(out[k]) for k in ("cards", "covered", "named_right", "named_wrong", "unseen", "false_covered")}

    def map(self, layout: str | None = None) -> dict:
        """mAP50 and mAP50-95 over identity classes (axis-aligned visible-region boxes)."""
        thr = np.arange(0.5, 0.96, 0.05)
        per_t = []
        for t in thr:
            tps: dict[str, list] = defaultdict(list)
            confs: dict[str, list] = defaultdict(list)
            ngt: Counter = Counter()
            for p in self.photos:
                if layout and p["layout"] != layout:
                    continue
                gk = [IDENTITY[c] for c in p["gt"]]
                pk = [IDENTITY[c] for c in p["pred"]]
                ngt.update(gk)
                iou = (
                    box_iou(p["pb"], p["gtb"])
                    if len(pk) and len(gk)
                    else np.zeros((len(pk), len(gk)))
                )
                used = set()
                for i in np.argsort(-p["conf"], kind="stable"):
                    best, bj = t, -1
                    for j, k in enumerate(gk):
                        if k == pk[i] and j not in used and iou[i, j] >= best:
                            best, bj = iou[i, j], j
                    if bj >= 0:
                        used.add(bj)
                    tps[pk[i]].append(1.0 if bj >= 0 else 0.0)
                    confs[pk[i]].append(p["conf"][i])
            aps = [_ap(np.array(tps[k]), np.array(confs[k]), n) for k, n in ngt.items()]
            per_t.append(float(np.nanmean(aps)) if aps else float("nan"))
        return {"map50": per_t[0], "map50_95": float(np.mean(per_t))}

    def per_card_recall(self) -> dict[str, float]:
        """Recall of each exact card id: the photo holds it and a prediction has its identity."""
        hit: Counter = Counter()
        tot: Counter = Counter()
        for p in self.photos:
            q = Counter(IDENTITY[c] for c in p["pred"])
            for c in p["gt"]:
                tot[c] += 1
                if q[IDENTITY[c]] > 0:
                    hit[c] += 1
                    q[IDENTITY[c]] -= 1
        return {c: hit[c] / tot[c] for c in CARD_IDS if tot[c]}

    def confusions(self, iou: float = 0.5) -> dict[str, dict]:
        """For each look-alike family: matched boxes whose true card is in one of its sets,
        and how many were named as another member of that same set (identity level)."""
        out = {}
        for name, sets in LOOKALIKES.items():
            home = {c: set(s) for s in sets for c in s}
            n = wrong = 0
            pairs: Counter = Counter()
            for p in self.photos:
                if not len(p["pb"]) or not len(p["gtb"]):
                    continue
                m = box_iou(p["gtb"], p["pb"])
                for j, c in enumerate(p["gt"]):
                    if c not in home:
                        continue
                    i = int(np.argmax(m[j]))
                    if m[j, i] < iou:
                        continue
                    n += 1
                    pc = p["pred"][i]
                    if IDENTITY[pc] != IDENTITY[c] and pc in home[c]:
                        wrong += 1
                        pairs[f"{c} -> {pc}"] += 1
            out[name] = {
                "matched": n,
                "confused": wrong,
                "rate": wrong / max(n, 1),
                "top": dict(pairs.most_common(5)),
            }
        return out


def match_obbs(gt: np.ndarray, pred: np.ndarray, thr: float = 0.5) -> np.ndarray:
    """Greedy one-to-one matching of ground-truth to predicted oriented boxes ``(N, 5)`` x
    ``(M, 5)`` by polygon IoU (:func:`vision.geometry.obb_iou`) of at least ``thr``.

    Returns ``(N,)``: the matched prediction index per ground-truth box, or -1.
    """
    out = np.full(len(gt), -1, np.int64)
    if not len(gt) or not len(pred):
        return out
    iou = obb_iou(np.asarray(gt, float), np.asarray(pred, float))
    used: set[int] = set()
    for flat in np.argsort(-iou, axis=None, kind="stable"):
        i, j = divmod(int(flat), iou.shape[1])
        if iou[i, j] < thr:
            break
        if out[i] >= 0 or j in used:
            continue
        out[i] = j
        used.add(j)
    return out


#: Where a ground-truth card was lost, in pipeline order (see :func:`error_sources`).
ERROR_KINDS: tuple[str, ...] = ("found", "localiser_miss", "classifier_misname", "postprocess_lost")


def error_sources(
    gt_cards: list[str],
    gt_obbs: np.ndarray,
    obbs: np.ndarray,
    top1: list[str],
    final: list[str | None],
    style: str | None = None,
    thr: float = 0.5,
) -> tuple[Counter, int]:
    """Attribute each ground-truth card of one photo to a stage of the pipeline.

    ``gt_obbs`` ``(N, 5)``: visible-region boxes; ``obbs`` ``(M, 5)``: the localiser's
    boxes; ``top1``: the classifier's first choice per box; ``final``: the card each box was
    given after the pile rules (None: dropped).  A card is ``found`` when its box was
    found and finally named right (:func:`identity_key`), else ``localiser_miss`` (no box with
    probabilistic IoU >= ``thr``), ``classifier_misname`` (a box, first choice wrong) or
    ``postprocess_lost`` (first choice right, lost or renamed by the pile rules).
    Returns ``(counts by kind, false boxes)``: boxes matching no card.
    """
    m = match_obbs(np.asarray(gt_obbs, float).reshape(-1, 5), np.asarray(obbs, float).reshape(-1, 5), thr)
    c: Counter = Counter()
    for card, j in zip(gt_cards, m, strict=True):
        want = identity_key(card, style)
        if j < 0:
            c["localiser_miss"] += 1
        elif final[j] is not None and identity_key(final[j], style) == want:
            c["found"] += 1
        elif identity_key(top1[j], style) != want:
            c["classifier_misname"] += 1
        else:
            c["postprocess_lost"] += 1
    return c, int(len(obbs) - (m >= 0).sum())
