"""The deal of the variant actually played, and the deck check that follows from it.

Seed 003 "Setup for each month": 7 cards to each player, 6 face up to the field,
the rest is the draw pile, and each turn plays one hand card and one drawn card.
FudaWiki "Hachi-Hachi for Two Players": two players are dealt the same way.

- Three active players: 6 + 3 × 7 dealt + 3 × 7 drawn = 48.  Every card is
  played, and the field always ends empty (each month's four cards pair off,
  or three on the field are taken by the fourth), so the piles hold all 48
  cards, 264 points.
- Two active players (two seated, or two of four or more active): 6 + 2 × 7
  dealt + 2 × 7 drawn = 34 reach the table, so 14 cards are never drawn, and a
  card can be left on the field.  The piles hold at most 34 cards and no fixed
  number of points.

Settling on card points checks the piles against this (``check_piles``); the
web app's deck check shows the same figures.  Pure core.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from referee.cards import BY_ID, CARD_IDS
from referee.errors import RoundFieldError
from referee.wording import NAMED_CARDS

#: Cards dealt to each active player's hand and to the field.
HAND_SIZE = 7
FIELD_SIZE = 6
#: Card points of the whole deck (20, 10, 5 and 1 a card: RULES.md "Hachi-hachi").
DECK_POINTS = 264


@dataclass(frozen=True, slots=True)
class Deal:
    """The deal for ``active`` players: ``in_play`` cards reach the table, ``undrawn`` never do."""

    active: int

    @property
    def in_play(self) -> int:
        """Cards that reach the table: the field, the hands and one draw per hand card."""
        return min(len(CARD_IDS), FIELD_SIZE + 2 * HAND_SIZE * self.active)

    @property
    def undrawn(self) -> int:
        """Cards left in the draw pile at the end of the round (14 with two players, else 0)."""
        return len(CARD_IDS) - self.in_play

    @property
    def whole_deck(self) -> bool:
        """Every card is played, so the piles must hold all 48 cards and 264 points."""
        return self.undrawn == 0


@dataclass(frozen=True)
class DeckCheck:
    """The piles of a round settled on card points against its deal.

    ``cards``: distinct cards in the piles; ``points``: their card points;
    ``missing``: the cards in no pile (the never-drawn ones too, with two players).
    """

    deal: Deal
    cards: int
    points: int
    missing: tuple[str, ...]

    @property
    def gap(self) -> int:
        """Points missing from the deck's 264 (negative: too many) when every card is played; else 0."""
        return DECK_POINTS - self.points if self.deal.whole_deck else 0

    @property
    def ok(self) -> bool:
        """The piles fit the deal: all 48 cards (264 points), or at most 34 cards with two players."""
        if self.deal.whole_deck:
            return self.cards == len(CARD_IDS) and self.points == DECK_POINTS
        return self.cards <= self.deal.in_play

    def problem(self) -> str | None:
        """Why the piles do not fit the deal, in words a player acts on; None when they do.  The cards in no pile
        are named while few are missing (``referee.wording.NAMED_CARDS``), else counted."""
        if self.ok:
            return None
        if self.deal.whole_deck and len(self.missing) > NAMED_CARDS:  # a pile not entered yet: counted, not listed
            return (
                f"the piles hold {self.cards} of the {len(CARD_IDS)} cards; with {self.deal.active} players every "
                f"card is played, so a round settled on card points needs all {len(CARD_IDS)}: "
                f"{len(self.missing)} cards are in no pile"
            )
        if self.deal.whole_deck:
            diff = DECK_POINTS - self.points
            how = f"{diff} missing" if diff > 0 else f"{-diff} extra"
            return (
                f"the piles hold {self.points} of {DECK_POINTS} points ({how}); with "
                f"{self.deal.active} players every card is played, so a round settled on card "
                f"points needs all 48 cards. Cards in no pile: {', '.join(self.missing) or 'none'}"
            )
        return (
            f"the piles hold {self.cards} cards; with {self.deal.active} players "
            f"{self.deal.undrawn} cards are never drawn, so at most {self.deal.in_play} can be "
            "captured: a card is entered twice or belongs to another round"
        )

    def refusal(self, players: Iterable[str]) -> RoundFieldError | None:
        """The ``pile-points`` error a round settled on card points raises when its piles do not fit the deal
        (its message :meth:`problem`); None when they do.  ``players``: the active players, in play order.

        Its parts (``referee.errors.RoundFieldError``), field ``piles``: rule ``whole-deck`` (three play, so every
        card is played): ``value`` the piles' points, ``limit`` ``DECK_POINTS``, ``cards`` the cards in no pile;
        rule ``in-play`` (two play): ``value`` the cards in the piles, ``limit`` ``deal.in_play``.  ``players``
        are the active players either way.  Rule source: seed 003 "Setup for each month" (this module's
        docstring)."""
        problem = self.problem()
        if problem is None:
            return None
        if self.deal.whole_deck:
            return RoundFieldError("pile-points", problem, field="piles", rule="whole-deck", value=self.points,
                                   limit=DECK_POINTS, players=tuple(players), cards=self.missing)
        return RoundFieldError("pile-points", problem, field="piles", rule="in-play", value=self.cards,
                               limit=self.deal.in_play, players=tuple(players))


def deal_for(active: int) -> Deal:
    """The deal of a round with ``active`` players (2 or 3 play; more, as a form shows before the
    drop-outs are marked, deal the whole deck).  Raises ``ValueError`` for a negative count."""
    if active < 0:
        raise ValueError(f"a deal needs a player count of 0 or more, got {active}")
    return Deal(active)


def check_piles(active: int, piles: Mapping[str, Iterable[str]]) -> DeckCheck:
    """Check the captured piles (player -> card ids; unknown ids are ignored) of a round
    played by ``active`` players against its deal.  See ``DeckCheck.ok``."""
    held = {c for cards in piles.values() for c in cards if c in BY_ID}
    points = sum(BY_ID[c].hachihachi_points for c in held)
    missing = tuple(c for c in CARD_IDS if c not in held)
    return DeckCheck(deal_for(active), len(held), points, missing)
