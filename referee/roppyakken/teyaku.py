"""Lucky hands (手役, teyaku) in a dealt hand.

RULES.md "Lucky hands (teyaku)" and seed 000 "Lucky Hands": sogasu (All Chaff,
every card worth 0 points), tesan (Hand Three), futatesan (Double Hand Three,
replaces tesan), tesi (Hand Four, Sambong) and the optional Triple Hand Three.
A month with four cards counts toward a four-card teyaku when the ruleset has
one, else toward the threes.  Pure core.
"""

from __future__ import annotations

from typing import NamedTuple

from referee.cards import CARDS, mask, month_cards
from referee.explain import mask_ids
from referee.roppyakken.rules import RoppyakkenRules, Teyaku

_MONTHS = tuple((m, sum(c.bit for c in month_cards(m))) for m in range(1, 13))
# CARDS.tsv lists the four cards of each month together, so month m is the nibble m - 1 of a mask.
assert all(mm == 15 << 4 * (m - 1) for m, mm in _MONTHS)
_NIBBLE_ONES = sum(1 << 4 * i for i in range(12))
_SCORING = sum(c.bit for c in CARDS if c.roppyakken_points)


def months_with(hand_mask: int, at_least: int) -> int:
    """The months with at least ``at_least`` (1-4) cards in the hand, as a 48-bit mask of their cards.

    Each nibble of a mask is one month: its popcount (0-4) is summed inside the nibble,
    then adding ``8 - at_least`` sets the nibble's top bit exactly when the count is
    at least ``at_least``; that bit is spread back over the nibble.
    """
    t = hand_mask - (hand_mask >> 1 & 0x5 * _NIBBLE_ONES)
    t = (t & 0x3 * _NIBBLE_ONES) + (t >> 2 & 0x3 * _NIBBLE_ONES)
    top = (t + (8 - at_least) * _NIBBLE_ONES) & 0x8 * _NIBBLE_ONES
    return (top >> 3) * 15


class TeyakuHit(NamedTuple):
    """A lucky hand in a dealt hand: the teyaku, its points and the cards shown for it."""

    teyaku: Teyaku
    points: int
    cards: tuple[str, ...]


def find_teyaku(rules: RoppyakkenRules, hand: tuple[str, ...], hand_mask: int | None = None) -> list[TeyakuHit]:
    """Lucky hands in a dealt hand (card ids; ``hand_mask`` its 48-bit mask, if known).

    Returns hits in ruleset order.
    """
    if not hand or not rules.teyaku:
        return []
    if hand_mask is None:
        hand_mask = mask(hand)
    sizes = rules.teyaku_sizes
    # Most hands hold no month with enough cards for any month-sets teyaku: skip those tables.
    any_set = bool(sizes) and bool(months_with(hand_mask, sizes[0]))
    hits: list[TeyakuHit] = []
    for t in rules.teyaku:
        if t.rule == "all-zero":
            if not hand_mask & _SCORING:
                hits.append(TeyakuHit(t, t.points, tuple(hand)))
            continue
        if not any_set:
            continue
        larger = [s for s in sizes if s > t.size]
        months = months_with(hand_mask, t.size)
        if larger:
            months &= ~months_with(hand_mask, larger[0])
        if months.bit_count() < 4 * t.sets:
            continue
        points = max([t.points, *(pts for m, pts in t.month_points.items() if months >> 4 * (m - 1) & 1)])
        shown = mask_ids(hand_mask & months)
        hits.append(TeyakuHit(t, points, shown))
    if len(hits) < 2:
        return hits
    replaced = {r for h in hits for r in h.teyaku.replaces}
    return [h for h in hits if h.teyaku.id not in replaced]
