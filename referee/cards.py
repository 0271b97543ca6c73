"""The 48 hanafuda cards (花札), as frozen data.

The table is a copy of ``shared/cards/CARDS.tsv`` kept in ``referee/data/cards.tsv``;
the ids in its ``id`` column are the project's public vocabulary (CLI, JSON API and
the detector's class list).  This module is part of the pure rules core: it imports
nothing beyond the standard library.

Kinds use the field's terms with their English gloss:
hikari (bright), tane (animal), tanzaku (ribbon), kasu (chaff).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib import resources

from referee.errors import RefereeError

#: CARDS.tsv ``kind`` column -> the field's term.
KIND_TERMS = {"bright": "hikari", "animal": "tane", "ribbon": "tanzaku", "chaff": "kasu"}


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the 48.

    ``index`` is the card's position in CARDS.tsv (0-47), used for bitmasks.
    Points are per game: ``roppyakken_points`` (deck total 490) and
    ``hachihachi_points`` (deck total 264).
    """

    index: int
    id: str
    month: int
    plant: str
    plant_ja: str
    plant_ko: str
    kind: str
    name: str
    name_ja: str
    roppyakken_points: int
    hachihachi_points: int
    tags: frozenset[str]

    @property
    def kind_term(self) -> str:
        """The kind in the field's words: hikari, tane, tanzaku or kasu."""
        return KIND_TERMS[self.kind]

    @property
    def bit(self) -> int:
        """This card's bit in a 48-bit card set."""
        return 1 << self.index


def _load() -> tuple[Card, ...]:
    text = resources.files("referee").joinpath("data/cards.tsv").read_text(encoding="utf-8")
    rows = csv.DictReader(text.splitlines(), delimiter="\t")
    return tuple(
        Card(
            index=i,
            id=row["id"],
            month=int(row["month"]),
            plant=row["plant"],
            plant_ja=row["plant_ja"],
            plant_ko=row["plant_ko"],
            kind=row["kind"],
            name=row["name"],
            name_ja=row["name_ja"],
            roppyakken_points=int(row["roppyakken_points"]),
            hachihachi_points=int(row["hachihachi_points"]),
            tags=frozenset(row["tags"].split()),
        )
        for i, row in enumerate(rows)
    )


#: All 48 cards in CARDS.tsv order (month by month).
CARDS: tuple[Card, ...] = _load()
#: The 48 ids in CARDS.tsv order; also the detector's class list.
CARD_IDS: tuple[str, ...] = tuple(c.id for c in CARDS)
#: id -> Card.
BY_ID: dict[str, Card] = {c.id: c for c in CARDS}
_BIT: dict[str, int] = {c.id: c.bit for c in CARDS}
#: Bitmask of the whole deck.
FULL_DECK: int = (1 << len(CARDS)) - 1

assert len(CARDS) == 48, "CARDS.tsv must list 48 cards"


def card(card_id: str) -> Card:
    """Return the card with this exact id.

    Raises ``KeyError`` for an id not in CARDS.tsv (use ``referee.notation`` to parse
    user input with suggestions).
    """
    return BY_ID[card_id]


def mask(card_ids) -> int:
    """Bitmask (int, bit i = CARDS[i]) of an iterable of card ids."""
    m = 0
    for cid in card_ids:
        m |= _BIT[cid]
    return m


def ids_of(m: int) -> tuple[str, ...]:
    """Card ids in CARDS.tsv order for a bitmask."""
    return tuple(c.id for c in CARDS if m >> c.index & 1)


def month_cards(month: int) -> tuple[Card, ...]:
    """The four cards of a month (1-12), in CARDS.tsv order."""
    return tuple(c for c in CARDS if c.month == month)


def select(selectors: tuple[str, ...], source: str, path: str) -> int:
    """Bitmask of card selectors (id, ``kind:``, ``tag:``, ``month:``).

    Raises ``RefereeError('bad-ruleset')`` for a selector that names nothing.
    """
    m = 0
    for sel in selectors:
        kind, _, arg = sel.partition(":")
        if sel in BY_ID:
            hit = [BY_ID[sel]]
        elif kind == "kind":
            hit = [c for c in CARDS if c.kind == arg]
        elif kind == "tag":
            hit = [c for c in CARDS if arg in c.tags]
        elif kind == "month" and arg.isdigit():
            hit = [c for c in CARDS if c.month == int(arg)]
        else:
            hit = []
        if not hit:
            raise RefereeError(
                "bad-ruleset",
                f"{source}: field {path!r} has {sel!r}; expected a card id or kind:/tag:/month: selector",
            )
        for c in hit:
            m |= c.bit
    return m


def month_label(month: int) -> str:
    """A month as players name it: its plant in English with the Japanese, e.g. ``"Pine (松, month 1)"``.

    Use this wherever a month is named to a player (errors, warnings, explanations, the web).
    Raises ``ValueError`` for a month outside 1-12.
    """
    if not 1 <= month <= 12:
        raise ValueError(f"month must be 1-12, got {month!r}")
    first = month_cards(month)[0]
    english = first.plant.replace("-", " ").capitalize()
    kanji = first.plant_ja.split(" ")[0]
    return f"{english} ({kanji}, month {month})"


def count_cards(n: int) -> str:
    """``1 card``, ``5 cards``: a number of cards in words."""
    return f"{n} card" if n == 1 else f"{n} cards"
