"""A round form posted with a value its own controls cannot send (an edited page, an old tab) is refused in
players' words: the form's control by its label and what it offers, never the JSON's keys, option names or
Python's lists (``"bonus" of Jiwoo has 9``, ``multiplier is 3; expected one of [1, 2, 4]``, ``'pile-5'``)."""

from __future__ import annotations

import re

import pytest
from web_helpers import first_form_error, session

INTERNALS = re.compile(r"\"\w+\"|\(option |\[\d|'\w[\w.-]*'|\bexpected\b")


def _error(client, h, ruleset: str, players: list[str], fields: list[tuple[str, str]]) -> str:
    return first_form_error(client, session(client, ruleset, players), fields, h.signed)


# Bug: these said '"bonus" of Jiwoo has 9; the deck's bonus cards (option bonus_cards) are worth [2, 3]',
# "multiplier is 3; expected one of [1, 2, 4]" and "the form has a field 'pile-5' for seat 6".
@pytest.mark.parametrize(
    ("ruleset", "players", "fields", "says"),
    [("gostop", ["Jiwoo", "Minho", "Sora"], [("bonus-0", "0:9"), ("stopped_by", "")],
      "Jiwoo's bonus card is worth 9 pi, but these house rules' bonus cards are worth 2 or 3 pi"),
     ("hachihachi", ["Aki", "Ben", "Cho"], [("multiplier", "3")], "The field's multiplier must be ×1, ×2 or ×4"),
     ("roppyakken", ["Aki", "Ben", "Cho"], [("pile-5", "pine-crane")],
      "the form holds a pile for seat 6, but this session seats 3 players")],
    ids=["bonus", "multiplier", "seat"],
)
def test_a_value_the_form_cannot_send_is_refused_in_players_words(client, h, ruleset, players, fields, says):
    error = _error(client, h, ruleset, players, fields)
    assert says in error, error
    assert not INTERNALS.search(error), error
