"""Benchmark: Roppyakken rounds scored per second (3 players, random full deals).

Usage: python scripts/bench_scoring.py [--rounds 5000] [--repeats 7] [--preset roppyakken]

Prints the median rounds/s of repeated runs for two paths, side by side in one run, by wall clock
and by process CPU time (the machine is shared; CPU time is steadier under load):
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

from referee.cards import CARD_IDS
from referee.roppyakken.round import make_round, score_round
from referee.ruleset import load_ruleset

PLAYERS = ("A", "B", "C")


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


def run(rounds: int, repeats: int, preset: str, clock=time.perf_counter) -> dict[str, float]:
    """Median rounds per second for each path, timed with ``clock``."""
    # Misdeal hands would raise; the benchmark scores with the option off so every deal counts.
    rules = load_ruleset(preset, {"hand_four_misdeal": False})
    deals = random_deals(rounds, seed=1)
    inputs = [make_round(rules, PLAYERS, piles, hands) for piles, hands in deals]
    results: dict[str, list[float]] = {"score": [], "parse+score": []}
    for _ in range(repeats):
        t = clock()
        for rnd in inputs:
            score_round(rules, rnd)
        results["score"].append(rounds / (clock() - t))
        t = clock()
        for piles, hands in deals:
            score_round(rules, make_round(rules, PLAYERS, piles, hands))
        results["parse+score"].append(rounds / (clock() - t))
    return {k: statistics.median(v) for k, v in results.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--preset", default="roppyakken")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.processor() or 'unknown cpu'}; one process, one core; load average {os.getloadavg()[0]:.1f}")
    for label, clock in (("wall clock", time.perf_counter), ("process CPU time", time.process_time)):
        medians = run(args.rounds, args.repeats, args.preset, clock)
        print(f"preset {args.preset}, {args.rounds} rounds x {args.repeats} repeats, median rounds/s by {label}:")
        for name, value in medians.items():
            print(f"  {name:12} {value:10,.0f}")
        print(f"  ratio score / parse+score: {medians['score'] / medians['parse+score']:.2f}")


if __name__ == "__main__":
    main()
