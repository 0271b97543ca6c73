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

__all__ = ["TABLE_KEYS", "apply_overrides", "load_ruleset", "load_table", "merge", "parse_value", "preset_names"]


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
