"""Benchmark: rounds scored per second, Roppyakken (3 players) and Koi-Koi (2 players), random full deals.

Usage: python scripts/bench_scoring.py [--rounds 5000] [--repeats 7] [--preset roppyakken] [--koikoi-preset koikoi]
                                       [--clock wall|cpu]

Prints the median rounds/s of repeated runs for two paths per game, interleaved in one run, timed by
the wall clock or (``--clock cpu``) by the process's CPU time, which is steadier on a shared machine:
- ``score``: ``score_round`` on validated rounds (the scorer itself);
- ``parse+score``: ``make_round`` (card parsing and validation) + ``score_round``, as the CLI and web do.
Figures go to docs/BENCHMARKS.md.  Timing lives here, never in tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable

from referee.cards import CARD_IDS, mask
from referee.koikoi import round as koikoi_round
from referee.koikoi.teyaku import find_teyaku
from referee.koikoi.yaku import find_yaku
from referee.roppyakken.round import make_round, score_round
from referee.ruleset import load_ruleset

PLAYERS = ("A", "B", "C")
KOIKOI_PLAYERS = ("A", "B")


def random_deals(n: int, seed: int) -> list[tuple[dict, dict]]:
    """n random 3-player deals: piles split at random cut points, 7-card hands, all 48 cards used."""
    rng = random.Random(seed)
    deals = []
    for _ in range(n):
        deck = list(CARD_IDS)
        rng.shuffle(deck)
        a, b = sorted(rng.sample(range(49), 2))
        piles = {"A": deck[:a], "B": deck[a:b], "C": deck[b:]}
        rng.shuffle(deck)
        hands = {p: deck[i * 7:(i + 1) * 7] for i, p in enumerate(PLAYERS)}
        deals.append((piles, hands))
    return deals


def koikoi_deals(rules, n: int, seed: int) -> list[dict]:
    """n random Koi-Koi rounds (``make_round`` keyword arguments): the 48 cards cut at random into
    A's pile, B's pile and the rest; 8-card dealt hands; 0-3 koi-koi calls; a player with a yaku
    stops (A first), else the hands ran out.  A deal with a lucky hand is a lucky round (no piles)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        deck = list(CARD_IDS)
        rng.shuffle(deck)
        a, b = sorted(rng.sample(range(49), 2))
        piles = {"A": deck[:a], "B": deck[a:b]}
        rng.shuffle(deck)
        hands = {"A": deck[:8], "B": deck[8:16]}
        month = i % 12 + 1
        if any(find_teyaku(rules, h) for h in hands.values()):
            out.append({"piles": {}, "hands": hands, "month": month})
            continue
        stopper = next((p for p in KOIKOI_PLAYERS if find_yaku(rules, mask(piles[p]), month)[0]), None)
        calls = [{"player": rng.choice(KOIKOI_PLAYERS)} for _ in range(rng.randrange(4))]
        out.append({"piles": piles, "hands": hands, "calls": calls, "stopped_by": stopper, "month": month})
    return out


#: The clocks ``--clock`` picks: wall time, or the process's CPU time.
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def _rate(n: int, work: Callable[[], None], clock: Callable[[], float] = time.perf_counter) -> float:
    t = clock()
    work()
    return n / (clock() - t)


def run(rounds: int, repeats: int, preset: str, koikoi_preset: str, clock: str = "wall") -> dict[str, float]:
    """Median rounds per second for each game and path, the paths interleaved in every repeat."""
    # Misdeal hands would raise; the benchmark scores with the option off so every deal counts.
    rules = load_ruleset(preset, {"hand_four_misdeal": False})
    deals = random_deals(rounds, seed=1)
    inputs = [make_round(rules, PLAYERS, piles, hands) for piles, hands in deals]
    kk_rules = load_ruleset(koikoi_preset)
    kk_deals = koikoi_deals(kk_rules, rounds, seed=2)
    kk_inputs = [koikoi_round.make_round(kk_rules, KOIKOI_PLAYERS, **d) for d in kk_deals]

    def ropp_score() -> None:
        for rnd in inputs:
            score_round(rules, rnd)

    def ropp_parse() -> None:
        for piles, hands in deals:
            score_round(rules, make_round(rules, PLAYERS, piles, hands))

    def kk_score() -> None:
        for rnd in kk_inputs:
            koikoi_round.score_round(kk_rules, rnd)

    def kk_parse() -> None:
        for d in kk_deals:
            koikoi_round.score_round(kk_rules, koikoi_round.make_round(kk_rules, KOIKOI_PLAYERS, **d))

    paths = {
        f"{preset}: score": ropp_score,
        f"{preset}: parse+score": ropp_parse,
        f"{koikoi_preset}: score": kk_score,
        f"{koikoi_preset}: parse+score": kk_parse,
    }
    results: dict[str, list[float]] = {k: [] for k in paths}
    for _ in range(repeats):
        for name, work in paths.items():
            results[name].append(_rate(rounds, work, CLOCKS[clock]))
    return {k: statistics.median(v) for k, v in results.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--preset", default="roppyakken")
    parser.add_argument("--koikoi-preset", default="koikoi")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="wall")
    args = parser.parse_args()
    medians = run(args.rounds, args.repeats, args.preset, args.koikoi_preset, args.clock)
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.processor() or 'unknown cpu'}; one process, one core; load average {os.getloadavg()[0]:.1f}")
    print(f"{args.rounds} rounds x {args.repeats} repeats, interleaved, median rounds/s by {args.clock} time:")
    for name, value in medians.items():
        print(f"  {name:30} {value:10,.0f}")
    for preset in (args.preset, args.koikoi_preset):
        print(f"  ratio score / parse+score ({preset}): "
              f"{medians[f'{preset}: score'] / medians[f'{preset}: parse+score']:.2f}")


if __name__ == "__main__":
    main()
