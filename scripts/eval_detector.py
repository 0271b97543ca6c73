#!/usr/bin/env python3
"""Evaluate the detector on a held-out scene set (vision.train.testset; made here when missing).

The set uses seeds never used in training and only the backgrounds never seen in training,
every layout (spread, rows, fan, heap, closeup, and distractor-only photos) and every art
style.  Reported (identity: same-month plain chaff are one card; timomt's three Paulownia
chaff are one card):

- card-level P/R/F1 per layout, per art style and per (layout, style), counting every
  detection, counting only certain ones, and (readable cards, per layout) counting what the
  photo flow shows: detections at or above the suggestion floor and cards reported too covered;
- certain detections' precision and recall over all layouts;
- on distractor-only photos: certain detections and suggestions (>= the floor) per photo;
- where each card was lost: localiser miss, classifier misname, lost in the pile rules;
- with --compare: the shipped settings run on the same photos, interleaved photo by
  photo, both reported, with the median process CPU time per photo and the median ratio;
- with --loso DIR: leave-one-style-out, each style's photos run with the models in
  DIR/<style>/ (classifier.onnx, and localiser.onnx when present) that never saw it.

Example: python scripts/eval_detector.py --json runs/eval/shipped.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from referee.cards import CARD_IDS
from vision.detector import Detector
from vision.geometry import quad_bounds
from vision.synth.layouts import LAYOUTS, NO_CARDS
from vision.synth.render import DEFAULT_ART_DIR, render_art
from vision.synth.scenes import quad_to_obb
from vision.train.evaluate import ERROR_KINDS, Evaluator, error_sources
from vision.train.masker import add_masker_options, masker_option
from vision.train.testset import read_testset, write_testset
from vision.train.verifier import add_verifier_options, verifier_option
from vision.visibility import READABLE_FROM


def new_tally() -> dict:
    """Empty counters for :func:`tally_photo` (see the module docstring)."""
    return {
        "ev": Evaluator(),
        "sure": Evaluator(),
        "shown": Evaluator(),
        "errors": defaultdict(Counter),
        "false_boxes": Counter(),
        "none": {"photos": 0, "certain": 0, "shown": 0, "any": 0},
        "cpu_s": [],
    }


def tally_photo(t: dict, ph, tr, floor: float, boxes: str = "visible") -> None:
    """Add one photo's :class:`vision.detector.Trace` ``tr`` to the tally ``t``; ``boxes``:
    what the localiser's boxes hold (``"visible"`` or ``"whole"``), for the loss analysis."""
    dets = tr.detections
    if ph.layout == NO_CARDS:
        none = t["none"]
        none["photos"] += 1
        none["any"] += len(dets)
        none["certain"] += sum(not d.uncertain for d in dets)
        none["shown"] += sum(d.confidence >= floor for d in dets)
        return
    gtb = quad_bounds(ph.quads)
    gtw = quad_bounds(ph.gt_quads("whole"))
    shown = [d for d in dets if d.covered or d.confidence >= floor]  # what the photo flow shows
    for e, keep in ((t["ev"], dets), (t["sure"], [d for d in dets if not d.uncertain]), (t["shown"], shown)):
        e.add(
            ph.layout,
            list(ph.cards),
            gtb,
            [d.card for d in keep],
            [d.confidence for d in keep],
            np.array([d.box for d in keep]).reshape(-1, 4),
            style=ph.style,
            gt_visible=list(ph.visible),
            pred_covered=[d.covered for d in keep],
            gt_whole=gtw,
        )
    top1 = [CARD_IDS[int(i)] for i in tr.probs.argmax(1)] if len(tr.probs) else []
    final = [CARD_IDS[c] if c >= 0 else None for c, _ in tr.assigned]
    gto = np.array([quad_to_obb(q) for q in ph.gt_quads(boxes)]).reshape(-1, 5)
    c, fb = error_sources(list(ph.cards), gto, tr.obbs, top1, final, ph.style)
    t["errors"][ph.layout] += c
    t["false_boxes"][ph.layout] += fb


def run_set(det: Detector, photos, floor: float) -> dict:
    """Run ``det`` over ``photos``; return the tally (see :func:`new_tally`)."""
    return run_interleaved([det], photos, floor)[0]


