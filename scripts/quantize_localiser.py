#!/usr/bin/env python3
"""Quantise the localiser to 8 bits (vision.train.quantize), calibrated on generated scenes.

Example (the shipped localiser; then compare it beside the float one on the test split):
    python scripts/quantize_localiser.py --out runs/int8/localiser.onnx
    python scripts/eval_detector.py --localiser runs/int8/localiser.onnx --compare

Needs the train extra (onnx); the result runs with onnxruntime alone.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.detector import find_model
from vision.synth.render import DEFAULT_ART_DIR, load_art, render_art
from vision.train.quantize import calibration_scenes, quantize_localiser


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--src", type=Path, default=None, help="float localiser ONNX (default: shipped)")
    p.add_argument("--out", type=Path, required=True, help="8-bit localiser ONNX to write")
    p.add_argument("--photos", type=int, default=96, help="calibration scenes (every layout in turn)")
    p.add_argument("--method", choices=("minmax", "percentile"), default="minmax")
    p.add_argument("--blur", type=float, default=1.5, help="the detector's pre_blur (pixels)")
    p.add_argument("--art", type=Path, default=DEFAULT_ART_DIR)
    p.add_argument("--png", type=Path, default=Path("data/art_png"))
    a = p.parse_args(argv)
    if a.photos < 1:
        p.error("--photos: at least 1")
    render_art(a.art, a.png, skip_done=True)
    t0 = time.perf_counter()
    images = calibration_scenes(load_art(a.png), a.photos)
    t1 = time.perf_counter()
    quantize_localiser(a.src or find_model("localiser.onnx"), a.out, images, blur=a.blur, method=a.method)
    print(f"{a.out}: {a.photos} calibration scenes in {t1 - t0:.0f} s, quantised in {time.perf_counter() - t1:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
