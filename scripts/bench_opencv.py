#!/usr/bin/env python3
"""OpenCV against the Pillow / NumPy path it replaced, side by side in one interleaved run.

Three parts, all printed and written to --json:

1. ``ops``: each image step timed round-robin in this process, the reference
   (``tests/vision/vision_reference.py``: the code as it was before OpenCV) and OpenCV on the same
   input: the 12 MP JPEG decode to the working size, the letterbox to 512, the upright
   crops of the photo's cards, and rotated NMS on the localiser's real candidates.
   Medians of wall-clock and CPU ms, and the ratio reference / OpenCV (> 1: OpenCV faster).
2. ``end_to_end``: ``Detector.detect`` on the 12 MP JPEG from disk in two long-lived
   subprocesses, one running the tree of ``--base`` (default ``main``, exported with
   ``git archive``) and one this tree, called alternately (before, after, before, ...).
   Medians, ratio, peak RSS of each, and whether they found the same cards.
3. ``nms_eval`` (``--eval N``): N held-out scenes per layout (eval_detector.py's test set:
   seed 9, backgrounds never seen in training).  Each scene is localised once, then both
   NMS kinds (probabilistic IoU as ultralytics, polygon IoU as OpenCV) run on the same
   candidates and the rest of the pipeline follows: identity F1 per layout for each, and
   how many photos kept a different set of boxes.

Example: nice -n 19 python scripts/bench_opencv.py --runs 30 --eval 30 --json runs/bench_opencv.json
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "vision"))  # vision_reference: the code OpenCV replaced


def _timed(fn) -> tuple[float, float]:
    t, c = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000


def round_robin(pairs: dict[str, dict[str, object]], runs: int, warmup: int = 2) -> dict:
    """Time every variant of every op in turn, ``warmup + runs`` rounds; medians in ms."""
    wall = {op: {k: [] for k in v} for op, v in pairs.items()}
    cpu = {op: {k: [] for k in v} for op, v in pairs.items()}
    for i in range(warmup + runs):
        for op, variants in pairs.items():
            for k, fn in variants.items():
                w, c = _timed(fn)
                if i >= warmup:
                    wall[op][k].append(w)
                    cpu[op][k].append(c)
    out = {}
    for op, variants in pairs.items():
        ref = next(iter(variants))
        out[op] = {
            k: {"wall_ms": statistics.median(wall[op][k]), "cpu_ms": statistics.median(cpu[op][k])}
            for k in variants
        }
        for k in list(variants)[1:]:
            out[op][k]["ratio_wall"] = out[op][ref]["wall_ms"] / out[op][k]["wall_ms"]
            out[op][k]["ratio_cpu"] = out[op][ref]["cpu_ms"] / max(out[op][k]["cpu_ms"], 1e-6)
    return out


def candidates(det, array):
    """The localiser's candidates above its score threshold, before NMS, in model pixels."""
    import numpy as np

    from vision.postprocess import letterbox

    x, _, _ = letterbox(array, det.imgsz, det.pre_blur)
    p = det._loc(x)[0].T
    p = p[p[:, 4] >= det.conf]
    return p[:, [0, 1, 2, 3, 5]].astype(np.float64), p[:, 4].astype(np.float64)


