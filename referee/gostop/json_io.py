"""The JSON face of Go-Stop: a round or a game object in, its result object out.

Shapes: GOSTOP-RULES.md "JSON" and docs/GOSTOP.md.  ``referee.api`` calls these through the
family registry.  Every user mistake raises ``RefereeError`` with a code.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.errors import check_keys, game_rounds
from referee.gostop.game import ROUND_KEYS as GAME_ROUND_KEYS
from referee.gostop.game import play_game, score_data
from referee.gostop.rules import GostopRules

#: Keys a round object may have.
ROUND_KEYS = frozenset({"ruleset", "options", "players", "dealer", *GAME_ROUND_KEYS})
#: Keys a game object may have.
GAME_KEYS = frozenset({"ruleset", "options", "players", "dealer", "rounds"})


def round_json(rules: GostopRules, data: Mapping[str, Any]) -> dict:
    """Score one round object (GOSTOP-RULES.md "JSON", round input) under ``rules``; the round result."""
    check_keys(data, ROUND_KEYS, "round")
    result = score_data(rules, data.get("players"), data, data.get("dealer"))
    return {"ruleset": rules.name, **result.to_json(), "entered_totals": "totals" in data}


def game_json(rules: GostopRules, data: Mapping[str, Any]) -> dict:
    """Play a game object (GOSTOP-RULES.md "JSON", game input) under ``rules``; the game result."""
    rounds = game_rounds(data, GAME_KEYS)
    return play_game(rules, data.get("players"), rounds, data.get("dealer")).to_json()


def next_round(game: Mapping[str, Any]) -> dict[str, Any]:
    """What a lone round needs from the game before it (``game["rounds"]``): the nagari carry."""
    rounds = game.get("rounds") or ()
    return {"nagari_carry": rounds[-1]["next_nagari_carry"] if rounds else 1}


def yaku_made(rules: GostopRules, game_round: Mapping[str, Any]) -> dict[str, list[dict[str, str]]]:
    """Player -> the point lines they made in one round of a game result: ``[{id, name, name_ko,
    name_ja}]``: ``name_ko`` the Korean name; ``name_ja`` the same, kept for the local-name slot
    every family fills (callers that read it keep working)."""
    names = {y.id: (y.en, y.ja) for y in rules.yaku}
    out = {}
    for p, r in game_round.get("players", {}).items():
        made = []
        for y in r.get("points", ()):
            en, ko = names.get(y["id"], (y["name"], y["name_ko"]))
            made.append({"id": y["id"], "name": en, "name_ko": ko, "name_ja": ko})
        out[p] = made
    return out
