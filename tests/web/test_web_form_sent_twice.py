"""A form sent twice (a double tap on Save, Back and Save again: the same one-time token) changes once, and its
second answer confirms what the first did ("Round 1 saved.", "Round 1 updated", "Round 1 deleted", "Session
created", "“Table” deleted"), adding that the second send changed nothing: never only "already saved", which
a scorekeeper reads as someone else's save.  Another phone's save keeps its own words ("just saved on another
phone")."""

from __future__ import annotations

import html
import re

import pytest
from web_helpers import rounds, session, totals

THREE = ["Aki", "Ben", "Chie"]
TWICE = "This form was sent twice: the second send changed nothing."


def _flash(client, r) -> str:
    """The last notice of the page the answer ``r`` (a 303) leads to."""
    assert r.status_code == 303, r.get_data(as_text=True)[:600]
    page = html.unescape(client.get(r.headers["Location"]).get_data(as_text=True))
    return " ".join(re.findall(r'<p class="flash"[^>]*>(.*?)</p>', page, flags=re.S)[-1].split())


def _nonce(page: str) -> str:
    return re.search(r'name="nonce" value="([^"]+)"', page).group(1)


# Bug (new-user try): a double tap on "Save round 1" stored one round and said only "Round 1 was already saved."
HACHIHACHI = {"sign-0": "+", "kan-0": "2", "mon-0": "6", "sign-1": "-", "kan-1": "1", "mon-1": "0",
              "sign-2": "-", "kan-2": "1", "mon-2": "6", "winner": "Ben"}


@pytest.mark.parametrize(
    ("ruleset", "players", "values"),
    [
        ("roppyakken", THREE, (120, 0, 40)),
        ("hachihachi", THREE, HACHIHACHI),
        ("koikoi", ["Aki", "Ben"], (6, 0)),
        ("gostop", THREE, (5, 0, 5)),
    ],
    ids=["roppyakken", "hachihachi", "koikoi", "gostop"],
)
def test_a_round_saved_by_a_double_tap_says_saved_once(client, h, ruleset, players, values):
    token = session(client, ruleset, players)
    form = {**totals(h, "tap"), **values} if isinstance(values, dict) else totals(h, "tap", *values)
    form |= {"sign-2": "-"} if ruleset == "gostop" else {}
    assert _flash(client, client.post(f"/s/{token}/round/new", data=form)) == "Round 1 saved."
    said = _flash(client, client.post(f"/s/{token}/round/new", data=form))
    assert said == f"Round 1 saved. {TWICE}"
    assert "already" not in said
    assert len(rounds(client, token)) == 1


def test_another_phones_save_of_the_round_still_says_so(client, h):
    token = session(client, "roppyakken", THREE)
    assert client.post(f"/s/{token}/round/new", data={**totals(h, "mine", 120, 0, 40), "round_number": "1"})
    theirs = client.post(f"/s/{token}/round/new", data={**totals(h, "theirs", 0, 90, 40), "round_number": "1"})
    assert theirs.status_code == 409
    assert "just saved on another phone" in html.unescape(theirs.get_data(as_text=True))


def test_an_edit_saved_by_a_double_tap_says_updated(client, h):
    token = session(client, "roppyakken", THREE)
    client.post(f"/s/{token}/round/new", data=totals(h, "new", 120, 0, 40))
    (rnd,) = rounds(client, token)
    edit = {**totals(h, "edit", 100, 20, 40), "version": str(rnd["version"])}
    url = f"/s/{token}/round/{rnd['id']}/edit"
    first = _flash(client, client.post(url, data=edit))
    assert first == "Round 1 updated; totals and later dealers recomputed."
    assert _flash(client, client.post(url, data=edit)) == f"{first} {TWICE}"


def test_a_round_deleted_by_a_double_tap_says_deleted(client, h):
    token = session(client, "roppyakken", THREE)
    client.post(f"/s/{token}/round/new", data=totals(h, "new", 120, 0, 40))
    (rnd,) = rounds(client, token)
    url = f"/s/{token}/round/{rnd['id']}/delete"
    form = {"nonce": _nonce(client.get(url).get_data(as_text=True))}
    first = _flash(client, client.post(url, data=form))
    assert first == "Round 1 deleted. “Undo” brings it back."
    assert _flash(client, client.post(url, data=form)) == f"{first} {TWICE}"


def test_a_session_made_or_deleted_by_a_double_tap_says_made_or_deleted(client):
    form = {"name": "Table", "ruleset": "roppyakken", "dealer": "0", "action": "create"}
    form |= {f"player-{i}": p for i, p in enumerate(THREE)}
    form["nonce"] = _nonce(client.get("/new").get_data(as_text=True))
    first = _flash(client, client.post("/new", data=form))
    assert first == "Session created. Share the viewer link or QR code with the table."
    again = client.post("/new", data=form)
    assert _flash(client, again) == f"{first} {TWICE}"
    token = again.headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/s/{token}/delete").get_data(as_text=True)
    form = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
    first = _flash(client, client.post(f"/s/{token}/delete", data=form))
    assert first == "“Table” deleted. “Undo” brings it back with every round."
    assert _flash(client, client.post(f"/s/{token}/delete", data=form)) == f"{first} {TWICE}"
