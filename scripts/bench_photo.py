#!/usr/bin/env python3
"""Benchmark photo to score, server side: a 12 MP JPEG upload to the filled round picker.

Times ``POST /s/<token>/round/photo`` through Flask's test client (multipart parse,
decode and downscale to 1600 px, evidence JPEG written, detection on the worker pool,
the round page rendered with the picker filled) with the shipped models, and the
detector's share (time inside ``Detector.detect``) separately.  Also the same with a
~1600 px upload, as a browser sends after shrinking on the phone.

With ``--eval N`` it also pushes N held-out synthetic scenes per layout (eval_detector's
test backgrounds and seeds) through the same route and reports card-level precision and
recall of the cards the flow taps in, and what a player must do to fix each photo
(issue 9): the flow taps in only certain cards and offers the uncertain ones at or above
``vision.SUGGEST_FLOOR`` beside the photo; the same detections as the earlier flow (every
detection tapped in) would have left are counted for comparison.  Taps: a wrong card in
the pile is 1 (its tile), a card offered is 1 (Yes), a missed card is 1 (its tile); a
wrong suggestion costs nothing if left alone (1 to answer No).

Example: python scripts/bench_photo.py --runs 9 --eval 10 --json runs/bench_photo.json
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))


class Timed:
    """The real detector, timing each call."""

    def __init__(self):
        from vision.detector import Detector

        self.det = Detector()
        self.times: list[float] = []
        self.last: list = []

    def detect(self, image):
        t = time.perf_counter()
        try:
            self.last = self.det.detect(image)
            return self.last
        finally:
            self.times.append((time.perf_counter() - t) * 1000)


def picked(html: str, slot: str) -> list[str]:
    boxes = re.finditer(r'<input type="checkbox" name="([\w-]+)" value="([\w-]+)"[^>]*?>', html)
    return [m.group(2) for m in boxes if m.group(1) == slot and " checked" in m.group(0)]


def offered(html: str, slot: str) -> list[str]:
    """The cards the page offers as suggestions (Yes / No) for ``slot``."""
    return re.findall(rf'<li class="ask" id="ask-{slot}-([\w-]+)"', html)


def fix_taps(truth: list[str], tapped: list[str], asked: list[str] = ()) -> dict[str, int]:
    """What a player does to correct one photo, card identities compared (same-month plain
    chaff are one identity): ``wrong`` cards to remove, ``yes`` suggestions to accept,
    ``missed`` cards to find and tap, ``ignore`` wrong suggestions (0 taps, or 1 for No)."""
    from collections import Counter

    from vision.train.evaluate import IDENTITY

    t, p, o = (Counter(IDENTITY[c] for c in cs) for cs in (truth, tapped, asked))
    lacking = t - p
    return {
        "wrong": sum((p - t).values()),
        "yes": sum((lacking & o).values()),
        "missed": sum((lacking - o).values()),
        "ignore": sum((o - lacking).values()),
    }


def browser_runs(app, token: str, photo: Path, runs: int) -> dict:
    """Chromium (Debian's) on localhost: choose the 12 MP file in "Snap pile" until the
    detections are on screen (canvas shrink + upload + server + swap), median ms."""
    import threading

    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
    times = []
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path="/usr/bin/chromium", args=[*args, "--disable-sync", "--no-first-run"])
        page = b.new_page(viewport={"width": 360, "height": 740})
        for i in range(runs + 1):
            page.goto(f"http://127.0.0.1:{server.server_port}/s/{token}/round/new")
            page.wait_for_load_state("load")
            t = time.perf_counter()
            page.set_input_files('input[name="snap-pile-0"]', str(photo))
            page.wait_for_selector("#photos-pile-0 .det", state="attached", timeout=30_000)
            if i:
                times.append((time.perf_counter() - t) * 1000)
        b.close()
    server.shutdown()
    return {"median_ms": round(statistics.median(times), 1), "runs": runs}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=9)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--eval", type=int, default=0, metavar="N", help="held-out scenes per layout")
    p.add_argument("--png", type=Path, default=ROOT / "data" / "art_png")
    p.add_argument("--json", type=Path, default=None)
    p.add_argument("--browser", type=int, default=0, metavar="N", help="also time N snaps in headless Chromium")
    a = p.parse_args(argv)

    from bench_vision import make_photo
    from PIL import Image

    from referee.web import create_app
    from vision.synth.render import DEFAULT_ART_DIR

    tmp = Path(tempfile.mkdtemp(prefix="bench_photo-"))
    photo = tmp / "12mp.jpg"
    make_photo(photo, a.png, DEFAULT_ART_DIR)
    big = photo.read_bytes()
    with Image.open(photo) as im:
        small_im = im.convert("RGB")
        small_im.thumbnail((1600, 1600))
        buf = io.BytesIO()
        small_im.save(buf, "JPEG", quality=85)
        small = buf.getvalue()
    timed = Timed()
    app = create_app(
        {"TESTING": True, "DATA_DIR": str(tmp / "data"), "SECRET_KEY": "b", "PHOTO_DETECTOR": lambda: timed}
    )
    client = app.test_client()
    r = client.post(
        "/new", data={"name": "b", "ruleset": "roppyakken", "dealer": "0", "player-0": "A", "player-1": "B"}
    )
    token = r.headers["Location"].rsplit("/", 1)[-1]

    def upload(data: bytes, slot: str = "pile-0") -> tuple[float, str]:
        body = {"nonce": "n", "tab": "0", "snap": slot, f"snap-{slot}": (io.BytesIO(data), "p.jpg")}
        t = time.perf_counter()
        r = client.post(f"/s/{token}/round/photo", data=body, content_type="multipart/form-data", follow_redirects=True)
        dt = (time.perf_counter() - t) * 1000
        assert r.status_code == 200, r.status_code
        return dt, r.get_data(as_text=True)

    out: dict = {
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "backend": timed.det.backend,
        "runs": a.runs,
    }
    for name, data in (("12mp", big), ("1600px", small)):
        timed.times.clear()
        totals = []
        for i in range(a.warmup + a.runs):
            dt, html = upload(data)
            if i >= a.warmup:
                totals.append(dt)
        det = timed.times[a.warmup :]
        out[name] = {
            "bytes": len(data),
            "median_ms": round(statistics.median(totals), 1),
            "p90_ms": round(sorted(totals)[int(0.9 * (len(totals) - 1))], 1),
            "detector_median_ms": round(statistics.median(det), 1),
            "detector_share": round(statistics.median(det) / statistics.median(totals), 3),
            "cards_filled": len(picked(html, "pile-0")),
        }
        print(name, out[name], flush=True)

    if a.browser:
        out["browser_12mp"] = browser_runs(app, token, photo, a.browser)
        print("browser", out["browser_12mp"], flush=True)

    if a.eval:
        import numpy as np

        from vision.synth.backgrounds import TEST_BACKGROUNDS
        from vision.synth.layouts import LAYOUTS
        from vision.synth.render import load_art
        from vision.synth.scenes import make_scene
        from vision.train.evaluate import Evaluator

        art = load_art(a.png)
        ev = Evaluator()
        taps: dict[str, dict[str, list[dict[str, int]]]] = {lay: {"now": [], "before": []} for lay in LAYOUTS}
        for li, layout in enumerate(LAYOUTS):
            for i in range(a.eval):
                seed = 9 * 1_000_000 + li * 10_000 + i  # eval_detector's held-out seeds
                s = make_scene(seed, art, size=1280, layout=layout, backgrounds=tuple(TEST_BACKGROUNDS))
                buf = io.BytesIO()
                s.image.save(buf, "JPEG", quality=90)
                _, html = upload(buf.getvalue())
                cards = picked(html, "pile-0")
                taps[layout]["now"].append(fix_taps(s.cards, cards, offered(html, "pile-0")))
                taps[layout]["before"].append(fix_taps(s.cards, list(dict.fromkeys(d.card for d in timed.last))))
                ev.add(
                    layout, s.cards, np.zeros((len(s.cards), 4)), cards, [1.0] * len(cards), np.zeros((len(cards), 4))
                )
        out["flow_card_level"] = {"all": ev.card_level(), **{lay: ev.card_level(lay) for lay in LAYOUTS}}
        out["flow_card_level_exact_ids"] = ev.card_level(identity=False)
        print(json.dumps(out["flow_card_level"], indent=1))
        out["taps_per_photo"] = {}
        for lay in (*LAYOUTS, "all"):
            which = LAYOUTS if lay == "all" else (lay,)
            rows = {k: [r for la in which for r in taps[la][k]] for k in ("now", "before")}
            mean = {k: {f: round(statistics.mean(r[f] for r in v), 2) for f in v[0]} for k, v in rows.items()}
            for m in mean.values():
                m["taps"] = round(m["wrong"] + m["yes"] + m["missed"], 2)
            out["taps_per_photo"][lay] = {"photos": len(rows["now"]), **mean}
        print(json.dumps(out["taps_per_photo"], indent=1))
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
