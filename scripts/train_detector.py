#!/usr/bin/env python3
"""Train both stages: the one-class OBB localiser (ultralytics) and the crop classifier.

Stages (run one or ``all``); every stage resumes from its checkpoints in --out:
  data        scenes for the localiser (--out/det) and classifier crops (--out/crops.npz)
  localiser   YOLO11n-OBB from scratch, single class
  classifier  small CNN on upright crops (49 classes: 48 cards and "not a card");
              --cls-mode top fine-tunes only its last block from --cls-init (CPU-sized);
              --cls-mode effnet fine-tunes ImageNet's EfficientNet-Lite0 above its frozen stem
  export      ONNX of both into --models (only the classifier with --skip-localiser,
              only the localiser with --skip-classifier)

On this CPU start it with scripts/train_cpu.sh (background, nice, 2 threads, resumable).

Records seed, image size, epochs, time and hardware in --out/train_log.json.
Runs on CPU (slow; interrupt and rerun to resume) or on a GPU (--device 0).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from vision.synth.render import DEFAULT_ART_DIR, render_art
from vision.train.classifier import export_classifier_onnx, train_classifier, train_classifier_top
from vision.train.datasets import gen_crops, gen_detection_dataset, load_crops, write_detector_crops
from vision.train.effnet import train_effnet_top
from vision.train.localiser import export_localiser_onnx, hardware, train_localiser


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("stage", choices=["data", "localiser", "classifier", "export", "all"])
    p.add_argument("--art", type=Path, default=DEFAULT_ART_DIR)
    p.add_argument("--png", type=Path, default=Path("data/art_png"))
    p.add_argument("--out", type=Path, default=Path("runs/train"))
    p.add_argument("--models", type=Path, default=Path("models"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--styles", nargs="+", default=None, help="art sets (default: every set under --art)")
    p.add_argument("--det-train", type=int, default=2000)
    p.add_argument("--det-val", type=int, default=200)
    p.add_argument("--scene-size", type=int, default=640)
    p.add_argument("--crop-scenes", type=int, default=2000)
    p.add_argument("--imgsz", type=int, default=512)
    p.add_argument("--loc-epochs", type=int, default=30)
    p.add_argument("--loc-batch", type=int, default=16)
    p.add_argument("--loc-hours", type=float, default=None, help="ultralytics time budget")
    p.add_argument("--cls-epochs", type=int, default=20)
    p.add_argument("--cls-batch", type=int, default=256)
    p.add_argument("--cls-seconds", type=float, default=None)
    p.add_argument(
        "--leave-out",
        nargs="+",
        default=None,
        help="classifier stage: train without these art styles (one style, or a design family such as "
        "pysol-hanafuda pysol-hwato), validate on them; the model goes to --out/loso/<style>/ for each",
    )
    p.add_argument(
        "--cls-mode",
        choices=["full", "top", "effnet"],
        default="full",
        help="full: train every layer; top: only the last block and head, from --cls-init; "
        "effnet: EfficientNet-Lite0 from ImageNet, above its frozen stem (--cls-seconds, --cls-views)",
    )
    p.add_argument("--cls-views", type=int, default=2, help="effnet: cached augmented views per crop")
    p.add_argument("--cls-lr", type=float, default=1.5e-3, help="effnet: peak learning rate of the one-cycle schedule")
    p.add_argument(
        "--crops",
        type=Path,
        nargs="+",
        default=None,
        help="crops file(s) (default: --out/crops.npz); the classifier stage trains on all of them",
    )
    p.add_argument(
        "--feature-cache",
        type=Path,
        nargs="+",
        default=None,
        help="effnet: stem feature caches, one per --crops file (the last may be missing: it is written)",
    )
    p.add_argument(
        "--detector-crops",
        type=int,
        default=0,
        help="data: also cut classifier crops from this many new scenes with the detector's own "
        "boxes and masks (--out/detector_crops.npz; see vision.train.datasets.gen_detector_crops)",
    )
    p.add_argument(
        "--distractor-crops",
        type=int,
        default=0,
        help="data: also the detector's boxes on this many new distractor-only scenes with app screenshots and "
        "patterned cloths, every one 'not a card' (--out/distractor_crops.npz)",
    )
    p.add_argument(
        "--detector-models",
        type=Path,
        default=None,
        help="data: the localiser.onnx and classifier.onnx that cut --detector-crops (default: shipped)",
    )
    p.add_argument("--skip-localiser", action="store_true", help="export: classifier only")
    p.add_argument("--skip-classifier", action="store_true", help="export: localiser only")
    p.add_argument(
        "--boxes",
        choices=["visible", "whole"],
        default="visible",
        help="localiser labels: each card's visible region, or its whole face (docs/VISION.md)",
    )
    p.add_argument(
        "--crops-per-card",
        type=int,
        default=0,
        help="data: also cut this many masked whole-card classifier crops per card from the "
        "localiser's train scenes (det/crops.npz)",
    )
    p.add_argument("--freeze", type=int, default=None, help="localiser: keep the first N layers (10: backbone)")
    p.add_argument("--warmup", type=float, default=3.0, help="localiser: warm-up epochs")
    p.add_argument("--close-mosaic", type=int, default=None, help="localiser: last N epochs without mosaic")
    p.add_argument("--lr0", type=float, default=0.002, help="localiser: initial learning rate")
    p.add_argument(
        "--optimizer",
        default="AdamW",
        choices=("AdamW", "SGD", "auto"),
        help="localiser: optimizer ('auto' is ultralytics' choice, which ignores --lr0)",
    )
    p.add_argument("--threads", type=int, default=2, help="torch threads on CPU")
    p.add_argument("--device", default="cpu", help="cpu or a CUDA index such as 0")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--no-resume", action="store_true")
    p.add_argument(
        "--texture-scale",
        nargs=2,
        type=float,
        default=None,
        metavar=("LO", "HI"),
        help="localiser scenes: background textures LO-HI times finer (try 1 4)",
    )
    p.add_argument(
        "--layout-weights",
        nargs=6,
        type=float,
        default=None,
        metavar=("SPREAD", "ROWS", "FAN", "HEAP", "CLOSEUP", "NONE"),
        help="localiser scenes: how often each layout is drawn (default: vision.synth.layouts.LAYOUT_WEIGHTS)",
    )
    p.add_argument(
        "--loc-init",
        type=Path,
        default=None,
        help="start the localiser from these weights (e.g. models/localiser.pt)",
    )
    p.add_argument(
        "--cls-init",
        type=Path,
        default=None,
        help="start the classifier from this checkpoint (e.g. models/classifier.pt)",
    )
    a = p.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    log_path = a.out / "train_log.json"
    entry = {
        "stage": a.stage,
        "loadavg_start": [round(v, 2) for v in os.getloadavg()],
        "hardware": hardware(),
        "args": {k: str(v) for k, v in vars(a).items()},
    }
    t_all = time.time()
    styles = tuple(a.styles) if a.styles else None
    if a.stage in ("data", "all"):
        render_art(a.art, a.png, skip_done=True)
        t = time.time()
        if not (a.out / "det" / "data.yaml").exists():
            gen_detection_dataset(
                a.out / "det",
                a.png,
                a.det_train,
                a.det_val,
                a.seed,
                a.scene_size,
                a.workers,
                styles,
                texture_scale=a.texture_scale,
                layout_weights=a.layout_weights,
                boxes=a.boxes,
                crops_per_card=a.crops_per_card,
            )
        crops = a.crops[0] if a.crops else a.out / "crops.npz"
        if not crops.exists() and a.crop_scenes > 0:
            x, y, s = gen_crops(a.png, a.crop_scenes, a.seed, a.workers, styles=styles)
            np.savez(crops, x=x, y=y, s=s)
        if a.detector_crops > 0:
            entry["detector_crops"] = write_detector_crops(
                a.out / "detector_crops.npz", a.png, a.detector_crops, a.seed, a.workers, styles, a.detector_models
            )
        if a.distractor_crops > 0:
            entry["distractor_crops"] = write_detector_crops(
                a.out / "distractor_crops.npz",
                a.png,
                a.distractor_crops,
                a.seed,
                a.workers,
                styles,
                a.detector_models,
                distractors=True,
            )
        entry["data_s"] = round(time.time() - t, 1)
        print(f"data ready in {entry['data_s']}s", flush=True)
    cuda = a.device != "cpu"
    if a.stage in ("classifier", "all"):
        d = load_crops(a.crops or [a.out / "crops.npz"])
        dev = f"cuda:{a.device}" if cuda else "cpu"
        hold = np.isin(d["s"], a.leave_out) if a.leave_out else None
        tag = f"classifier_wo_{'+'.join(a.leave_out)}" if a.leave_out else "classifier"
        if a.cls_mode == "effnet":
            entry[tag] = train_effnet_top(
                d["x"],
                d["y"],
                a.out,
                a.cls_epochs,
                min(a.cls_batch, 128),
                a.cls_views,
                lr=a.cls_lr,
                holdout=hold,
                seed=a.seed,
                tag=tag,
                time_limit_s=a.cls_seconds,
                init=a.cls_init,
                feature_cache=a.feature_cache,
            )
        elif a.cls_mode == "top":
            if not a.cls_init:
                p.error("--cls-mode top needs --cls-init")
            entry[tag] = train_classifier_top(
                d["x"],
                d["y"],
                a.out,
                a.cls_init,
                a.cls_epochs,
                a.cls_batch,
                hold,
                seed=a.seed,
                tag=tag,
                device=dev,
                feature_cache=a.out / "top_features.pt",
            )
        else:
            entry[tag] = train_classifier(
                d["x"],
                d["y"],
                a.out,
                a.cls_epochs,
                a.cls_batch,
                dev,
                a.cls_seconds,
                resume=not a.no_resume,
                seed=a.seed,
                holdout=hold,
                tag=tag,
                init=a.cls_init,
            )
        for style in a.leave_out or ():  # ready for eval_detector.py --loso <out>/loso
            dest = a.out / "loso" / style
            dest.mkdir(parents=True, exist_ok=True)
            export_classifier_onnx(a.out / f"{tag}.pt", dest / "classifier.onnx")
        print(tag, entry[tag], flush=True)
    if a.stage in ("localiser", "all") and not a.skip_localiser:
        t = time.time()
        train_localiser(
            a.out / "det" / "data.yaml",
            a.out,
            a.imgsz,
            a.loc_epochs,
            a.loc_batch,
            a.device,
            a.workers,
            a.loc_hours,
            resume=not a.no_resume,
            init=a.loc_init,
            freeze=a.freeze,
            warmup_epochs=a.warmup,
            close_mosaic=a.close_mosaic,
            threads=a.threads,
            lr0=a.lr0,
            optimizer=a.optimizer,
        )
        entry["localiser_s"] = round(time.time() - t, 1)
    if a.stage in ("export", "all"):
        a.models.mkdir(parents=True, exist_ok=True)
        if not a.skip_localiser:
            best = a.out / "localiser" / "weights" / "best.pt"
            shutil.copy(best, a.models / "localiser.pt")
            onnx = export_localiser_onnx(a.models / "localiser.pt", a.imgsz)
            # what the boxes hold, read by vision.detector.localiser_meta beside either file
            # NMS 0.5 for either kind: chosen on the calib split for whole-card boxes too (docs/VISION.md)
            meta = json.dumps({"boxes": a.boxes, "iou": 0.5}) + "\n"
            for f in (a.models / "localiser.json", onnx.with_suffix(".json")):
                f.write_text(meta, encoding="utf-8")
            print("exported", onnx, flush=True)
        if not a.skip_classifier:
            export_classifier_onnx(a.out / "classifier.pt", a.models / "classifier.onnx")
            shutil.copy(a.out / "classifier.pt", a.models / "classifier.pt")
    entry["seconds"] = round(time.time() - t_all, 1)
    entry["loadavg_end"] = [round(v, 2) for v in os.getloadavg()]
    log = json.loads(log_path.read_text()) if log_path.exists() else {"runs": []}
    log["runs"].append(entry)
    log_path.write_text(json.dumps(log, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
