"""Explanation lines: every point of a score, with its reason and its cards.

A score is the sum of its lines; tests check it.  Pure core.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.cards import CARDS


@dataclass(frozen=True, slots=True)
class Line:
    """One reason for points.

    ``code``: a stable machine code (``cards:hikari``, a yaku or teyaku id,
    ``chaff-upgrade``, ``fuke``, ``settlement``...); ``en``/``ja``: labels;
    ``points``: signed points (or mon, in Hachi-hachi); ``cards``: card ids.
    """

    player: str
    code: str
    en: str
    ja: str
    points: int
    cards: tuple[str, ...] = ()

    def to_json(self) -> dict:
        """The public JSON shape of a line."""
        return {"player": self.player, "code": self.code, "en": self.en, "ja": self.ja,
                "points": self.points, "cards": list(self.cards)}


def mask_ids(m: int) -> tuple[str, ...]:
    """Card ids of a 48-bit mask in deck order (iterates set bits only)."""
    out = []
    while m:
        low = m & -m
        out.append(CARDS[low.bit_length() - 1].id)
        m ^= low
    return tuple(out)
