"""The JSON API under /api/v1: sessions, rounds, preview, export, OpenAPI, and its errors."""

from __future__ import annotations

import pytest


@pytest.fixture
def created(client, h):
    r = client.post(
        "/api/v1/sessions", json={"name": "API game", "ruleset": "roppyakken", "players": h.players, "dealer": "Ben"}
    )
    assert r.status_code == 201
    return r.get_json()


def test_create_get_list(client, created):
    assert created["edit_token"]
    assert created["dealer"] == "Ben"
    viewer = client.get(f"/api/v1/sessions/{created['view_token']}").get_json()
    assert "edit_token" not in viewer  # the viewer token never reveals the scorekeeper's
    listed = client.get("/api/v1/sessions").get_json()["sessions"]
    assert [s["name"] for s in listed] == ["API game"]
    assert "edit_token" not in listed[0]


def test_add_edit_delete_rounds(client, created, h):
    t = created["edit_token"]
    r = client.post(f"/api/v1/sessions/{t}/rounds", json={"piles": h.piles(0)})
    assert r.status_code == 201
    body = r.get_json()
    assert body["session"]["totals"] == {"Aki": 70, "Ben": 50, "Chiyo": 220}
    rid, version = body["id"], body["version"]
    r = client.put(f"/api/v1/sessions/{t}/rounds/{rid}", json={"piles": h.piles(2), "version": version})
    assert r.status_code == 200
    assert r.get_json()["session"]["totals"] == {"Aki": 50, "Ben": 220, "Chiyo": 70}
    stale = client.put(f"/api/v1/sessions/{t}/rounds/{rid}", json={"piles": h.piles(0), "version": version})
    assert stale.status_code == 409
    assert stale.get_json()["error"] == "conflict"
    assert stale.get_json()["current"]["input"]["piles"] == h.piles(2)
    assert client.delete(f"/api/v1/sessions/{t}/rounds/{rid}").status_code == 204
    assert client.get(f"/api/v1/sessions/{t}").get_json()["rounds"] == []


def test_form_token_makes_a_retry_safe(client, created, h):
    t = created["edit_token"]
    first = client.post(f"/api/v1/sessions/{t}/rounds", json={"piles": h.piles(0), "form_token": "x1"})
    again = client.post(f"/api/v1/sessions/{t}/rounds", json={"piles": h.piles(0), "form_token": "x1"})
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json()["created"] is False
    assert len(client.get(f"/api/v1/sessions/{t}").get_json()["rounds"]) == 1


def test_preview_does_not_save(client, created, h):
    r = client.post(f"/api/v1/sessions/{created['view_token']}/preview", json={"piles": h.piles(0)})
    assert r.status_code == 200
    assert r.get_json()["players"]["Chiyo"]["round_score"] == 220
    assert r.get_json()["dealer"] == "Ben"
    assert client.get(f"/api/v1/sessions/{created['edit_token']}").get_json()["rounds"] == []


def test_export(client, created, h):
    client.post(f"/api/v1/sessions/{created['edit_token']}/rounds", json={"piles": h.piles(0)})
    data = client.get(f"/api/v1/sessions/{created['view_token']}/export").get_json()
    assert data["format"] == "hanafuda-referee/session-v1"
    assert data["game"]["rounds"] == [{"piles": h.piles(0)}]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code"),
    [
        ("get", "/api/v1/sessions/nope", None, 404, "not-found"),
        (
            "post",
            "/api/v1/sessions/{edit}/rounds",
            {"piles": {"Aki": ["pine-crane"], "Ben": ["pine-crane"]}},
            422,
            "duplicate-card",
        ),
        ("post", "/api/v1/sessions/{edit}/rounds", {"piles": {"Aki": ["not-a-card"]}}, 422, "unknown-card"),
        ("post", "/api/v1/sessions/{edit}/rounds", {"piles": {"Zed": []}}, 422, "unknown-player"),
        ("post", "/api/v1/sessions/{view}/rounds", {"piles": {}}, 403, "forbidden"),
        ("delete", "/api/v1/sessions/{view}/rounds/1", None, 403, "forbidden"),
        ("put", "/api/v1/sessions/{edit}/rounds/99", {"piles": {}, "version": 1}, 404, "not-found"),
        ("post", "/api/v1/sessions/{edit}/rounds", "not json", 400, "bad-request"),
        ("post", "/api/v1/sessions", {"name": "x", "players": ["A"]}, 422, "player-count"),
        ("post", "/api/v1/sessions", {"players": ["A", "B"]}, 422, "bad-request"),
        ("post", "/api/v1/sessions/{edit}/rounds", {"piles": {}, "players": ["X", "Y"]}, 422, "bad-round"),
    ],
    ids=[
        "unknown-session",
        "duplicate",
        "unknown-card",
        "unknown-player",
        "viewer-add",
        "viewer-delete",
        "unknown-round",
        "not-json",
        "one-player",
        "no-name",
        "other-players",
    ],
)
def test_errors_are_json_with_code_and_message(client, created, method, path, body, status, code):
    url = path.format(edit=created["edit_token"], view=created["view_token"])
    kwargs = {"data": body, "content_type": "text/plain"} if isinstance(body, str) else {"json": body}
    r = getattr(client, method)(url, **({} if body is None else kwargs))
    assert r.status_code == status
    data = r.get_json()
    assert data["error"] == code
    assert data["message"]


def test_put_needs_the_version(client, created, h):
    t = created["edit_token"]
    rid = client.post(f"/api/v1/sessions/{t}/rounds", json={"piles": h.piles(0)}).get_json()["id"]
    r = client.put(f"/api/v1/sessions/{t}/rounds/{rid}", json={"piles": h.piles(2)})
    assert r.status_code == 422
    assert "version" in r.get_json()["message"]


def test_oversized_json_is_413(client, app):
    r = client.post(
        "/api/v1/sessions", data="x" * (app.config["MAX_CONTENT_LENGTH"] + 1), content_type="application/json"
    )
    assert r.status_code == 413
    assert r.get_json()["error"] == "too-large"


def test_openapi_documents_every_api_route(client, app):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    documented = {(path, m.upper()) for path, ops in doc["paths"].items() for m in ops}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1"):
            path = (
                rule.rule.removeprefix("/api/v1").replace("<token>", "{token}").replace("<int:round_id>", "{round_id}")
            )
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                assert (path, method) in documented, (path, method)
