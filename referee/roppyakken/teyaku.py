"""Lucky hands (手役, teyaku) in a dealt hand.

RULES.md "Lucky hands (teyaku)" and seed 000 "Lucky Hands": sogasu (All Chaff,
every card worth 0 points), tesan (Hand Three), futatesan (Double Hand Three,
replaces tesan), tesi (Hand Four, Sambong) and the optional Triple Hand Three.
A month with four cards counts toward a four-card teyaku when the ruleset has
one, else toward the threes.  Pure core.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.cards import CARDS, mask, month_cards
from referee.explain import mask_ids
from referee.roppyakken.rules import RoppyakkenRules, Teyaku

_MONTHS = tuple((m, sum(c.bit for c in month_cards(m))) for m in range(1, 13))
_SCORING = sum(c.bit for c in CARDS if c.roppyakken_points)


@dataclass(frozen=True, slots=True)
class TeyakuHit:
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
    per_month = {m: n for m, mm in _MONTHS if (n := (hand_mask & mm).bit_count())}
    sizes = sorted({t.size for t in rules.teyaku if t.rule == "month-sets"})
    hits: list[TeyakuHit] = []
    for t in rules.teyaku:
        if t.rule == "all-zero":
            if not hand_mask & _SCORING:
                hits.append(TeyakuHit(t, t.points, tuple(hand)))
            continue
        larger = [s for s in sizes if s > t.size]
        months = sorted(m for m, n in per_month.items()
                        if n >= t.size and not (larger and n >= larger[0]))
        if len(months) < t.sets:
            continue
        points = max([t.points, *(t.month_points[m] for m in months if m in t.month_points)])
        shown = mask_ids(sum(mm for m, mm in _MONTHS if m in months))
        hits.append(TeyakuHit(t, points, shown))
    replaced = {r for h in hits for r in h.teyaku.replaces}
    return [h for h in hits if h.teyaku.id not in replaced]
