"""Teyaku (手役, hand yaku) in a dealt 7-card hand, and their "+1 kan" bonus.

Seed 003 "List of Hand yakus" and FudaWiki "Teyaku"; RULES.md "Teyaku".
Group A reads the suit distribution (month counts, e.g. 3+2+2 is haneken 跳剣),
group B the chaff type (willow counts as chaff), and the ``field`` group reads
the dealt field too: mukou-sanbon (向三本, ja.wikipedia 八八 "手役"), three cards of
a month on the field and the fourth in the hand.  A hand scores at most one
teyaku per group, the highest, and the groups stack.  A standing triplet
(立三本, tatesanbon) is three cards of a month in ``options.standing_months``
(wisteria, iris, bush clover) or three chaff of a month in
``options.standing_chaff_months`` (the three paulownia chaff).  Pure core.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from referee.cards import BY_ID, Card, month_cards, month_label
from referee.hachihachi.rules import HachihachiRules, Teyaku


def yaku_kind(rules: HachihachiRules, c: Card) -> str:
    """A card's kind for yaku: willow (month 11) is chaff when ``willow_is_chaff``."""
    if c.month == 11 and rules.options.willow_is_chaff:
        return "chaff"
    return c.kind


def chaff_count(rules: HachihachiRules, ids: Sequence[str]) -> int:
    """Chaff cards among ``ids``, willow included (seed 003 "Special rule")."""
    return sum(yaku_kind(rules, BY_ID[c]) == "chaff" for c in ids)


@dataclass(frozen=True, slots=True)
class TeyakuHit:
    """A teyaku in a hand: value in kan, the cards that make it, and its triplet months."""

    teyaku: Teyaku
    kan: int
    cards: tuple[str, ...]
    triplet_months: tuple[int, ...]


def _is_standing(rules: HachihachiRules, month: int, cards: list[Card]) -> bool:
    o = rules.options
    if month in o.standing_months:
        return True
    return month in o.standing_chaff_months and all(yaku_kind(rules, c) == "chaff" for c in cards)


def _group_a(rules: HachihachiRules, hand: tuple[Card, ...]) -> list[TeyakuHit]:
    by_month: dict[int, list[Card]] = {}
    for c in hand:
        by_month.setdefault(c.month, []).append(c)
    shape = tuple(sorted((len(v) for v in by_month.values()), reverse=True))
    triplets = sorted(m for m, v in by_month.items() if len(v) == 3)
    standing = sum(_is_standing(rules, m, by_month[m]) for m in triplets)
    hits = []
    for t in rules.teyaku:
        if t.group != "a" or shape not in t.shapes or t.standing not in (-1, standing):
            continue
        cards = tuple(c.id for c in hand if len(by_month[c.month]) >= t.shows)
        hits.append(TeyakuHit(t, t.kan, cards, tuple(triplets)))
    return hits


def _group_b(rules: HachihachiRules, hand: tuple[Card, ...]) -> list[TeyakuHit]:
    kinds = Counter(yaku_kind(rules, c) for c in hand)
    hits = []
    for t in rules.teyaku:
        if t.group != "b":
            continue
        if all(lo <= kinds.get(k, 0) <= hi for k, (lo, hi) in t.kinds.items()):
            cards = tuple(c.id for c in hand if yaku_kind(rules, c) != "chaff") or tuple(
                c.id for c in hand
            )
            hits.append(TeyakuHit(t, t.kan, cards, ()))
    return hits


def _group_field(rules: HachihachiRules, hand: tuple[Card, ...], field: Sequence[str]) -> list[TeyakuHit]:
    """Mukou-sanbon: each month with three cards on the dealt field and the fourth in the hand."""
    if not field:
        return []
    on_field = Counter(BY_ID[c].month for c in field)
    months = tuple(sorted({c.month for c in hand if on_field.get(c.month) == 3}))
    if not months:
        return []
    cards = tuple(c.id for c in hand if c.month in months)
    return [
        TeyakuHit(t, t.kan * len(months), cards, months) for t in rules.teyaku if t.group == "field"
    ]


def find_teyaku(
    rules: HachihachiRules, hand: Sequence[str], field: Sequence[str] = ()
) -> tuple[TeyakuHit, ...]:
    """The teyaku of a dealt hand (card ids): at most one of group A, one of group B and
    one of the field group (which needs ``field``, the six dealt field cards).

    Within a group the highest value wins (file order breaks ties).  ``cards``
    of a group-B hit are its non-chaff cards (all seven for an empty hand).
    The caller checks the hand size (``referee.hachihachi.deal.HAND_SIZE``).
    """
    cards = tuple(BY_ID[c] for c in hand)
    out = []
    for hits in (_group_a(rules, cards), _group_b(rules, cards), _group_field(rules, cards, field)):
        if hits:
            out.append(max(hits, key=lambda h: h.kan))  # max keeps the first of equal values
    return tuple(out)


def describe(hit: TeyakuHit) -> str:
    """A teyaku hit for an explanation line's English half: ``Standing Triplet (Weak Three) 3 kan,
    Wisteria (藤, month 4)`` (the months of its triplets named by their plants; the Japanese half,
    ``手役 立三本``, names it beside)."""
    months = ", ".join(month_label(m) for m in hit.triplet_months)
    return f"{hit.teyaku.en} {hit.kan} kan" + (f", {months}" if months else "")


def teyaku_kan(hits: Sequence[TeyakuHit]) -> int:
    """Total value in kan of a hand's teyaku."""
    return sum(h.kan for h in hits)


def bonus_met(rules: HachihachiRules, hit: TeyakuHit, pile: Sequence[str], points: int) -> bool:
    """Whether a teyaku earns its "+1 kan" at the end of the round (seed 003).

    ``capture-month``: the pile holds all four cards of every triplet month;
    ``points``: the pile is worth ``options.bonus_points`` (89) or more.
    """
    if hit.teyaku.bonus == "capture-month":
        own = set(pile)
        return bool(hit.triplet_months) and all(
            all(c.id in own for c in month_cards(m)) for m in hit.triplet_months
        )
    if hit.teyaku.bonus == "points":
        return points >= rules.options.bonus_points
    return False
