"""The round form's JSON box: a round typed as JSON that is not a round object is refused with its text
given back; one that is saves its cards, on every family's entry page."""

from __future__ import annotations

import html
import json

import pytest
from web_helpers import rounds


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


# Bug (web QA): invalid round JSON was lost, or crashed the page.
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


# Bug (web QA): the JSON box of a card picker page dropped what was typed.
@pytest.mark.parametrize("text", ["{not json", "[1,2]"], ids=["broken", "array"])
def test_bad_round_json_on_a_card_picker_session_is_refused_and_kept(client, keeper, h, text):
    r = client.post(f"/s/{keeper}/round/new", data=h.round_form({}, round_json=text))
    assert r.status_code == 422
    assert "Nothing was saved" in r.get_data(as_text=True)
    assert 'class="mono" placeholder=' in r.get_data(as_text=True)
    assert f">{text}</textarea>" in html.unescape(r.get_data(as_text=True))
    assert rounds(client, keeper) == []


# Bug (web QA): the JSON box of a card picker page saved no cards.
def test_round_json_on_a_card_picker_session_saves_its_cards(client, keeper, h):
    r = client.post(f"/s/{keeper}/round/new", data=h.round_form({}, round_json=json.dumps({"piles": h.piles(0)})))
    assert r.status_code == 303
    assert rounds(client, keeper)[0]["scores"] == {"Aki": 70, "Ben": 50, "Chiyo": 220}
