"""Hachi-hachi (八八, "Eighty-eight"): round settlement and game ledger in kan and mon.

Pure core: imports nothing outside the standard library and ``referee``'s core modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.errors import RefereeError
from referee.hachihachi.game import GameResult, play_game
from referee.hachihachi.json_io import ROUND_KEYS, round_kwargs, rules_from
from referee.hachihachi.money import format_mon, parse_money
from referee.hachihachi.round import DekiyakuCall, RoundInput, make_round
from referee.hachihachi.rules import HachihachiRules
from referee.hachihachi.settlement import RoundResult, settle
from referee.hachihachi.suggest import Suggestion, suggest


def settle_round(rules: HachihachiRules, **round_fields: Any) -> RoundResult:
    """Validate and settle one round: ``make_round`` keyword arguments in, ``RoundResult`` out."""
    return settle(rules, make_round(rules, **round_fields))


def settle_round_json(data: Mapping[str, Any]) -> dict:
    """Settle a round object (docs/HACHIHACHI.md "Round input") and return the "Round output" dict.

    Raises ``RefereeError`` for any user mistake.
    """
    rules = rules_from(data)
    return settle_round(rules, **round_kwargs(data)).to_json()


def suggest_json(data: Mapping[str, Any]) -> dict:
    """Suggestions for a round object (decisions optional): see ``Suggestion.to_json``."""
    rules = rules_from(data)
    kwargs = round_kwargs(data)
    kwargs["dekiyaku"] = None
    return suggest(rules, make_round(rules, **kwargs)).to_json()


def play_game_json(data: Mapping[str, Any]) -> dict:
    """Play a game object (docs/HACHIHACHI.md "Game input") and return the "Game output" dict.

    ``{"ruleset", "options", "players", "dealer", "rounds": [round objects]}``;
    each round object takes the round keys except ``ruleset`` and ``options``.
    Raises ``RefereeError`` for any user mistake.
    """
    if not isinstance(data, Mapping):
        raise RefereeError("bad-round", f"a game must be a JSON object, got {type(data).__name__}")
    unknown = [k for k in data if k not in ("ruleset", "options", "players", "dealer", "rounds")]
    if unknown:
        raise RefereeError(
            "bad-round",
            f"unknown game keys {unknown}; expected ruleset, options, players, dealer, rounds",
        )
    rules = rules_from(data)
    players = data.get("players")
    rounds = data.get("rounds")
    if not isinstance(players, list):
        raise RefereeError("bad-round", f"players is {players!r}; expected a list of player names")
    if not isinstance(rounds, list):
        raise RefereeError("bad-round", f"rounds is {rounds!r}; expected a list of round objects")
    allow = tuple(k for k in ROUND_KEYS if k not in ("ruleset", "options"))
    parsed = []
    for i, r in enumerate(rounds, 1):
        try:
            if isinstance(r, dict) and r.get("players", players) != players:
                raise RefereeError(
                    "bad-round", f"players {r['players']} differ from the game's {players}"
                )
            kw = round_kwargs({**r, "players": players} if isinstance(r, dict) else r, allow=allow)
        except RefereeError as e:
            raise RefereeError(e.code, f"round {i}: {e.message}") from None
        kw.pop("players")
        for key in ("dealer", "carry"):
            if key not in r:
                kw.pop(key)
        parsed.append(kw)
    return play_game(rules, players, parsed, dealer=data.get("dealer")).to_json()


__all__ = [
    "DekiyakuCall",
    "GameResult",
    "HachihachiRules",
    "RoundInput",
    "RoundResult",
    "Suggestion",
    "format_mon",
    "make_round",
    "parse_money",
    "play_game",
    "play_game_json",
    "settle",
    "settle_round",
    "settle_round_json",
    "suggest",
    "suggest_json",
]
