"""Koi-Koi test notation: card groups by their KOIKOI-RULES.md names and a one-call scorer,
so the tests read like the rule tables."""

from __future__ import annotations

from collections.abc import Sequence

from referee.koikoi.game import play_game
from referee.koikoi.round import RoundResult, make_round, score_round
from referee.ruleset import load_ruleset

BRIGHTS4 = ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"]  # no rain man
RAIN_MAN = "willow-rain-man"
POETRY = ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon"]
BLUE = ["peony-blue-ribbon", "chrysanthemum-blue-ribbon", "maple-blue-ribbon"]
PLAIN = ["wisteria-ribbon", "iris-ribbon", "bush-clover-ribbon", "willow-ribbon"]
INOSHIKACHO = ["bush-clover-boar", "maple-deer", "peony-butterflies"]
OTHER_ANIMALS = ["plum-bush-warbler", "wisteria-cuckoo", "iris-bridge", "pampas-geese", "willow-swallow"]
SAKE_CUP = "chrysanthemum-sake-cup"
#: The 24 chaff, the willow lightning and the yellow paulownia among them.
CHAFF = [
    "pine-chaff-1", "pine-chaff-2", "plum-chaff-1", "plum-chaff-2", "cherry-chaff-1", "cherry-chaff-2",
    "wisteria-chaff-1", "wisteria-chaff-2", "iris-chaff-1", "iris-chaff-2", "peony-chaff-1", "peony-chaff-2",
    "bush-clover-chaff-1", "bush-clover-chaff-2", "pampas-chaff-1", "pampas-chaff-2",
    "chrysanthemum-chaff-1", "chrysanthemum-chaff-2", "maple-chaff-1", "maple-chaff-2",
    "willow-lightning", "paulownia-chaff-1", "paulownia-chaff-yellow", "paulownia-chaff-2",
]
PLAYERS = ["A", "B"]


def rules(preset: str = "koikoi", **options):
    """A preset with options as keyword arguments."""
    return load_ruleset(preset, options)


def score(pile: Sequence[str], other: Sequence[str] = (), *, preset: str = "koikoi", stopped_by: str | None = "A",
          calls: Sequence[str] = (), month: int | None = 1, hands=None, dealer: str = "A",
          **options) -> RoundResult:
    """Score a round in which A holds ``pile`` and B ``other``; ``calls`` names who called koi-koi, in order."""
    r = rules(preset, **options)
    rnd = make_round(r, PLAYERS, {"A": list(pile), "B": list(other)}, hands,
                     [{"player": p, "call": "koikoi"} for p in calls], stopped_by, dealer, month)
    return score_round(r, rnd)


def yaku_of(result: RoundResult, player: str = "A") -> dict[str, int]:
    """Yaku id -> points of one player (scoring or not)."""
    return {y.code: y.points for y in result.player(player).yaku}


def game(played, preset: str = "koikoi", dealer: str = "A", **options):
    """Play a game of round objects (``played``); options as keyword arguments."""
    return play_game(rules(preset, **options), PLAYERS, played, dealer)


def check_lines(result: RoundResult) -> None:
    """Each player's explanation lines sum to their round_score (KOIKOI-RULES.md "JSON")."""
    for p in result.players:
        assert sum(line.points for line in p.lines) == p.round_score, p
