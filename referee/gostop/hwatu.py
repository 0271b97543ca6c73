"""Hwatu (화투) names: the Korean month numbers and names of the 48 cards.

GOSTOP-RULES.md "Cards": hwatu numbers paulownia (오동) 11 and willow (비) 12, while CARDS.tsv
keeps the Japanese order (``willow-*`` month 11, ``paulownia-*`` month 12).  Ids never change;
Go-Stop output names months this way ("12월 비" for ``willow-*``).  Pure core.
"""

from __future__ import annotations

from referee.cards import BY_ID, month_cards

#: CARDS.tsv month -> hwatu month: only willow (11) and paulownia (12) trade places.
_HWATU = {11: 12, 12: 11}


def hwatu_month(month: int) -> int:
    """The hwatu number (1-12) of a CARDS.tsv month.  Raises ``ValueError`` outside 1-12."""
    if not 1 <= month <= 12:
        raise ValueError(f"month must be 1-12, got {month!r}")
    return _HWATU.get(month, month)


def month_name(month: int) -> str:
    """A CARDS.tsv month as Go-Stop players name it, with the English plant:
    ``month_name(11)`` is ``"12월 비 (willow)"``."""
    first = month_cards(month)[0]
    return f"{hwatu_month(month)}월 {first.plant_ko} ({first.plant.replace('-', ' ')})"


def card_label(card_id: str) -> str:
    """A card with its hwatu month: ``"willow-rain-man (12월 비)"``."""
    c = BY_ID[card_id]
    return f"{card_id} ({hwatu_month(c.month)}월 {c.plant_ko})"
