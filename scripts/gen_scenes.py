#!/usr/bin/env python3
"""Write a one-class YOLO-OBB dataset of synthetic scenes (thin CLI over vision.train.datasets).

Example: python scripts/gen_scenes.py --out data/det --train 8000 --val 400 --seed 1
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.synth.backgrounds import TEST_BACKGROUNDS, TRAIN_BACKGROUNDS
from vision.synth.render import DEFAULT_ART_DIR, render_art
from vision.train.datasets import gen_detection_dataset


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--art", type=Path, default=DEFAULT_ART_DIR, help="art folder (SVG or raster sets)")
    p.add_argument(
        "--png",
        type=Path,
        default=Path("data/art_png"),
        help="rendered PNG folder (made from --art when missing)",
    )
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--train", type=int, default=2000)
    p.add_argument("--val", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--size", type=int, default=640, help="long side of each scene, px")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument(
        "--styles", nargs="+", default=None, help="art sets (default: every set under --art)"
    )
    p.add_argument(
        "--test-backgrounds",
        action="store_true",
        help="use only the backgrounds never seen in training",
    )
    p.add_argument(
        "--texture-scale",
        nargs=2,
        type=float,
        default=None,
        metavar=("LO", "HI"),
        help="draw background textures LO-HI times finer (recommended: 1 4)",
    )
    a = p.parse_args(argv)
    render_art(a.art, a.png, skip_done=True)
    t = time.time()
    bgs = TEST_BACKGROUNDS if a.test_backgrounds else TRAIN_BACKGROUNDS
    y = gen_detection_dataset(
        a.out,
        a.png,
        a.train,
        a.val,
        a.seed,
        a.size,
        a.workers,
        tuple(a.styles) if a.styles else None,
        bgs,
        a.texture_scale,
    )
    print(f"wrote {y} in {time.time() - t:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
