#!/usr/bin/env python3
"""Fit the box verifier (vision.verify) on the ``verify`` set and write its JSON file.

The set (seed 11, training backgrounds; vision.train.testset) is made here when missing.
Every candidate box the shipped localiser finds at ``--conf`` / ``--iou`` is labelled on a
card or not (vision.train.verifier), and a logistic regression on vision.verify.FEATURES is
fitted.  ``--keep-at`` is stored with it; choose it on the calib split with
``scripts/eval_detector.py --set data/heldout/calib --verifier FILE --keep-at P``.

Example: python scripts/fit_verifier.py --out vision/models/verifier.json
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from vision.detector import Detector
from vision.synth.layouts import LAYOUTS
from vision.synth.render import DEFAULT_ART_DIR, render_art
from vision.train.testset import read_testset, write_testset
from vision.train.verifier import candidate_table, photo_candidates
from vision.verify import FEATURES, Verifier, fit_logistic


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--set", type=Path, default=Path("data/heldout/verify"))
    p.add_argument("--art", type=Path, default=DEFAULT_ART_DIR)
    p.add_argument("--png", type=Path, default=Path("data/art_png"))
    p.add_argument("--per-cell", type=int, default=None, help="photos per (layout, style) when making the set")
    p.add_argument("--conf", type=float, default=0.2, help="localiser score threshold of the candidates")
    p.add_argument("--iou", type=float, default=0.7, help="rotated NMS threshold of the candidates")
    p.add_argument("--keep-at", type=float, default=0.3, help="probability under which a box is dropped")
    p.add_argument("--same-iou", type=float, default=0.5, help="IoU at which two boxes read as one card are one")
    p.add_argument("--l2", type=float, default=1e-3)
    p.add_argument("--localiser", type=Path, default=None, help="localiser ONNX (default: shipped)")
    p.add_argument(
        "--classifier", type=Path, default=None,
        help="classifier ONNX whose readings the features hold (default: shipped); fit a verifier for each classifier",
    )
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--out", type=Path, default=Path("runs/verify/verifier.json"))
    a = p.parse_args(argv)
    if not (a.set / "labels.json").exists():
        render_art(a.art, a.png, skip_done=True)
        write_testset(a.set, a.png, "verify", a.per_cell)
    photos = read_testset(a.set)
    det = Detector(
        localiser=a.localiser, classifier=a.classifier, conf=a.conf, iou=a.iou, verifier=False,
        calibration=False, threads=a.threads,
    )
    t0 = time.time()
    tab = candidate_table(photos, [photo_candidates(det, ph) for ph in photos])
    secs = time.time() - t0
    x, y = tab["x"], tab["on_card"]
    w, b, mean, scale = fit_logistic(x, y, a.l2)
    v = Verifier(
        tuple(map(float, w)),
        b,
        tuple(map(float, mean)),
        tuple(map(float, scale)),
        a.conf,
        a.iou,
        a.keep_at,
        a.same_iou,
        fitted_on=f"{a.set} ({len(photos)} photos, {len(y)} candidates, {int(y.sum())} on a card)",
    )
    prob = v.prob(x)
    print(f"{len(photos)} photos, {len(y)} candidates ({y.mean():.1%} on a card), {secs:.0f} s; load {os.getloadavg()}")
    print("weights (standardised):", ", ".join(f"{f} {c:+.2f}" for f, c in zip(FEATURES, w, strict=True)))
    print(
        f"{'layout':8} {'boxes':>6} {'on card':>8}  kept at 0.2/0.3/0.5: on card, off card; score >= 0.35 alike"
    )
    for lay in (*LAYOUTS, None):
        m = np.ones(len(y), bool) if lay is None else tab["layout"] == lay
        on, off = m & y, m & ~y
        cells = [f"{(prob[on] >= t).mean():.3f}/{(prob[off] >= t).mean():.3f}" for t in (0.2, 0.3, 0.5)]
        base = f"{(tab['score'][on] >= 0.35).mean():.3f}/{(tab['score'][off] >= 0.35).mean():.3f}"
        print(f"{lay or 'all':8} {m.sum():6d} {on.sum():8d}  " + "  ".join(cells) + f"  | {base}")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    v.save(a.out)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    from vision.errors import exit_on_model_error

    exit_on_model_error(main)
