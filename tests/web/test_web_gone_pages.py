"""A page left open on a round or session that is no longer there: its next request is a 404 page
whose way on is the session's scoreboard while the session is there (a round deleted, a photo review
pruned), and the session list (the home page) once the session itself is gone."""

from __future__ import annotations

import re
import sqlite3

import pytest
from web_helpers import text

from referee import store


def buttons(r) -> list[tuple[str, str]]:
    """The error page's ways on: (address, words) of each button link."""
    return re.findall(r'<a class="button" href="([^"]+)">([^<]+)</a>', r.get_data(as_text=True))


def forget_session(app, token: str) -> None:
    """Take a session and everything of it out of the database (as a restore from an older backup does)."""
    with sqlite3.connect(app.config["DATABASE"]) as db:
        sid = db.execute("SELECT id FROM sessions WHERE edit_token = ?", [token]).fetchone()[0]
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for t in tables:
            if "session_id" in {c[1] for c in db.execute(f"PRAGMA table_info({t})")}:
                db.execute(f"DELETE FROM {t} WHERE session_id = ?", [sid])
        db.execute("DELETE FROM sessions WHERE id = ?", [sid])


# Bug (new-user try): a session's page whose session was gone offered only "Home", not saying it is
# the session list, nor that the session may have been deleted.
@pytest.mark.parametrize(("method", "path"), [
    ("get", ""),
    ("get", "/poll"),
    ("get", "/round/new"),
    ("post", "/round/new"),
    ("get", "/round/1/edit"),
    ("post", "/round/1/delete"),
    ("post", "/undo"),
    ("get", "/rules"),
], ids=["scoreboard", "scoreboard poll", "round form", "round save", "edit page", "delete", "undo", "rules"])
def test_a_page_of_a_session_gone_links_to_the_session_list(app, client, keeper, h, method, path):
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0))).status_code == 303
    forget_session(app, keeper)
    r = getattr(client, method)(f"/s/{keeper}{path}")
    assert r.status_code == 404
    assert "No session has this link" in text(r.get_data(as_text=True))
    assert "it may have been deleted" in text(r.get_data(as_text=True))
    assert buttons(r) == [("/", "Your sessions")]  # the home page lists them: no second "Home" beside it


# Bug (new-user try): the photo review of a round form, pruned or made up, offered only "Home" though
# its session is there.
@pytest.mark.parametrize("link", ["edit", "view"])
def test_a_photo_review_or_photo_not_found_links_to_the_sessions_scoreboard(client, keeper, viewer, link):
    token = keeper if link == "edit" else viewer
    path = "/round/photo/no-such-review" if link == "edit" else "/photo/no-such-photo.jpg"
    r = client.get(f"/s/{token}{path}")
    assert r.status_code == 404
    assert buttons(r) == [(f"/s/{token}", "← Back to the scoreboard"), ("/", "Home")]


# Bug (new-user try): a round or session that vanished between a view's check and the store's write (another
# phone's delete, an undo) answered the 404 page with only "Home".
@pytest.mark.parametrize("gone", ["round", "session"])
def test_a_round_gone_while_its_edit_is_saved_links_on(app, client, keeper, h, monkeypatch, gone):
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0))).status_code == 303
    rnd = client.get(f"/api/v1/sessions/{keeper}").get_json()["rounds"][0]

    def vanished(db, session_id, round_id, *args, **kwargs):
        if gone == "session":
            forget_session(app, keeper)
        raise store.NotFoundError(f"no round {round_id} in session {session_id}")

    monkeypatch.setattr(store, "update_round", vanished)
    form = h.round_form(h.piles(2), nonce="edit-1", version=str(rnd["version"]))
    r = client.post(f"/s/{keeper}/round/{rnd['id']}/edit", data=form)
    assert r.status_code == 404
    assert "it may have just been deleted" in text(r.get_data(as_text=True))
    way = (f"/s/{keeper}", "← Back to the scoreboard") if gone == "round" else ("/", "Your sessions")
    assert buttons(r)[0] == way


def test_a_page_that_is_no_session_s_still_offers_only_home(client):
    r = client.get("/no-such-page")
    assert r.status_code == 404
    assert buttons(r) == [("/", "Home")]
