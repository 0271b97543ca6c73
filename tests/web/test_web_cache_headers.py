"""Which responses a browser may keep (``referee.web.headers``): every HTML page the app builds is
``Cache-Control: no-store``, so Back never shows a form whose one-time token was already spent;
static files, card faces and kept photos stay cacheable as they were."""

from __future__ import annotations

import pytest
from web_helpers import text

HX = {"HX-Request": "true"}


#: One request of each kind of HTML page: (client, scorekeeper token, viewer token, helpers) -> response.
PAGES = {
    "home": lambda c, k, v, h: c.get("/"),
    "new-session-form": lambda c, k, v, h: c.get("/new"),
    "scoreboard": lambda c, k, v, h: c.get(f"/s/{k}"),
    "round-form": lambda c, k, v, h: c.get(f"/s/{k}/round/new"),
    "round-form-refused": lambda c, k, v, h: c.post(f"/s/{k}/round/new", data={"action": "save", "nonce": "bad"}),
    "preview-fragment": lambda c, k, v, h: c.post(
        f"/s/{k}/round/preview", data=h.round_form(h.piles(0), action="score"), headers=HX),
    "help": lambda c, k, v, h: c.get("/help"),
    "not-found": lambda c, k, v, h: c.get("/no-such-page"),
    "forbidden": lambda c, k, v, h: c.post(f"/s/{v}/round/new", data=h.round_form(h.piles(0))),
    "method-not-allowed": lambda c, k, v, h: c.delete("/new"),
}


# Bug (new-user try): pages carrying one-time form tokens were sent without Cache-Control, so the
# browser's Back button could show a stale form (its token already spent).
@pytest.mark.parametrize("kind", PAGES)
def test_every_html_page_is_no_store(client, keeper, viewer, h, kind):
    r = PAGES[kind](client, keeper, viewer, h)
    assert r.mimetype == "text/html"
    assert r.headers["Cache-Control"] == "no-store"


def test_static_files_keep_their_caching(client):
    r = client.get("/static/app.css")
    assert r.status_code == 200
    assert "no-store" not in r.headers["Cache-Control"]
    assert r.cache_control.public
    assert r.cache_control.max_age == 3600
    again = client.get("/static/app.css", headers={"If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304
    assert "no-store" not in again.headers.get("Cache-Control", "")


def test_a_missing_static_file_is_an_error_page_not_kept(client):
    r = client.get("/static/no-such-file.css")
    assert r.status_code == 404
    assert "no such page" in text(r.get_data(as_text=True))
    assert r.headers["Cache-Control"] == "no-store"



def test_card_faces_keep_their_caching(client):
    r = client.get("/cards/pine-crane")
    if r.status_code == 404:
        pytest.skip("no card art in this install (templates/static/cards)")
    assert r.cache_control.public
    assert r.cache_control.max_age == 86400
    assert "no-store" not in r.headers["Cache-Control"]
