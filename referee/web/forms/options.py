"""A ruleset's house-rule fields: the form generated from its option schema (``opt.<key>``), the
values as its text boxes show them, and free ``KEY=VALUE`` lines for any ruleset field.

The new-session form (``referee.web.forms.session``) and the What if page (``requested_rules``)
read them.  Pure: must
not import Flask or the store.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from referee import api
from referee.errors import RefereeError
from referee.notation import option_cards, split_card_list
from referee.ruleset import every_refusal, parse_value, refused_options
from referee.schema import FieldError
from referee.web.forms import FormData
from referee.web.forms.limits import MAX_OPTION_NUMBER, MAX_PLAYERS, option_number_refusal


def seat_range(specs: Sequence[Mapping[str, Any]], seats: Sequence[int] = ()) -> tuple[int, int]:
    """(fewest, most) players a preset seats: the family's fixed ``seats`` (``Family.seats``), else its
    ``players`` option; (2, MAX_PLAYERS) without either."""
    allowed = seats or next((s["default"] for s in specs if s["key"] == "players"), None)
    counts = [n for n in (allowed or ()) if isinstance(n, int) and 1 <= n <= MAX_PLAYERS]
    return (min(counts), max(counts)) if counts else (2, MAX_PLAYERS)


def check_preset(ruleset: str) -> None:
    """Web users pick a bundled preset; ``load_ruleset`` would also open a server file path.

    Raises ``RefereeError('bad-ruleset')``.
    """
    if ruleset not in api.preset_names():
        raise RefereeError("bad-ruleset", f"unknown ruleset {ruleset!r}; choose one of {', '.join(api.preset_names())}")


def option_fields(ruleset: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(ruleset info, option specs) for the form.  Raises ``RefereeError('bad-ruleset')``."""
    check_preset(ruleset)
    info = api.ruleset_json(ruleset)
    return info, info["options"]


def shown_value(spec: Mapping[str, Any], value: Any) -> str:
    """An option value as the form's text box shows it."""
    if spec["type"].startswith("list["):
        return ", ".join(str(v) for v in value)
    if spec["type"] == "bool":
        return "true" if value else "false"
    return str(value)


class _RefusalError(ValueError):
    """A value a house-rule field cannot take: ``rule`` and ``limit`` as ``schema.FieldError`` names them
    (``refusal``), or ``said``: the whole sentence already in players' words (a card list's)."""

    def __init__(self, rule: str, value: Any, limit: Any = None, said: str = "") -> None:
        super().__init__(said or rule)
        self.rule, self.value, self.limit, self.said = rule, value, limit, said


def _parse_option(spec: Mapping[str, Any], text: str | None) -> Any:
    kind = spec["type"]
    if kind == "bool":
        return text == "true"
    text = (text or "").strip()
    if kind == "int":
        if not re.fullmatch(r"-?\d+", text):
            raise _RefusalError("integer", text)
        return _bounded(_whole(text, spec.get("min")), spec.get("min"))
    if kind == "list[str]" and spec.get("unit") == "card":  # ids or names, by commas: names hold spaces
        try:
            return list(option_cards(split_card_list(text)))
        except RefereeError as e:
            raise _RefusalError("said", text, said=e.message) from None
    if kind.startswith("list["):
        items = [t for t in re.split(r"[,\s]+", text) if t]
        if kind == "list[int]":
            bad = [t for t in items if not re.fullmatch(r"-?\d+", t)]
            if bad:
                raise _RefusalError("integers", bad)
            return [_bounded(_whole(t)) for t in items]
        return items
    return text


def _whole(digits: str, least: int | None = None) -> int:
    """``digits`` (``-?\\d+``) as a number; one too long for Python to read (``int`` raises past 4300 digits,
    which was a server error) is refused as too large, as :func:`_bounded` refuses the rest."""
    if len(digits.lstrip("-").lstrip("0")) > 4000:
        raise _RefusalError("largest", digits, least)
    return int(digits)


def _bounded(n: int, least: int | None = None) -> int:
    """``n`` within what a rule's number can be; ``least``: the field's own least value, which the refusal names."""
    if not -MAX_OPTION_NUMBER <= n <= MAX_OPTION_NUMBER:
        raise _RefusalError("largest", n, least)
    return n


def _typed(value: Any) -> str:
    """A value as the player typed it: a number plainly, text in quotes, a list's entries by commas."""
    if isinstance(value, bool):
        return "ticked" if value else "not ticked"
    if isinstance(value, float):
        return repr(value)
    # a number, or digits too many for Python to read as one (refused by _whole before int())
    if isinstance(value, int) or (isinstance(value, str) and re.fullmatch(r"-?\d{41,}", value)):
        digits = str(value)
        return digits if len(digits) <= 40 else f"a number of {len(digits.lstrip('-'))} digits"
    if isinstance(value, list | tuple):
        return ", ".join(_typed(v) for v in value) or "nothing"
    text = str(value)
    return f"“{text if len(text) <= 40 else text[:39] + '…'}”"


