"""Benchmark: the scoreboard and its polling fragment under 50 concurrent viewers (closed loop).

Usage: python scripts/bench_web.py [--viewers 50] [--requests 40] [--repeats 3] [--baseline DIR]
[--poll-seconds 2] [--duration 10] [--write docs/BENCHMARKS.md]

Starts ``hanafuda-referee serve`` (waitress) on 127.0.0.1 in a child process with a temporary
data folder and, with ``--baseline DIR`` (another checkout, e.g. ``git worktree add /tmp/base
<commit>``), that checkout's ``serve`` beside it.  Creates a 3-player session of 10 rounds on
each through the API, then measures, interleaving the servers case by case for ``--repeats``
rounds (the machine is shared and noisy: medians of the repeats are reported, and ratios):

- ``saturation``: ``--viewers`` client threads, each sending ``--requests`` requests back to
  back on new connections (a closed loop), to the full scoreboard page, the poll when nothing
  changed (204, what every open phone sends every 2 s) and the poll after a change (the board
  fragment);
- ``phones``: ``--viewers`` viewers each polling every ``--poll-seconds`` for ``--duration``
  seconds, as real phones do.

Prints requests/s and p50/p99 latency (ms) per case; ``--write`` replaces the "Web app" section
of that Markdown file.  Timing lives here, never in tests.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import site
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
START, END = "<!-- bench_web:start -->", "<!-- bench_web:end -->"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


class Server:
    """``hanafuda-referee serve`` of a checkout (``root``), on a free port with its own data folder."""

    def __init__(self, label: str, root: Path, data: str, extra: tuple[str, ...] = ()) -> None:
        self.label, self.port = label, free_port()
        # Another checkout runs with this environment's packages but its own code: without site
        # initialisation (-S), so this checkout's editable install cannot shadow it.
        python = [sys.executable] if root == ROOT else [sys.executable, "-S"]
        path = [str(root)] if root == ROOT else [str(root), *site.getsitepackages()]
        env = {**os.environ, "HANAFUDA_REFEREE_DATA": data, "PYTHONPATH": os.pathsep.join(path)}
        self.proc = subprocess.Popen(
            [*python, "-m", "referee.cli", "serve", "--port", str(self.port), *extra],
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(300):
            try:
                request(self.port, "GET", "/api/v1/openapi.json")
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{label}: the server did not start within 30 s")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=20)


def servers(baseline: str | None, tmp: str) -> list[Server]:
    """The servers to compare: the baseline checkout's first (if any), then this one's."""
    out = []
    if baseline:
        out.append(Server(f"baseline ({Path(baseline).name})", Path(baseline).resolve(), f"{tmp}/base"))
    out.append(Server("this checkout (waitress)", ROOT, f"{tmp}/this"))
    return out


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


def run_threads(n: int, work: Callable[[int, list[float], list[int]], None]) -> dict:
    """Run ``work(i, latencies, errors)`` on ``n`` threads at once; their summary."""
    latencies: list[float] = []
    errors: list[int] = []
    lock = threading.Lock()

    def one(i: int) -> None:
        mine: list[float] = []
        bad: list[int] = []
        work(i, mine, bad)
        with lock:
            latencies.extend(mine)
            errors.extend(bad)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return summary(latencies, time.perf_counter() - t0, errors)


def closed_loop(port: int, path: str, viewers: int, per_viewer: int, expect: int) -> dict:
    def work(_i: int, latencies: list[float], errors: list[int]) -> None:
        for _ in range(per_viewer):
            t0 = time.perf_counter()
            status, _ = request(port, "GET", path)
            latencies.append(time.perf_counter() - t0)
            if status != expect:
                errors.append(status)

    return run_threads(viewers, work)


def phones(port: int, path: str, viewers: int, every: float, duration: float) -> dict:
    stop = time.perf_counter() + duration

    def work(i: int, latencies: list[float], errors: list[int]) -> None:
        time.sleep(every * i / viewers)
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            status, _ = request(port, "GET", path)
            latencies.append(time.perf_counter() - t0)
            if status != 204:
                errors.append(status)
            time.sleep(max(0.0, every - (time.perf_counter() - t0)))

    return run_threads(viewers, work)


def summary(latencies: list[float], wall: float, errors: list) -> dict:
    ms = sorted(x * 1000 for x in latencies)
    return {
        "requests": len(ms),
        "rps": len(ms) / wall,
        "p50": statistics.median(ms),
        "p99": ms[min(len(ms) - 1, int(len(ms) * 0.99))],
        "max": ms[-1],
        "errors": len(errors),
    }


def median_of(runs: list[dict]) -> dict:
    """The median of each figure over repeated runs (errors: the total)."""
    out = {k: statistics.median(r[k] for r in runs) for k in ("rps", "p50", "p99", "max")}
    out["requests"] = sum(r["requests"] for r in runs)
    out["errors"] = sum(r["errors"] for r in runs)
    return out


def interleave(cases: dict, running: list, repeats: int, loads: list[str]) -> dict[tuple[str, str], list[dict]]:
    """One interleaved run: each repeat runs every case (``name -> run(server) -> figures``) on
    every server in turn, then appends the load average to ``loads``.
    -> ``{(case, server label): [figures of each repeat]}``."""
    results: dict[tuple[str, str], list[dict]] = {}
    for _ in range(repeats):
        for case, run in cases.items():
            for s in running:
                results.setdefault((case, s.label), []).append(run(s))
        loads.append(load_average())
    return results


def load_average() -> str:
    try:
        return "/".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--viewers", type=int, default=50)
    ap.add_argument("--requests", type=int, default=40, help="requests per viewer in the closed loops")
    ap.add_argument("--repeats", type=int, default=3, help="interleaved repeats of every case")
    ap.add_argument("--baseline", default=None, help="another checkout to compare, e.g. a worktree of main")
    ap.add_argument("--poll-seconds", type=float, default=2.0)
    ap.add_argument("--duration", type=float, default=10.0)
    ap.add_argument("--write", default=None, help="Markdown file whose Web app section to replace")
    args = ap.parse_args(argv)
    loads = [load_average()]
    with tempfile.TemporaryDirectory() as tmp:
        running = servers(args.baseline, tmp)
        try:
            tokens = {s.label: ten_rounds(s.port) for s in running}
            cases = {
                "scoreboard page (full HTML)": lambda s: closed_loop(
                    s.port, f"/s/{tokens[s.label][0]}", args.viewers, args.requests, 200
                ),
                "poll, nothing changed (204)": lambda s: closed_loop(
                    s.port, f"/s/{tokens[s.label][0]}/poll?rev={tokens[s.label][2]}", args.viewers, args.requests, 204
                ),
                "poll after a change (board fragment)": lambda s: closed_loop(
                    s.port, f"/s/{tokens[s.label][0]}/poll?rev=-1", args.viewers, args.requests, 200
                ),
                f"{args.viewers} phones polling every {args.poll_seconds:g} s": lambda s: phones(
                    s.port,
                    f"/s/{tokens[s.label][0]}/poll?rev={tokens[s.label][2]}",
                    args.viewers,
                    args.poll_seconds,
                    args.duration,
                ),
            }
            results = interleave(cases, running, args.repeats, loads)
        finally:
            for s in running:
                s.stop()
    rows = []
    for case in cases:
        for s in running:
            m = median_of(results[(case, s.label)])
            rows.append(
                f"| {case} | {s.label} | {m['requests']} | {m['rps']:,.0f} | {m['p50']:.1f} | {m['p99']:.1f} | "
                f"{m['max']:.0f} | {m['errors']} |"
            )
    table = "\n".join(
        [
            "| case | server | requests | requests/s | p50 ms | p99 ms | max ms | errors |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
        ]
    )
    this = running[-1].label
    poll = median_of(results[("poll, nothing changed (204)", this)])
    fragment = median_of(results[("poll after a change (board fragment)", this)])
    ratios = ""
    if len(running) > 1:
        base = running[0].label
        parts = []
        for case in list(cases)[:3]:
            b, t = median_of(results[(case, base)]), median_of(results[(case, this)])
            parts.append(f"{case}: p99 {b['p99'] / t['p99']:.2f}× lower, {t['rps'] / b['rps']:.2f}× the requests/s")
        ratios = "Against the baseline, in the same run: " + "; ".join(parts) + "."
    verdict = (
        f"Target (poll p99 at most 50 ms with {args.viewers} closed-loop clients): "
        f"{'met' if poll['p99'] <= 50 else 'missed'} for the 204 poll (p99 {poll['p99']:.1f} ms), "
        f"{'met' if fragment['p99'] <= 50 else 'missed'} for the board fragment (p99 {fragment['p99']:.1f} ms)."
    )
    print(table)
    print(ratios)
    print(verdict)
    if args.write:
        section = "\n".join(
            [
                START,
                "## Web app (`scripts/bench_web.py`)",
                "",
                f"`hanafuda-referee serve` on 127.0.0.1, a 3-player session of 10 rounds, {args.viewers} concurrent "
                f"clients ({args.requests} requests each in the closed loops, a new connection per request), load "
                f"generator in another process on the same machine ({os.cpu_count()} cores, CPython "
                f"{platform.python_version()}). {args.repeats} interleaved repeats, medians. Load average "
                f"(1/5/15 min) at the start and after each repeat: {', '.join(loads)}. Measured "
                f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
                "",
                table,
                "",
                ratios,
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
        elif "## Web app (`scripts/bench_web.py`)" in text and END in text:
            a = text.index("## Web app (`scripts/bench_web.py`)")
            text = text[:a] + section + text[text.index(END) + len(END) :]
        else:
            text = text.rstrip("\n") + "\n\n" + section + "\n"
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
