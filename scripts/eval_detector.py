#!/usr/bin/env python3
"""Evaluate the shipped detector on a held-out synthetic test set.

The test set uses another seed (9) than training (1, 2) and only the backgrounds never seen
in training (marble, tiles).  Scenes are generated at phone-like size (long side 1280 px by
default) and evaluated per layout: card-level P/R/F1 (identity: same-month plain chaff are
interchangeable), exact-id card-level P/R/F1, mAP50 and mAP50-95 (identity classes,
visible-region boxes), localiser box recall, per-card recall and look-alike confusions.

Example: python scripts/eval_detector.py --per-layout 60 --json runs/eval.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from vision.detector import Detector
from vision.evaluate import Evaluator, box_iou
from vision.geometry import obb_to_xyxy, quad_bounds
from vision.render import DEFAULT_ART_DIR, load_art, render_art
from vision.scenes import LAYOUTS, TEST_BACKGROUNDS, make_scene


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--art", type=Path, default=DEFAULT_ART_DIR)
    p.add_argument("--png", type=Path, default=Path("data/art_png"))
    p.add_argument("--per-layout", type=int, default=40)
    p.add_argument("--seed", type=int, default=9)
    p.add_argument("--size", type=int, default=1280)
    p.add_argument(
        "--styles", nargs="+", default=None, help="art sets (default: every set under --art)"
    )
    p.add_argument("--backend", default="onnxruntime")
    p.add_argument("--tta", action="store_true")
    p.add_argument("--conf", type=float, default=None, help="localiser score threshold")
    p.add_argument("--iou", type=float, default=None, help="rotated NMS threshold")
    p.add_argument("--max-side", type=int, default=None, help="photo long side before crops")
    p.add_argument("--json", type=Path, default=None)
    p.add_argument(
        "--backgrounds", nargs="+", default=list(TEST_BACKGROUNDS), help="background kinds"
    )
    p.add_argument("--max-cards", type=int, default=None, help="1..N cards per photo")
    p.add_argument(
        "--texture-scale", type=float, default=None, help="make background texture N x finer"
    )
    p.add_argument("--layouts", nargs="+", default=list(LAYOUTS))
    a = p.parse_args(argv)
    render_art(a.art, a.png, skip_done=True)
    art = load_art(a.png, tuple(a.styles) if a.styles else None)
    a.styles = list(art)
    kw = {
        k: v
        for k, v in (("conf", a.conf), ("iou", a.iou), ("max_side", a.max_side))
        if v is not None
    }
    det = Detector(a.backend, tta=a.tta, **kw)
    ev = Evaluator()
    ev_certain = Evaluator()  # only detections not flagged uncertain
    loc_hit = loc_n = 0
    by_style: dict[str, Evaluator] = {s: Evaluator() for s in a.styles}
    t0 = time.time()
    for li, layout in enumerate(LAYOUTS):
        if layout not in a.layouts:
            continue
        for i in range(a.per_layout):
            seed = a.seed * 1_000_000 + li * 10_000 + i
            n = None
            if a.max_cards:
                n = int(np.random.default_rng(seed).integers(1, a.max_cards + 1))
            s = make_scene(
                seed,
                art,
                size=a.size,
                layout=layout,
                backgrounds=tuple(a.backgrounds),
                n_cards=n,
                texture_scale=a.texture_scale,
            )
            dets = det.detect(s.image)
            gtb = quad_bounds(s.quads)
            pb = np.array([d.box for d in dets]).reshape(-1, 4)
            args = (layout, s.cards, gtb, [d.card for d in dets], [d.confidence for d in dets], pb)
            ev.add(*args)
            sure = [d for d in dets if not d.uncertain]
            ev_certain.add(
                layout,
                s.cards,
                gtb,
                [d.card for d in sure],
                [d.confidence for d in sure],
                np.array([d.box for d in sure]).reshape(-1, 4),
            )
            by_style[s.style].add(*args)
            # localiser alone: any detection box with IoU >= 0.5 per ground-truth card
            obbs, _ = det.localise(s.image)
            if len(s.cards):
                loc_n += len(s.cards)
                if len(obbs):
                    loc_hit += int((box_iou(gtb, obb_to_xyxy(obbs)).max(1) >= 0.5).sum())
    secs = time.time() - t0
    res = {
        "test_set": {
            "seed": a.seed,
            "per_layout": a.per_layout,
            "size": a.size,
            "backgrounds": a.backgrounds,
            "max_cards": a.max_cards,
            "texture_scale": a.texture_scale,
            "layouts": a.layouts,
            "styles": a.styles,
            "backend": a.backend,
            "tta": a.tta,
            "conf": det.conf,
            "iou": det.iou,
        },
        "seconds": round(secs, 1),
        "localiser_box_recall_iou50": loc_hit / max(loc_n, 1),
        "layouts": {},
        "styles": {},
    }
    for layout in (*a.layouts, None):
        res["layouts"][layout or "all"] = {
            "identity": ev.card_level(layout),
            "exact_id": ev.card_level(layout, False),
            "certain_only": ev_certain.card_level(layout),
            **ev.map(layout),
        }
    for s, e in by_style.items():
        res["styles"][s] = e.card_level()
    res["per_card_recall"] = ev.per_card_recall()
    res["confusions"] = ev.confusions()
    print(
        f"{'layout':8} {'photos':>6} {'P':>6} {'R':>6} {'F1':>6} {'F1 exact':>8} "
        f"{'F1 sure':>7} {'mAP50':>6} {'mAP50-95':>8}"
    )
    for k, v in res["layouts"].items():
        c = v["identity"]
        print(
            f"{k:8} {c['photos']:6d} {c['precision']:6.3f} {c['recall']:6.3f} {c['f1']:6.3f} "
            f"{v['exact_id']['f1']:8.3f} {v['certain_only']['f1']:7.3f} "
            f"{v['map50']:6.3f} {v['map50_95']:8.3f}"
        )
    print("localiser box recall (IoU 0.5):", round(res["localiser_box_recall_iou50"], 3))
    print("by style F1:", {s: round(v["f1"], 3) for s, v in res["styles"].items()})
    worst = sorted(res["per_card_recall"].items(), key=lambda kv: kv[1])[:8]
    print("lowest per-card recall:", [(c, round(r, 2)) for c, r in worst])
    for k, v in res["confusions"].items():
        print(f"confusion {k}: {v['confused']}/{v['matched']} {v['top']}")
    print(f"{secs:.0f}s")
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