def _choice_words(choices: Sequence[Any]) -> str:
    """The choices as the form's select shows them (``most-times-over-target`` -> ``Most times over target``)."""
    return ", ".join(str(c).replace("-", " ").capitalize() for c in choices)


def _entries(values: Any) -> tuple[str, bool]:
    """The entries a list's refusal names, as typed ("13, 0 and 14"), and whether there are several."""
    many = list(values) if isinstance(values, list | tuple) else [values]
    said = [_typed(v) for v in many]
    return (f"{', '.join(said[:-1])} and {said[-1]}" if len(said) > 1 else said[0]), len(said) > 1


def refusal(label: str, rule: str, value: Any, limit: Any = None, expected: str = "") -> str:
    """What a house-rule field says when it cannot take ``value``, in players' words, naming the field by its
    ``label`` in quotes (a label is the field's name, often no noun: "Round scores up to a multiple of"): one
    sentence per kind of refusal (``rule``, as ``referee.schema.FieldError`` names them, plus the form's own
    ``integers`` and ``largest``: past ``MAX_OPTION_NUMBER``, from the field's least value ``limit`` when it has
    one), ``expected`` being the ruleset's own words for the rest.  A list's ``integers`` and ``month`` name every
    entry refused (``value`` a list of them)."""
    name = f"“{label}”"
    you = f"you entered {_typed(value)}"

    def each(one: str, several: str) -> str:
        entries, many = _entries(value)
        return f"{entries} {several if many else one}"

    sentences = {
        "min": lambda: f"{name} must be {limit} or more; {you}.",
        "integer": lambda: f"{name} must be a whole number; {you}.",
        "integers": lambda: (f"In {name}, {each('is not a whole number', 'are not whole numbers')}; separate several "
                             "numbers with commas."),
        "largest": lambda: (f"{name} must be a whole number between {-MAX_OPTION_NUMBER} and {MAX_OPTION_NUMBER}; "
                            f"{you}." if limit is None else
                            f"{name} must be a whole number from {limit} to {MAX_OPTION_NUMBER}; {you}."),
        "month": lambda: f"In {name}, {each('is not a month', 'are not months')}; give month numbers 1 to 12.",
        "choice": lambda: f"{name} must be one of: {_choice_words(limit or ())}; {you}.",
        "bool": lambda: f"{name} is a tick box: ticked or not.",
        "string": lambda: f"{name} must be text; {you}.",
        "list": lambda: f"{name} must be a list, separated by commas; {you}.",
        "table": lambda: f"{name} cannot take {_typed(value)}.",
        "unknown": lambda: f"{name} is not a rule of this game.",
    }
    words = sentences.get(rule)
    if words is not None:
        return words()
    return f"{name} must be {expected}; {you}." if expected else f"{name} cannot take {_typed(value)}."


def parse_option_fields(
    form: FormData, specs: Sequence[Mapping[str, Any]], shown: bool
) -> tuple[dict[str, Any], dict[str, str], dict[str, str]]:
    """The house-rule fields ``opt.<key>`` of a form generated from ``specs`` (``option_fields``).

    ``shown``: the form showed these fields (an unchecked box then means false).  Returns (the
    options that differ from the preset's defaults, the values as typed, errors by field name, in
    players' words: ``refusal``).
    """
    options: dict[str, Any] = {}
    typed: dict[str, str] = {}
    errors: dict[str, str] = {}
    for spec in specs:
        key = spec["key"]
        raw = form.get(f"opt.{key}")
        if raw is None and (spec["type"] != "bool" or not shown):
            continue  # not in the form: the preset's default
        typed[key] = raw if raw is not None else "false"
        try:
            value = _parse_option(spec, raw)
        except _RefusalError as e:
            errors[f"opt.{key}"] = e.said or refusal(spec["label"], e.rule, e.value, e.limit)
            continue
        if value != (list(spec["default"]) if isinstance(spec["default"], tuple) else spec["default"]):
            options[key] = value
    return options, typed, errors


#: A ruleset error's field path about one option: ``options.fuke.threshold``, or a list's entry
#: ``options.ssangpi[0]``.
_OPTION_PATH = re.compile(r"options\.([\w.]+?)(?:\[\d+\])?")