def run_interleaved(dets: list[Detector], photos, floor: float) -> list[dict]:
    """Run every detector of ``dets`` on each photo in turn (the order rotating from photo to
    photo, so machine noise hits all alike); one tally per detector, with the process CPU
    seconds of each ``trace`` call (decoding the stored JPEG is outside the timing)."""
    tallies = [new_tally() for _ in dets]
    for n, ph in enumerate(photos):
        im = ph.image()
        for k in range(len(dets)):
            i = (n + k) % len(dets)
            t0 = time.process_time()
            tr = dets[i].trace(im)
            tallies[i]["cpu_s"].append(time.process_time() - t0)
            tally_photo(tallies[i], ph, tr, floor, dets[i].boxes)
    return tallies


def summarise(r: dict, layouts, styles) -> dict:
    ev, sure = r["ev"], r["sure"]
    out = {"layouts": {}, "styles": {}, "cells": {}, "errors": {}}
    rd = READABLE_FROM
    out["readable_from"] = rd
    out["readable_cells"] = {}
    for lay in (*layouts, None):
        out["layouts"][lay or "all"] = {
            "identity": ev.card_level(lay),
            "certain_only": sure.card_level(lay),
            "readable": ev.card_level(lay, min_visible=rd),
            "readable_certain": sure.card_level(lay, min_visible=rd),
            "readable_shown": r["shown"].card_level(lay, min_visible=rd),
            "under_readable": ev.covered_report(rd, lay),
        }
    for st in styles:
        out["styles"][st] = {
            "identity": ev.card_level(style=st),
            "certain_only": sure.card_level(style=st),
            "readable": ev.card_level(style=st, min_visible=rd),
        }
        for lay in layouts:
            out["cells"][f"{lay}/{st}"] = ev.card_level(lay, style=st)["f1"]
            out["readable_cells"][f"{lay}/{st}"] = ev.card_level(lay, style=st, min_visible=rd)["f1"]
    for lay in layouts:
        c = r["errors"][lay]
        n = sum(c.values())
        out["errors"][lay] = {k: c[k] / max(n, 1) for k in ERROR_KINDS} | {
            "cards": n,
            "false_boxes": r["false_boxes"][lay],
        }
    out["distractor_only"] = r["none"]
    if r["cpu_s"]:
        out["cpu_ms_median"] = round(1000 * float(np.median(r["cpu_s"])), 1)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--art", type=Path, default=DEFAULT_ART_DIR)
    p.add_argument("--png", type=Path, default=Path("data/art_png"))
    p.add_argument("--set", type=Path, default=Path("data/heldout/test"), help="held-out set folder")
    p.add_argument("--split", default="test", help="seed split when the set must be made")
    p.add_argument(
        "--per-cell",
        type=int,
        default=None,
        help="photos per (layout, style) when making the set (default: the split's)",
    )
    p.add_argument(
        "--texture-scale", type=float, default=None,
        help="when making the set: backgrounds' grain this many times finer (e.g. 3; use its own --set folder)",
    )
    p.add_argument("--localiser", type=Path, default=None, help="localiser ONNX (default: shipped)")
    p.add_argument("--classifier", type=Path, default=None, help="classifier ONNX (default: shipped)")
    p.add_argument(
        "--calibration", default=None, help="calibration JSON (default: shipped; 'false': none, raw confidence)"
    )
    p.add_argument("--loso", type=Path, default=None, help="folder of per-style models: <style>/classifier.onnx")
    p.add_argument("--conf", type=float, default=None, help="localiser score threshold")
    p.add_argument("--iou", type=float, default=None, help="rotated NMS threshold (default: the localiser's)")
    p.add_argument(
        "--same-card-iou", type=float, default=None,
        help="drop the lower of two boxes overlapping this much that read as one card",
    )
    add_verifier_options(p)
    p.add_argument("--printcheck", default=None, help="print check ONNX (default: shipped; 'false': none)")
    add_masker_options(p)
    p.add_argument("--readable-from", type=float, default=None, help="visible share under which a card is covered")
    p.add_argument(
        "--whole-reads", type=float, default=None,
        help="whole-crop probability that keeps a covered card's name (above 1: never)",
    )
    p.add_argument("--uncertain-below", type=float, default=None)
    p.add_argument("--floor", type=float, default=None, help="suggestion floor (default: SUGGEST_FLOOR)")
    p.add_argument("--tta", action="store_true")
    p.add_argument("--zoom-out", type=float, default=None, help="second localiser pass on close-ups (e.g. 2)")
    p.add_argument("--tiles", type=int, default=None, help="also localise N x N overlapping windows (e.g. 2)")
    p.add_argument("--tile-overlap", type=float, default=None, help="share of a window its neighbour covers")
    p.add_argument(
        "--compare",
        action="store_true",
        help="also run the shipped settings, interleaved photo by photo, and report both with CPU time",
    )
    p.add_argument("--imgsz", type=int, default=None, help="localiser input (with a matching --localiser)")
    p.add_argument("--limit", type=int, default=None, help="at most N photos per (layout, style)")
    p.add_argument("--layouts", nargs="+", default=None, help="only these layouts (and distractor-only)")
    p.add_argument("--json", type=Path, default=None)
    a = p.parse_args(argv)
    if not (a.set / "labels.json").exists() and not (a.set / "labels").is_dir():
        render_art(a.art, a.png, skip_done=True)
        write_testset(a.set, a.png, a.split, a.per_cell, texture_scale=a.texture_scale)
    photos = read_testset(a.set)
    if a.limit:
        seen: Counter = Counter()
        keep = []
        for ph in photos:
            seen[ph.layout, ph.style] += 1
            if seen[ph.layout, ph.style] <= a.limit:
                keep.append(ph)
        photos = keep
    if a.layouts:
        photos = [ph for ph in photos if ph.layout in (*a.layouts, NO_CARDS)]
    styles = sorted({ph.style for ph in photos}, key=[ph.style for ph in photos].index)
    layouts = [lay for lay in LAYOUTS if any(ph.layout == lay for ph in photos)]
    from vision import detection

    floor = a.floor if a.floor is not None else getattr(detection, "SUGGEST_FLOOR", 0.0)
    kw = {
        k: v
        for k, v in (
            ("conf", a.conf),
            ("iou", a.iou),
            ("readable_from", a.readable_from),
            ("same_card_iou", a.same_card_iou),
            ("whole_reads", a.whole_reads),
            ("uncertain_below", a.uncertain_below),
            ("zoom_out", a.zoom_out),
            ("tiles", a.tiles),
            ("tile_overlap", a.tile_overlap),
        )
        if v is not None
    }
    if a.calibration:
        kw["calibration"] = False if a.calibration.lower() == "false" else Path(a.calibration)
    kw |= verifier_option(a)
    kw |= masker_option(a)
    if a.printcheck:
        kw["printcheck"] = False if a.printcheck.lower() == "false" else Path(a.printcheck)
    det = Detector(localiser=a.localiser, classifier=a.classifier, tta=a.tta, **kw)
    dets = [det]
    if a.compare:
        dets.append(Detector())
    t0 = time.time()
    tallies = run_interleaved(dets, photos, floor)
    res = {
        "set": str(a.set),
        "photos": len(photos),
        "models": {"localiser": str(a.localiser or "shipped"), "classifier": str(a.classifier or "shipped")},
        "settings": {
            k: (v.keep_at if k == "verifier" and v else str(v) if isinstance(v, Path) else v)
            for k, v in kw.items()
            if k != "calibration"
        },
        "uncertain_below": det.uncertain_below,
        "floor": floor,
        **summarise(tallies[0], layouts, styles),
    }
    res["seconds"] = round(time.time() - t0, 1)
    print_report(res, layouts, styles)
    if a.compare:
        base = {"settings": "shipped", **summarise(tallies[1], layouts, styles)}
        print("--- shipped settings, same run:")
        print_report(res | base, layouts, styles)
        ratio = float(np.median(np.array(tallies[0]["cpu_s"]) / np.array(tallies[1]["cpu_s"])))
        res["shipped"] = base
        res["cpu_ratio_median"] = round(ratio, 2)
        print(
            f"CPU per photo, median: these settings {res['cpu_ms_median']} ms, shipped {base['cpu_ms_median']} ms; "
            f"median per-photo ratio {ratio:.2f}; load average {os.getloadavg()}"
        )
    if a.loso:
        res["loso"] = {}
        for st in styles:
            d = a.loso / st
            if not (d / "classifier.onnx").exists():
                print(f"loso: no models for {st} in {d}; skipped")
                continue
            loc = d / "localiser.onnx" if (d / "localiser.onnx").exists() else a.localiser
            cal = d / "calibration.json" if (d / "calibration.json").exists() else None
            kw2 = dict(kw) | ({"calibration": cal} if cal else {})
            det_s = Detector(localiser=loc, classifier=d / "classifier.onnx", tta=a.tta, **kw2)
            r = run_set(det_s, [ph for ph in photos if ph.style == st], floor)
            retrained = (d / "localiser.onnx").exists()
            res["loso"][st] = {
                "localiser": "retrained without it" if retrained else str(a.localiser or "shipped"),
                **{lay: r["ev"].card_level(lay, min_visible=READABLE_FROM)["f1"] for lay in layouts},
                "all": r["ev"].card_level(min_visible=READABLE_FROM)["f1"],
            }
        print(f"leave-one-style-out identity F1 (whole detector; cards showing >= {READABLE_FROM:.0%}):")
        print(f"{'style':16} " + " ".join(f"{lay:>8}" for lay in (*layouts, "all")))
        for st, v in res["loso"].items():
            print(f"{st:16} " + " ".join(f"{v[lay]:8.3f}" for lay in (*layouts, "all")))
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(res, indent=1))
    return 0


