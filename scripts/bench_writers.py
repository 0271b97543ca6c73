"""Benchmark: busy writers.  20 clients each saving 20 rounds at once; no save may fail.

Usage: python scripts/bench_writers.py [--writers 20] [--saves 20] [--repeats 3] [--baseline DIR]
[--write docs/BENCHMARKS.md]

Starts ``hanafuda-referee serve`` (and, with ``--baseline DIR``, another checkout's ``serve``
beside it, as in ``bench_web.py``), then, interleaving the servers for ``--repeats`` rounds:

- ``20 tables``: each writer saves ``--saves`` rounds into its own session (the target's case);
- ``one table``: ``--table-writers`` (6: every phone of a six-player table) save ``--saves``
  rounds each into one session at once.

Each save is ``POST /api/v1/sessions/<token>/rounds`` with a 24-card round and a fresh
``form_token``; a save fails unless it answers 201.  Prints failed saves and the save latency
(p50, p99, max, ms); ``--write`` replaces the "Busy writers" section of that Markdown file.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_web import interleave, load_average, median_of, request, run_threads, servers

START, END = "<!-- bench_writers:start -->", "<!-- bench_writers:end -->"


def a_round(i: int) -> dict:
    """A modest, valid Roppyakken round of 24 cards (the bench_web and screenshot rounds): never
    an instant win, so a session takes hundreds of them."""
    from screenshots import piles

    return {"piles": piles(i % 3, range(2, 13, 2) if i % 2 else range(1, 13, 2))}


def new_session(port: int) -> str:
    status, body = request(
        port,
        "POST",
        "/api/v1/sessions",
        {"name": "Busy", "players": ["Aki", "Ben", "Chiyo"], "options": {"target": 1_000_000}},
    )
    assert status == 201, body
    return json.loads(body)["edit_token"]


def writers(port: int, n: int, saves: int, one_table: bool) -> dict:
    tokens = [new_session(port)] * n if one_table else [new_session(port) for _ in range(n)]

    def work(i: int, latencies: list[float], errors: list[int]) -> None:
        for k in range(saves):
            t0 = time.perf_counter()
            body = {**a_round(i + k), "form_token": uuid.uuid4().hex}
            try:
                status, _ = request(port, "POST", f"/api/v1/sessions/{tokens[i]}/rounds", body)
            except OSError:  # no answer within the client's 60 s: a failed save
                status = 0
            latencies.append(time.perf_counter() - t0)
            if status != 201:
                errors.append(status)

    return run_threads(n, work)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--writers", type=int, default=20)
    ap.add_argument("--saves", type=int, default=20)
    ap.add_argument("--table-writers", type=int, default=6, help="writers on the one shared session")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--baseline", default=None, help="another checkout to compare, e.g. a worktree of main")
    ap.add_argument("--write", default=None, help="Markdown file whose Busy writers section to replace")
    args = ap.parse_args(argv)
    loads = [load_average()]
    cases = {
        f"{args.writers} tables": (args.writers, False),
        f"one table, {args.table_writers} phones": (args.table_writers, True),
    }
    with tempfile.TemporaryDirectory() as tmp:
        running = servers(args.baseline, tmp)
        runs = {case: (lambda s, n=n, one=one: writers(s.port, n, args.saves, one)) for case, (n, one) in cases.items()}
        try:
            results = interleave(runs, running, args.repeats, loads)
        finally:
            for s in running:
                s.stop()
    rows = []
    for case in cases:
        for s in running:
            m = median_of(results[(case, s.label)])
            rows.append(
                f"| {case} | {s.label} | {m['requests']} | {m['errors']} | {m['p50']:.0f} | {m['p99']:.0f} | "
                f"{m['max']:.0f} |"
            )
    table = "\n".join(
        [
            "| case | server | saves | failed | p50 ms | p99 ms | max ms |",
            "|---|---|---|---|---|---|---|",
            *rows,
        ]
    )
    this = running[-1].label
    target = median_of(results[(f"{args.writers} tables", this)])
    worst, failed = target["p99"], target["errors"]
    verdict = (
        f"Target (no failed save for {args.writers} writers × {args.saves} saves, p99 at most 1 s): "
        f"{'met' if failed == 0 and worst <= 1000 else 'missed'} ({failed} failed, worst p99 {worst:.0f} ms)."
    )
    print(table)
    print(verdict)
    if args.write:
        section = "\n".join(
            [
                START,
                "## Busy writers (`scripts/bench_writers.py`)",
                "",
                f"{args.writers} clients at once, each saving {args.saves} rounds (24 cards each) through "
                f"`POST /api/v1/sessions/<token>/rounds` (a fresh `form_token` each), into their own session "
                f"(`{args.writers} tables`), or {args.table_writers} phones into one session (`one table`); a save "
                "fails unless it answers 201 within 60 s. "
                f"{args.repeats} interleaved repeats (saves and failures summed, latencies the median of the "
                f"repeats), {os.cpu_count()} cores, CPython {platform.python_version()}; load average at the start "
                f"and after each repeat: {', '.join(loads)}. "
                f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
                "",
                table,
                "",
                verdict,
                "",
                END,
            ]
        )
        path = Path(args.write)
        text = path.read_text(encoding="utf-8")
        if START in text and END in text:
            text = text[: text.index(START)] + section + text[text.index(END) + len(END) :]
        else:
            text = text.rstrip("\n") + "\n\n" + section + "\n"
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
