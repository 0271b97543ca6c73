"""A toy game family for the registry tests: each card in a pile is worth one point; first to the
target wins.  It enters rounds with the card picker and shows a points board, as a family may
by naming them (``referee.family.Family``); tests register it with the ``toy`` fixture."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import RefereeError
from referee.explain import Line
from referee.family import Family
from referee.notation import parse_groups
from referee.schema import build, opt


@dataclass(frozen=True)
class ToyOptions:
    target: int = opt(4, "Points that end the game.", min=1)


@dataclass(frozen=True)
class ToyRules:
    name: str
    title: str
    description: str
    options: ToyOptions
    game: str = "toy"


def toy_from_table(table: dict, source: str) -> ToyRules:
    options = build(ToyOptions, table.get("options", {}), source, "options")
    return ToyRules(table["name"], table.get("title", ""), table.get("description", ""), options)


def toy_score_round(players: list[str], piles: Mapping[str, list[str]], dealer: str) -> dict[str, Any]:
    ids = parse_groups({p: piles.get(p, []) for p in players})
    lines = [Line(p, "cards", f"Cards ×{len(ids[p])}", "札", len(ids[p]), ids[p]) for p in players if ids[p]]
    return {
        "players": {p: {"yaku": [], "lucky_hands": [], "round_score": len(ids[p])} for p in players},
        "dealer": dealer,
        "next_dealer": max(players, key=lambda p: len(ids[p])),
        "warnings": [],
        "explanation": [line.to_json() for line in lines],
    }


def toy_score_json(rules: ToyRules, data: Mapping[str, Any]) -> dict:
    players = list(data["players"])
    return toy_score_round(players, data.get("piles") or {}, data.get("dealer") or players[0])


def toy_game_json(rules: ToyRules, data: Mapping[str, Any]) -> dict:
    players = list(data["players"])
    dealer, totals, rounds, winner = data.get("dealer") or players[0], dict.fromkeys(players, 0), [], None
    for i, r in enumerate(data["rounds"], 1):
        if winner:
            raise RefereeError("game-over", f"round {i}: the game is over: {winner} won")
        try:
            result = toy_score_round(players, r.get("piles") or {}, dealer)
        except RefereeError as e:
            raise RefereeError(e.code, f"round {i}: {e.message}") from None
        for p in players:
            totals[p] += result["players"][p]["round_score"]
        rounds.append({"round": i, **result, "totals": dict(totals)})
        dealer = result["next_dealer"]
        top = max(totals.values())
        if top >= rules.options.target:
            winner = next(p for p in players if totals[p] == top)
    return {"players": players, "rounds": rounds, "totals": totals, "next_dealer": dealer, "winner": winner}


TOY = Family(
    name="toy",
    title="Toy",
    from_table=toy_from_table,
    make_round=toy_score_round,
    score_round=toy_score_round,
    play_game=toy_game_json,
    score_json=toy_score_json,
    game_json=toy_game_json,
    round_keys=frozenset({"piles"}),
)
TOY_PRESET = 'game = "toy"\ntitle = "Toy: a point a card"\ndescription = "For the registry test."\n'


