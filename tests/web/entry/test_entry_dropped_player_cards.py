"""Hachi-hachi: a player marked as dropping out (or forced out) who has cards tapped into their pile is told so,
by name, before scoring; the deck check's refusal names cards by their names, never by id."""

from __future__ import annotations

import pytest
from web_helpers import first_form_error, session

from referee.cards import BY_ID, CARD_IDS
from referee.errors import RoundFieldError
from referee.hachihachi import settle_round
from referee.ruleset import load_ruleset
from referee.web.forms.rounds import entry_form

PLAYERS = ["A", "B", "C", "D"]


def _error(client, h, fields: list[tuple[str, str]]) -> str:
    return first_form_error(client, session(client, "hachihachi", PLAYERS), [("multiplier", "1"), *fields], h.signed)


# Bug: D forced out with 6 cards tapped into D's pile said "Cards in no pile: chrysanthemum-sake-cup, ..." (ids),
# the pile silently dropped, while the deck check counted 48 of 48 cards in piles.
@pytest.mark.parametrize(("seat", "status", "said"), [(3, "forced", "D is marked forced out"),
                                                     (1, "drop", "B is marked as dropping out")])
def test_a_dropped_players_cards_are_named_before_scoring(client, h, seat, status, said):
    cards = list(CARD_IDS)
    fields = [(f"status-{seat}", status), (f"order-{seat}", "1")]
    others = [s for s in range(4) if s != seat]
    for s, chunk in zip([*others, seat], (cards[:14], cards[14:28], cards[28:42], cards[42:]), strict=True):
        fields += [(f"pile-{s}", c) for c in chunk]
    error = _error(client, h, fields)
    assert error.startswith(f"{said} but has 6 cards in their pile;"), error


def test_the_deck_checks_refusal_names_cards_by_their_names():
    held = [c for c in CARD_IDS if c not in ("chrysanthemum-sake-cup", "pine-chaff-1")]
    piles = {p: held[i::3] for i, p in enumerate(PLAYERS[:3])}
    with pytest.raises(RoundFieldError) as e:
        settle_round(load_ruleset("hachihachi"), players=PLAYERS[:3], multiplier=1, piles=piles)
    assert e.value.message.endswith("Cards in no pile: pine-chaff-1, chrysanthemum-sake-cup")
    said = entry_form("hachihachi").words(e.value)
    assert said.startswith("The piles hold 253 of 264 points (11 missing); with 3 players every card is played")
    assert said.endswith(f"Cards in no pile: {BY_ID['pine-chaff-1'].name}, {BY_ID['chrysanthemum-sake-cup'].name}.")
