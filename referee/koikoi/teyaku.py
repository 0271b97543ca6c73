"""Lucky hands (手役, teyaku) in a Koi-Koi dealt hand: teshi (手四) and kuttsuki (くっつき).

KOIKOI-RULES.md "Lucky hands (teyaku)": teshi is four cards of one month; kuttsuki is four
pairs.  A four is teshi and does not also count as two pairs, so a hand is teshi or
kuttsuki, never both; option ``teshi_counts_as_pairs`` counts a four as two pairs too, and
both then score.  A hand with two fours is one teshi.  Pure core.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from referee.cards import CARDS, month_label
from referee.koikoi.rules import KoikoiRules, Teyaku

_MONTH = {c.id: c.month for c in CARDS}


class TeyakuHit(NamedTuple):
    """A lucky hand: the teyaku, its points, the cards shown for it and, for a four, its
    month as players name it (``referee.cards.month_label``)."""

    teyaku: Teyaku
    points: int
    cards: tuple[str, ...]
    months: str = ""


def find_teyaku(rules: KoikoiRules, hand: Sequence[str]) -> list[TeyakuHit]:
    """Lucky hands in a dealt hand (card ids), in ruleset order."""
    if not hand or not rules.teyaku:
        return []
    months = Counter(map(_MONTH.__getitem__, hand))
    if max(months.values()) < 2:
        return []
    fours = {m for m, n in months.items() if n >= 4}
    paired = {m for m, n in months.items() if 2 <= n < 4}
    as_pairs = rules.options.teshi_counts_as_pairs
    pairs = sum(months[m] // 2 for m in paired) + (2 * len(fours) if as_pairs else 0)
    hits = []
    for t in rules.teyaku:
        if t.rule == "four" and fours:
            named = ", ".join(month_label(m) for m in sorted(fours))
            hits.append(TeyakuHit(t, t.points, tuple(c for c in hand if _MONTH[c] in fours), named))
        elif t.rule == "pairs" and pairs >= t.pairs:
            shown = paired | (fours if as_pairs else set())
            hits.append(TeyakuHit(t, t.points, tuple(c for c in hand if _MONTH[c] in shown)))
    return hits
