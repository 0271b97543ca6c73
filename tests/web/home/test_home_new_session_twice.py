"""Bug (new user): a double tap on "New session" created two sessions.  The new-session and
import forms carry a one-time token (as the round form does): the same form posted again lands on
the session it created and creates no second one."""

from __future__ import annotations

import json
import re


def _nonce(page: str) -> str:
    found = re.search(r'name="nonce" value="([^"]+)"', page)
    assert found, "the form has no one-time token"
    return found.group(1)


def _sessions(client) -> list:
    return client.get("/api/v1/sessions").get_json()["sessions"]


def test_the_same_new_session_form_posted_twice_creates_one_session(client):
    form = {"name": "Friday", "ruleset": "roppyakken", "dealer": "0", "action": "create"}
    form |= {"player-0": "Aki", "player-1": "Ben", "player-2": "Chiyo"}
    form["nonce"] = _nonce(client.get("/new").get_data(as_text=True))
    first = client.post("/new", data=form)
    second = client.post("/new", data=form)
    assert first.status_code == second.status_code == 303
    assert second.headers["Location"] == first.headers["Location"]
    assert len(_sessions(client)) == 1
    page = client.get(second.headers["Location"]).get_data(as_text=True)
    assert "Session created." in page
    assert "This form was sent twice" in page
    # A fresh form (a new page) still makes a new session.
    form["nonce"] = _nonce(client.get("/new").get_data(as_text=True))
    assert client.post("/new", data=form).headers["Location"] != first.headers["Location"]
    assert len(_sessions(client)) == 2


def test_a_form_sent_back_with_an_error_keeps_its_token(client):
    nonce = _nonce(client.get("/new").get_data(as_text=True))
    form = {"name": "Friday", "ruleset": "roppyakken", "dealer": "7", "nonce": nonce}
    form |= {"player-0": "Aki", "player-1": "Ben", "player-2": "Chiyo"}
    r = client.post("/new", data=form)
    assert r.status_code == 422
    assert _nonce(r.get_data(as_text=True)) == nonce


def test_a_forged_token_is_not_trusted_but_still_creates(client):
    form = {"name": "Friday", "ruleset": "roppyakken", "dealer": "0", "nonce": "forged"}
    form |= {"player-0": "Aki", "player-1": "Ben", "player-2": "Chiyo"}
    assert client.post("/new", data=form).status_code == 303
    assert client.post("/new", data=form).status_code == 303
    assert len(_sessions(client)) == 2


def test_the_same_import_form_posted_twice_imports_once(client, h):
    token = h.new_session(client)
    text = client.get(f"/s/{token}/export.json").get_data(as_text=True)
    nonce = _nonce(client.get("/import").get_data(as_text=True))
    first = client.post("/import", data={"text": text, "nonce": nonce})
    second = client.post("/import", data={"text": text, "nonce": nonce})
    assert first.status_code == second.status_code == 303
    assert second.headers["Location"] == first.headers["Location"]
    assert len(_sessions(client)) == 2  # the original and one import
    assert json.loads(text)["name"] in client.get(second.headers["Location"]).get_data(as_text=True)


def test_the_form_sent_again_with_other_details_creates_nothing_and_says_so(client):
    # Bug (new user): Back after Create, another name and player, Create again: it landed on the first
    # session saying "already created (the form was sent twice)", and the changes were silently lost
    form = {"name": "Sat", "ruleset": "roppyakken", "dealer": "0", "action": "create"}
    form |= {"player-0": "Aki", "player-1": "Ben", "player-2": "Chiyo"}
    form["nonce"] = _nonce(client.get("/new").get_data(as_text=True))
    assert client.post("/new", data=form).status_code == 303
    changed = form | {"name": "Sat night", "player-1": "Bo"}
    r = client.post("/new", data=changed)
    page = r.get_data(as_text=True)
    assert r.status_code == 409
    assert "already created" in page
    assert 'value="Sat night"' in page  # what was typed is kept
    assert 'value="Bo"' in page
    assert len(_sessions(client)) == 1
    # the page it came back with carries a fresh token: Create session now makes the new session
    again = changed | {"nonce": _nonce(page)}
    assert again["nonce"] != form["nonce"]
    assert client.post("/new", data=again).status_code == 303
    assert sorted(s["name"] for s in _sessions(client)) == ["Sat", "Sat night"]
