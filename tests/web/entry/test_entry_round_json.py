"""The round form's JSON box: a round typed as JSON that is not a round object is refused with its text
given back; one that is saves its cards, on every family's entry page."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from web_helpers import rounds

EXAMPLES = Path(__file__).resolve().parents[3] / "referee" / "examples"


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


# Bug of the 360 px walk-through: the JSON page (the round page of a game with no entry form, such as one
# no longer registered) listed Hachi-hachi's keys, "field or multiplier, hands, dropped, mizuten, dekiyaku, hatto,
# piles", whatever the game; it names the round's own.
def test_the_json_box_page_names_the_keys_of_the_round_it_shows(client, monkeypatch):
    from referee.web import round_page

    def no_entry_form(family):
        return None  # as registered_form gives for a game no longer registered

    game = json.loads((EXAMPLES / "gostop-game.json").read_text(encoding="utf-8"))
    token = client.post("/api/v1/sessions", json={"name": "Chuseok", "ruleset": game["ruleset"],
                                                  "players": game["players"]}).get_json()["edit_token"]
    assert client.post(f"/api/v1/sessions/{token}/rounds", json=game["rounds"][1]).status_code == 201
    monkeypatch.setattr(round_page, "registered_form", no_entry_form)
    saved = client.get(f"/api/v1/sessions/{token}").get_json()["rounds"][0]
    page = client.get(f"/s/{token}/round/{saved['id']}/edit").get_data(as_text=True)
    assert "<textarea readonly" in page  # shown to copy: such a game cannot score it here
    intro = page.split("<textarea", 1)[0].rsplit("<h1>", 1)[1]
    assert len(saved["input"]) >= 4
    for key in saved["input"]:
        assert f"<code>{key}</code>" in intro, key
    assert "mizuten" not in intro
    assert "dekiyaku" not in intro
    new = client.get(f"/s/{token}/round/new").get_data(as_text=True)
    assert "mizuten" not in new  # a new round holds nothing yet: no keys named
