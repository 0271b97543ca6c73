#!/usr/bin/env python3
"""Quantise the localiser and/or the classifier to 8 bits (vision.train.quantize), calibrated on
generated scenes of the training backgrounds.

Example (from the float weights: the localiser exported from models/localiser.pt, as the shipped
8-bit one was, and the shipped classifier; then compare them on the test split):
    python scripts/quantize_models.py --localiser-out runs/int8/localiser.onnx \\
        --classifier-out runs/int8/classifier.onnx
    python scripts/eval_detector.py --localiser runs/int8/localiser.onnx \\
        --classifier runs/int8/classifier.onnx --compare

The classifier's calibration crops are those the shipped (float) detector cuts on the scenes.
Needs the train extra (onnx); the results run with onnxruntime alone.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.detector import Detector, find_model
from vision.synth.render import DEFAULT_ART_DIR, load_art, render_art
from vision.train.quantize import (
    calibration_scenes,
    detector_crops,
    float_localiser,
    quantize_classifier,
    quantize_localiser,
)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--localiser", type=Path, default=None, help="float localiser ONNX (default: exported from models/localiser.pt)"
    )
    p.add_argument("--classifier", type=Path, default=None, help="float classifier ONNX (default: shipped)")
    p.add_argument("--localiser-out", type=Path, default=None, help="8-bit localiser ONNX to write")
    p.add_argument("--classifier-out", type=Path, default=None, help="8-bit classifier ONNX to write")
    p.add_argument("--photos", type=int, default=96, help="calibration scenes (every layout in turn)")
    p.add_argument("--method", choices=("minmax", "percentile"), default="minmax")
    p.add_argument("--blur", type=float, default=1.5, help="the detector's pre_blur (pixels)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--art", type=Path, default=DEFAULT_ART_DIR)
    p.add_argument("--png", type=Path, default=Path("data/art_png"))
    a = p.parse_args(argv)
    if a.photos < 1:
        p.error("--photos: at least 1")
    if not (a.localiser_out or a.classifier_out):
        p.error("give --localiser-out, --classifier-out or both")
    render_art(a.art, a.png, skip_done=True)
    t0 = time.perf_counter()
    images = calibration_scenes(load_art(a.png), a.photos)
    print(f"{a.photos} calibration scenes in {time.perf_counter() - t0:.0f} s", flush=True)
    with tempfile.TemporaryDirectory(prefix="float_localiser_") as tmp:  # the exported float graph, removed after
        loc = a.localiser or float_localiser(find_model("localiser.pt"), Path(tmp))
        if a.localiser_out:
            t0 = time.perf_counter()
            quantize_localiser(loc, a.localiser_out, images, blur=a.blur, method=a.method)
            print(f"{a.localiser_out}: quantised in {time.perf_counter() - t0:.0f} s", flush=True)
        if a.classifier_out:
            t0 = time.perf_counter()
            det = Detector(localiser=loc, classifier=a.classifier, threads=a.threads, pre_blur=a.blur)
            crops = detector_crops(det, images)
            quantize_classifier(a.classifier or find_model("classifier.onnx"), a.classifier_out, crops, method=a.method)
            print(f"{a.classifier_out}: {len(crops)} crops, quantised in {time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
