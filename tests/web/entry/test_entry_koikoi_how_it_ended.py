"""A Koi-Koi round says how it ended, with nothing pre-selected: who stopped (勝負), or the hands ran
out.  KOIKOI-RULES.md "The round"; docs/KOIKOI.md "The web form"."""

from __future__ import annotations

import re

import pytest
from web_helpers import session, words

SANKO = ["pine-crane", "cherry-curtain", "pampas-moon"]  # Three Brights, 5 points


def koikoi_form(h, nonce: str, action: str = "save", **fields) -> dict:
    return {"action": action, "nonce": h.signed(nonce), "pile-0": SANKO, **fields}


@pytest.fixture
def kk(client) -> str:
    return session(client, "koikoi", ["Aki", "Ben"])


# Bug (table walk-through): the Koi-Koi form pre-selected how the round ended.
def test_a_new_koikoi_round_preselects_no_answer(client, kk):
    page = client.get(f"/s/{kk}/round/new").get_data(as_text=True)
    radios = re.findall(r'<input type="radio" name="stopped_by"[^>]*>', page)
    assert len(radios) == 3
    assert not any("checked" in r for r in radios)
    assert "a round ends when a player stops, or when the hands run out" in page


# Bug (table walk-through): the preview said "nobody scores" before the ending was given.
def test_a_yaku_tapped_in_before_saying_who_stopped_previews_the_question_not_nobody_scores(client, kk, h):
    r = client.post(f"/s/{kk}/round/preview", data=koikoi_form(h, "p"), headers={"HX-Request": "true"})
    said = words(r)
    assert "Say how the round ended: who stopped (勝負), or “Nobody: the hands ran out”" in said
    assert "nobody scores" not in said.lower()


# Bug (table walk-through): a round was saved as "nobody stopped" by default.
@pytest.mark.parametrize("action", ["score", "save"])
def test_score_or_save_without_saying_how_the_round_ended_asks_and_saves_nothing(client, kk, h, action):
    r = client.post(f"/s/{kk}/round/new", data=koikoi_form(h, "u", action), follow_redirects=True)
    assert r.status_code == (422 if action == "save" else 200)
    assert "Say how the round ended" in words(r)
    assert "Save round 1" not in words(r)
    assert 'value="pine-crane" checked' in r.get_data(as_text=True)  # the taps are kept
    assert client.get(f"/api/v1/sessions/{kk}").get_json()["rounds"] == []


# Bug (table walk-through): the answer to how the round ended must score and save.
@pytest.mark.parametrize(
    ("stopped_by", "totals"),
    [("Aki", {"Aki": 5, "Ben": 0}), ("", {"Aki": 0, "Ben": 0})],
    ids=["Aki stopped: Aki scores", "Nobody, chosen: the hands ran out (exhausted = nobody)"],
)
def test_an_answer_scores_and_saves(client, kk, h, stopped_by, totals):
    r = client.post(f"/s/{kk}/round/new", data=koikoi_form(h, "a", stopped_by=stopped_by))
    assert r.status_code == 303
    assert client.get(f"/api/v1/sessions/{kk}").get_json()["totals"] == totals


# Bug (table walk-through): editing a hands-ran-out round lost that answer.
def test_editing_a_round_where_the_hands_ran_out_shows_that_answer(client, kk, h):
    assert client.post(f"/s/{kk}/round/new", data=koikoi_form(h, "e", stopped_by="")).status_code == 303
    rid = client.get(f"/api/v1/sessions/{kk}").get_json()["rounds"][0]["id"]
    page = client.get(f"/s/{kk}/round/{rid}/edit").get_data(as_text=True)
    assert re.search(r'name="stopped_by" value="" checked', page)


# Bug (table walk-through): "every card left" waited for the ending's answer.
def test_every_card_left_still_fills_the_pile_before_the_answer(client, kk, h):
    r = client.post(f"/s/{kk}/round/new", data=koikoi_form(h, "r", "rest-1"), follow_redirects=True)
    assert len(re.findall(r'name="pile-1" value="[\w-]+" checked', r.get_data(as_text=True))) == 45


# Bug (table walk-through): a round won at the deal was asked who stopped.
def test_a_round_won_at_the_deal_needs_no_answer(client, kk, h):
    """KOIKOI-RULES.md "Lucky hands": the holder wins at the deal; piles and stopped_by stay empty."""
    teshi = ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1", "pine-chaff-2",
             "plum-chaff-1", "plum-chaff-2", "iris-chaff-1", "iris-chaff-2"]
    r = client.post(f"/s/{kk}/round/new", data={"action": "save", "nonce": h.signed("t"), "hand-1": teshi})
    assert r.status_code == 303
    assert client.get(f"/api/v1/sessions/{kk}").get_json()["totals"] == {"Aki": 0, "Ben": 6}
