"""The JSON face of Koi-Koi: a round or a game object in, its result object out.

Shapes: KOIKOI-RULES.md "JSON" and docs/KOIKOI.md.  ``referee.api`` calls these through
the family registry.  Every user mistake raises ``RefereeError`` with a code.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee import totals as entered
from referee.errors import RefereeError, check_keys, game_rounds
from referee.koikoi.game import ROUND_KEYS as GAME_ROUND_KEYS
from referee.koikoi.game import check_ending, month_of_round, play_game
from referee.koikoi.round import make_round, score_round
from referee.koikoi.rules import KoikoiRules
from referee.koikoi.totals import score_totals

#: Keys a round object may have.
ROUND_KEYS = frozenset({"ruleset", "options", "players", "dealer", "month", *GAME_ROUND_KEYS})
#: Keys a game object may have.
GAME_KEYS = frozenset({"ruleset", "options", "players", "dealer", "rounds"})


def round_json(rules: KoikoiRules, data: Mapping[str, Any]) -> dict:
    """Score one round object (KOIKOI-RULES.md "JSON", round input) under ``rules``; the round result."""
    check_keys(data, ROUND_KEYS, "round")
    if "totals" in data:  # entered totals, scored on paper
        entered.refuse_cards(data, also=("calls", "stopped_by"))
        result = score_totals(rules, data.get("players"), data["totals"], data.get("dealer"), data.get("month"),
                              data.get("void", False))
        return {"ruleset": rules.name, **result.to_json()}
    if "void" in data:
        raise RefereeError("bad-round", "\"void\" is only for a round of entered totals")
    rnd = make_round(rules, data.get("players"), data.get("piles"), data.get("hands"), data.get("calls") or (),
                     data.get("stopped_by"), data.get("dealer"), data.get("month"))
    check_ending(data)  # after the cards and players are checked, which name more
    return {"ruleset": rules.name, **score_round(rules, rnd).to_json()}


def game_json(rules: KoikoiRules, data: Mapping[str, Any]) -> dict:
    """Play a game object (KOIKOI-RULES.md "JSON", game input) under ``rules``; the game result."""
    rounds = game_rounds(data, GAME_KEYS)
    return play_game(rules, data.get("players"), rounds, data.get("dealer")).to_json()


def next_round(game: Mapping[str, Any]) -> dict[str, Any]:
    """What a lone round needs from the game before it (``game["rounds"]``): its month."""
    return {"month": month_of_round(len(game.get("rounds") or ()) + 1)}


def yaku_made(rules: KoikoiRules, game_round: Mapping[str, Any]) -> dict[str, list[dict[str, str]]]:
    """Player -> the yaku and lucky hands they made in one round of a game result, scoring or
    not (the player pages): ``[{id, name, name_ja}]``.

    Names are the ruleset's, not the round's line labels: teshi's line names its month
    ("Four of a Month: Pine"), but teshi in two months is one lucky hand made twice."""
    names = {t.id: (t.en, t.ja) for t in (*rules.yaku, *rules.teyaku)}

    def named(y: Mapping[str, Any]) -> dict[str, str]:
        en, ja = names.get(y["id"], (y["name"], y["name_ja"]))
        return {"id": y["id"], "name": en, "name_ja": ja}

    return {
        p: [named(y) for y in (*r.get("yaku", ()), *r.get("lucky_hands", ()))]
        for p, r in game_round.get("players", {}).items()
    }
