#!/usr/bin/env python3
"""Write the int8 localiser (vision.train.quantize): static quantisation of an ONNX localiser,
activation ranges from training scenes.

Example: python scripts/quantize_localiser.py vision/models/localiser.onnx runs/q/localiser.onnx \
             --scenes runs/whole/det/images/val --n 60
Then measure it: python scripts/eval_detector.py --localiser runs/q/localiser.onnx --compare
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.train.quantize import quantize_localiser


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("src", type=Path, help="fp32 localiser ONNX")
    ap.add_argument("dst", type=Path, help="int8 localiser ONNX to write")
    ap.add_argument("--scenes", type=Path, required=True,
                    help="folder of training scene images (never held-out photos)")
    ap.add_argument("--n", type=int, default=60, help="scenes to measure activation ranges on (evenly spaced)")
    ap.add_argument("--imgsz", type=int, default=512)
    a = ap.parse_args(argv)
    files = sorted(p for p in a.scenes.iterdir() if p.suffix.lower() in {".jpg", ".jpeg", ".png"})
    if not files:
        ap.error(f"no images in {a.scenes}")
    step = max(1, len(files) // a.n)
    out = quantize_localiser(a.src, a.dst, files[::step][: a.n], a.imgsz)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB) from {min(a.n, len(files[::step]))} scenes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
