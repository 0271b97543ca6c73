"""JSON in, JSON out: the public contract of the CLI and the web API.

``score_json`` scores one round and ``game_json`` plays a game, for any family: the
ruleset's ``game`` field picks the family in ``referee.families``.  Shapes are documented
in the README ("JSON formats") and each family's docs.  Pure core: standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee import families
from referee.errors import RefereeError
from referee.ruleset import load_ruleset, preset_names
from referee.schema import option_specs

__all__ = ["game_json", "load_from_json", "preset_names", "ruleset_json", "score_json"]


def load_from_json(data: Mapping):
    """The ruleset named by a round or game object (``ruleset``, ``options``).

    Raises ``RefereeError('bad-ruleset')``.
    """
    if not isinstance(data, Mapping):
        raise RefereeError("bad-round", f"expected a JSON object, got {type(data).__name__}")
    name = data.get("ruleset", families.DEFAULT_RULESET)
    if not isinstance(name, str):
        raise RefereeError("bad-ruleset", f"\"ruleset\" must be a preset name or file, got {name!r}")
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise RefereeError("bad-ruleset", f"\"options\" must be an object, got {options!r}")
    return load_ruleset(name, options)


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


def ruleset_json(name: str, options: Mapping[str, Any] | None = None) -> dict:
    """A ruleset's title, description and options (key, type, default, doc, choices)."""
    rules = load_ruleset(name, options)
    out = {"name": rules.name, "game": rules.game, "title": rules.title, "description": rules.description,
           "options": [vars(s) | {"choices": list(s.choices)} for s in option_specs(rules.options)]}
    if hasattr(rules, "yaku"):
        out["yaku"] = [{"id": y.id, "name": y.en, "name_ja": y.ja, "points": y.points} for y in rules.yaku]
    return out