def ops(photo: Path, runs: int, scenes: list) -> dict:
    """Part 1: the reference and OpenCV on the same inputs, round-robin."""
    import cv2
    import numpy as np
    from PIL import Image
    from vision_reference import crop_quad_pil, decode_jpeg_pil, letterbox_pil, nms_probiou

    from vision.detector import Detector
    from vision.geometry import CROP_SIZE, _quad_to_crop, crop_obbs, nms_obb, upright_quad
    from vision.imageio import load_image
    from vision.postprocess import letterbox

    data = photo.read_bytes()
    det = Detector()
    work = load_image(data, det.max_side).array
    pil = Image.fromarray(work)
    obbs, _ = det.localise(work)
    cands = [candidates(det, work)] + [candidates(det, load_image(s, det.max_side).array) for s in scenes]

    def crops_pil():
        return np.stack([np.asarray(crop_quad_pil(pil, o, CROP_SIZE)) for o in obbs])

    def crops_persp():
        out = np.empty((len(obbs), CROP_SIZE[1], CROP_SIZE[0], 3), np.uint8)
        for i, o in enumerate(obbs):
            m = np.vstack([_quad_to_crop(upright_quad(o), CROP_SIZE), [0, 0, 1]])
            cv2.warpPerspective(work, m, CROP_SIZE, dst=out[i], flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
        return out

    def nms_all(fn):
        return lambda: [fn(o, s, det.iou) for o, s in cands]

    pairs = {
        "decode 12 MP JPEG to working size": {
            "Pillow draft": lambda: decode_jpeg_pil(data, det.max_side),
            "cv2.imdecode IMREAD_REDUCED": lambda: load_image(data, det.max_side),
        },
        "letterbox to 512 + 1.5 px blur": {
            "Pillow resize + GaussianBlur": lambda: letterbox_pil(pil, det.imgsz, det.pre_blur),
            "cv2.resize INTER_AREA + GaussianBlur": lambda: letterbox(work, det.imgsz, det.pre_blur),
        },
        f"upright crops ({len(obbs)} cards)": {
            "Pillow QUAD transform": crops_pil,
            "cv2.warpAffine": lambda: crop_obbs(work, obbs),
            "cv2.warpPerspective": crops_persp,
        },
        f"rotated NMS ({len(cands)} photos' candidates)": {
            "NumPy probiou": nms_all(nms_probiou),
            "cv2.dnn.NMSBoxesRotated": nms_all(nms_obb),
        },
    }
    res = round_robin(pairs, runs)
    res["_inputs"] = {
        "working_size": [int(work.shape[1]), int(work.shape[0])],
        "cards": len(obbs),
        "nms_candidates_median": float(np.median([len(c[1]) for c in cands])),
        "nms_candidates_max": int(max(len(c[1]) for c in cands)),
    }
    return res


# ---- part 2: end to end, base tree against this tree -----------------------------------


CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from vision.detector import Detector
det = Detector()
photo = sys.argv[2]
dets = det.detect(photo)
print(json.dumps({"cards": sorted(d.card for d in dets)}), flush=True)
for line in sys.stdin:
    if line.strip() != "run":
        break
    t, c = time.perf_counter(), time.process_time()
    det.detect(photo)
    print(json.dumps({"ms": (time.perf_counter() - t) * 1000, "cpu_ms": (time.process_time() - c) * 1000}), flush=True)
# VmHWM, not ru_maxrss: on Linux ru_maxrss keeps the parent's peak across fork and exec
hwm = next(int(x.split()[1]) for x in open("/proc/self/status") if x.startswith("VmHWM:"))
print(json.dumps({"peak_rss_mib": hwm / 1024}), flush=True)
"""


def export_tree(rev: str, dest: Path) -> Path:
    """``git archive rev`` of vision/ and referee/ into ``dest``; returns it."""
    blob = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev, "vision", "referee"],
        check=True, capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        tar.extractall(dest, filter="data")
    return dest


def end_to_end(photo: Path, base: str, runs: int, warmup: int) -> dict:
    """Part 2: alternate detect() calls between a process on ``base`` and one on this tree."""
    with tempfile.TemporaryDirectory() as tmp:
        trees = {f"before ({base})": export_tree(base, Path(tmp)), "after (this tree)": ROOT}
        env = dict(os.environ, PYTHONPATH="")
        procs = {
            k: subprocess.Popen([sys.executable, "-c", CHILD, str(t), str(photo)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True, env=env, cwd=t)
            for k, t in trees.items()
        }
        cards = {k: json.loads(p.stdout.readline())["cards"] for k, p in procs.items()}
        ms = {k: [] for k in procs}
        cpu = {k: [] for k in procs}
        for i in range(warmup + runs):
            for k, p in procs.items():
                p.stdin.write("run\n")
                p.stdin.flush()
                r = json.loads(p.stdout.readline())
                if i >= warmup:
                    ms[k].append(r["ms"])
                    cpu[k].append(r["cpu_ms"])
        peak = {}
        for k, p in procs.items():
            p.stdin.write("stop\n")
            p.stdin.flush()
            peak[k] = json.loads(p.stdout.readline())["peak_rss_mib"]
            p.wait(timeout=60)
    before, after = list(procs)
    out = {
        k: {"median_ms": statistics.median(ms[k]), "p90_ms": sorted(ms[k])[int(0.9 * (len(ms[k]) - 1))],
            "cpu_ms_median": statistics.median(cpu[k]), "peak_rss_mib": peak[k], "cards": cards[k]}
        for k in procs
    }
    out["ratio_before_over_after"] = out[before]["median_ms"] / out[after]["median_ms"]
    out["ratio_cpu"] = out[before]["cpu_ms_median"] / out[after]["cpu_ms_median"]
    out["same_cards"] = cards[before] == cards[after]
    return out


# ---- part 3: what the NMS kind does to detections ---------------------------------------


def held_out_scenes(png: Path, per_layout: int, size: int = 1280):
    """eval_detector.py's held-out scenes: (layout, scene) pairs."""
    from vision.synth.backgrounds import TEST_BACKGROUNDS
    from vision.synth.layouts import LAYOUTS
    from vision.synth.render import STYLES, load_art
    from vision.synth.scenes import make_scene

    art = load_art(png, tuple(STYLES))
    for li, layout in enumerate(LAYOUTS):
        for i in range(per_layout):
            seed = 9 * 1_000_000 + li * 10_000 + i
            yield layout, make_scene(seed, art, size=size, layout=layout, backgrounds=tuple(TEST_BACKGROUNDS))


def nms_eval(png: Path, per_layout: int) -> dict:
    """Part 3: identity F1 with probabilistic-IoU NMS and with OpenCV's polygon-IoU NMS."""
    import numpy as np
    from vision_reference import nms_probiou

    from vision.detector import Detector
    from vision.geometry import nms_obb, quad_bounds
    from vision.imageio import load_image
    from vision.postprocess import assign_cards, letterbox, to_detections
    from vision.train.evaluate import Evaluator

    det = Detector()
    kinds = {"probiou (ultralytics, before)": nms_probiou, "polygon IoU (cv2.dnn.NMSBoxesRotated, after)": nms_obb}
    evs = {k: Evaluator() for k in kinds}
    sure = {k: Evaluator() for k in kinds}
    changed: dict[str, int] = {}
    photos: dict[str, int] = {}
    kept: dict[str, dict[str, int]] = {k: {} for k in kinds}
    for layout, s in held_out_scenes(png, per_layout):
        li = load_image(s.image, det.max_side)
        x, r, (px, py) = letterbox(li.array, det.imgsz, det.pre_blur)
        p = det._loc(x)[0].T
        p = p[p[:, 4] >= det.conf]
        obbs_all, scores_all = p[:, [0, 1, 2, 3, 5]].astype(np.float64), p[:, 4].astype(np.float64)
        sets = []
        for k, fn in kinds.items():
            idx = fn(obbs_all, scores_all, det.iou)[:64]
            sets.append(set(idx.tolist()))
            obbs, scores = obbs_all[idx].copy(), scores_all[idx]
            obbs[:, 0] = (obbs[:, 0] - px) / r
            obbs[:, 1] = (obbs[:, 1] - py) / r
            obbs[:, 2:4] /= r
            probs = det.classify(li.array, obbs)
            obbs[:, :4] *= li.scale
            dets = to_detections(obbs, assign_cards(probs, scores), li.size, det.uncertain_below)
            gtb = quad_bounds(s.quads)
            evs[k].add(layout, s.cards, gtb, [d.card for d in dets], [d.confidence for d in dets],
                       np.array([d.box for d in dets]).reshape(-1, 4))
            ok = [d for d in dets if not d.uncertain]
            sure[k].add(layout, s.cards, gtb, [d.card for d in ok], [d.confidence for d in ok],
                        np.array([d.box for d in ok]).reshape(-1, 4))
            kept[k][layout] = kept[k].get(layout, 0) + len(idx)
        photos[layout] = photos.get(layout, 0) + 1
        changed[layout] = changed.get(layout, 0) + int(sets[0] != sets[1])
    out: dict = {"per_layout": per_layout, "photos": photos, "photos_with_other_boxes": changed, "kinds": {}}
    for k in kinds:
        out["kinds"][k] = {
            "boxes_kept": kept[k],
            "identity": {lay: evs[k].card_level(lay) for lay in [*photos, None]},
            "certain_only": {lay: sure[k].card_level(lay) for lay in [*photos, None]},
        }
    return out


def main(argv=None) -> int:
    from vision.synth.render import DEFAULT_ART_DIR, render_art

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--photo", type=Path, default=None, help="a 12 MP JPEG (default: bench_vision.py's)")
    p.add_argument("--art", type=Path, default=DEFAULT_ART_DIR)
    p.add_argument("--png", type=Path, default=Path("data/art_png"))
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--base", default="main", help="git revision of the 'before' tree (default: main)")
    p.add_argument("--nms-scenes", type=int, default=3, help="held-out scenes per layout for the NMS timing")
    p.add_argument("--eval", type=int, default=0, help="held-out scenes per layout for the NMS accuracy part")
    p.add_argument("--skip", nargs="*", default=[], choices=["ops", "end_to_end"])
    p.add_argument("--json", type=Path, default=None)
    a = p.parse_args(argv)
    if not (a.png / "mantia").exists():
        render_art(a.art, a.png)
    photo = a.photo
    if photo is None:
        from bench_vision import make_photo

        photo = ROOT / "runs/bench_12mp.jpg"
        photo.parent.mkdir(parents=True, exist_ok=True)
        if not photo.exists():
            make_photo(photo, a.png, a.art)
    info: dict = {
        "photo": str(photo),
        "cpu_count": os.cpu_count(),
        "machine": platform.processor() or platform.machine(),
        "python": platform.python_version(),
        "load_average_1min_start": os.getloadavg()[0],
    }
    import cv2
    import PIL

    info["versions"] = {"opencv": cv2.__version__, "pillow": PIL.__version__}
    if "ops" not in a.skip:
        scenes = [s.image for _, s in held_out_scenes(a.png, a.nms_scenes)] if a.nms_scenes else []
        res = ops(photo, a.runs, scenes)
        info["ops"] = res
        for op, variants in res.items():
            if op.startswith("_"):
                continue
            print(op)
            for k, v in variants.items():
                ratio = f"  ratio {v['ratio_wall']:.2f}x wall, {v['ratio_cpu']:.2f}x cpu" if "ratio_wall" in v else ""
                print(f"  {k:40} {v['wall_ms']:8.2f} ms wall {v['cpu_ms']:8.2f} ms cpu{ratio}")
        print("inputs:", res["_inputs"])
    if "end_to_end" not in a.skip:
        res = end_to_end(photo, a.base, a.runs, a.warmup)
        info["end_to_end"] = res
        for k, v in res.items():
            if isinstance(v, dict):
                print(f"{k:28} median {v['median_ms']:7.1f} ms  p90 {v['p90_ms']:7.1f}  cpu {v['cpu_ms_median']:6.1f}"
                      f"  peak {v['peak_rss_mib']:5.0f} MiB  cards {len(v['cards'])}")
        print(f"before / after: {res['ratio_before_over_after']:.2f}x wall, {res['ratio_cpu']:.2f}x cpu; "
              f"same cards: {res['same_cards']}")
    if a.eval:
        res = nms_eval(a.png, a.eval)
        info["nms_eval"] = res
        print("photos with a different set of kept boxes:", res["photos_with_other_boxes"])
        for k, v in res["kinds"].items():
            f1 = {lay or "all": round(c["f1"], 3) for lay, c in v["identity"].items()}
            f1s = {lay or "all": round(c["f1"], 3) for lay, c in v["certain_only"].items()}
            print(f"{k}: identity F1 {f1}; certain only {f1s}; boxes kept {v['boxes_kept']}")
    info["load_average_1min_end"] = os.getloadavg()[0]
    info["peak_rss_mib_bench_process"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(info, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
