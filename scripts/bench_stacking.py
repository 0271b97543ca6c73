#!/usr/bin/env python3
"""Benchmark ``vision.visibility.stacking`` against the pair loop it replaced, in one run.

For each K in --cards, K cards are painted in piles (a dark rim, a face colour, the last
card on top) on a noisy table of --size pixels (default 1280x960, the detector's working
size for a 12 MP photo).  The old code (``tests/vision/stacking_reference.py``) and the
current one are timed alternately on the same image and boxes, --runs calls each after one
warm-up call.  Prints and returns the median wall-clock and CPU ms of each, their ratio,
the number of overlapping pairs, whether the two gave the same ``above``, and the 1-minute
load average (the figures are wall-clock on a shared machine).

Example: nice -n 15 python scripts/bench_stacking.py --runs 15 --json runs/bench_stacking.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "vision"))  # stacking_reference: the old pair loop


def make_layout(k: int, size: tuple[int, int] = (1280, 960), seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A ``(h, w, 3)`` uint8 RGB image (``size`` is ``(w, h)``) of ``k`` cards, about 150 x
    240 px, in ``max(1, k // 5)`` piles, and their boxes ``(k, 5)`` in its pixels."""
    import cv2

    from vision.geometry import obb_corners

    rng = np.random.default_rng(seed)
    w, h = size
    img = rng.integers(90, 140, (h, w, 3), dtype=np.uint8)
    piles = rng.uniform((200, 200), (w - 200, h - 200), (max(1, k // 5), 2))
    obbs = []
    for i in range(k):
        cx, cy = piles[i % len(piles)] + rng.normal(0, 60, 2)
        cw = rng.uniform(140, 160)
        o = (cx, cy, cw, cw * 1.6, rng.uniform(0, np.pi))
        obbs.append(o)
        cv2.fillPoly(img, [obb_corners(np.array([o]))[0].astype(np.int32)], (20, 20, 20))
        face = obb_corners(np.array([[cx, cy, cw * 0.9, cw * 1.6 * 0.93, o[4]]]))[0].astype(np.int32)
        cv2.fillPoly(img, [face], tuple(int(v) for v in rng.integers(0, 256, 3)))
    return img, np.array(obbs)


def compare(k: int, runs: int = 15, size: tuple[int, int] = (1280, 960), seed: int = 0) -> dict:
    """Time the old and the current ``stacking`` alternately on one layout of ``k`` cards."""
    from stacking_reference import pair_scores_reference, stacking_reference

    from vision.visibility import stacking

    img, obbs = make_layout(k, size, seed)
    fns = {"before": stacking_reference, "after": stacking}
    wall: dict[str, list[float]] = {n: [] for n in fns}
    cpu: dict[str, list[float]] = {n: [] for n in fns}
    out = {}
    for i in range(runs + 1):
        for name, fn in fns.items():
            t, c = time.perf_counter(), time.process_time()
            out[name] = fn(img, obbs)
            if i:
                wall[name].append((time.perf_counter() - t) * 1000)
                cpu[name].append((time.process_time() - c) * 1000)
    med = {n: statistics.median(v) for n, v in wall.items()}
    return {
        "cards": k,
        "pairs_compared": len(pair_scores_reference(img, obbs)),
        "median_ms": med,
        "cpu_ms_median": {n: statistics.median(v) for n, v in cpu.items()},
        "speed_up": med["before"] / med["after"],
        "same_above": bool(np.array_equal(out["before"], out["after"])),
        "load_average_1min": os.getloadavg()[0],
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cards", type=int, nargs="+", default=[6, 15, 30])
    p.add_argument("--runs", type=int, default=15)
    p.add_argument("--size", type=int, nargs=2, default=[1280, 960], metavar=("W", "H"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", type=Path, default=None)
    a = p.parse_args(argv)
    results = []
    for k in a.cards:
        r = compare(k, a.runs, tuple(a.size), a.seed)
        results.append(r)
        m, c = r["median_ms"], r["cpu_ms_median"]
        print(
            f"K={k:3} ({r['pairs_compared']:3} pairs)  before {m['before']:7.1f} ms (cpu {c['before']:7.1f})  "
            f"after {m['after']:6.1f} ms (cpu {c['after']:6.1f})  {r['speed_up']:5.1f}x  "
            f"same {r['same_above']}  load {r['load_average_1min']:.2f}"
        )
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps({"size": a.size, "runs": a.runs, "results": results}, indent=1))
    return 0 if all(r["same_above"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
