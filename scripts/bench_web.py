"""Benchmark: the scoreboard page and its polling fragment under 50 concurrent viewers.

Usage: python scripts/bench_web.py [--viewers 50] [--requests 40] [--poll-seconds 2] [--duration 10]
[--write docs/BENCHMARKS.md]

Starts ``hanafuda-referee serve`` (Werkzeug, threaded, as the README runs it) on 127.0.0.1
in a child process with a temporary data folder, creates a 3-player session of 10 rounds
through the API, then measures, each with a bounded loop that stops by itself:

- ``saturation``: ``--viewers`` client threads, each sending ``--requests`` requests back to
  back (a closed loop), to the full scoreboard page, the poll when nothing changed (204,
  what every open phone sends every 2 s) and the poll after a change (the board fragment);
- ``phones``: ``--viewers`` viewers each polling every ``--poll-seconds`` for
  ``--duration`` seconds, as real phones do.

Prints requests/s and p50/p99 latency (ms) per case; ``--write`` replaces the "Web app"
section of that Markdown file.  Timing lives here, never in tests.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
START, END = "<!-- bench_web:start -->", "<!-- bench_web:end -->"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def start_server(port: int, data: str) -> subprocess.Popen:
    env = {**os.environ, "HANAFUDA_REFEREE_DATA": data}
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            request(port, "GET", "/api/v1/openapi.json")
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start within 10 s")


def ten_rounds(port: int) -> tuple[str, str, int]:
    """A session of 10 rounds; returns (viewer token, keeper token, rev)."""
    from screenshots import piles  # the same made-up modest rounds as the screenshots

    status, body = request(
        port,
        "POST",
        "/api/v1/sessions",
        {"name": "Bench", "ruleset": "roppyakken", "players": ["Aki", "Ben", "Chiyo"], "options": {"target": 100000}},
    )
    assert status == 201, body
    sess = json.loads(body)
    for i in range(10):
        status, body = request(
            port,
            "POST",
            f"/api/v1/sessions/{sess['edit_token']}/rounds",
            {"piles": piles(i % 3, range(2, 13, 2) if i % 2 else range(1, 13, 2))},
        )
        assert status == 201, body
    status, body = request(port, "GET", f"/api/v1/sessions/{sess['view_token']}")
    info = json.loads(body)
    assert len(info["rounds"]) == 10
    return sess["view_token"], sess["edit_token"], info["rev"]


def closed_loop(port: int, path: str, viewers: int, per_viewer: int, expect: int) -> dict:
    latencies: list[float] = []
    lock = threading.Lock()
    errors = []

    def viewer() -> None:
        mine = []
        for _ in range(per_viewer):
            t0 = time.perf_counter()
            status, _ = request(port, "GET", path)
            mine.append(time.perf_counter() - t0)
            if status != expect:
                errors.append(status)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=viewer) for _ in range(viewers)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    return summary(latencies, wall, errors)


def phones(port: int, path: str, viewers: int, every: float, duration: float) -> dict:
    latencies: list[float] = []
    lock = threading.Lock()
    errors = []
    stop = time.perf_counter() + duration

    def viewer(offset: float) -> None:
        time.sleep(offset)
        mine = []
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            status, _ = request(port, "GET", path)
            mine.append(time.perf_counter() - t0)
            if status != 204:
                errors.append(status)
            time.sleep(max(0.0, every - (time.perf_counter() - t0)))
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=viewer, args=(every * i / viewers,)) for i in range(viewers)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return summary(latencies, time.perf_counter() - t0, errors)


def summary(latencies: list[float], wall: float, errors: list) -> dict:
    ms = sorted(x * 1000 for x in latencies)
    return {
        "requests": len(ms),
        "rps": len(ms) / wall,
        "p50": statistics.median(ms),
        "p99": ms[min(len(ms) - 1, int(len(ms) * 0.99))],
        "errors": len(errors),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--viewers", type=int, default=50)
    ap.add_argument("--requests", type=int, default=40, help="requests per viewer in the closed loops")
    ap.add_argument("--poll-seconds", type=float, default=2.0)
    ap.add_argument("--duration", type=float, default=10.0)
    ap.add_argument("--write", default=None, help="Markdown file whose Web app section to replace")
    args = ap.parse_args(argv)
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        proc = start_server(port, data)
        try:
            view, _, rev = ten_rounds(port)
            cases = [
                ("scoreboard page (full HTML)", closed_loop(port, f"/s/{view}", args.viewers, args.requests, 200)),
                (
                    "poll, nothing changed (204)",
                    closed_loop(port, f"/s/{view}/poll?rev={rev}", args.viewers, args.requests, 204),
                ),
                (
                    "poll after a change (board fragment)",
                    closed_loop(port, f"/s/{view}/poll?rev=-1", args.viewers, args.requests, 200),
                ),
            ]
            real = phones(port, f"/s/{view}/poll?rev={rev}", args.viewers, args.poll_seconds, args.duration)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    lines = [
        f"| {name} | {c['requests']} | {c['rps']:,.0f} | {c['p50']:.1f} | {c['p99']:.1f} | {c['errors']} |"
        for name, c in cases
    ]
    table = "\n".join(
        ["| case | requests | requests/s | p50 ms | p99 ms | errors |", "|---|---|---|---|---|---|", *lines]
    )
    phones_line = (
        f"{args.viewers} phones each polling every {args.poll_seconds:g} s for {args.duration:g} s: "
        f"{real['requests']} polls, p50 {real['p50']:.1f} ms, p99 {real['p99']:.1f} ms, "
        f"{real['errors']} errors."
    )
    poll = cases[1][1]
    verdict = (
        f"Target (the polling fragment's p99 under 50 ms): "
        f"{'met' if real['p99'] < 50 else 'missed'} for {args.viewers} phones polling every "
        f"{args.poll_seconds:g} s (p99 {real['p99']:.1f} ms); "
        f"{'met' if poll['p99'] < 50 else 'missed'} in the closed loop (p99 {poll['p99']:.1f} ms). "
        "In the closed loop every client sends its next request as soon as the last returns, so a "
        "request waits behind the other clients' and latency is about clients / throughput; the "
        "development server that `serve` runs (Werkzeug, one thread per connection, one GIL) "
        "is the limit there, not the app: a poll that finds no change costs one indexed query."
    )
    print(table)
    print(phones_line)
    print(verdict)
    if args.write:
        section = "\n".join(
            [
                START,
                "## Web app (`scripts/bench_web.py`)",
                "",
                f"`hanafuda-referee serve` (Werkzeug, threaded) on 127.0.0.1, a 3-player session of 10 rounds, "
                f"{args.viewers} concurrent viewers in a closed loop ({args.requests} requests each, new "
                f"connection per request), load generator in another process on the same machine "
                f"({os.cpu_count()} cores, CPython {platform.python_version()}). Measured "
                f"{time.strftime('%Y-%m-%d', time.gmtime())}.",
                "",
                table,
                "",
                phones_line,
                "",
                verdict,
                "",
                END,
            ]
        )
        path = Path(args.write)
        text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
        if START in text and END in text:
            text = text[: text.index(START)] + section + text[text.index(END) + len(END) :]
        else:
            text = text.rstrip("\n") + "\n\n" + section + "\n"
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
