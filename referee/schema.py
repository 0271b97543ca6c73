"""Build frozen dataclasses from TOML tables, with errors that name the field.

Every ruleset family describes its options as frozen dataclasses whose fields
carry ``metadata={"doc": ..., "choices": (...), "min": n}``.  ``build`` checks a
TOML table against such a class, and ``option_specs`` lists the options so the
web app can generate a form from them.  Pure core: standard library only.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from dataclasses import dataclass, field
from typing import Any

from referee.errors import RefereeError, shown
from referee.notation import CardListError, option_cards


def opt(
    default: Any, doc: str, *, choices: tuple = (), min: int | None = None, label: str = "", group: str = "",
    unit: str = "", source: str = "",
) -> Any:
    """A dataclass field with the documentation and limits the validator and form use.

    ``label`` names the option in plain words for the new-session form ("Target score");
    ``group`` gathers related options under one heading ("Fuke (the void round)").
    ``unit = "month"``: the integers are month numbers, 1 to 12 (checked, and named by their
    plants to players: ``referee.wording.value_words``); ``unit = "card"``: the strings are cards, by id
    (``pine-crane``) or name (``Pine with Crane``), kept as ids (``referee.notation.option_cards``: an entry
    that is no card, or a card listed twice, named in players' words; forms say so).
    ``source``: the rules document's section the option comes from, kept out of ``doc`` (which
    players read).
    """
    meta = {"doc": doc, "choices": choices, "min": min, "label": label, "group": group, "unit": unit,
            "source": source}
    if isinstance(default, dict):
        return field(default_factory=lambda: types.MappingProxyType(dict(default)), metadata=meta)
    return field(default=default, metadata=meta)


class FieldError(RefereeError):
    """``bad-ruleset``: one field of a ruleset has a value it cannot take.

    The message, for the command line, the API and a file's author, names ``source``, the field, the value
    and what was expected (``preset roppyakken (with options): field 'options.target' is -5; expected an
    integer of at least 1``).  The parts let a form say it at the field in its own words: ``source`` (the file
    or preset, as the message names it), ``path`` (dotted,
    ``options.target``; a list's entry ``options.ssangpi[1]``), ``value`` (the value given, or the entry),
    ``expected`` (words) and ``rule``, the kind of refusal: ``"min"`` (an integer of at least ``limit``),
    ``"integer"``, ``"bool"``, ``"string"``, ``"choice"`` (one of ``limit``), ``"month"``, ``"list"``,
    ``"table"``, ``"unknown"`` (no such field), ``"largest"`` (past a bound the caller sets: the web app's
    ``MAX_OPTION_NUMBER``), ``"words"`` (``expected`` says it all), or ``"said"``: the
    message after the field's name is already in players' words (``said``; a card that is no card).
    ``entries``: ``value`` lists the list's entries refused (a month list's months that are none), not the value.
    """

    def __init__(self, source: str, path: str, value: Any, expected: str = "", *, rule: str = "words",
                 limit: Any = None, said: str = "", entries: bool = False) -> None:
        found = f"has {', '.join(map(shown, value))}" if entries else f"is {shown(value)}"
        message = f"{source}: field {path!r}: {said}" if said else (
            f"{source}: field {path!r} {found}; expected {expected}")
        super().__init__("bad-ruleset", message)
        self.source, self.path, self.value, self.expected = source, path, value, expected
        self.rule = "said" if said else rule
        self.limit, self.said = limit, said


class MissingFieldsError(FieldError):
    """``bad-ruleset``: a table lacks fields it needs (``table 'yaku.oozen' lacks required field(s) en, ja,
    cards``): a new table given in part, or a mistyped name of one (``yaku.oozen.points`` for ``oozan``).
    ``path`` is the table, ``value`` the table as given, ``limit`` the fields missing (``rule`` ``words``,
    ``expected`` saying them), so the key that made it is found as for any field."""

    def __init__(self, source: str, path: str, value: Any, missing: list[str]) -> None:
        super().__init__(source, path, value, f"a table with {', '.join(missing)}", limit=tuple(missing))
        self.message = f"{source}: table {path!r} lacks required field(s) {', '.join(missing)}"
        self.args = (self.message,)


def _bad(source: str, path: str, value: Any, expected: str, rule: str = "words", limit: Any = None) -> FieldError:
    return FieldError(source, path, value, expected, rule=rule, limit=limit)


def _cards(entries: tuple[str, ...], source: str, path: str, listed: bool = True) -> tuple[str, ...]:
    """Card ids or names as ids (``referee.notation.option_cards``); an entry that is no card, or a card
    listed twice, is named at its own field (``field 'options.ssangpi[1]': ...``) in players' words."""
    try:
        return option_cards(entries)
    except CardListError as e:
        at = f"{path}[{e.index}]" if listed else path
        raise FieldError(source, at, entries[e.index], said=e.message) from None


