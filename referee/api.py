"""JSON in, JSON out: the public contract of the CLI and the web API.

``score_json`` scores one round and ``game_json`` plays a game, for any family;
the ruleset's ``game`` field picks the family module.  Shapes are documented in
the README ("JSON formats").  Pure core: standard library only.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from referee.errors import RefereeError
from referee.roppyakken.game import game_to_json, play_game
from referee.roppyakken.round import make_round, score_round
from referee.ruleset import load_ruleset, preset_names
from referee.schema import option_specs

__all__ = ["game_json", "game_summary", "load_from_json", "preset_names", "ruleset_json", "score_json"]

ROUND_KEYS = {"ruleset", "options", "players", "dealer", "piles", "hands", "field"}
GAME_KEYS = {"ruleset", "options", "players", "dealer", "rounds"}
#: Family -> (module, round function, game function) for families with their own JSON shapes.
OTHER_FAMILIES = {"hachihachi": ("referee.hachihachi", "settle_round_json", "play_game_json")}


def _expect(data: Mapping, key: str, kind: type, what: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise RefereeError("bad-round", f"\"{key}\" must be {what}, got {value!r}")
    return value


def load_from_json(data: Mapping):
    """The ruleset named by a round or game object (``ruleset``, ``options``).

    Raises ``RefereeError('bad-ruleset')``.
    """
    name = data.get("ruleset", "roppyakken")
    if not isinstance(name, str):
        raise RefereeError("bad-ruleset", f"\"ruleset\" must be a preset name or file, got {name!r}")
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise RefereeError("bad-ruleset", f"\"options\" must be an object, got {options!r}")
    return load_ruleset(name, options)


def _family(rules, index: int, data: Mapping):
    module, *names = OTHER_FAMILIES[rules.game]
    return getattr(importlib.import_module(module), names[index])(dict(data))


def _check_keys(data: Mapping, known: set[str], what: str) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise RefereeError("bad-round", f"unknown key(s) in the {what}: {', '.join(unknown)}; "
                           f"expected {', '.join(sorted(known))}")


def score_json(data: Mapping) -> dict:
    """Score one round object (README "Round input") and return the round result object.

    Raises ``RefereeError`` for any user error (unknown card, duplicate card,
    player count, misdeal, bad ruleset...).
    """
    rules = load_from_json(data)
    if rules.game in OTHER_FAMILIES:
        return _family(rules, 0, data)
    _check_keys(data, ROUND_KEYS, "round")
    rnd = make_round(rules, data.get("players"), data.get("piles") or {}, data.get("hands") or {},
                     data.get("dealer"), data.get("field") or [])
    return {"ruleset": rules.name, **score_round(rules, rnd).to_json()}


def game_json(data: Mapping) -> dict:
    """Play a game object (README "Game input") and return the game result object.

    Raises ``RefereeError``; an error inside a round names the round number.
    """
    rules = load_from_json(data)
    if rules.game in OTHER_FAMILIES:
        return _family(rules, 1, data)
    _check_keys(data, GAME_KEYS, "game")
    rounds = _expect(data, "rounds", list, "a list of rounds")
    return game_to_json(play_game(rules, data.get("players"), rounds, data.get("dealer")))


def game_summary(data: Mapping) -> dict:
    """Play a game object like ``game_json`` and return only its numbers, in one shape for every family::

        {"ruleset", "players", "unit": "points" | "mon", "mon_per_kan"?: int,
         "rounds": [{"round", "scores": {player: n}, "totals": {player: n}, "void": bool}],
         "totals": {player: n}, "winner": str | None}

    ``scores``: what each round adds (points, or net mon); ``totals``: running totals after it
    (Hachi-hachi: from the ante); the final ``totals`` are the standings (jackpot shares included
    once a Hachi-hachi game is complete).  It skips the explanation lines' JSON, so re-scoring a
    long history (``referee.rescore``) stays fast.  Raises ``RefereeError`` as ``game_json``.
    """
    rules = load_from_json(data)
    if rules.game in OTHER_FAMILIES:
        out = _family(rules, 1, data)
        summary = {
            "ruleset": out["ruleset"], "players": out["players"], "unit": "mon", "mon_per_kan": out["mon_per_kan"],
            "rounds": [{"round": r["round"], "scores": dict(r["net"]), "totals": dict(r["totals"]), "void": False}
                       for r in out["rounds"]],
            "totals": {s["player"]: s["mon"] for s in out["standings"]},
            "winner": out["winner"],
        }
        return summary
    _check_keys(data, GAME_KEYS, "game")
    rounds = _expect(data, "rounds", list, "a list of rounds")
    state = play_game(rules, data.get("players"), rounds, data.get("dealer"))
    return {
        "ruleset": rules.name, "players": list(state.players), "unit": "points",
        "rounds": [{"round": r.number, "scores": r.result.scores, "totals": dict(r.totals), "void": r.result.void}
                   for r in state.rounds],
        "totals": dict(state.totals),
        "winner": state.winner,
    }


def ruleset_json(name: str, options: Mapping[str, Any] | None = None) -> dict:
    """A ruleset's title, description and options (key, type, default, doc, choices)."""
    rules = load_ruleset(name, options)
    out = {"name": rules.name, "game": rules.game, "title": rules.title, "description": rules.description,
           "options": [vars(s) | {"choices": list(s.choices)} for s in option_specs(rules.options)]}
    if hasattr(rules, "yaku"):
        out["yaku"] = [{"id": y.id, "name": y.en, "name_ja": y.ja, "points": y.points} for y in rules.yaku]
    return out
