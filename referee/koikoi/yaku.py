"""Yaku (役) in a Koi-Koi pile, read from the ruleset's yaku tables.

KOIKOI-RULES.md "Yaku": a yaku is data (``referee.koikoi.rules.Yaku``): the cards or the
kind it counts, how many make it, its extras, its group.  ``find_yaku`` applies what data
cannot say: the sake cup's kinds (option ``sake_cup``), the round's month (tsukifuda),
rain spoiling the viewings (``rain_spoils_viewing``), ``viewing = limited``, replacements
(akatan-aotan over akatan and aotan) and the groups, where only the yaku worth most scores.
Pure core.
"""

from __future__ import annotations

from typing import NamedTuple

from referee.cards import BY_ID, CARDS, month_cards
from referee.explain import mask_ids
from referee.koikoi.rules import KINDS, KoikoiRules, Yaku
from referee.option_names import house_rule
from referee.wording import yaku_name

#: Card kind -> 48-bit mask of its cards.
KIND_MASK = {k: sum(c.bit for c in CARDS if c.kind == k) for k in KINDS}
#: The sake cup (菊に盃): an animal that may also count as chaff (option ``sake_cup``).
SAKE_CUP = BY_ID["chrysanthemum-sake-cup"].bit
#: Month (1-12) -> mask of its four cards.
MONTH_MASK = {m: sum(c.bit for c in month_cards(m)) for m in range(1, 13)}
#: Option ``rain_spoils_viewing`` -> the cards in the scorer's pile that void the viewings.
RAIN = {
    "never": 0,
    "rain-man": BY_ID["willow-rain-man"].bit,
    "rain-or-lightning": BY_ID["willow-rain-man"].bit | BY_ID["willow-lightning"].bit,
    "any-willow": MONTH_MASK[11],
}
#: Option ``sake_cup`` -> the ways to count the cup: (counts as an animal, chaff it adds), tried in order.
CUP_USES = {
    "both": ((True, 1),),
    "animal": ((True, 0),),
    "two-chaff": ((True, 2),),
    "either": ((True, 0), (False, 1)),
}


class YakuHit(NamedTuple):
    """A yaku made by a pile: the compiled yaku, its points (extras included) and the cards that made it."""

    yaku: Yaku
    points: int
    cards: tuple[str, ...]


def _kind_cards(pile: int, kind: str, cup_animal: bool, cup_chaff: int) -> tuple[int, int]:
    """(count, mask shown) of a kind's cards in a pile, the sake cup counted as the option says."""
    m = pile & KIND_MASK[kind]
    n = m.bit_count()
    if pile & SAKE_CUP:
        if kind == "animal" and not cup_animal:
            return n - 1, m & ~SAKE_CUP
        if kind == "chaff" and cup_chaff:
            return n + cup_chaff, m | SAKE_CUP
    return n, m


def _hits(rules: KoikoiRules, pile: int, month: int | None, cup_animal: bool, cup_chaff: int) -> list[YakuHit]:
    hits = []
    for y in rules.yaku:
        if y.require and pile & y.require != y.require:
            continue
        if y.kind:
            n, shown = _kind_cards(pile, y.kind, cup_animal, cup_chaff)
        else:
            if y.round_month and month is None:
                continue
            pool = MONTH_MASK[month] if y.round_month else y.pool
            shown = pile & pool
            n = shown.bit_count()
        if n < y.need:
            continue
        points = y.points
        if y.extra_past:
            extra, extra_shown = _kind_cards(pile, y.extra_kind, cup_animal, cup_chaff)
            if extra > y.extra_past:
                points += (extra - y.extra_past) * y.extra_points
                shown |= extra_shown
        hits.append(YakuHit(y, points, mask_ids(shown)))
    return hits


def _resolve(rules: KoikoiRules, hits: list[YakuHit], pile: int) -> tuple[list[YakuHit], list[str]]:
    notes = []
    rain = pile & RAIN[rules.options.rain_spoils_viewing]
    if rain:
        for h in hits:
            if h.yaku.viewing:
                notes.append(f"{yaku_name(h.yaku.en, h.yaku.ja)} void: the pile holds {', '.join(mask_ids(rain))} "
                             f"({house_rule(rules.options, 'rain_spoils_viewing', rules.options.rain_spoils_viewing)})")
        hits = [h for h in hits if not h.yaku.viewing]
    replaced = {r for h in hits for r in h.yaku.replaces}
    hits = [h for h in hits if h.yaku.id not in replaced]
    best: dict[str, YakuHit] = {}
    for h in hits:
        g = h.yaku.group
        if g and (g not in best or h.points > best[g].points):
            best[g] = h
    hits = [h for h in hits if not h.yaku.group or best[h.yaku.group] is h]
    if rules.options.viewing == "limited" and not any(not h.yaku.viewing for h in hits):
        notes += [f"{yaku_name(h.yaku.en, h.yaku.ja)} void: a viewing scores only beside another yaku "
                  f"({house_rule(rules.options, 'viewing', 'limited')})" for h in hits if h.yaku.viewing]
        hits = [h for h in hits if not h.yaku.viewing]
    return hits, notes


def find_yaku(rules: KoikoiRules, pile: int, month: int | None = None) -> tuple[list[YakuHit], list[str]]:
    """The yaku a pile (48-bit mask) makes in a round of ``month`` (1-12, or None: no tsukifuda).

    Returns (hits in ruleset order, notes on yaku voided by an option or on the sake cup's
    use).  Under ``sake_cup = either`` the cup's use that gives the higher yaku total wins,
    the animal on a tie.  Rule source: KOIKOI-RULES.md "Cards" and "Yaku".
    """
    best: tuple[list[YakuHit], list[str]] | None = None
    best_total = -1
    for cup_animal, cup_chaff in CUP_USES[rules.options.sake_cup]:
        hits, notes = _resolve(rules, _hits(rules, pile, month, cup_animal, cup_chaff), pile)
        total = sum(h.points for h in hits)
        if total > best_total:
            if not cup_animal and pile & SAKE_CUP:
                notes = [*notes, "the sake cup counts as a chaff, which scores more "
                         f"({house_rule(rules.options, 'sake_cup', 'either')})"]
            best, best_total = (hits, notes), total
    assert best is not None
    return best
