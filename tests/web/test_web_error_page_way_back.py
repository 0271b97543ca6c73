"""Every error page of a session's page (a 4xx: the viewer link on a scorekeeper's page, a link no route
reads, a method the page does not take, a game not over yet, a bad request) links back to the session's
scoreboard, by the link used (a viewer's stays a viewer's), beside Home; an error page that names another
page in its words links it."""

from __future__ import annotations

import re

import pytest
from web_helpers import text

from referee.web.views import help as help_view


def buttons(r) -> list[tuple[str, str]]:
    """The error page's ways on: (address, words) of each button link."""
    return re.findall(r'<a class="button" href="([^"]+)">([^<]+)</a>', r.get_data(as_text=True))


@pytest.fixture
def scored(client, keeper, h) -> int:
    """The keeper's session with one round: its id."""
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0))).status_code == 303
    return client.get(f"/api/v1/sessions/{keeper}").get_json()["rounds"][0]["id"]


# Bug (new user): the viewer link's 403 on /round/new and /round/abc/edit (404, no route reads it) inside a
# session offered only "Home"; the way back was given to 404s of a session's route only.
@pytest.mark.parametrize(("link", "method", "path", "status"), [
    ("view", "get", "/round/new", 403),
    ("view", "post", "/round/new", 403),
    ("view", "get", "/round/{rid}/edit", 403),
    ("view", "post", "/round/{rid}/delete", 403),
    ("view", "get", "/undo/confirm", 403),
    ("view", "post", "/undo", 403),
    ("view", "post", "/what-if", 403),
    ("edit", "get", "/round/abc/edit", 404),
    ("view", "get", "/round/abc/edit", 404),
    ("edit", "get", "/no-such-page", 404),
    ("edit", "get", "/undo", 405),
    ("edit", "post", "/rematch", 409),
], ids=["viewer round form", "viewer save", "viewer edit", "viewer delete", "viewer undo page", "viewer undo",
        "viewer what-if apply", "round id not a number", "viewer round id not a number", "no such page of it",
        "undo by GET", "rematch before the end"])
def test_an_error_page_of_a_session_links_back_to_its_scoreboard(client, keeper, viewer, scored, link, method,
                                                                  path, status):
    token = keeper if link == "edit" else viewer
    r = getattr(client, method)(f"/s/{token}{path.format(rid=scored)}")
    assert r.status_code == status
    assert buttons(r) == [(f"/s/{token}", "← Back to the scoreboard"), ("/", "Home")]


def test_a_bad_request_of_a_session_links_back_to_its_scoreboard(client, keeper, monkeypatch):
    # No form sends one: a number too large to use, answered 400 by the app's handler.
    def too_large(*_args):
        raise OverflowError("int too large to convert to float")

    monkeypatch.setattr(help_view, "how_it_scores", too_large)
    r = client.get(f"/s/{keeper}/rules")
    assert r.status_code == 400
    assert "too large to use" in text(r.get_data(as_text=True))
    assert buttons(r) == [(f"/s/{keeper}", "← Back to the scoreboard"), ("/", "Home")]


def test_the_api_s_errors_name_no_way_back(client, viewer):
    r = client.post(f"/api/v1/sessions/{viewer}/rounds", json={"piles": {}})
    assert r.status_code == 403
    assert set(r.get_json()) == {"error", "message"}


def test_an_error_page_of_no_session_s_page_offers_only_home(client):
    r = client.delete("/new")
    assert r.status_code == 405
    assert buttons(r) == [("/", "Home")]


# Bug (new user): /help/nosuch said "The Help page lists them all" without linking it.
@pytest.mark.parametrize(("path", "named", "way"), [
    ("/help/nosuch", "The Help page lists them all", ("/help", "The Help page")),
    ("/players/nobody", "Players lists the ones it knows", ("/players", "Players")),
], ids=["help", "players"])
def test_an_error_page_links_the_page_its_words_name(client, path, named, way):
    r = client.get(path)
    assert r.status_code == 404
    assert named in text(r.get_data(as_text=True))
    assert buttons(r) == [way, ("/", "Home")]
