"""The JSON face of the Roppyakken family: a round or a game object in, its result object out.

Shapes: README "JSON formats" (Round input, Round result, Game input and result).
``referee.api`` calls these through the family registry.  Every user mistake raises
``RefereeError`` with a code.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.errors import RefereeError
from referee.roppyakken.game import game_to_json, play_game
from referee.roppyakken.round import make_round, score_round
from referee.roppyakken.rules import RoppyakkenRules

#: Keys a round object may have.
ROUND_KEYS = frozenset({"ruleset", "options", "players", "dealer", "piles", "hands", "field"})
#: Keys a game object may have.
GAME_KEYS = frozenset({"ruleset", "options", "players", "dealer", "rounds"})


def check_keys(data: Mapping, known: frozenset[str], what: str) -> None:
    """``RefereeError('bad-round')`` naming the keys of ``data`` outside ``known``."""
    unknown = sorted(set(data) - known)
    if unknown:
        raise RefereeError("bad-round", f"unknown key(s) in the {what}: {', '.join(unknown)}; "
                           f"expected {', '.join(sorted(known))}")


def round_json(rules: RoppyakkenRules, data: Mapping[str, Any]) -> dict:
    """Score one round object (README "Round input") under ``rules``; the round result object."""
    check_keys(data, ROUND_KEYS, "round")
    rnd = make_round(rules, data.get("players"), data.get("piles") or {}, data.get("hands") or {},
                     data.get("dealer"), data.get("field") or [])
    return {"ruleset": rules.name, **score_round(rules, rnd).to_json()}


def game_json(rules: RoppyakkenRules, data: Mapping[str, Any]) -> dict:
    """Play a game object (README "Game input") under ``rules``; the game result object.

    An error inside a round names the round number.
    """
    check_keys(data, GAME_KEYS, "game")
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise RefereeError("bad-round", f"\"rounds\" must be a list of rounds, got {rounds!r}")
    return game_to_json(play_game(rules, data.get("players"), rounds, data.get("dealer")))
