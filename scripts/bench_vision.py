#!/usr/bin/env python3
"""Benchmark the detector: median latency from a 12 MP JPEG on disk to detections.

Each backend runs in its own subprocess (so peak memory is its own): ONNX Runtime (the
shipped default), OpenVINO on the same ONNX files (if ``openvino`` is installed) and the
ultralytics/PyTorch path on the ``.pt`` weights (if the ``train`` extra is installed).
Reports median and p90 wall-clock ms over --runs (after --warmup), the median CPU time per
call (both cores together; less sensitive to other programs' load), a per-stage split, the
1-minute load average, and peak RSS (MiB) of each process.

Example: python scripts/bench_vision.py --runs 20 --json runs/bench.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def make_photo(path: Path, art_png: Path, art_dir: Path, n_cards: int = 6) -> None:
    """A 4032x3024 (12 MP) JPEG of a synthetic table with ``n_cards`` cards.

    The scene is drawn at 1344x1008 and upscaled 3x: the procedural textures are made at
    training scale (drawn natively at 12 MP, the fine wood grain is out of the training
    distribution and the localiser misses cards; see docs/VISION.md, known limits).
    """
    from PIL import Image

    from vision.synth.render import load_art, render_art
    from vision.synth.scenes import make_scene

    if not (art_png / "mantia").exists():
        render_art(art_dir, art_png)
    art = load_art(art_png, ("mantia",))
    s = make_scene(
        424242,
        art,
        size=1344,
        layout="spread",
        n_cards=n_cards,
        backgrounds=("wood",),
        card_px=(0.2, 0.3),
        jpeg=False,
    )
    im = s.image.resize((4032, 3024), Image.Resampling.BICUBIC)
    im.save(path, quality=90)


def _peak_rss_mib() -> float:
    status = Path("/proc/self/status")
    if status.exists():
        return next(int(x.split()[1]) for x in status.read_text().splitlines() if x.startswith("VmHWM:")) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(backend: str, photo: str, runs: int, warmup: int, tta: bool) -> dict:
    """Run inside the subprocess: time detect() end to end, and the stages."""
    t_imp = time.perf_counter()
    from vision.detector import Detector
    from vision.imageio import load_image

    # without the verifier, the shipped calibration (fitted with it) does not apply; its cost is nil
    plain = {"verifier": False, "calibration": False} if os.environ.get("BENCH_NO_VERIFIER") else {}
    det = Detector(backend, tta=tta, **plain)
    load_s = time.perf_counter() - t_imp
    times, cpu, n = [], [], 0
    for i in range(warmup + runs):
        t, c = time.perf_counter(), time.process_time()
        dets = det.detect(photo)
        dt = (time.perf_counter() - t) * 1000
        if i >= warmup:
            times.append(dt)
            cpu.append((time.process_time() - c) * 1000)
            n = len(dets)
    stages = {"decode": [], "localise": [], "verify": [], "visibility": [], "classify": [], "printcheck": []}
    for _ in range(max(3, runs // 2)):
        t0 = time.perf_counter()
        li = load_image(photo, det.max_side)
        t1 = time.perf_counter()
        obbs, scores = det.localise(li.array)
        t2 = time.perf_counter()
        obbs, _, whole = det.keep_boxes(li.array, obbs, scores)  # the verifier reads every candidate
        t3 = time.perf_counter()
        masks, _ = det.visibility(li.array, obbs)  # stacking order and visible masks
        t4 = time.perf_counter()
        det.classify_views(li.array, obbs, masks, whole)
        t5 = time.perf_counter()
        if det.printcheck is not None:  # each kept box's context crop (vision.printcheck)
            det.printcheck(li.array, obbs)
        t6 = time.perf_counter()
        stages["decode"].append((t1 - t0) * 1000)
        stages["localise"].append((t2 - t1) * 1000)
        stages["verify"].append((t3 - t2) * 1000)
        stages["visibility"].append((t4 - t3) * 1000)
        stages["classify"].append((t5 - t4) * 1000)
        stages["printcheck"].append((t6 - t5) * 1000)
    times.sort()
    return {
        "backend": backend,
        "models": os.environ.get("HANAFUDA_VISION_MODELS", "shipped")
        + (" without verifier" if os.environ.get("BENCH_NO_VERIFIER") else ""),
        "tta": tta,
        "median_ms": statistics.median(times),
        "p90_ms": times[int(0.9 * (len(times) - 1))],
        "cpu_ms_median": statistics.median(cpu),
        "load_average_1min": os.getloadavg()[0],
        "runs": runs,
        "detections": n,
        "model_load_s": round(load_s, 2),
        "stages_median_ms": {k: statistics.median(v) for k, v in stages.items()},
        # VmHWM: on Linux ru_maxrss keeps the parent's peak across fork and exec
        "peak_rss_mib": _peak_rss_mib(),
    }


def interleaved(backends: list[str], photo: str, runs: int, warmup: int) -> dict:
    """Time all backends round-robin in one process, so that load from other programs on
    the machine falls on each of them alike (fair ratios; no per-backend memory)."""
    from vision.detector import Detector

    dets = {}
    for b in backends:
        try:
            dets[b] = Detector(b)
        except ValueError as e:
            print(f"{b}: skipped ({e})")
    times: dict[str, list[float]] = {b: [] for b in dets}
    for i in range(warmup + runs):
        for b, det in dets.items():
            t = time.perf_counter()
            det.detect(photo)
            if i >= warmup:
                times[b].append((time.perf_counter() - t) * 1000)
    return {b: statistics.median(v) for b, v in times.items()}


def main(argv=None) -> int:
    from vision.synth.render import DEFAULT_ART_DIR

    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--photo", type=Path, default=None, help="a JPEG (default: generated)")
    p.add_argument("--art", type=Path, default=DEFAULT_ART_DIR)
    p.add_argument("--png", type=Path, default=Path("data/art_png"))
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--backends", nargs="+", default=["onnxruntime", "openvino", "ultralytics"])
    p.add_argument("--tta", action="store_true", help="also time the default with TTA")
    p.add_argument("--json", type=Path, default=None)
    p.add_argument(
        "--models",
        type=Path,
        nargs="*",
        default=[],
        help="also time ONNX Runtime on these model folders (HANAFUDA_VISION_MODELS: "
        "localiser.onnx, classifier.onnx and, if it has them, verifier.json, calibration.json; nothing is "
        "taken from the shipped folder), e.g. a candidate beside the shipped one",
    )
    p.add_argument(
        "--without-verifier",
        action="store_true",
        help="also time ONNX Runtime with the box verifier off (Detector(verifier=False))",
    )
    p.add_argument(
        "--interleave",
        action="store_true",
        help="also time all backends round-robin in one process (fair under load)",
    )
    p.add_argument("--child", nargs=3, metavar=("BACKEND", "PHOTO", "TTA"), help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child:
        backend, photo, tta = a.child
        print(json.dumps(child(backend, photo, a.runs, a.warmup, tta == "1")))
        return 0
    photo = a.photo
    if photo is None:
        photo = Path("runs/bench_12mp.jpg")
        photo.parent.mkdir(parents=True, exist_ok=True)
        if not photo.exists():
            make_photo(photo, a.png, a.art)
    jobs = [(b, "0", None, False) for b in a.backends]
    if a.tta:
        jobs.insert(1, ("onnxruntime", "1", None, False))
    jobs[1:1] = [("onnxruntime", "0", d, False) for d in a.models]
    if a.without_verifier:
        jobs.insert(1, ("onnxruntime", "0", None, True))
    results = []
    for backend, tta, models, no_verifier in jobs:
        cmd = [sys.executable, __file__, "--runs", str(a.runs), "--warmup", str(a.warmup)]
        cmd += ["--child", backend, str(photo), tta]
        env = {**os.environ, "HANAFUDA_VISION_MODELS": str(models.resolve())} if models else dict(os.environ)
        if no_verifier:
            env["BENCH_NO_VERIFIER"] = "1"
        r = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
        if r.returncode != 0:
            err = (r.stderr.strip().splitlines() or ["?"])[-1]
            print(f"{backend}: skipped ({err})")
            results.append({"backend": backend, "tta": tta == "1", "skipped": err})
            continue
        res = json.loads(r.stdout.strip().splitlines()[-1])
        results.append(res)
        st = res["stages_median_ms"]
        print(
            f"{backend:12} {res['models']:>10} tta={res['tta']!s:5} median {res['median_ms']:7.1f} ms  "
            f"p90 {res['p90_ms']:7.1f}  cpu {res['cpu_ms_median']:6.1f}  "
            f"peak {res['peak_rss_mib']:6.0f} MiB  load {res['load_average_1min']:.1f}  "
            f"cards {res['detections']}  (decode {st['decode']:.1f}, localise "
            f"{st['localise']:.1f}, verify {st['verify']:.1f}, visibility {st['visibility']:.1f}, "
            f"classify {st['classify']:.1f}, print check {st.get('printcheck', 0.0):.1f})"
        )
    ok = {r["backend"]: r for r in results if "median_ms" in r and not r["tta"] and r["models"] == "shipped"}
    plain = [r for r in results if r.get("models") == "shipped without verifier"]
    if plain and "onnxruntime" in ok:
        ratio = ok["onnxruntime"]["median_ms"] / plain[0]["median_ms"]
        print(f"the box verifier costs {ratio:.2f}x the median without it (separate processes)")
    if "ultralytics" in ok:
        for b in ("onnxruntime", "openvino"):
            if b in ok:
                ratio = ok["ultralytics"]["median_ms"] / ok[b]["median_ms"]
                print(f"{b} is {ratio:.2f}x faster than the ultralytics PyTorch path")
    inter = None
    if a.interleave:
        inter = interleaved(a.backends, str(photo), a.runs, a.warmup)
        print("interleaved medians (ms):", {b: round(v, 1) for b, v in inter.items()})
        if "ultralytics" in inter:
            for b in ("onnxruntime", "openvino"):
                if b in inter:
                    print(f"interleaved: {b} {inter['ultralytics'] / inter[b]:.2f}x faster")
    info = {
        "interleaved_median_ms": inter,
        "photo": str(photo),
        "cpu_count": os.cpu_count(),
        "machine": platform.processor() or platform.machine(),
        "python": platform.python_version(),
        "results": results,
    }
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(info, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
