"""Rulesets as data: load a preset or a user's TOML file, merge, override, validate.

A ruleset file is TOML.  It names its scoring family in ``game`` and may
``extends`` another preset (tables merge key by key; the child wins).  Options
can then be overridden one at a time with dotted keys (``fuke.threshold=40``,
``yaku.oozan.points=100``).  The family named by ``game`` (``referee.families``) turns
the merged table into a frozen rules object; nothing here or there branches on a preset's name.

Presets live in ``referee/rulesets/*.toml``.  Pure core: standard library only.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from referee.errors import RefereeError

#: Top-level keys whose sub-tables are not options.
TABLE_KEYS = ("yaku", "teyaku", "dekiyaku")


def _preset_dir():
    return resources.files("referee").joinpath("rulesets")


def preset_names() -> list[str]:
    """Names of the bundled presets (file stems), sorted."""
    return sorted(p.name[:-5] for p in _preset_dir().iterdir() if p.name.endswith(".toml"))


def _read(name_or_path: str | Path) -> tuple[dict, str]:
    text_path = Path(name_or_path)
    name = str(name_or_path)
    preset = _preset_dir().joinpath(f"{name}.toml")
    if "/" not in name and not name.endswith(".toml") and preset.is_file():
        source, text = f"preset {name}", preset.read_text(encoding="utf-8")
    elif text_path.is_file():
        source = str(text_path)
        try:
            text = text_path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise RefereeError("bad-ruleset", f"{source}: cannot read: {e}") from None
    else:
        raise RefereeError(
            "bad-ruleset",
            f"unknown ruleset {name!r}: not a preset ({', '.join(preset_names())}) nor a file",
        )
    try:
        return tomllib.loads(text), source
    except tomllib.TOMLDecodeError as e:
        raise RefereeError("bad-ruleset", f"{source}: not valid TOML: {e}") from None


def merge(base: Mapping, child: Mapping) -> dict:
    """Deep-merge two TOML tables; values in ``child`` win."""
    out = dict(base)
    for k, v in child.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = merge(out[k], v)
        else:
            out[k] = v
    return out


def load_table(name_or_path: str | Path, _seen: tuple[str, ...] = ()) -> tuple[dict, str]:
    """The merged TOML table of a preset or file, following ``extends``.

    Returns (table, source).  Raises ``RefereeError('bad-ruleset')``.
    """
    table, source = _read(name_or_path)
    own_name = table.get("name") or Path(str(name_or_path)).stem
    parent = table.pop("extends", None)
    if parent is not None:
        if not isinstance(parent, str):
            raise RefereeError("bad-ruleset", f"{source}: field 'extends' is {parent!r}; expected a preset name")
        if parent in _seen:
            raise RefereeError("bad-ruleset", f"{source}: 'extends' loops through {parent!r}")
        base, _ = load_table(parent, (*_seen, str(name_or_path)))
        table = merge(base, table)
    table["name"] = own_name
    return table, source


def parse_value(text: str) -> Any:
    """A CLI override value: TOML syntax (``40``, ``true``, ``[11, 12]``), else a plain string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def apply_overrides(table: dict, overrides: Mapping[str, Any], source: str) -> dict:
    """Apply dotted-key overrides.

    ``yaku.X.points`` style keys (and ``teyaku.``, ``dekiyaku.``) address those
    tables; every other key addresses ``options``.  String values from the CLI are
    parsed with ``parse_value``.
    """
    out = merge(table, {})
    for key, value in overrides.items():
        if isinstance(value, str):
            value = parse_value(value)
        parts = key.split(".")
        if not all(parts):
            raise RefereeError("bad-ruleset", f"{source}: bad option key {key!r}")
        if parts[0] not in TABLE_KEYS:
            parts = ["options", *parts]
        node = out
        for p in parts[:-1]:
            child = node.get(p)
            child = dict(child) if isinstance(child, Mapping) else {}
            node[p] = child
            node = child
        old = node.get(parts[-1])
        node[parts[-1]] = merge(old, value) if isinstance(old, Mapping) and isinstance(value, Mapping) else value
    return out


def load_ruleset(name_or_path: str | Path, options: Mapping[str, Any] | None = None):
    """Load, override and validate a ruleset.

    ``name_or_path``: a preset name (``roppyakken``) or a TOML file path.
    ``options``: dotted-key overrides (``{"fuke.threshold": 40}``).
    Returns the family's frozen rules object (``RoppyakkenRules``,
    ``HachihachiRules``...).  Raises ``RefereeError('bad-ruleset')`` naming the
    file, the field, the value and what was expected.
    """
    from referee import families  # the families import this module: bound at call time
    table, source = load_table(name_or_path)
    if options:
        source = f"{source} (with options)"
        table = apply_overrides(table, options, source)
    return families.get(table.get("game"), source).from_table(table, source)
