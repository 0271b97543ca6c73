"""A round of nothing: the preview says no card is entered yet, and Save refuses it (no card, no
points on the totals pad, an edit that takes every card out), in the words of the page it is on."""

from __future__ import annotations

import pytest
from web_helpers import rounds


# Bug (web QA): a round of no card was scored without a warning.
def test_an_empty_round_warns_before_saving_but_may_be_saved(client, keeper, h):
    r = client.post(f"/s/{keeper}/round/new", data=h.round_form({}, action="score"), follow_redirects=True)
    assert "No cards entered yet" in r.get_data(as_text=True)
    r = client.post(f"/s/{keeper}/round/preview", data=h.round_form({}), headers={"HX-Request": "true"})
    assert "No cards entered yet" in r.get_data(as_text=True)
    r = client.post(f"/s/{keeper}/round/preview", data=h.round_form(h.piles(0)), headers={"HX-Request": "true"})
    assert "No cards entered yet" not in r.get_data(as_text=True)


FAMILIES = [
    ("roppyakken", ["Aki", "Ben", "Chiyo"]),
    ("hachihachi", ["Aki", "Ben", "Chiyo"]),
]


# Bug (phone QA): Save with no card tapped stored an empty round.
@pytest.mark.parametrize(("preset", "players"), FAMILIES, ids=[f for f, _ in FAMILIES])
def test_a_web_save_of_no_cards_saves_nothing_and_says_why(client, h, preset, players):
    """README "Round input" (and the API since issue 10): a round is its cards or its points.  Found on a
    phone: "Save" on the round page with no card tapped stored an empty round (a void round in
    Roppyakken) while the API refuses the same round.  (A Koi-Koi draw, "the hands ran out", saves without
    cards: test_entry_koikoi_how_it_ended.)"""
    token = h.new_session(client, players=players, ruleset=preset)
    r = client.post(f"/s/{token}/round/new", data=h.round_form({}, nonce="empty-1"))
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert "Nothing was saved: no card is entered" in page
    assert rounds(client, token) == []


# Bug (phone QA): an edit taking every card out saved an empty round.
def test_an_edit_that_removes_every_card_saves_nothing(client, h, keeper):
    """The same refusal when an edit takes every card out of a saved round."""
    client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0)))
    rid = rounds(client, keeper)[0]["id"]
    form = h.round_form({}, nonce="edit-empty")
    form["version"] = "1"
    r = client.post(f"/s/{keeper}/round/{rid}/edit", data=form)
    assert r.status_code == 422
    assert rounds(client, keeper)[0]["input"] == {"piles": h.piles(0)}


# Bug (phone QA): blank totals were refused in words about cards.
def test_a_totals_save_with_no_number_asks_for_the_points(client, h, keeper):
    """The refusal in the words of the page it is on: "Enter totals only" with every box blank asks for the
    points, not for cards."""
    form = h.round_form({}, nonce="totals-blank", entry="totals")
    for i in range(3):
        form[f"total-{i}"] = ""
    r = client.post(f"/s/{keeper}/round/new", data=form)
    assert r.status_code == 422
    assert "Nothing was saved: no points are entered" in r.get_data(as_text=True)
    assert rounds(client, keeper) == []
