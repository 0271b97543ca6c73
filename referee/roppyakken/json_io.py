"""The JSON face of the Roppyakken family: a round or a game object in, its result object out.

Shapes: README "JSON formats" (Round input, Round result, Game input and result).
``referee.api`` calls these through the family registry.  Every user mistake raises
``RefereeError`` with a code.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee import totals as entered
from referee.errors import RefereeError, check_keys, game_rounds
from referee.roppyakken.game import game_to_json, play_game
from referee.roppyakken.round import make_round, score_round
from referee.roppyakken.rules import RoppyakkenRules
from referee.roppyakken.totals import score_totals

#: Keys a round object may have (``first_to_target`` only matters within a game; a lone round ignores it).
ROUND_KEYS = frozenset({"ruleset", "options", "players", "dealer", "piles", "hands", "field", "totals", "void",
                        "first_to_target"})
#: Keys a game object may have.
GAME_KEYS = frozenset({"ruleset", "options", "players", "dealer", "rounds"})


def round_json(rules: RoppyakkenRules, data: Mapping[str, Any]) -> dict:
    """Score one round object (README "Round input", or "Entered totals") under ``rules``; the round
    result object."""
    check_keys(data, ROUND_KEYS, "round")
    if "totals" in data:  # entered totals, scored on paper
        entered.refuse_cards(data)
        result = score_totals(rules, data.get("players"), data["totals"], data.get("dealer"), data.get("void", False))
        return {"ruleset": rules.name, **result.to_json()}
    if "void" in data:
        raise RefereeError("bad-round", "\"void\" is only for a round of entered totals; with cards, the referee "
                           "finds fuke itself")
    rnd = make_round(rules, data.get("players"), data.get("piles") or {}, data.get("hands") or {},
                     data.get("dealer"), data.get("field") or [])
    return {"ruleset": rules.name, **score_round(rules, rnd).to_json()}


def game_json(rules: RoppyakkenRules, data: Mapping[str, Any]) -> dict:
    """Play a game object (README "Game input") under ``rules``; the game result object.

    An error inside a round names the round number.
    """
    rounds = game_rounds(data, GAME_KEYS)
    return game_to_json(play_game(rules, data.get("players"), rounds, data.get("dealer")))


def game_summary(rules: RoppyakkenRules, data: Mapping[str, Any]) -> dict:
    """``game_json``'s numbers only (``referee.api.game_summary``'s shape), without building the
    explanation lines' JSON: re-scoring a long history (``referee.rescore``) stays fast."""
    rounds = game_rounds(data, GAME_KEYS)
    state = play_game(rules, data.get("players"), rounds, data.get("dealer"))
    return {
        "ruleset": rules.name, "players": list(state.players), "unit": "points",
        "rounds": [{"round": r.number, "scores": r.result.scores, "totals": dict(r.totals), "void": r.result.void}
                   for r in state.rounds],
        "totals": dict(state.totals),
        "winner": state.winner,
    }


def yaku_made(_rules: RoppyakkenRules, game_round: Mapping[str, Any]) -> dict[str, list[dict[str, str]]]:
    """Player -> the yaku and lucky hands they made in one round of a game result (none in a
    void round, which scores nothing): ``[{id, name, name_ja}]``."""
    if game_round.get("void"):
        return {}
    return {
        p: [{k: y[k] for k in ("id", "name", "name_ja")} for y in (*r.get("yaku", ()), *r.get("lucky_hands", ()))]
        for p, r in game_round.get("players", {}).items()
    }
