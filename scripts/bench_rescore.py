"""Benchmark: what-if re-scoring of a 1,000-round history (issue 12: at most 200 ms).

Usage: python scripts/bench_rescore.py [--rounds 1000] [--repeats 9] [--seed 1]

A 3-player Roppyakken session of ``--rounds`` rounds (``rounds = N``, ``winner =
most-times-over-target``, no instant wins, so the game lasts the whole history), each round a
realistic deal: the 48 cards captured in pairs by random players (even piles) and three 7-card
dealt hands without a four of a month.  Timed side by side in one run, ``--repeats`` times each, median:

- ``re-score``: the history played once under the new rules (``referee.rescore.replay``), what
  "re-scoring a 1,000-round history" costs;
- ``what-if``: ``referee.rescore.rescore``, both sides (as it was, and the new rules) and the
  round-by-round comparison, what the CLI runs and the web page and API run first;
- ``what-if, own side kept``: the same with the session's own side already replayed, as the web
  page and the API keep it per session revision (``referee.web.service.rules.compare``);

for two what-ifs: one option (``fuke.threshold = 40``) and another preset (``roppyakken-ja``);
and, for scale, the Hachi-hachi half game of ``referee/examples/hachihachi-game.json`` (6 rounds)
re-scored with FudaWiki's values (``hachihachi-fudawiki``).
Wall-clock and process CPU time are both reported (the machine is shared).  Figures go to
docs/BENCHMARKS.md.  Timing lives here, never in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from collections import Counter
from importlib import resources

from referee.cards import BY_ID, CARD_IDS
from referee.rescore import replay, rescore

PLAYERS = ("A", "B", "C")


def history(n: int, seed: int) -> dict:
    """A game object of ``n`` realistic rounds (see the module docstring)."""
    rng = random.Random(seed)
    rounds = []
    while len(rounds) < n:
        deck = list(CARD_IDS)
        rng.shuffle(deck)
        hands = {p: deck[i * 7:(i + 1) * 7] for i, p in enumerate(PLAYERS)}
        if any(max(Counter(BY_ID[c].month for c in h).values()) == 4 for h in hands.values()):
            continue  # a misdeal is dealt again at the table
        rng.shuffle(deck)
        piles: dict[str, list[str]] = {p: [] for p in PLAYERS}
        for i in range(0, 48, 2):
            piles[rng.choice(PLAYERS)] += deck[i:i + 2]
        rounds.append({"piles": piles, "hands": hands})
    # No instant wins: shiko or nanatan would end the game within a few rounds.
    return {"ruleset": "roppyakken",
            "options": {"rounds": n, "winner": "most-times-over-target", "instant_wins": False},
            "players": list(PLAYERS), "dealer": "A", "rounds": rounds}


def run(n: int, repeats: int, seed: int) -> dict[str, dict[str, float]]:
    """Median wall and CPU milliseconds of each case."""
    game = history(n, seed)
    opts = game["options"]
    own = replay(game)
    hachi = json.loads(resources.files("referee").joinpath("examples/hachihachi-game.json").read_text("utf-8"))
    cases = {
        "re-score, fuke.threshold=40": lambda: replay({**game, "options": {**opts, "fuke.threshold": 40}}),
        "what-if, fuke.threshold=40": lambda: rescore(game, "roppyakken", {**opts, "fuke.threshold": 40}),
        "  own side kept": lambda: rescore(game, "roppyakken", {**opts, "fuke.threshold": 40}, before=own),
        "re-score, roppyakken-ja": lambda: replay({**game, "ruleset": "roppyakken-ja"}),
        "what-if, roppyakken-ja": lambda: rescore(game, "roppyakken-ja", opts),
        "  own side kept ": lambda: rescore(game, "roppyakken-ja", opts, before=own),
        "Hachi-hachi 6 rounds, what-if": lambda: rescore(hachi, "hachihachi-fudawiki", hachi["options"]),
    }
    wall: dict[str, list[float]] = {k: [] for k in cases}
    cpu: dict[str, list[float]] = {k: [] for k in cases}
    for fn in cases.values():
        fn()  # warm-up: imports, ruleset caches
    for _ in range(repeats):
        for name, fn in cases.items():
            w, c = time.perf_counter(), time.process_time()
            fn()
            cpu[name].append(1e3 * (time.process_time() - c))
            wall[name].append(1e3 * (time.perf_counter() - w))
    return {k: {"wall": statistics.median(wall[k]), "cpu": statistics.median(cpu[k])} for k in cases}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    medians = run(args.rounds, args.repeats, args.seed)
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}; "
          f"one process, one core; load average {os.getloadavg()[0]:.1f}")
    print(f"{args.rounds} rounds, {args.repeats} repeats, median ms (target: 200):")
    for name, v in medians.items():
        print(f"  {name:30} wall {v['wall']:8.1f}   cpu {v['cpu']:8.1f}")


if __name__ == "__main__":
    main()