def option_error(error: RefereeError, specs: Sequence[Mapping[str, Any]]) -> tuple[str, str] | None:
    """(the form field ``opt.<key>``, what to say at it) for a ruleset error about one of the options of
    ``specs`` (a ``referee.schema.FieldError``), in players' words (``refusal``, naming the field by its
    label); None for an error about no option of the form."""
    if not isinstance(error, FieldError):
        return None
    m = _OPTION_PATH.fullmatch(error.path)
    spec = next((s for s in specs if m and s["key"] == m.group(1)), None)
    if spec is None:
        return None
    if error.said:
        return f"opt.{spec['key']}", error.said
    return f"opt.{spec['key']}", refusal(spec["label"], error.rule, error.value, error.limit, error.expected)


def rules_error_words(error: RefereeError, specs: Sequence[Mapping[str, Any]]) -> str:
    """A ruleset's refusal of the rules asked for, in players' words where it is about one field (a
    ``referee.schema.FieldError``): an option named by its label (``option_error``), any other field by the
    dotted key the ``KEY=VALUE`` lines name it by; the message as it is otherwise."""
    at = option_error(error, specs)
    if at:
        return at[1]
    if not isinstance(error, FieldError):
        return error.message
    if error.said:
        return error.said
    key = error.path.removeprefix("options.")
    return refusal(key, error.rule, error.value, error.limit, error.expected)


def parse_extra_options(text: str) -> dict[str, Any]:
    """``KEY=VALUE`` lines (any ruleset field: ``yaku.oozan.points=100``, ``teyaku.mukou-sanbon.kan=2``),
    values in TOML syntax as on the command line; their numbers are bounded where the rules check them
    (``requested_rules``).  Raises ``RefereeError('bad-ruleset')`` for a line that is no ``KEY=VALUE``."""
    out: dict[str, Any] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise RefereeError("bad-ruleset", f"{line[:60]!r}: expected KEY=VALUE, e.g. teyaku.mukou-sanbon.kan=2")
        out[key.strip()] = parse_value(value.strip())
    return out


def requested_rules(form: FormData, own_ruleset: str, own_options: Mapping[str, Any]) -> dict[str, Any]:
    """The rules the What if form asks for, beside the session's own (``own_ruleset``,
    ``own_options``): ``ruleset``, ``options`` (differences from the preset's defaults plus the
    extra lines), the form's ``values`` as typed, the ``extra`` text, ``errors`` (by field: each
    field the form cannot read, and each option typed in its field that the rules refuse), ``refused``
    (a sentence for each other refusal: a ``KEY=VALUE`` line's, or one about no field; every refused
    option is said at once, ``referee.ruleset.refused_options``) and whether the form was ``submitted``."""
    ruleset = form.get("ruleset") or own_ruleset
    errors: dict[str, str] = {}
    try:
        check_preset(ruleset)
    except RefereeError as e:
        errors["ruleset"] = e.message
        ruleset = own_ruleset
    info, specs = option_fields(ruleset)
    keys = {s["key"] for s in specs}
    submitted = form.get("options_shown") == ruleset
    if submitted:
        options, typed, errors_ = parse_option_fields(form, specs, shown=True)
        errors.update(errors_)
    else:  # first view, or another preset picked: its defaults, or the session's own options
        own = own_options if ruleset == own_ruleset else {}
        options, typed = {k: v for k, v in own.items() if k in keys}, {}
    if "extra" in form:
        extra = form.get("extra", "")
    else:
        own = own_options if ruleset == own_ruleset else {}
        extra = "\n".join(f"{k}={json.dumps(v)}" for k, v in own.items() if k not in keys)
    try:
        options.update(parse_extra_options(extra))
    except RefereeError as e:
        errors["extra"] = e.message
    values = {s["key"]: typed.get(s["key"], shown_value(s, options.get(s["key"], s["default"]))) for s in specs}
    asked = submitted or "ruleset" in form or "extra" in form
    refused: list[str] = []
    if asked and "ruleset" not in errors:  # every option the rules refuse, said at once, with the fields' errors
        # a number past the bound is one more refused option, said with the rest (forms.limits)
        _, refusals, other = refused_options(ruleset, options, option_number_refusal)
        for _, e in every_refusal(refusals, other):
            at = option_error(e, specs)
            if at and at[0] in form:  # typed in its field: said there, as on the new-session form
                errors.setdefault(*at)
            else:  # a KEY=VALUE line's, or about no field
                refused.append(rules_error_words(e, specs))
    return {"ruleset": ruleset, "info": info, "specs": specs, "options": options, "values": values,
            "extra": extra, "errors": errors, "refused": refused, "submitted": asked}


def presets_of(family: str) -> list[tuple[str, str]]:
    """(name, title) of the presets that can re-score a session of ``family`` (the same game)."""
    out = []
    for name in api.preset_names():
        try:
            info = api.ruleset_json(name)
        except (RefereeError, ImportError):
            continue
        if info["game"] == family:
            out.append((name, info["title"]))
    return out
