"""Fields of the round form that were once ignored or replaced without a word are refused, naming
the field, and the errors read in the form's words."""

from __future__ import annotations

import html

import pytest
from web_helpers import rounds


# Bug (web QA): a pile for a seat the session lacks was dropped without a word.
def test_a_pile_for_a_seat_that_does_not_exist_is_refused(client, keeper, h):
    form = h.round_form(h.piles(0))
    form.add("pile-9", "pine-crane")
    r = client.post(f"/s/{keeper}/round/new", data=form)
    assert r.status_code == 422
    assert "the form holds a pile for seat 10" in html.unescape(r.get_data(as_text=True))
    assert rounds(client, keeper) == []


# Bug (web QA): a posted dealer other than the oya was silently replaced.
@pytest.mark.parametrize(
    ("dealer", "says"), [("Nobody", "is not a player"), ("Ben", "oya is Aki, not Ben")], ids=["stranger", "not-oya"]
)
def test_a_posted_dealer_that_is_not_the_oya_is_refused(client, keeper, h, dealer, says):
    r = client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0), dealer=dealer))
    assert r.status_code == 422
    assert says in html.unescape(r.get_data(as_text=True))
    assert rounds(client, keeper) == []
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0), dealer="Aki")).status_code == 303


# Bug (web QA): drop-out errors read as JSON ("set forced") on the form.
def test_form_errors_use_the_forms_words_not_json():
    # The core words drop-out errors so that they read right in a form and in JSON alike.
    from referee.errors import RefereeError
    from referee.hachihachi import settle_round_json

    hand = ["pine-chaff-1", "plum-chaff-1", "cherry-chaff-1", "wisteria-chaff-1", "iris-chaff-1",
            "peony-chaff-1", "maple-chaff-1"]
    data = {"ruleset": "hachihachi", "players": ["A", "B", "C", "D"], "dealer": "A", "multiplier": 1,
            "dropped": {"B": {"order": 1, "forced": True, "hand": hand}}, "piles": {}}
    with pytest.raises(RefereeError) as e:
        settle_round_json(data)
    assert "set forced" not in e.value.message
    assert "forced: " not in e.value.message
    assert "mark them as dropping out" in e.value.message
