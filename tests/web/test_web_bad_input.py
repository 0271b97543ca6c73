"""Input that once crashed the server, on every screen and the API: a clear 4xx, nothing saved, and
a bug answered with a clear 500 outside tests."""

from __future__ import annotations

import html
import json
import shutil

import pytest
from web_helpers import rounds

HUGE = "9" * 30


# Bug (web QA): a round id past 2**63 crashed the server.
def test_huge_round_ids_are_404(client, keeper):
    assert client.get(f"/s/{keeper}/round/{HUGE}/edit").status_code == 404
    assert client.get(f"/s/{keeper}/round/{HUGE}/delete").status_code == 404
    assert client.put(f"/api/v1/sessions/{keeper}/rounds/{HUGE}", json={"version": 1}).status_code == 404
    assert client.delete(f"/api/v1/sessions/{keeper}/rounds/{HUGE}").status_code == 404


# Bug (web QA): deeply nested JSON crashed the server.
def test_deeply_nested_json_is_refused(client, keeper):
    deep = "[" * 100_000 + "]" * 100_000
    r = client.post(f"/api/v1/sessions/{keeper}/rounds", data=deep, content_type="application/json")
    assert r.status_code == 400
    assert "nested too deeply" in r.get_json()["message"]
    r = client.post("/import", data={"text": deep})
    assert r.status_code == 422
    assert "nested too deeply" in r.get_data(as_text=True)
    assert rounds(client, keeper) == []


# Bug (web QA): options that are not an object crashed the server.
def test_options_that_are_not_an_object(client):
    r = client.post("/api/v1/sessions", json={"name": "n", "players": ["A", "B", "C"], "options": [1]})
    assert r.status_code == 422
    assert '"options" must be an object' in r.get_json()["message"]
    r = client.post("/import", data={"text": '{"game": {"players": ["A", "B", "C"], "options": [1]}}'})
    assert r.status_code == 422
    assert "must be an object" in html.unescape(r.get_data(as_text=True))
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []


LONG = "長" * 41


# Bug (web QA): the API and import let through what the forms refuse.
@pytest.mark.parametrize(
    ("game", "says"),
    [
        ({"players": [LONG, "Ben", "Chiyo"]}, "40 characters"),
        ({"players": ["Aki", "Ben", "Chiyo"], "name": "n" * 101}, "100 characters"),
        ({"players": [f"P{i}" for i in range(40)]}, "2 to 6 players"),
        ({"players": ["Aki", 5, "Chiyo"]}, "non-empty strings"),
        ({"players": ["Aki", "  ", "Chiyo"]}, "non-empty strings"),
        ({"players": ["Aki", "Ben", "Chiyo"], "dealer": {"a": 1}}, '"dealer" must be one of the players'),
        ({"players": ["Aki", "Ben", "Chiyo"], "rounds": [{}] * 1001}, "at most 1000 rounds"),
    ],
    ids=["long-player", "long-name", "many-players", "not-a-name", "blank-name", "odd-dealer", "many-rounds"],
)
def test_api_and_import_enforce_the_forms_limits(client, game, says):
    body = {"name": "Friday", **game}
    r = client.post("/api/v1/sessions", json=body)
    assert r.status_code == 422
    assert says in r.get_json()["message"]
    r = client.post("/import", data={"text": json.dumps({"name": body.pop("name"), "game": body})})
    assert r.status_code == 422
    assert says in html.unescape(r.get_data(as_text=True))
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []


# Bug (web QA): a server bug showed a bare traceback page.
def test_the_generic_guard_answers_a_clear_500_outside_tests(app, client, keeper, monkeypatch):
    from referee.web.views import scoreboard

    def broken(*_args, **_kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(scoreboard, "board_html", broken)
    with pytest.raises(KeyError):  # under test, a bug is raised, not hidden
        client.get(f"/s/{keeper}")
    app.testing = False
    r = client.get(f"/s/{keeper}")
    assert r.status_code == 500
    assert "Something went wrong on the server" in r.get_data(as_text=True)
    r = client.get(f"/api/v1/sessions/{keeper}")
    assert r.status_code == 200  # the API does not use the broken fragment


# Bug (web QA): a missing data folder said "Nothing was saved" on a page that reads.
def test_a_missing_data_folder_is_named_on_a_page_that_only_reads(tmp_path):
    from referee.web import create_app

    folder = tmp_path / "data"
    app = create_app({"TESTING": True, "DATA_DIR": str(folder), "SECRET_KEY": "t", "HTMX_LOCAL": True})
    shutil.rmtree(folder)
    r = app.test_client().get("/")
    body = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 503
    assert str(folder) in body
    assert "is missing" in body
    assert "Nothing was saved" not in body