def print_cells(res: dict, layouts, styles, cells: str, overall: str, title: str) -> None:
    """One table of identity F1 per (layout, style): ``res[cells]`` by cell and each style's
    ``res["styles"][style][overall]`` in the last column."""
    print(title)
    print(f"{'style':16} " + " ".join(f"{lay:>8}" for lay in (*layouts, "all")))
    for st in styles:
        row = [res[cells][f"{lay}/{st}"] for lay in layouts] + [res["styles"][st][overall]["f1"]]
        print(f"{st:16} " + " ".join(f"{v:8.3f}" for v in row))


def print_report(res: dict, layouts, styles) -> None:
    print(f"{res['photos']} photos, {res['seconds']}s; uncertain below {res['uncertain_below']}, floor {res['floor']}")
    rd = res["readable_from"]
    print(f"cards showing at least {rd:.0%} of their face (predictions of less-covered cards neither right nor wrong):")
    print(
        f"{'layout':8} {'cards':>5} {'P':>6} {'R':>6} {'F1':>6} | certain: {'P':>6} {'R':>6} "
        f"| under {rd:.0%}: covered/right/wrong/unseen | false covered | shown (>= floor): {'P':>6} {'R':>6} {'F1':>6}"
    )
    for k, v in res["layouts"].items():
        c, s, u, w = v["readable"], v["readable_certain"], v["under_readable"], v["readable_shown"]
        print(
            f"{k:8} {c['tp'] + c['fn']:5d} {c['precision']:6.3f} {c['recall']:6.3f} {c['f1']:6.3f} |          "
            f"{s['precision']:6.3f} {s['recall']:6.3f} | {u['cards']:4d}: {u['covered']}/{u['named_right']}/"
            f"{u['named_wrong']}/{u['unseen']} | {u['false_covered']} |                   "
            f"{w['precision']:6.3f} {w['recall']:6.3f} {w['f1']:6.3f}"
        )
    print_cells(res, layouts, styles, "readable_cells", "readable", "readable identity F1 per (layout, style):")
    print("every card:")
    print(f"{'layout':8} {'cards':>5} {'P':>6} {'R':>6} {'F1':>6} | certain: {'P':>6} {'R':>6} {'F1':>6}")
    for k, v in res["layouts"].items():
        c, s = v["identity"], v["certain_only"]
        n = c["tp"] + c["fn"]
        print(
            f"{k:8} {n:5d} {c['precision']:6.3f} {c['recall']:6.3f} {c['f1']:6.3f} |          "
            f"{s['precision']:6.3f} {s['recall']:6.3f} {s['f1']:6.3f}"
        )
    print_cells(res, layouts, styles, "cells", "identity", "identity F1 per (layout, style):")
    print("where the cards were lost (share of cards), and boxes matching no card:")
    for lay, e in res["errors"].items():
        print(
            f"  {lay:8} found {e['found']:.3f}  localiser miss {e['localiser_miss']:.3f}  "
            f"classifier misname {e['classifier_misname']:.3f}  pile rules {e['postprocess_lost']:.3f}  "
            f"false boxes {e['false_boxes']}"
        )
    n = res["distractor_only"]
    print(
        f"distractor-only photos: {n['photos']}, certain detections {n['certain']}, "
        f"shown (>= floor) {n['shown']}, any {n['any']}"
    )


if __name__ == "__main__":
    from vision.errors import exit_on_model_error

    exit_on_model_error(main)
