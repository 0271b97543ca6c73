"""Cases from the QA break-test of the web app (each once lost data, crashed or misled)."""

from __future__ import annotations

import html

import pytest


@pytest.fixture
def hh(client) -> str:
    """A 3-player Hachi-hachi session: its scorekeeper token."""
    pytest.importorskip("referee.hachihachi", reason="the Hachi-hachi module is not installed")
    form = {"name": "Eighty-eight", "ruleset": "hachihachi", "dealer": "0"}
    for i, p in enumerate(["Aki", "Ben", "Chiyo"]):
        form[f"player-{i}"] = p
    r = client.post("/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    return r.headers["Location"].rsplit("/", 1)[-1]


def rounds(client, token: str) -> list[dict]:
    return client.get(f"/api/v1/sessions/{token}").get_json()["rounds"]


# ---- 1. invalid round JSON is refused and kept -------------------------------


@pytest.mark.parametrize(
    ("text", "says"),
    [("{not json", "not valid JSON"), ("[1,2]", "not an array"), ("7", "not a number"), ("[" * 5000, "nested")],
    ids=["broken", "array", "number", "deep"],
)
def test_bad_round_json_is_refused_and_kept(client, hh, h, text, says):
    r = client.post(f"/s/{hh}/round/new", data=h.round_form({}, nonce="j1", round_json=text))
    body = r.get_data(as_text=True)
    assert r.status_code == 422
    assert says in body
    assert html.escape(text, quote=False)[:200] in body  # the textarea gives the text back
    assert rounds(client, hh) == []
