#!/usr/bin/env python3
"""Train the print check (vision.printcheck) and export it as ONNX.

The five print check sets (vision.train.testset.PRINTCHECK_SPLITS: seeds 63-67, training
backgrounds, tables crowded with card boxes printed with card art) are made under ``--sets``
when missing; the boxes the shipped detector keeps on them (its verifier keeping at
vision.train.printcheck.KEEP_AT) are cut out as context crops and cached in ``--out``; then
EfficientNet-Lite0 is fine-tuned above its frozen ImageNet stem (vision.train.printcheck) and
written as ``--out``/printcheck.onnx.  Re-fit the calibration with it afterwards:
``scripts/calibrate_detector.py --printcheck FILE``.

Example (about 35 minutes on 2 cores from nothing, 17 with the sets made):
    nice python scripts/train_printcheck.py --out runs/printcheck
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from vision.detector import Detector, load_verifier
from vision.synth.render import DEFAULT_ART_DIR, render_art
from vision.train.printcheck import KEEP_AT, box_table, export_printcheck_onnx, train_printcheck
from vision.train.testset import PRINTCHECK_SPLITS, read_testset, write_testset


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sets", type=Path, default=Path("data/heldout"), help="folder of the print check sets")
    p.add_argument("--art", type=Path, default=DEFAULT_ART_DIR)
    p.add_argument("--png", type=Path, default=Path("data/art_png"))
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--out", type=Path, default=Path("runs/printcheck"))
    a = p.parse_args(argv)
    import torch

    torch.set_num_threads(a.threads)
    a.out.mkdir(parents=True, exist_ok=True)
    verifier = dataclasses.replace(load_verifier(None), keep_at=KEEP_AT)
    det = Detector(verifier=verifier, calibration=False, printcheck=False, uncertain_below=0.0, threads=a.threads)
    tables = []
    t0 = time.time()
    for name in PRINTCHECK_SPLITS:
        folder = a.sets / name
        if not (folder / "labels.json").exists():
            render_art(a.art, a.png, skip_done=True)
            write_testset(folder, a.png, name)
        cache = a.out / f"{name}_boxes.npz"
        if not cache.exists():
            np.savez(cache, **box_table(det, read_testset(folder)))
        tables.append(np.load(cache))
        print(f"{name}: {len(tables[-1]['on_card'])} boxes, {int((~tables[-1]['on_card']).sum())} off the cards")
    x = np.concatenate([t["crops"] for t in tables])
    y = np.concatenate([t["on_card"] for t in tables])
    print(f"data: {time.time() - t0:.0f} s; load {os.getloadavg()}")
    summary = train_printcheck(x, y, a.out / "printcheck.pt", epochs=a.epochs, lr=a.lr)
    onnx = export_printcheck_onnx(a.out / "printcheck.pt", a.out / "printcheck.onnx")
    print(f"trained {summary}; load {os.getloadavg()}")
    print(f"wrote {onnx}")
    return 0


if __name__ == "__main__":
    from vision.errors import exit_on_model_error

    exit_on_model_error(main)