def _check(tp: Any, value: Any, source: str, path: str, meta: dict) -> Any:
    origin = typing.get_origin(tp)
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise _bad(source, path, value, "a table", "table")
        return build(tp, value, source, path)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None:
            return None
        return _check(args[0], value, source, path, meta)
    if origin is tuple:
        (item_tp, _) = typing.get_args(tp)
        if not isinstance(value, list | tuple):
            raise _bad(source, path, value, f"a list of {item_tp.__name__}", "list")
        card = meta.get("unit") == "card"
        item_meta = {"unit": meta["unit"]} if meta.get("unit") and not card else {}
        if meta.get("unit") == "month":
            _every_month(value, source, path)
        items = tuple(_check(item_tp, v, source, f"{path}[{i}]", item_meta) for i, v in enumerate(value))
        return _cards(items, source, path) if card else items
    if origin is dict:
        _, val_tp = typing.get_args(tp)
        if not isinstance(value, dict):
            raise _bad(source, path, value, "a table", "table")
        return types.MappingProxyType(
            {str(k): _check(val_tp, v, source, f"{path}.{k}", {}) for k, v in value.items()}
        )
    if tp is bool:
        if not isinstance(value, bool):
            raise _bad(source, path, value, "true or false", "bool")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _bad(source, path, value, "an integer", "integer")
        lo = meta.get("min")
        if lo is not None and value < lo:
            raise _bad(source, path, value, f"an integer of at least {lo}", "min", lo)
        if meta.get("unit") == "month" and not 1 <= value <= 12:
            raise _bad(source, path, value, "months 1-12", "month")
    elif tp is str and not isinstance(value, str):
        raise _bad(source, path, value, "a string", "string")
    elif tp is str and meta.get("unit") == "card":
        value = _cards((value,), source, path, listed=False)[0]
    choices = meta.get("choices") or ()
    if choices and value not in choices:
        raise _bad(source, path, value, "one of " + ", ".join(map(repr, choices)), "choice", choices)
    return value


def _every_month(value: list | tuple, source: str, path: str) -> None:
    """A list of month numbers with two or more that are no month (whole numbers outside 1 to 12): one
    ``month`` refusal of the list, naming them all (``value`` the list of them), not of its first only.  One
    such entry is refused at its own place, as any entry is."""
    bad = [v for v in value if isinstance(v, int) and not isinstance(v, bool) and not 1 <= v <= 12]
    if len(bad) > 1:
        raise FieldError(source, path, bad, "months 1-12", rule="month", entries=True)


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def build(cls: type, data: dict, source: str, prefix: str = "") -> Any:
    """Instantiate dataclass ``cls`` from a TOML table.

    Unknown keys, wrong types and values outside ``choices`` raise
    ``RefereeError('bad-ruleset')`` naming ``source`` (file or preset), the
    dotted field path, the value given and what was expected.
    """
    hints = _hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key in data:
        if key not in fields:
            path = f"{prefix}.{key}" if prefix else key
            raise _bad(source, path, data[key], "no such field (known: " + ", ".join(fields) + ")", "unknown")
    missing = [n for n, f in fields.items() if n not in data and f.default is dataclasses.MISSING
               and f.default_factory is dataclasses.MISSING]
    if missing and prefix:
        raise MissingFieldsError(source, prefix, data, missing)
    if missing:
        raise RefereeError("bad-ruleset", f"{source}: the file lacks required field(s) {', '.join(missing)}")
    kwargs = {}
    for name, f in fields.items():
        if name in data:
            path = f"{prefix}.{name}" if prefix else name
            kwargs[name] = _check(hints[name], data[name], source, path, dict(f.metadata))
    return cls(**kwargs)


@dataclass(frozen=True)
class OptionSpec:
    """One house-rule option as a form shows it.

    ``key`` is dotted (``fuke.threshold``); ``type`` is ``bool``, ``int``,
    ``str``, ``list[int]`` or ``list[str]``; ``label`` is its name in plain words
    (the key, made readable, where the schema gives none) and ``group`` its heading;
    ``unit`` is ``"month"`` for month numbers, ``"card"`` for card ids (``opt``), else empty; ``min`` the least
    integer it takes, or None.
    """

    key: str
    type: str
    default: Any
    doc: str
    choices: tuple = ()
    label: str = ""
    group: str = ""
    unit: str = ""
    min: int | None = None


def _type_name(tp: Any) -> str:
    if typing.get_origin(tp) is tuple:
        return f"list[{typing.get_args(tp)[0].__name__}]"
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return _type_name(next(a for a in typing.get_args(tp) if a is not type(None)))
    return tp.__name__


def option_specs(obj: Any, prefix: str = "") -> list[OptionSpec]:
    """The options of a built options dataclass, with its current values as defaults."""
    hints = typing.get_type_hints(type(obj))
    out: list[OptionSpec] = []
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        key = f"{prefix}{f.name}"
        if dataclasses.is_dataclass(value):
            out.extend(option_specs(value, key + "."))
        else:
            label = f.metadata.get("label") or key.replace(".", ": ").replace("_", " ").capitalize()
            out.append(
                OptionSpec(key, _type_name(hints[f.name]), value, f.metadata.get("doc", ""),
                           tuple(f.metadata.get("choices") or ()), label, f.metadata.get("group") or "Other",
                           f.metadata.get("unit") or "", f.metadata.get("min"))
            )
    return out
