"""Ruleset files as TOML tables: a bundled preset or a user's file, ``extends``, dotted-key overrides.

A ruleset file is TOML.  It names its scoring family in ``game`` and may
``extends`` another preset (tables merge key by key; the child wins).  Options
can then be overridden one at a time with dotted keys (``fuke.threshold=40``,
``yaku.oozan.points=100``).  ``read_table`` gives the merged, overridden table; the family
named by ``game`` turns it into a frozen rules object (``referee.ruleset.load_ruleset`` picks
the family from the registry; a family package that loads only its own rulesets calls its
``from_table`` itself).  Nothing here branches on a preset's name.

Presets live in ``referee/rulesets/*.toml`` (``bundled``); every function takes the folder to
read them from (``referee.ruleset`` passes its own, which tests point elsewhere).
Pure core: standard library only.  Must not import ``referee.families`` or any family package:
the family packages read rulesets through this module, and the registry is read from above.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from referee.errors import RefereeError

#: Top-level keys whose sub-tables are not options.
TABLE_KEYS = ("yaku", "teyaku", "dekiyaku")


def bundled() -> Traversable:
    """The folder of the presets that ship with the package (``referee/rulesets``)."""
    return resources.files("referee").joinpath("rulesets")


def preset_names(folder: Traversable | None = None) -> list[str]:
    """Names of the presets in ``folder`` (default: ``bundled()``), file stems, sorted."""
    folder = bundled() if folder is None else folder
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def _read(name_or_path: str | Path, folder: Traversable) -> tuple[dict, str]:
    text_path = Path(name_or_path)
    name = str(name_or_path)
    preset = folder.joinpath(f"{name}.toml")
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
            f"unknown ruleset {name!r}: not a preset ({', '.join(preset_names(folder))}) nor a file",
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


def load_table(
    name_or_path: str | Path, folder: Traversable | None = None, _seen: tuple[str, ...] = ()
) -> tuple[dict, str]:
    """The merged TOML table of a preset (in ``folder``, default ``bundled()``) or file, following ``extends``.

    Returns (table, source).  Raises ``RefereeError('bad-ruleset')``.
    """
    folder = bundled() if folder is None else folder
    table, source = _read(name_or_path, folder)
    own_name = table.get("name") or Path(str(name_or_path)).stem
    parent = table.pop("extends", None)
    if parent is not None:
        if not isinstance(parent, str):
            raise RefereeError("bad-ruleset", f"{source}: field 'extends' is {parent!r}; expected a preset name")
        if parent in _seen:
            raise RefereeError("bad-ruleset", f"{source}: 'extends' loops through {parent!r}")
        base, _ = load_table(parent, folder, (*_seen, str(name_or_path)))
        table = merge(base, table)
    table["name"] = own_name
    return table, source


def parse_value(text: str) -> Any:
    """A CLI override value: TOML syntax (``40``, ``true``, ``[11, 12]``), else a plain string (also for a
    number TOML cannot read: past 4300 digits it raises ValueError, not a decode error; the string is then
    refused where the rule's type is checked, in words)."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except (tomllib.TOMLDecodeError, ValueError):
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


def read_table(
    name_or_path: str | Path, options: Mapping[str, Any] | None = None, folder: Traversable | None = None
) -> tuple[dict, str]:
    """The table of a ruleset with ``options`` (dotted-key overrides) applied: what a family's
    ``from_table`` turns into rules.  Returns (table, source), where source names the file and
    says ``(with options)`` when there were any.  Raises ``RefereeError('bad-ruleset')``.
    """
    table, source = load_table(name_or_path, folder)
    if options:
        source = f"{source} (with options)"
        table = apply_overrides(table, options, source)
    return table, source
