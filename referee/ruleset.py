"""Rulesets as data: load a preset or a user's TOML file, merge, override, validate.

``load_ruleset`` reads the file's table (``referee.presets``: ``extends``, dotted-key
overrides) and lets the family named by its ``game`` (``referee.families``) turn it into a
frozen rules object; nothing here or there branches on a preset's name.  The table functions
are re-exported here, reading the presets from ``_preset_dir()`` (tests point it elsewhere).
``refused_options`` finds every option the rules refuse, not only the first ``load_ruleset`` meets,
and ``check_options`` says them all in one error: the forms, the API and the command line read them.

Reads the family registry from above: no module the registry lists imports this one (a
family that loads its own rulesets reads them through ``referee.presets``).
Pure core: standard library and ``referee`` only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from referee import families, presets
from referee.errors import RefereeError
from referee.presets import TABLE_KEYS, apply_overrides, merge, parse_value
from referee.schema import FieldError, option_specs

__all__ = ["TABLE_KEYS", "OptionCheck", "RefusedOptionsError", "apply_overrides", "canonical_options",
           "check_options", "every_refusal", "load_ruleset", "load_table", "merge", "option_path", "parse_value",
           "preset_names", "refused_options"]


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


def _refused_key(error: RefereeError, options: Mapping[str, Any]) -> str | None:
    """The key of ``options`` a ruleset's refusal is about (``options.fuke.threshold`` or ``fuke.threshold``
    for the key ``fuke.threshold``, a list's entry ``options.ssangpi[0]`` for ``ssangpi``, a table's field for
    the table given whole, the table a key goes into for that key: ``options.fuk``, no such field, for the
    mistyped ``fuk.threshold``), or None for a refusal about none of them."""
    if not isinstance(error, FieldError):
        return None
    path = re.sub(r"\[\d+\]", "", error.path)
    for where in (path.removeprefix("options."), path):
        for key in options:
            if where == key or where.startswith(f"{key}.") or key.startswith(f"{where}."):
                return key
    return None


def option_path(key: str) -> str:
    """The field a dotted-key override sets, as a ``schema.FieldError`` names it: ``yaku.oozan.points`` (a key
    of ``TABLE_KEYS``'s tables) as it is, any other in ``options`` (``options.fuke.threshold``)."""
    return key if key.split(".")[0] in TABLE_KEYS else f"options.{key}"


#: A check of one option before the rules read it: (the source as refusals name it, the key, its value) ->
#: the option's refusal, or None (the web app's bound on numbers, ``referee.web.forms.limits``).
OptionCheck = Callable[[str, str, Any], RefereeError | None]


def _bad_key(source: str, key: str, value: Any) -> RefereeError | None:
    """A key with an empty part (``fuke.``, ``.threshold``), which no rule has: refused as its own option."""
    if all(key.split(".")):
        return None
    return FieldError(source, option_path(key), value, "a dotted key without an empty part, such as fuke.threshold")


def refused_options(name_or_path: str | Path, options: Mapping[str, Any] | None, check: OptionCheck | None = None
                    ) -> tuple[dict[str, Any], list[tuple[str, RefereeError]], RefereeError | None]:
    """Load ``name_or_path`` with ``options`` (dotted-key overrides, as ``load_ruleset`` takes them), leaving
    out each option the rules refuse to check the rest, so every refused option is said at once (the
    new-session and What if forms, the API's rules, the command line's ``--option``): a key with an empty part
    and each option ``check`` refuses first, then each the rules refuse (a mistyped key among them: no such
    field).  Returns (the options the rules took, ``(key, refusal)`` of each option refused, in the order
    found, the refusal that is about no option given, after which nothing more is checked, or None).  The web
    app checks a ruleset is a preset first (``referee.web.forms.options.check_preset``): this opens a file path
    too."""
    checked = dict(options or {})
    refused: list[tuple[str, RefereeError]] = []
    source = None
    for key, value in list(checked.items()):
        if all(key.split(".")) and check is None:
            continue
        if source is None:
            try:
                source = f"{load_table(name_or_path)[1]} (with options)"
            except RefereeError as e:
                return checked, refused, e
        e = _bad_key(source, key, value) or (check(source, key, value) if check is not None else None)
        if e is not None:
            refused.append((key, e))
            del checked[key]
    while True:
        try:
            load_ruleset(name_or_path, checked)
        except RefereeError as e:
            key = _refused_key(e, checked)
            if key is None:
                return checked, refused, e
            refused.append((key, e))
            del checked[key]
        else:
            return checked, refused, None


def every_refusal(refused: Sequence[tuple[str, RefereeError]], other: RefereeError | None
                  ) -> list[tuple[str | None, RefereeError]]:
    """``refused_options``' refusals as one list: ``(key, refusal)`` of each option refused, then ``(None, the
    refusal about no option)`` when there is one (what the forms and the API say, each in turn)."""
    return [*refused, *([(None, other)] if other is not None else [])]


class RefusedOptionsError(RefereeError):
    """``bad-ruleset``: the rules refuse options given, every one said at once (``check_options``).

    ``refusals``: ``(key, refusal)`` of each option refused, in the order found (``refused_options``);
    ``other``: the refusal about no option given that loading met with them left out, or None.
    The message: with one refusal and no other, that refusal's own; else one line naming each refused
    option with its refusal (``preset roppyakken (with options): 2 options refused: target (field
    'options.target' is -5; expected an integer of at least 1); winner (field 'options.winner' is 'zzz';
    expected one of ...)``), then the other refusal.
    """

    def __init__(self, refusals: list[tuple[str, RefereeError]], other: RefereeError | None = None) -> None:
        if not refusals:
            raise ValueError("expected at least one refused option, got none")
        self.refusals, self.other = tuple(refusals), other
        super().__init__("bad-ruleset", self._said())

    def _said(self) -> str:
        (_, first), n = self.refusals[0], len(self.refusals)
        if n == 1 and self.other is None:
            return first.message
        source = getattr(first, "source", "")
        each = "; ".join(f"{key} ({e.message.removeprefix(f'{source}: ')})" for key, e in self.refusals)
        then = "" if self.other is None else f"; and without {'it' if n == 1 else 'them'}: {self.other.message}"
        return f"{source}: {n} option{'s' * (n > 1)} refused: {each}{then}"


def check_options(name_or_path: str | Path, options: Mapping[str, Any] | None, check: OptionCheck | None = None
                  ) -> None:
    """Check that ``name_or_path`` loads with ``options`` (as ``load_ruleset`` takes them), each option first
    passing ``check`` where one is given (``refused_options``).

    Raises ``RefusedOptionsError`` naming every option refused (``refused_options``), or, where none is, the
    refusal about no option as ``load_ruleset`` raises it (``RefereeError('bad-ruleset')``).
    """
    _, refused, other = refused_options(name_or_path, options, check)
    if refused:
        raise RefusedOptionsError(refused, other)
    if other is not None:
        raise other


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
