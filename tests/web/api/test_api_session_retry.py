"""POST /api/v1/sessions with an idempotency key: a retry (a lost reply, a double tap) creates
the session once and gets it back."""

from __future__ import annotations

import pytest


def _new(client, players, **extra):
    return client.post("/api/v1/sessions", json={"name": "Retry game", "players": players, **extra})


def _count(client):
    return len(client.get("/api/v1/sessions").get_json()["sessions"])


# Bug (review): a session POSTed twice (its reply lost, then retried) was created twice.
def test_a_retry_with_the_same_key_creates_one_session(client, h):
    first = _new(client, h.players, form_token="k-1")
    again = _new(client, h.players, form_token="k-1")
    assert first.status_code == 201
    assert again.status_code == 200
    assert again.get_json()["edit_token"] == first.get_json()["edit_token"]
    assert _count(client) == 1


def test_a_used_key_with_another_request_is_refused_and_creates_nothing(client, h):
    assert _new(client, h.players, form_token="k-1").status_code == 201
    r = _new(client, list(reversed(h.players)), form_token="k-1")
    assert r.status_code == 422
    assert r.get_json()["error"] == "form-token-reused"
    assert _count(client) == 1


@pytest.mark.parametrize(
    "key",
    ["a\x00b", "a#b", "松のカス🎴", "k" * 200, "k#" + "a" * 64],
    ids=["nul", "hash", "unicode", "200-chars", "looks-packed"],
)
def test_any_key_retries_to_its_session(client, h, key):
    first = _new(client, h.players, form_token=key)
    again = _new(client, h.players, form_token=key)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json()["edit_token"] == first.get_json()["edit_token"]
    assert _new(client, list(reversed(h.players)), form_token=key).get_json()["error"] == "form-token-reused"
    assert _count(client) == 1


def test_an_api_key_is_not_a_web_forms_token(client, h):
    # The same string used as a web form's one-time token and as an API key names two requests.
    from referee.store import create_sessions_once
    from referee.web.db import get_db

    with client.application.app_context():
        create_sessions_once(get_db(), "k-1", [])
    assert _new(client, h.players, form_token="k-1").status_code == 201
    assert _count(client) == 1


def test_another_key_or_no_key_creates_another_session(client, h):
    assert _new(client, h.players, form_token="k-1").status_code == 201
    assert _new(client, h.players, form_token="k-2").status_code == 201
    assert _new(client, h.players).status_code == 201
    assert _new(client, h.players).status_code == 201
    assert _count(client) == 4


@pytest.mark.parametrize("token", [["x"], 5, "", "x" * 201], ids=["list", "int", "empty", "long"])
def test_a_bad_key_is_refused_and_creates_nothing(client, h, token):
    r = _new(client, h.players, form_token=token)
    assert r.status_code == 422
    assert "form_token" in r.get_json()["message"]
    assert _count(client) == 0


def test_the_key_is_documented(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert "idempotency key" in str(doc["components"]["schemas"]["NewSession"])
