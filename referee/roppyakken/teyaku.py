"""Lucky hands (手役, teyaku) in a dealt hand.

RULES.md "Lucky hands (teyaku)" and seed 000 "Lucky Hands": sogasu (All Chaff,
every card worth 0 points), tesan (Hand Three), futatesan (Double Hand Three,
replaces tesan), tesi (Hand Four, Sambong) and the optional Triple Hand Three.
A month with four cards counts toward a four-card teyaku when the ruleset has
one, else toward the threes.  Pure core.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from referee.cards import BY_ID
from referee.roppyakken.rules import RoppyakkenRules, Teyaku


@dataclass(frozen=True, slots=True)
class TeyakuHit:
    """A lucky hand in a dealt hand: the teyaku, its points and the cards shown for it."""

    teyaku: Teyaku
    points: int
    cards: tuple[str, ...]


def find_teyaku(rules: RoppyakkenRules, hand: tuple[str, ...]) -> list[TeyakuHit]:
    """Lucky hands in a dealt hand (card ids). Returns hits in ruleset order."""
    if not hand or not rules.teyaku:
        return []
    cards = [BY_ID[c] for c in hand]
    per_month = Counter(c.month for c in cards)
    sizes = sorted({t.size for t in rules.teyaku if t.rule == "month-sets"})
    hits: list[TeyakuHit] = []
    for t in rules.teyaku:
        if t.rule == "all-zero":
            if all(c.roppyakken_points == 0 for c in cards):
                hits.append(TeyakuHit(t, t.points, tuple(hand)))
            continue
        larger = [s for s in sizes if s > t.size]
        months = sorted(m for m, n in per_month.items()
                        if n >= t.size and not (larger and n >= larger[0]))
        if len(months) < t.sets:
            continue
        points = max([t.points, *(t.month_points[m] for m in months if m in t.month_points)])
        shown = tuple(c.id for c in cards if c.month in months)
        hits.append(TeyakuHit(t, points, shown))
    replaced = {r for h in hits for r in h.teyaku.replaces}
    return [h for h in hits if h.teyaku.id not in replaced]
