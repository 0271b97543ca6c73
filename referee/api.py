"""JSON in, JSON out: the public contract of the CLI and the web API.

``score_json`` scores one round and ``game_json`` plays a game, for any family: the
ruleset's ``game`` field picks the family in ``referee.families``.  Shapes are documented
in the README ("JSON formats") and each family's docs.  Pure core: standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee import families
from referee.errors import RefereeError, given
from referee.ruleset import check_options, load_ruleset, preset_names
from referee.schema import FieldError, option_specs

__all__ = ["family_of", "game_json", "game_summary", "load_from_json", "preset_names", "ruleset_json", "score_json"]


def load_from_json(data: Mapping):
    """The ruleset named by a round or game object (``ruleset``, ``options``).

    Raises ``RefereeError('bad-ruleset')``: a ``ruleset.RefusedOptionsError`` naming every option the rules
    refuse, not only the first (``ruleset.check_options``).
    """
    if not isinstance(data, Mapping):
        raise RefereeError("bad-round", f"expected a JSON object, got {type(data).__name__}")
    name = data.get("ruleset", families.DEFAULT_RULESET)
    if not isinstance(name, str):
        raise RefereeError("bad-ruleset", f"\"ruleset\" must be a preset name or file, {given(name)}")
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise RefereeError("bad-ruleset", f"\"options\" must be an object, {given(options)}")
    try:
        return load_ruleset(name, options)
    except FieldError:
        check_options(name, options)  # every refused option at once, read only when one is
        raise


def family_of(data: Mapping):
    """The family (``referee.family.Family``) of a round or game object's ruleset.  Raises as
    ``load_from_json``."""
    return families.of(load_from_json(data))


def score_json(data: Mapping) -> dict:
    """Score one round object (README "Round input") and return the round result object.

    Raises ``RefereeError`` for any user error (unknown card, duplicate card,
    player count, misdeal, bad ruleset...).
    """
    rules = load_from_json(data)
    return families.of(rules).score_json(rules, data)


def game_json(data: Mapping) -> dict:
    """Play a game object (README "Game input") and return the game result object.

    Raises ``RefereeError``; an error inside a round names the round number.
    """
    rules = load_from_json(data)
    return families.of(rules).game_json(rules, data)


def game_summary(data: Mapping) -> dict:
    """Play a game object like ``game_json`` and return only its numbers, in one shape for every family::

        {"ruleset", "players", "unit": "points" | "mon" | "money", "mon_per_kan"?: int,
         "rounds": [{"round", "scores": {player: n}, "totals": {player: n}, "void": bool}],
         "totals": {player: n}, "winner": str | None}

    ``scores``: what each round adds (points, or net mon); ``totals``: running totals after it
    (Hachi-hachi: from the ante); the final ``totals`` are the standings (jackpot shares included
    once a Hachi-hachi game is complete).  A family's ``game_summary`` builds it without the
    explanation lines (re-scoring long histories, ``referee.rescore``); otherwise it is read from
    ``game_json`` by the family's board kind.  Raises ``RefereeError`` as ``game_json``.
    """
    rules = load_from_json(data)
    family = families.of(rules)
    if family.game_summary is not None:
        return family.game_summary(rules, data)
    out = family.game_json(rules, data)
    if family.board == "ledger":  # money: each round's net, the standings with the jackpot
        summary = {
            "ruleset": out["ruleset"], "players": out["players"], "unit": family.unit,
            "rounds": [{"round": r["round"], "scores": dict(r["net"]), "totals": dict(r["totals"]), "void": False}
                       for r in out["rounds"]],
            "totals": {s["player"]: s["mon"] for s in out["standings"]},
            "winner": out["winner"],
        }
        if "mon_per_kan" in out:
            summary["mon_per_kan"] = out["mon_per_kan"]
        return summary
    return {
        "ruleset": out["ruleset"], "players": out["players"], "unit": family.unit,
        "rounds": [{"round": r["round"], "scores": {p: v["round_score"] for p, v in r["players"].items()},
                    "totals": dict(r["totals"]), "void": bool(r.get("void"))} for r in out["rounds"]],
        "totals": dict(out["totals"]),
        "winner": out.get("winner"),
    }


def ruleset_json(name: str, options: Mapping[str, Any] | None = None) -> dict:
    """A ruleset's title, description and options (key, type, default, doc, choices)."""
    rules = load_ruleset(name, options)
    out = {"name": rules.name, "game": rules.game, "title": rules.title, "description": rules.description,
           "options": [vars(s) | {"choices": list(s.choices)} for s in option_specs(rules.options)]}
    if hasattr(rules, "yaku"):
        local = f"name_{families.of(rules).local_language}"  # Go-Stop: name_ko beside name_ja
        out["yaku"] = [{"id": y.id, "name": y.en, local: y.ja, "name_ja": y.ja, "points": y.points}
                       for y in rules.yaku]
    return out
