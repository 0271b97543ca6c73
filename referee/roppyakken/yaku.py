"""Yaku (役) in a captured pile, read from the ruleset's yaku tables.

A yaku is data (``referee.roppyakken.rules.Yaku``): its card pool, how many
make it, what it replaces.  ``find_yaku`` applies the generic predicates the
options call for: ``exact_instant_yaku`` and ``rain_spoils_viewing`` (RULES.md
"Instant wins and the end of the game"), and replacements such as teppo over
hanami and tsukimi.  Pure core.
"""

from __future__ import annotations

from typing import NamedTuple

from referee.cards import BY_ID, month_cards
from referee.explain import mask_ids
from referee.option_names import house_rule
from referee.roppyakken.rules import RoppyakkenRules, Yaku
from referee.wording import yaku_name

#: Any willow card (month 11) spoils viewing yaku under ``rain_spoils_viewing``.
WILLOW = sum(c.bit for c in month_cards(11))
#: ...unless the pile holds the crane, under ``unless-crane``.
CRANE = BY_ID["pine-crane"].bit


class YakuHit(NamedTuple):
    """A yaku made by a pile: the compiled yaku, its points and the cards that made it."""

    yaku: Yaku
    points: int
    cards: tuple[str, ...]


def rain_spoils(rule: str, pile: int) -> bool:
    """True when the pile's willow cards void viewing yaku under option ``rain_spoils_viewing``."""
    if rule == "never" or not pile & WILLOW:
        return False
    return not (rule == "unless-crane" and pile & CRANE)


def find_yaku(rules: RoppyakkenRules, pile: int) -> tuple[list[YakuHit], list[str]]:
    """Yaku in a pile (48-bit mask).

    Returns (hits in ruleset order, notes on yaku voided by an option).
    Points include Sambong-style extras (``extra_points`` per card past ``need``
    and per ``extra_cards`` card, capped at ``max_points``).
    """
    hits: list[YakuHit] = []
    notes: list[str] = []
    spoiled = rain_spoils(rules.options.rain_spoils_viewing, pile)
    for y in rules.yaku:
        have = pile & y.pool
        n = have.bit_count()
        if n < y.need or pile & y.require != y.require:
            continue
        if y.exact_void and pile & y.exact_void:
            also = ", ".join(mask_ids(pile & y.exact_void))
            notes.append(f"{yaku_name(y.en, y.ja)} void: the pile also holds {also} "
                         f"({house_rule(rules.options, 'exact_instant_yaku')})")
            continue
        if y.exact_max and n > y.exact_max:
            notes.append(f"{yaku_name(y.en, y.ja)} void: {n} cards, more than {y.exact_max} "
                         f"({house_rule(rules.options, 'exact_instant_yaku')})")
            continue
        if y.viewing and spoiled:
            notes.append(f"{yaku_name(y.en, y.ja)} void: willow in the pile "
                         f"({house_rule(rules.options, 'rain_spoils_viewing', rules.options.rain_spoils_viewing)})")
            continue
        extra = pile & y.extra
        points = y.points
        if y.extra_points:
            points += y.extra_points * (n - y.need + extra.bit_count())
            if y.max_points:
                points = min(points, y.max_points)
        hits.append(YakuHit(y, points, mask_ids(have | extra)))
    replaced = {r for h in hits for r in h.yaku.replaces}
    if replaced:
        hits = [h for h in hits if h.yaku.id not in replaced]
    return hits, notes
