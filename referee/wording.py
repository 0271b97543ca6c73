"""The parts every family's description is made of: the ``HowItScores`` shape and the shared wording.

``HowItScores`` holds titled sections of plain sentences, the yaku with their cards and
values, and every option with its value in words; ``words``, ``counts``, ``need_words``,
``value_words``, ``option_entries``... say cards, counts and options as players read them.
Each family's ``describe.py`` builds its ``HowItScores`` from these; ``referee.describe``
picks the family's describer.

Pure core: standard library and ``referee.cards`` / ``referee.schema`` only.  Must not import
``referee.families`` (the family packages import this module: the registry is read from above).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.cards import BY_ID, CARDS, KIND_TERMS, month_label
from referee.schema import option_specs

#: A message names the cards it is about while there are at most this many (a hand's worth, as a player overlooks
#: them), and counts them past it: one card entered of 48 is not answered with the 47 others' names.
NAMED_CARDS = 7

#: English names of the card kinds, singular and plural.
KIND_WORDS = {
    "bright": ("bright", "brights"),
    "animal": ("animal", "animals"),
    "ribbon": ("ribbon", "ribbons"),
    "chaff": ("chaff", "chaff"),
}


@dataclass(frozen=True)
class YakuEntry:
    """One yaku, teyaku or dekiyaku as a player reads it.

    ``value``: its worth in words (``"150 points"``, ``"7 kan"``); ``cards``: the
    card ids it is made of (empty when a rule, not a card list, makes it); ``need``:
    how many of them in words; ``notes``: what else to know, one sentence each.
    """

    id: str
    en: str
    ja: str
    value: str
    cards: tuple[str, ...] = ()
    need: str = ""
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Section:
    """A titled part of the page: ``id`` is its anchor; ``lines`` are sentences; ``yaku`` entries."""

    id: str
    title: str
    lines: tuple[str, ...] = ()
    yaku: tuple[YakuEntry, ...] = ()


@dataclass(frozen=True)
class OptionEntry:
    """A house-rule option: dotted ``key``, what it does (``doc``) and its ``value`` in words."""

    key: str
    doc: str
    value: str


@dataclass(frozen=True)
class HowItScores:
    """How one ruleset scores: ``name`` (preset), ``title``, ``description``, ``family``,
    ``unit`` (what scores are counted in), ``sections`` in reading order and ``options``."""

    name: str
    title: str
    description: str
    family: str
    unit: str
    sections: tuple[Section, ...]
    options: tuple[OptionEntry, ...]

    def section(self, section_id: str) -> Section:
        """The section with this anchor; ``KeyError`` if absent."""
        for s in self.sections:
            if s.id == section_id:
                return s
        raise KeyError(section_id)


# ---- shared wording ----------------------------------------------------------


def words(items: Sequence[str], conj: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conj} {items[-1]}"


def rounds_words(n: int) -> str:
    """A number of rounds in words: ``1 round``, ``12 rounds`` (the rules' ``goal``)."""
    return f"{n} round{'' if n == 1 else 's'}"


def counts(values: Iterable[int], conj: str = "or") -> str:
    """Player counts in words: ``2 or 3``, ``2 to 6`` for a run of four or more."""
    values = sorted(values)
    if len(values) >= 4 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]} to {values[-1]}"
    return words([str(v) for v in values], conj)


def yaku_name(en: str, local: str = "") -> str:
    """A yaku, teyaku or dekiyaku as players read it wherever it is named: its English name, then
    its local one (``ja``; Go-Stop's Korean): ``yaku_name("Poetry Ribbons", "赤短") == "Poetry Ribbons 赤短"``.

    The single source of the name: the round forms' menus and hints (``referee.web.forms.rounds.yaku_names``)
    and every family's messages, warnings and notes about a yaku call it, so the message and the menu
    agree.  ``local`` may be empty (the English name alone)."""
    return f"{en} {local}".strip()


def card_name(card_id: str) -> str:
    """A card's English name (``Pine with Crane``)."""
    return BY_ID[card_id].name


def months_words(months: Iterable[int]) -> str:
    """Months named by their plants: ``Willow (柳, month 11) and Paulownia (桐, month 12)``."""
    return words([month_label(m) for m in sorted(months)])


def need_words(need: int, pool: int) -> str:
    """How many cards of a pool make a yaku: ``all 3`` or ``any 7 of these 10``."""
    return f"all {pool}" if need >= pool else f"any {need} of these {pool}"


def card_values(points_of: str) -> list[str]:
    """Sentences giving each card's points in a family's column (``roppyakken_points``...),
    grouped by value, highest first: kinds named whole where every card of the kind scores alike."""
    by_value: dict[int, list] = {}
    for c in CARDS:
        by_value.setdefault(getattr(c, points_of), []).append(c)
    out = []
    for value in sorted(by_value, reverse=True):
        parts = []
        for kind in KIND_WORDS:
            of_kind = [c for c in CARDS if c.kind == kind]
            here = [c for c in by_value[value] if c.kind == kind]
            term = KIND_TERMS[kind]
            if not here:
                continue
            if len(here) == len(of_kind):
                parts.append(f"every {KIND_WORDS[kind][0]} ({term})")
            elif len(here) * 2 > len(of_kind):
                others = [c.name for c in of_kind if c not in here]
                parts.append(f"every {KIND_WORDS[kind][0]} ({term}) except {words(others)}")
            else:
                parts.append(words([c.name for c in here]))
        out.append(f"{value} point{'s' if value != 1 else ''}: {words(parts)}.")
    return out


def value_words(value: Any, unit: str = "") -> str:
    """An option value in words: ``yes``/``no``, ``none`` for an empty list, lists joined; cards
    by name and, with ``unit = "month"``, months by their plants (``Willow (柳, month 11)``)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple | list):
        if not value:
            return "none"
        return ", ".join(value_words(v, unit) for v in value)
    if isinstance(value, str) and value in BY_ID:
        return card_name(value)
    if unit == "month" and isinstance(value, int):
        return month_label(value)
    return str(value)


def option_entries(options: Any) -> tuple[OptionEntry, ...]:
    """Every option of a built options dataclass, with its value in words (``referee.schema``)."""
    return tuple(OptionEntry(s.key, s.doc, value_words(s.default, s.unit)) for s in option_specs(options))
