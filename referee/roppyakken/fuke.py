"""Fuke (吹き消し, "blow away"): the round void.

RULES.md "Fuke": if any player's fuke count is at or below ``fuke.threshold``
the round is void: nobody scores, lucky hands included, and the dealer deals
again.  The count is card points (without ``fuke.excluded_months``) plus yaku
points when ``fuke.count_yaku``; lucky hands never count.  Pure core.
"""

from __future__ import annotations

from functools import cache

from referee.cards import CARDS
from referee.roppyakken.rules import FukeOptions


@cache
def excluded_mask(months: tuple[int, ...]) -> int:
    """Bitmask of the cards of the excluded months."""
    return sum(c.bit for c in CARDS if c.month in months)


def fuke_count(options: FukeOptions, card_points_outside: int, yaku_points: int) -> int:
    """A player's fuke count in points.

    ``card_points_outside``: card points of the pile without excluded months.
    """
    return card_points_outside + (yaku_points if options.count_yaku else 0)


def fuke_players(options: FukeOptions, counts: dict[str, int]) -> tuple[str, ...]:
    """Players whose fuke count is at or below the threshold (empty: no fuke)."""
    if not options.enabled:
        return ()
    return tuple(p for p, n in counts.items() if n <= options.threshold)
