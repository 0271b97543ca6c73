#!/usr/bin/env python3
"""Peak RSS of a real server process under crafted and big photo uploads (issue 10, item 3).

Starts the app in a subprocess (waitress when installed, else werkzeug's threaded server)
with the shipped detector, warms it with one ordinary photo, then runs each scenario: a
burst of uploads sent at once, while another client keeps sending an ordinary 12 MP JPEG to
``POST /api/v1/detect`` one after another.  Before each scenario the server's peak RSS is
reset (``/proc/<pid>/clear_refs``); after it, ``VmHWM`` is the scenario's peak.  Reports
the peak, the burst's statuses and time, and the ordinary photos' answers and latency.

Target (issue 10): peak RSS at most 600 MiB under any uploads within the size limit, ten
at once included, while /api/v1/detect keeps answering ordinary photos.

Example: nice -n 19 python scripts/bench_uploads.py --json runs/bench_uploads.json
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SERVER = r"""
import sys
from referee.web import create_app
app = create_app({"DATA_DIR": sys.argv[1], "SECRET_KEY": "bench"})
port = int(sys.argv[2])
kind = sys.argv[3]
if kind == "waitress":
    from waitress import serve
    serve(app, host="127.0.0.1", port=port, threads=int(sys.argv[4]), _quiet=True)
else:
    from werkzeug.serving import make_server
    make_server("127.0.0.1", port, app, threaded=True).serve_forever()
"""


def png_header(width: int, height: int, bit_depth: int, colour: int) -> bytes:
    """A PNG of ``width`` x ``height`` whose pixels are all zero: deflate makes 10950 x 10950
    16-bit greyscale 233 KB and 8-bit 117 KB, the issue's crafted files."""
    row = b"\x00" * (1 + width * bit_depth // 8 * {0: 1, 2: 3, 4: 2, 6: 4}[colour])
    comp = zlib.compressobj(9)
    body = b"".join(comp.compress(row) for _ in range(height)) + comp.flush()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, colour, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def noisy_jpeg(w: int, h: int, quality: int = 97, seed: int = 0, progressive: bool = False) -> bytes:
    """A JPEG of fine noise: about as big as a ``w`` x ``h`` photo can get."""
    import numpy as np
    from PIL import Image

    a = np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, "JPEG", quality=quality, progressive=progressive)
    return buf.getvalue()


def noisy_png(w: int, h: int, seed: int = 0) -> bytes:
    import numpy as np
    from PIL import Image

    a = np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, "PNG", compress_level=1)
    return buf.getvalue()


def multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    b = uuid.uuid4().hex
    out = io.BytesIO()
    for k, v in fields.items():
        out.write(f'--{b}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode())
    for k, (name, data) in files.items():
        out.write(f'--{b}\r\nContent-Disposition: form-data; name="{k}"; filename="{name}"\r\n'
                  "Content-Type: application/octet-stream\r\n\r\n".encode())
        out.write(data)
        out.write(b"\r\n")
    out.write(f"--{b}--\r\n".encode())
    return out.getvalue(), f"multipart/form-data; boundary={b}"


def post(url: str, body: bytes, ctype: str, timeout: float = 120) -> tuple[int, float, bytes]:
    req = urllib.request.Request(url, data=body, headers={"Content-Type": ctype}, method="POST")
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, time.perf_counter() - t, r.read()
    except urllib.error.HTTPError as e:
        return e.code, time.perf_counter() - t, e.read()
    except OSError as e:
        return -1, time.perf_counter() - t, str(e).encode()


def status_of(pid: int) -> dict[str, int]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        k, _, v = line.partition(":")
        if k in ("VmRSS", "VmHWM"):
            out[k] = int(v.split()[0]) // 1024
    return out


class Server:
    def __init__(self, kind: str, threads: int):
        self.tmp = tempfile.TemporaryDirectory()
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc = subprocess.Popen([sys.executable, "-c", SERVER, self.tmp.name, str(self.port), kind, str(threads)],
                                     cwd=ROOT)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(300):
            try:
                urllib.request.urlopen(self.base + "/", timeout=2).read()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("server did not start")

    def new_session(self) -> str:
        body = b"name=bench&ruleset=roppyakken&dealer=0&player-0=Aki&player-1=Ben&player-2=Chiyo"
        req = urllib.request.Request(self.base + "/new", data=body, method="POST",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *a, **k):
                return None

        try:
            urllib.request.build_opener(NoRedirect).open(req, timeout=30)
        except urllib.error.HTTPError as e:
            return e.headers["Location"].rsplit("/", 1)[-1]
        raise RuntimeError("no session")

    def reset_peak(self) -> None:
        Path(f"/proc/{self.proc.pid}/clear_refs").write_text("5")

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)
        self.tmp.cleanup()


