"""The JSON face of Hachi-hachi: a round or a game as the CLI and web app send it.

Entry points: ``settle_round_json``, ``play_game_json`` and ``suggest_json``; ``round_json``
and ``game_json`` are the first two with the ruleset already loaded (the family interface
that ``referee.api`` calls through ``referee.families``).

Shapes are documented in docs/HACHIHACHI.md.  Every user mistake raises
``RefereeError`` with a code (the CLI prints one line and exits 2).
Pure core: standard library and ``referee`` only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.errors import RefereeError, shown
from referee.hachihachi.game import play_game
from referee.hachihachi.round import make_round
from referee.hachihachi.rules import HachihachiRules, from_table
from referee.hachihachi.settlement import RoundResult, settle
from referee.hachihachi.suggest import suggest
from referee.hachihachi.totals import settle_totals, totals_kwargs
from referee.presets import read_table

#: Keys a round object may have.
ROUND_KEYS = (
    "ruleset",
    "options",
    "players",
    "dealer",
    "field",
    "multiplier",
    "carry",
    "hands",
    "dropped",
    "mizuten",
    "dekiyaku",
    "hatto",
    "piles",
)


def rules_from(data: Mapping[str, Any], default: str = "hachihachi") -> HachihachiRules:
    """Load the ruleset a JSON object names (``ruleset``, ``options``); it must be Hachi-hachi."""
    name = data.get("ruleset", default)
    options = data.get("options") or {}
    if not isinstance(name, str):
        raise RefereeError(
            "bad-round", f"ruleset is {name!r}; expected a preset name or a file path"
        )
    if not isinstance(options, Mapping):
        raise RefereeError(
            "bad-round", f"options is {shown(options)}; expected an object of option values"
        )
    # Read here, not through the family registry (which lists this package): a ruleset of
    # another family is refused before its own checks run.
    table, source = read_table(name, options)
    if table.get("game") != "hachihachi":
        raise RefereeError("bad-ruleset", f"ruleset {name!r} is for {table.get('game')}, not hachihachi")
    return from_table(table, source)


def _typed(
    data: Mapping[str, Any], key: str, types: tuple[type, ...], expected: str, default: Any
) -> Any:
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
        raise RefereeError("bad-round", f"{key} is {shown(value)}; expected {expected}")
    return value


def _card_lists(data: Mapping[str, Any], key: str) -> dict[str, list[str]]:
    value = _typed(data, key, (dict,), "an object of player -> list of cards", {})
    for p, cards in value.items():
        if not isinstance(cards, list):
            raise RefereeError("bad-round", f"{key}.{p} is {shown(cards)}; expected a list of cards")
    return value


def round_kwargs(data: Mapping[str, Any], *, allow: tuple[str, ...] = ROUND_KEYS) -> dict[str, Any]:
    """``make_round`` keyword arguments from a round object; ``RefereeError("bad-round")``."""
    if not isinstance(data, Mapping):
        raise RefereeError("bad-round", f"a round must be a JSON object, got {type(data).__name__}")
    unknown = [k for k in data if k not in allow]
    if unknown:
        raise RefereeError(
            "bad-round", f"unknown round keys {unknown}; expected some of {list(allow)}"
        )
    players = _typed(data, "players", (list,), "a list of player names", None)
    if players is None:
        raise RefereeError("bad-round", "players is missing; expected a list of player names")
    dekiyaku = _typed(data, "dekiyaku", (list,), "a list of {player, yaku, decision}", None)
    if dekiyaku is not None and not all(isinstance(c, dict) for c in dekiyaku):
        raise RefereeError(
            "bad-decision",
            f"dekiyaku is {shown(dekiyaku)}; expected a list of objects",
        )
    return {
        "players": players,
        "dealer": _typed(data, "dealer", (str,), "a player name", None),
        "field": _typed(data, "field", (list,), "a list of 6 cards", None),
        "multiplier": _typed(data, "multiplier", (int,), "an integer", None),
        "carry": _typed(data, "carry", (list,), "a list of queued multipliers", []),
        "hands": _card_lists(data, "hands"),
        "dropped": _typed(
            data, "dropped", (dict,), "an object of player -> {order, forced, hand}", {}
        ),
        "mizuten": _typed(data, "mizuten", (bool,), "true or false", False),
        "dekiyaku": dekiyaku,
        "hatto": _typed(data, "hatto", (list,), "a list of player names", []),
        "piles": _card_lists(data, "piles"),
    }


def settle_round(rules: HachihachiRules, **round_fields: Any) -> RoundResult:
    """Validate and settle one round: ``make_round`` keyword arguments in, ``RoundResult`` out."""
    return settle(rules, make_round(rules, **round_fields))


def settle_round_json(data: Mapping[str, Any]) -> dict:
    """Settle a round object (docs/HACHIHACHI.md "Round input", or "Entered totals") and return the
    "Round output" dict.

    Raises ``RefereeError`` for any user mistake.
    """
    return round_json(rules_from(data), data)


def round_json(rules: HachihachiRules, data: Mapping[str, Any]) -> dict:
    """``settle_round_json`` with the ruleset already loaded (the family interface)."""
    if isinstance(data, Mapping) and "totals" in data:  # entered totals, settled on paper
        return settle_totals(rules, **totals_kwargs(data)).to_json()
    return settle_round(rules, **round_kwargs(data)).to_json()


def suggest_json(data: Mapping[str, Any]) -> dict:
    """Suggestions for a round object (decisions optional): see ``Suggestion.to_json``."""
    rules = rules_from(data)
    kwargs = round_kwargs(data)
    kwargs["dekiyaku"] = None
    return suggest(rules, make_round(rules, **kwargs)).to_json()


#: Keys one round of a game object may have.
GAME_ROUND_KEYS = frozenset(k for k in ROUND_KEYS if k not in ("ruleset", "options")) | {"totals", "winner"}


def next_round(game: Mapping[str, Any]) -> dict[str, Any]:
    """What a lone next round needs from a game result (``play_game_json``) whose ``rounds`` are
    the rounds before it: the multipliers the last of them carried over."""
    rounds = game.get("rounds") or []
    carry = list(rounds[-1]["result"].get("carry") or []) if rounds else []
    return {"carry": carry} if carry else {}


def play_game_json(data: Mapping[str, Any]) -> dict:
    """Play a game object (docs/HACHIHACHI.md "Game input") and return the "Game output" dict.

    ``{"ruleset", "options", "players", "dealer", "rounds": [round objects]}``;
    each round object takes the round keys except ``ruleset`` and ``options``.
    Raises ``RefereeError`` for any user mistake.
    """
    if not isinstance(data, Mapping):
        raise RefereeError("bad-round", f"a game must be a JSON object, got {type(data).__name__}")
    return game_json(rules_from(data), data)


def game_json(rules: HachihachiRules, data: Mapping[str, Any]) -> dict:
    """``play_game_json`` with the ruleset already loaded (the family interface)."""
    unknown = [k for k in data if k not in ("ruleset", "options", "players", "dealer", "rounds")]
    if unknown:
        raise RefereeError(
            "bad-round",
            f"unknown game keys {unknown}; expected ruleset, options, players, dealer, rounds",
        )
    players = data.get("players")
    rounds = data.get("rounds")
    if not isinstance(players, list):
        raise RefereeError("bad-round", f"players is {shown(players)}; expected a list of player names")
    if not isinstance(rounds, list):
        raise RefereeError("bad-round", f"rounds is {shown(rounds)}; expected a list of round objects")
    allow = tuple(k for k in ROUND_KEYS if k in GAME_ROUND_KEYS)
    parsed = []
    for i, r in enumerate(rounds, 1):
        try:
            if isinstance(r, dict) and r.get("players", players) != players:
                raise RefereeError(
                    "bad-round", f"players {r['players']} differ from the game's {players}"
                )
            if isinstance(r, dict) and "totals" in r:
                kw = totals_kwargs({**r, "players": players})
            else:
                kw = round_kwargs({**r, "players": players} if isinstance(r, dict) else r, allow=allow)
        except RefereeError as e:
            raise e.in_round(i) from None
        kw.pop("players")
        for key in ("dealer", "carry"):
            if key not in r:
                kw.pop(key)
        parsed.append(kw)
    return play_game(rules, players, parsed, dealer=data.get("dealer")).to_json()


def yaku_made(rules: HachihachiRules, game_round: Mapping[str, Any]) -> dict[str, list[dict[str, str]]]:
    """Player -> the teyaku, dekiyaku and special yaku of one round of a game result (its
    ``result``): ``[{id, name, name_ja}]``."""
    result = game_round.get("result") or {}
    made: dict[str, list[dict[str, str]]] = {}
    for p, hits in (result.get("teyaku") or {}).items():
        made.setdefault(p, []).extend({k: h[k] for k in ("id", "name", "name_ja")} for h in hits)
    names = {d.id: (d.en, d.ja) for d in rules.dekiyaku}
    for p, ids in (result.get("dekiyaku") or {}).items():
        made.setdefault(p, []).extend(
            {"id": i, "name": names.get(i, (i, ""))[0], "name_ja": names.get(i, (i, ""))[1]} for i in ids
        )
    special = result.get("special")
    if special:
        made.setdefault(special["player"], []).append({k: special[k] for k in ("id", "name", "name_ja")})
    return made
