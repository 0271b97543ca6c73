"""The delete and conflict pages show what a round holds (its piles, calls, totals, field) and, for a
conflict, what differs between the two versions."""

from __future__ import annotations

import html
import re

import pytest
from web_helpers import rounds, session, text, totals
from werkzeug.datastructures import MultiDict

HANAMI = ["cherry-curtain", "chrysanthemum-sake-cup"]  # Hanami-zake (花見酒), 5 points


def _round_id(client, token: str, k: int = 0) -> int:
    return client.get(f"/api/v1/sessions/{token}").get_json()["rounds"][k]["id"]


# Bug (web QA): the conflict page did not show what differs.
def test_the_conflict_page_highlights_the_cards_that_differ(client, keeper, h):
    from referee.cards import BY_ID

    client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0)))
    (rnd,) = rounds(client, keeper)
    url, v = f"/s/{keeper}/round/{rnd['id']}/edit", str(rnd["version"])
    theirs = h.piles(0)
    theirs["Aki"] = theirs["Aki"][1:]  # someone removed one card from Aki's pile
    assert client.post(url, data=h.round_form(theirs, nonce="theirs", version=v)).status_code == 303
    r = client.post(url, data=h.round_form(h.piles(0), nonce="mine", version=v))  # my edit still has it
    body = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 409
    assert "What differs" in body
    removed = BY_ID[h.piles(0)["Aki"][0]].name
    assert re.search(
        rf"<strong>Aki's pile</strong>:\s*<span class=\"added\">only in yours: {re.escape(removed)}</span>", body
    )
    assert "<strong>Ben's pile</strong>" not in body  # unchanged piles are not listed
    assert "<strong>Chiyo's pile</strong>" not in body


# Bug (Koi-Koi QA): the delete page hid who stopped and the koi-koi calls.
# Issue 13 "Web": a Koi-Koi round is entered as who stopped (or the hands ran out) and the koi-koi
# calls in order, beside the piles; asked "Delete round N?", the scorekeeper sees all of it, as the
# page shows the piles and dealt hands of every family.
@pytest.mark.parametrize(
    ("form", "shows"),
    [
        ({"pile-1": HANAMI, "stopped_by": "Ben", "call-0": "Aki", "call-1": "Ben"},
         ["Who stopped (勝負): Ben", "Koi-koi calls, in order: 1. Aki, 2. Ben", "Ben (2 cards): Cherry"]),
        ({"stopped_by": ""}, ["Who stopped (勝負): nobody, the hands ran out", "Koi-koi calls, in order: none"]),
    ],
    ids=["stopped-after-two-calls", "hands-ran-out"],
)
def test_the_delete_page_shows_the_koikoi_calls(client, h, form, shows):
    token = session(client, "koikoi", ["Aki", "Ben"])
    assert client.post(f"/s/{token}/round/new", data=MultiDict({"action": "save", "nonce": h.signed("d1"),
                                                               **form})).status_code == 303
    page = text(client.get(f"/s/{token}/round/{_round_id(client, token)}/delete").get_data(as_text=True))
    for words in shows:
        assert words in page


# Bug (Koi-Koi QA): the delete page showed a round of totals as empty piles.
def test_the_delete_page_shows_entered_totals_not_empty_piles(client, h):
    # README "Totals only": such a round holds each player's points, not cards.
    token = session(client, "koikoi", ["Aki", "Ben"])
    assert client.post(f"/s/{token}/round/new", data=totals(h, "d2", 0, 12)).status_code == 303
    page = text(client.get(f"/s/{token}/round/{_round_id(client, token)}/delete").get_data(as_text=True))
    assert "Entered totals: Aki 0 · Ben 12" in page
    assert "(0 cards)" not in page


# Bug (Koi-Koi QA): the delete page hid Hachi-hachi's field, dekiyaku and hatto.
def test_the_delete_page_shows_hachihachi_calls(client, h):
    # RULES.md / seed 003: a Hachi-hachi round holds the field (or its multiplier), the dekiyaku calls with
    # stop or continue, and hatto, beside the piles.
    token = session(client, "hachihachi", ("Aki", "Ben", "Chiyo"))
    rnd = {"multiplier": 2, "dekiyaku": [{"player": "Aki", "yaku": "akatan", "decision": "stop"}], "hatto": ["Ben"],
           "piles": {"Aki": ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon"]}}
    r = client.post(f"/api/v1/sessions/{token}/rounds", json=rnd)
    assert r.status_code == 201, r.get_json()
    page = text(client.get(f"/s/{token}/round/{_round_id(client, token)}/delete").get_data(as_text=True))
    assert "Field multiplier: ×2" in page
    assert "Dekiyaku: Aki Poetry Ribbons" in page
    assert "Hatto: Ben" in page


# Bug (Koi-Koi QA): the conflict page hid each version's calls.
def test_the_conflict_page_shows_both_versions_calls(client, h):
    # The same partial answers "Someone else saved a different version": each side's calls are shown.
    token = session(client, "koikoi", ["Aki", "Ben"])
    first = {"pile-1": HANAMI, "stopped_by": "Ben", "call-0": "Aki"}
    assert client.post(f"/s/{token}/round/new", data=MultiDict({"action": "save", "nonce": h.signed("c1"),
                                                               **first})).status_code == 303
    rnd = client.get(f"/api/v1/sessions/{token}").get_json()["rounds"][0]
    url = f"/s/{token}/round/{rnd['id']}/edit"
    v = str(rnd["version"])
    theirs = MultiDict({"action": "save", "version": v, "pile-1": HANAMI, "stopped_by": "Ben"})
    assert client.post(url, data=theirs).status_code == 303
    mine = MultiDict({"action": "save", "version": v, "pile-0": HANAMI, "stopped_by": "Aki", "call-0": "Ben"})
    r = client.post(url, data=mine)
    assert r.status_code == 409
    page = text(r.get_data(as_text=True))
    assert "Who stopped (勝負): Aki Koi-koi calls, in order: 1. Ben" in page  # yours
    assert "Who stopped (勝負): Ben Koi-koi calls, in order: none" in page  # saved


# Bug (phone walk): the 404 page for a round a session does not have offered only "Home".
@pytest.mark.parametrize(("link", "method", "path"), [
    ("edit", "get", "/round/999/edit"),
    ("edit", "get", "/round/999/delete"),
    ("edit", "post", "/round/999/delete"),
    ("view", "get", "/round/999/photos"),
], ids=["edit page", "delete page", "delete", "photos (viewer link)"])
def test_a_missing_round_of_a_session_offers_its_scoreboard_beside_home(client, keeper, viewer, link, method, path):
    token = keeper if link == "edit" else viewer
    r = getattr(client, method)(f"/s/{token}{path}")
    assert r.status_code == 404
    page = r.get_data(as_text=True)
    assert "This session has no such round" in page
    assert f'href="/s/{token}"' in page  # the scoreboard, by the link the player used
    assert "Back to the scoreboard" in text(page)
    assert 'href="/"' in page  # Home
    api = client.delete(f"/api/v1/sessions/{keeper}/rounds/999")  # the API answers in JSON, as before
    assert api.status_code == 404
    assert api.get_json()["error"] == "not-found"
