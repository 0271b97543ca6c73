"""Go-Stop test notation: card groups in GOSTOP-RULES.md's words and a one-call scorer, so the
tests read like the rule tables.  ``cite(n)`` cites line n of shared/GOSTOP-RULES.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.gostop.game import play_game
from referee.gostop.inputs import make_round
from referee.gostop.round import RoundResult, score_round
from referee.ruleset import load_ruleset

DRY = ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"]  # brights, no rain gwang
RAIN = "willow-rain-man"
BIRDS = ["plum-bush-warbler", "wisteria-cuckoo", "pampas-geese"]  # godori
ANIMALS = ["iris-bridge", "peony-butterflies", "bush-clover-boar", "maple-deer", "willow-swallow"]  # not birds
CUP = "chrysanthemum-sake-cup"
HONGDAN = ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon"]
CHEONGDAN = ["peony-blue-ribbon", "chrysanthemum-blue-ribbon", "maple-blue-ribbon"]
CHODAN = ["wisteria-ribbon", "iris-ribbon", "bush-clover-ribbon"]
WILLOW_RIBBON = "willow-ribbon"
SSANGPI = ["willow-lightning", "paulownia-chaff-yellow"]
#: The 22 chaff worth 1 pi each.
PI = [
    "pine-chaff-1", "pine-chaff-2", "plum-chaff-1", "plum-chaff-2", "cherry-chaff-1", "cherry-chaff-2",
    "wisteria-chaff-1", "wisteria-chaff-2", "iris-chaff-1", "iris-chaff-2", "peony-chaff-1", "peony-chaff-2",
    "bush-clover-chaff-1", "bush-clover-chaff-2", "pampas-chaff-1", "pampas-chaff-2",
    "chrysanthemum-chaff-1", "chrysanthemum-chaff-2", "maple-chaff-1", "maple-chaff-2",
    "paulownia-chaff-1", "paulownia-chaff-2",
]
THREE = ["A", "B", "C"]
TWO = ["A", "B"]


def cite(line: int) -> str:
    """A test id citing a line of GOSTOP-RULES.md."""
    return f"GOSTOP-RULES.md:{line}"


def rules(preset: str = "gostop", **options: Any):
    """A preset with options as keyword arguments."""
    return load_ruleset(preset, options)


def score(piles: Mapping[str, Sequence[str]], *, preset: str = "gostop", players: Sequence[str] | None = None,
          stopped_by: str | None = "A", options: Mapping[str, Any] | None = None, **fields: Any) -> RoundResult:
    """Score a round: ``piles`` by player, the round's other fields as keywords."""
    r = load_ruleset(preset, dict(options or {}))
    who = list(players or (TWO if r.options.players == (2,) else THREE))
    return score_round(r, make_round(r, who, piles, stopped_by=stopped_by, **fields))


def points_of(pile: Sequence[str], preset: str = "gostop", bonus: Sequence[int] = (), **options: Any) -> dict[str, int]:
    """Point line id -> points of one pile held by A (nobody stops)."""
    res = score({"A": pile}, preset=preset, stopped_by=None, options=options,
                bonus={"A": list(bonus)} if bonus else None)
    return {y.code: y.points for y in res.player("A").points}


def game(rounds: Sequence[Mapping[str, Any]], preset: str = "gostop", players: Sequence[str] = THREE,
         dealer: str = "A"):
    """Play ``rounds`` under a preset."""
    return play_game(load_ruleset(preset), players, rounds, dealer)


def check_sums(res: RoundResult) -> None:
    """Every player's lines sum to their money, the money sums to zero, the payments make the money."""
    for p in res.players:
        assert sum(x.points for x in p.lines) == p.round_score, p.player
    assert sum(res.money.values()) == 0
    flow = dict.fromkeys(res.money, 0)
    for pay in res.payments:
        flow[pay.payer] -= pay.money
        flow[pay.payee] += pay.money
    assert flow == res.money