def scenario(server: Server, name: str, requests: list[tuple[str, bytes, str]], ordinary: bytes) -> dict:
    """Send ``requests`` at once while a client sends ``ordinary`` to /api/v1/detect in a loop."""
    server.reset_peak()
    before = status_of(server.proc.pid)
    results: list[tuple[int, float, bytes]] = [None] * len(requests)  # type: ignore[list-item]
    stop = threading.Event()
    normal: list[tuple[int, float]] = []
    body, ctype = multipart({}, {"image": ("table.jpg", ordinary)})

    def ordinary_loop():
        while not stop.is_set():
            s, dt, _ = post(server.base + "/api/v1/detect", body, ctype)
            normal.append((s, dt))

    def send(i, url, data, ct):
        results[i] = post(server.base + url, data, ct)

    samples: list[int] = []

    def sample():
        while not stop.is_set():
            samples.append(status_of(server.proc.pid)["VmRSS"])
            time.sleep(0.02)

    bg = [threading.Thread(target=ordinary_loop), threading.Thread(target=sample)]
    for t in bg:
        t.start()
    time.sleep(0.5)
    t0 = time.perf_counter()
    ts = [threading.Thread(target=send, args=(i, *r)) for i, r in enumerate(requests)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    burst_s = time.perf_counter() - t0
    time.sleep(0.5)
    stop.set()
    for t in bg:
        t.join()
    after = status_of(server.proc.pid)
    statuses: dict[str, int] = {}
    for s, _, _ in results:
        statuses[str(s)] = statuses.get(str(s), 0) + 1
    words = sorted({_message(r[2]) for r in results})[:3]
    ok = [dt for s, dt in normal if s == 200]
    return {
        "scenario": name,
        "uploads": len(requests),
        "upload_bytes_each": len(requests[0][1]) if requests else 0,
        "rss_before_mib": before["VmRSS"],
        "peak_rss_mib": after["VmHWM"],
        "rss_after_mib": after["VmRSS"],
        "burst_statuses": statuses,
        "burst_seconds": round(burst_s, 2),
        "burst_messages": words,
        "ordinary_sent": len(normal),
        "ordinary_answered_200": len(ok),
        "ordinary_other_statuses": sorted({s for s, _ in normal if s != 200}),
        "ordinary_median_s": round(statistics.median(ok), 3) if ok else None,
        "ordinary_max_s": round(max(ok), 3) if ok else None,
    }


def _message(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace")
    try:
        return json.loads(text)["message"][:160]
    except (ValueError, KeyError, TypeError):
        import re

        m = re.search(r'class="error"[^>]*>(.*?)</', text, re.S)
        return m.group(1).strip()[:160] if m else "(a page with no error)"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", choices=["waitress", "werkzeug"], default=None,
                   help="default: waitress when installed, else werkzeug")
    p.add_argument("--threads", type=int, default=16, help="waitress threads")
    p.add_argument("--photo", type=Path, default=ROOT / "runs/bench_12mp.jpg",
                   help="the ordinary photo (default: bench_vision.py's 12 MP JPEG)")
    p.add_argument("--json", type=Path, default=None)
    a = p.parse_args(argv)
    kind = a.server
    if kind is None:
        try:
            import waitress  # noqa: F401

            kind = "waitress"
        except ImportError:
            kind = "werkzeug"
    if not a.photo.exists():
        print(f"{a.photo}: run scripts/bench_vision.py first (it makes the 12 MP photo)")
        return 2
    ordinary = a.photo.read_bytes()
    print("making the uploads ...", flush=True)
    png16 = png_header(10950, 10950, 16, 0)
    png8 = png_header(10950, 10950, 8, 0)
    big_jpeg = noisy_jpeg(4000, 3400, quality=97)  # noise at q97: about as big as a photo within 20 MB gets
    big_prog = noisy_jpeg(4200, 3800, quality=97, progressive=True)
    big_png = noisy_png(2600, 2600)
    mb = 1e6
    print(f"  16-bit PNG {len(png16)} B, 8-bit PNG {len(png8)} B, noisy JPEG {len(big_jpeg)} B, "
          f"progressive {len(big_prog)} B, noisy PNG {len(big_png)} B", flush=True)
    server = Server(kind, a.threads)
    info: dict = {"server": kind, "threads": a.threads if kind == "waitress" else "one per request",
                  "cpu_count": os.cpu_count(), "python": platform.python_version(),
                  "load_average_1min_start": os.getloadavg()[0], "scenarios": []}
    try:
        keeper = server.new_session()
        body, ctype = multipart({}, {"image": ("warm.jpg", ordinary)})
        s, dt, _ = post(server.base + "/api/v1/detect", body, ctype)
        info["warm_up"] = {"status": s, "seconds": round(dt, 2), "rss_mib": status_of(server.proc.pid)["VmRSS"]}
        print("warm:", info["warm_up"], flush=True)

        def api(data, name="x.png"):
            b, c = multipart({}, {"image": (name, data)})
            return ("/api/v1/detect", b, c)

        def snap(data, i, name="pile.png"):
            b, c = multipart({"nonce": f"bench-{uuid.uuid4().hex}", "tab": "0", "dealer": "Aki"},
                             {f"snap-pile-{i % 3}": (name, data)})
            return (f"/s/{keeper}/round/photo", b, c)

        plan = [
            ("the issue's 233 KB 16-bit greyscale PNG (10950x10950) to /api/v1/detect", [api(png16)]),
            ("ten of it at once to /api/v1/detect", [api(png16) for _ in range(10)]),
            ("ten 117 KB 8-bit greyscale PNGs (10950x10950) at once to the round-photo route",
             [snap(png8, i) for i in range(10)]),
            (f"ten {len(big_jpeg) / mb:.1f} MB noisy JPEGs (4000x3400) at once to the round-photo route",
             [snap(big_jpeg, i, "pile.jpg") for i in range(10)]),
            (f"ten {len(big_prog) / mb:.1f} MB noisy progressive JPEGs (4200x3800) at once, half to each route",
             [snap(big_prog, i, "pile.jpg") if i % 2 else api(big_prog, "p.jpg") for i in range(10)]),
            (f"ten {len(big_png) / mb:.1f} MB noisy PNGs (2600x2600) at once, half to each route",
             [snap(big_png, i) if i % 2 else api(big_png) for i in range(10)]),
        ]
        for name, reqs in plan:
            res = scenario(server, name, reqs, ordinary)
            info["scenarios"].append(res)
            print(json.dumps(res, ensure_ascii=False), flush=True)
    finally:
        server.close()
    info["peak_rss_mib_max"] = max(s["peak_rss_mib"] for s in info["scenarios"])
    info["load_average_1min_end"] = os.getloadavg()[0]
    print(f"highest peak RSS: {info['peak_rss_mib_max']} MiB (target <= 600)")
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(info, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
