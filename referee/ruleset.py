"""Rulesets as data: load a preset or a user's TOML file, merge, override, validate.

``load_ruleset`` reads the file's table (``referee.presets``: ``extends``, dotted-key
overrides) and lets the family named by its ``game`` (``referee.families``) turn it into a
frozen rules object; nothing here or there branches on a preset's name.  The table functions
are re-exported here, reading the presets from ``_preset_dir()`` (tests point it elsewhere).

Reads the family registry from above: no module the registry lists imports this one (a
family that loads its own rulesets reads them through ``referee.presets``).
Pure core: standard library and ``referee`` only.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from referee import families, presets
from referee.presets import TABLE_KEYS, apply_overrides, merge, parse_value
from referee.schema import option_specs

__all__ = ["TABLE_KEYS", "apply_overrides", "canonical_options", "load_ruleset", "load_table", "merge", "parse_value",
           "preset_names"]


def _preset_dir() -> Traversable:
    return presets.bundled()


def preset_names() -> list[str]:
    """Names of the presets (file stems), sorted."""
    return presets.preset_names(_preset_dir())


def load_table(name_or_path: str | Path) -> tuple[dict, str]:
    """The merged TOML table of a preset or file, following ``extends`` (``referee.presets.load_table``).

    Returns (table, source).  Raises ``RefereeError('bad-ruleset')``.
    """
    return presets.load_table(name_or_path, _preset_dir())


def load_ruleset(name_or_path: str | Path, options: Mapping[str, Any] | None = None):
    """Load, override and validate a ruleset.

    ``name_or_path``: a preset name (``roppyakken``) or a TOML file path.
    ``options``: dotted-key overrides (``{"fuke.threshold": 40}``).
    Returns the family's frozen rules object (``RoppyakkenRules``,
    ``HachihachiRules``...).  Raises ``RefereeError('bad-ruleset')`` naming the
    file, the field, the value and what was expected.
    """
    table, source = presets.read_table(name_or_path, options, _preset_dir())
    return families.get(table.get("game"), source).from_table(table, source)


def canonical_options(name_or_path: str | Path, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """``options`` (dotted-key overrides, as ``load_ruleset`` takes them) as they are stored: every house rule
    that lists cards (an option of unit ``card``: Go-Stop's ``ssangpi``, Hachi-hachi's ``field_x2``) as the
    CARDS.tsv ids its entries name, in the order given (ids or English, Japanese or Korean names:
    ``referee.notation.option_cards``), as the new-session form stores them; every other value as given.

    Raises ``RefereeError('bad-ruleset')`` as ``load_ruleset`` does (a ``schema.FieldError``: an entry that
    is no card, or a card listed twice, in players' words).
    """
    given = dict(options or {})
    if not given:
        return given
    rules = load_ruleset(name_or_path, given)
    built = getattr(rules, "options", None)
    if built is None:
        return given
    cards = {s.key: s.default for s in option_specs(built) if s.unit == "card"}
    return {k: _as_ids(k, v, cards) for k, v in given.items()}


def _as_ids(key: str, value: Any, cards: Mapping[str, Any]) -> Any:
    """``value`` of option ``key`` with the card lists in it (``cards``: key -> ids as built) as their ids;
    a table (``{"fuke": {...}}``) is read key by key."""
    if key in cards:
        ids = cards[key]
        return list(ids) if isinstance(ids, tuple) else ids
    if isinstance(value, Mapping):
        return {k: _as_ids(f"{key}.{k}", v, cards) for k, v in value.items()}
    return value
