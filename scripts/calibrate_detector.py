#!/usr/bin/env python3
"""Fit the detector's confidence calibration on the held-out calibration split, and check it.

1. Runs the detector without calibration over the ``calib`` set (vision.train.testset; seed 8,
   never the test set; ``--calib A B`` pools several, e.g. calib and calib2) and labels each
   detection right or wrong: right when the photo holds that card (identity) and no earlier,
   more confident detection already claimed it.
2. Fits :class:`vision.calibration.Calibration` (Platt scaling on the box score, the pooled
   class probability, the visible share, with ``--context`` the photo's context features, and with
   ``--printcheck`` the print check's logit, vision.printcheck)
   and writes it (``--out``, default next to the shipped models: vision/models/calibration.json).
3. Proposes the certain threshold (the lowest calibrated confidence at which certain
   detections are right >= 99% of the time on the calibration split) and the suggestion
   floor, then measures both, the reliability table and the ECE on the ``test`` set.
4. With ``--plot``, draws the reliability diagram (needs matplotlib, in the train extra).

Example: python scripts/calibrate_detector.py --json runs/calib.json --plot docs/vision-reliability.png
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from vision.calibration import (
    CONTEXT_FEATURES,
    expected_calibration_error,
    fit_platt,
    reliability,
    threshold_for_precision,
)
from vision.detector import PACKAGE_MODELS, Detector
from vision.errors import ModelError
from vision.synth.layouts import NO_CARDS
from vision.train.evaluate import label_detections
from vision.train.masker import add_masker_options, masker_option
from vision.train.testset import read_testset
from vision.train.verifier import add_verifier_options, verifier_option


def limited(photos, limit: int | None):
    """At most ``limit`` photos of each (layout, style) pair (all when None)."""
    if not limit:
        return photos
    seen: Counter = Counter()
    out = []
    for ph in photos:
        seen[ph.layout, ph.style] += 1
        if seen[ph.layout, ph.style] <= limit:
            out.append(ph)
    return out


def measure(d: dict, conf: np.ndarray, certain_at: float, floor: float) -> dict:
    right = d["right"].astype(bool)
    cards = d["layout"] != NO_CARDS
    sure = conf >= certain_at
    none = ~cards
    n_none_photos = len(set(d["photo"][none].tolist())) if none.any() else 0
    return {
        "detections": len(conf),
        "ece": expected_calibration_error(conf, right),
        "certain_precision": float(right[sure].mean()) if sure.any() else float("nan"),
        "certain_recall": float(right[sure & cards].sum() / max(d["cards_total"], 1)),
        "certain_on_distractor_only": int((sure & none).sum()),
        "shown_on_distractor_only": int(((conf >= floor) & none).sum()),
        "distractor_only_photos_with_detections": n_none_photos,
        "right_below_floor": int((right & (conf < floor)).sum()),
        "right_total": int(right.sum()),
        "wrong_shown": int((~right & (conf >= floor)).sum()),
        "reliability": reliability(conf, right),
        "per_layout": per_layout(d, conf, certain_at),
    }


def per_layout(d: dict, conf: np.ndarray, certain_at: float) -> dict:
    """Certain detections' precision and count per layout (cards of that layout's photos)."""
    out = {}
    for lay in sorted(set(d["layout"].tolist()) - {NO_CARDS}):
        sel = (d["layout"] == lay) & (conf >= certain_at)
        right = d["right"].astype(bool)
        out[lay] = {
            "certain": int(sel.sum()),
            "certain_precision": float(right[sel].mean()) if sel.any() else float("nan"),
        }
    return out


def layout_thresholds(d: dict, conf: np.ndarray, target: float, min_count: int) -> dict[str, float]:
    """Per layout, the lowest threshold whose certain detections are right ``target`` of the
    time (:func:`threshold_for_precision` over that layout's detections)."""
    lays = sorted(set(d["layout"].tolist()) - {NO_CARDS})
    right = d["right"].astype(bool)
    return {
        lay: threshold_for_precision(conf[d["layout"] == lay], right[d["layout"] == lay], target, min_count)
        for lay in lays
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--calib", type=Path, nargs="+", default=[Path("data/heldout/calib")], help="set(s), pooled")
    p.add_argument(
        "--context", nargs="*", default=None, metavar="NAME",
        help="also fit the photo-context features (vision.calibration.CONTEXT_FEATURES; no names: all three)",
    )
    p.add_argument(
        "--printcheck", default=None,
        help="also fit the print check's logit: its ONNX file, or 'shipped' (vision/models/printcheck.onnx)",
    )
    p.add_argument("--test", type=Path, default=Path("data/heldout/test"))
    p.add_argument("--localiser", type=Path, default=None)
    p.add_argument("--classifier", type=Path, default=None)
    p.add_argument("--out", type=Path, default=PACKAGE_MODELS / "calibration.json")
    p.add_argument("--target", type=float, default=0.99, help="precision of certain detections")
    p.add_argument("--floor-recall", type=float, default=0.98, help="share of right detections kept by the floor")
    p.add_argument("--limit", type=int, default=None, help="at most N photos per (layout, style) (a quick check)")
    p.add_argument("--tta", action="store_true", help="classify each crop also turned 180 degrees")
    p.add_argument(
        "--layout-min", type=int, default=20, help="per-layout thresholds count at least this many detections"
    )
    p.add_argument("--conf", type=float, default=None, help="localiser score threshold (default: the detector's)")
    p.add_argument("--iou", type=float, default=None, help="rotated NMS threshold (default: the localiser's)")
    p.add_argument(
        "--same-card-iou", type=float, default=None,
        help="drop the lower of two boxes overlapping this much that read as one card (default: off)",
    )
    add_verifier_options(p)
    add_masker_options(p)
    p.add_argument("--json", type=Path, default=None)
    p.add_argument("--plot", type=Path, default=None, help="reliability diagram PNG")
    a = p.parse_args(argv)
    kw = {k: v for k, v in (("conf", a.conf), ("iou", a.iou), ("same_card_iou", a.same_card_iou)) if v is not None}
    kw |= verifier_option(a)
    kw |= masker_option(a)
    kw["printcheck"] = (None if a.printcheck == "shipped" else Path(a.printcheck)) if a.printcheck else False
    det = Detector(
        localiser=a.localiser, classifier=a.classifier, calibration=False, uncertain_below=0.0, tta=a.tta, **kw
    )
    if a.printcheck and det.printcheck is None:
        raise ModelError("--printcheck shipped: there is no shipped printcheck.onnx")
    cal_d = label_detections(det, [ph for c in a.calib for ph in limited(read_testset(c), a.limit)])
    test_d = label_detections(det, limited(read_testset(a.test), a.limit))
    n_right = int(cal_d["right"].sum())
    note = f"{' + '.join(map(str, a.calib))} ({len(cal_d['right'])} detections, {n_right} right)"
    # a whole-card detector's visible share is the third feature (vision.calibration)
    vis = det.boxes == "whole"
    cal = fit_platt(
        cal_d["score"], cal_d["prob"], cal_d["right"], cal_d["visible"] if vis else None,
        context=cal_d["context"] if a.context is not None else None,
        printcheck=cal_d["printcheck"] if a.printcheck else None,
        context_features=tuple(a.context or CONTEXT_FEATURES),
    )
    conf_c = cal(cal_d["score"], cal_d["prob"], cal_d["visible"], cal_d["context"], cal_d["printcheck"])
    conf_t = cal(test_d["score"], test_d["prob"], test_d["visible"], test_d["context"], test_d["printcheck"])
    # the certain threshold: the target precision overall and within every layout that
    # reaches it at all, rounded up to a step of 0.005 (never below what the target needs)
    per_lay = layout_thresholds(cal_d, conf_c, a.target, a.layout_min)
    overall = threshold_for_precision(conf_c, cal_d["right"], a.target)
    reachable = [t for t in per_lay.values() if t < 1.0]
    certain_at = math.ceil(max([overall, *reachable]) * 200 - 1e-9) / 200
    # the floor: keep floor_recall of the right detections, drop the rest of the guesses
    r = np.sort(conf_c[cal_d["right"].astype(bool)])
    floor = round(float(r[int((1 - a.floor_recall) * len(r))]), 2) if len(r) else 0.0
    cal = dataclasses.replace(
        cal, fitted_on=note, certain_at=certain_at, suggest_floor=floor, verifier=det.verifier is not None,
        masker=det.masker is not None,
    )
    cal.save(a.out)
    raw_c = cal_d["score"] * cal_d["prob"]
    raw_t = test_d["score"] * test_d["prob"]
    res = {
        "calibration": dataclasses.asdict(cal),
        "proposed": {"certain_at": certain_at, "suggest_floor": floor},
        "thresholds": {"overall": overall, "per_layout": per_lay},
        "calib": measure(cal_d, conf_c, certain_at, floor),
        "test": measure(test_d, conf_t, certain_at, floor),
        "test_raw_product": {"ece": expected_calibration_error(raw_t, test_d["right"])},
        "calib_raw_product": {"ece": expected_calibration_error(raw_c, cal_d["right"])},
    }
    print(json.dumps({k: v for k, v in res.items() if k not in ("calib", "test")}, indent=1))
    for split in ("calib", "test"):
        m = res[split]
        print(
            f"{split}: ECE {m['ece']:.3f}; certain (>= {certain_at:.3f}) precision {m['certain_precision']:.4f} "
            f"recall {m['certain_recall']:.3f}; on distractor-only photos: certain {m['certain_on_distractor_only']}, "
            f"shown {m['shown_on_distractor_only']}; right below floor {m['right_below_floor']}/{m['right_total']}"
        )
        for lay, v in m["per_layout"].items():
            print(f"  {lay:8} certain {v['certain']:4d} precision {v['certain_precision']:.4f}")
        for row in m["reliability"]:
            print(f"  {row['bin']}  n={row['n']:5d}  mean conf {row['mean_confidence']:.3f}  right {row['right']:.3f}")
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(res, indent=1))
    if a.plot:
        plot(res, a.plot)
    return 0


def plot(res: dict, path: Path) -> None:
    """Reliability diagram: share right against mean confidence per bin, test and calib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 5), dpi=100)
    ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--", label="perfectly calibrated")
    for split, style in (("calib", "o-"), ("test", "s-")):
        rows = [r for r in res[split]["reliability"] if r["n"]]
        ax.plot(
            [r["mean_confidence"] for r in rows],
            [r["right"] for r in rows],
            style,
            label=f"{split} split (ECE {res[split]['ece']:.3f})",
        )
    ax.axvline(res["proposed"]["certain_at"], color="green", lw=1, label="certain threshold")
    ax.axvline(res["proposed"]["suggest_floor"], color="orange", lw=1, label="suggestion floor")
    ax.set_xlabel("calibrated confidence (bin mean)")
    ax.set_ylabel("share of detections right")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left", fontsize=8)
    ax.set_title("Detector reliability (held-out synthetic piles)")
    fig.tight_layout()
    fig.savefig(path)


if __name__ == "__main__":
    from vision.errors import exit_on_model_error

    exit_on_model_error(main)
