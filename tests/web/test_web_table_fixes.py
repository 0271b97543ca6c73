"""A phone walk-through at a real table (branch table-fixes): what the scoreboard, the totals pad
and the Koi-Koi round form say.  (Back after Score or Save: ``test_web_back_button*.py``.)"""

from __future__ import annotations

import re

import pytest


def words(r) -> str:
    """The page's words without tags, whitespace runs as one space."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


def session(client, ruleset: str, players, **options: str) -> str:
    form = {"name": "Table", "ruleset": ruleset, "dealer": "0", **{f"opt.{k}": v for k, v in options.items()}}
    form.update({f"player-{i}": p for i, p in enumerate(players)})
    r = client.post("/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:800]
    return r.headers["Location"].rsplit("/", 1)[-1]


def totals(h, nonce: str, *values: int) -> dict:
    return {"entry": "totals", "action": "save", "nonce": h.signed(nonce),
            **{f"total-{i}": str(v) for i, v in enumerate(values)}}


# ---- 2. the round count says what players expect, never "round 0" -------------------------------------
# Hachi-hachi: twelve rounds, one per month (seeds/hachihachi, "The game"); Koi-Koi: option `rounds`
# (KOIKOI-RULES.md "The game").


def test_a_new_hachihachi_session_says_twelve_rounds_to_play_not_round_0(client):
    token = session(client, "hachihachi", ["Aki", "Ben", "Chiyo"])
    board = words(client.get(f"/s/{token}"))
    assert "12 rounds to play" in board
    assert not re.search(r"\bround 0 of\b", board)


@pytest.mark.parametrize(
    ("rounds", "says"),
    [
        ([], "2 rounds to play"),
        ([(5, 0)], "round 2 of 2 next"),
        ([(5, 0), (0, 3)], "all 2 rounds played"),
    ],
    ids=["before-any-round", "one-played", "game-over"],
)
def test_the_koikoi_round_count_names_the_next_round_or_the_rounds_played(client, h, rounds, says):
    token = session(client, "koikoi", ["Aki", "Ben"], rounds="2")
    for k, values in enumerate(rounds):
        assert client.post(f"/s/{token}/round/new", data=totals(h, f"k{k}", *values)).status_code == 303
    board = words(client.get(f"/s/{token}"))
    assert says in board
    assert not re.search(r"\bround 0 of\b", board)


# ---- 3. a total too big is said to be too big, naming the limit ----------------------------------------
# README "Entered totals": a round enters at most referee.totals.MAX_AMOUNT (99999) points or mon either way.

TOO_BIG = [
    pytest.param("1" + "0" * 30, "10000000… (31 digits), too big", id="10**30 (the walk-through)"),
    pytest.param("100000", "100000, too big", id="one over the limit"),
    pytest.param("-111111111111", "-111111111111, too big", id="a long negative"),
]


@pytest.mark.parametrize(("typed", "said"), TOO_BIG)
def test_the_totals_pad_says_a_total_is_too_big_and_names_the_limit(client, keeper, h, typed, said):
    form = {"entry": "totals", "action": "save", "nonce": h.signed("big"), "total-0": typed, "total-1": "0",
            "total-2": "0"}
    r = client.post(f"/s/{keeper}/round/new", data=form)
    assert r.status_code == 422
    page = words(r).replace("&#39;", "'")
    assert f"Aki's total is {said}: a round's points are at most 99999 either way" in page
    assert "expected a whole number" not in page
    assert f'value="{typed}"' in r.get_data(as_text=True)  # what was typed is kept


@pytest.mark.parametrize(
    ("body", "said"),
    [
        pytest.param('{"totals": {"Aki": 1%s, "Ben": 0, "Chiyo": 0}}' % ("0" * 30), "10000000… (31 digits), too big",
                     id="10**30"),
        pytest.param('{"totals": {"Aki": 1e30, "Ben": 0, "Chiyo": 0}}', "1e+30, too big", id="1e30"),
        pytest.param('{"totals": {"Aki": "1%s", "Ben": 0, "Chiyo": 0}}' % ("0" * 30), "10000000… (31 digits), too big",
                     id="10**30 as text"),
    ],
)
def test_the_api_says_a_total_is_too_big_and_names_the_limit(client, keeper, body, said):
    r = client.post(f"/api/v1/sessions/{keeper}/rounds", data=body, content_type="application/json")
    assert r.status_code == 422
    assert r.get_json()["error"] == "bad-totals"
    assert r.get_json()["message"] == f"Aki's total is {said}: a round's points are at most 99999 either way"


def test_the_api_says_12_5_is_not_whole_and_a_4301_digit_number_too_big(client, keeper):
    half = client.post(f"/api/v1/sessions/{keeper}/rounds", json={"totals": {"Aki": 12.5, "Ben": 0, "Chiyo": 0}})
    assert (half.status_code, half.get_json()["message"]) == (
        422, "Aki's total is 12.5; expected a whole number of points")
    huge = '{"totals": {"Aki": %s, "Ben": 0, "Chiyo": 0}}' % ("1" * 4301)
    r = client.post(f"/api/v1/sessions/{keeper}/rounds", data=huge, content_type="application/json")
    assert r.status_code == 400
    assert "too big to read (over 4300 digits)" in r.get_json()["message"]
    assert "set_int_max_str_digits" not in r.get_json()["message"]
    assert client.get(f"/api/v1/sessions/{keeper}").get_json()["rounds"] == []


# ---- 4. a Koi-Koi round says how it ended: nothing pre-selected ----------------------------------------
# KOIKOI-RULES.md "The round": a round ends by a stop (勝負, the stopper scores) or by the hands running
# out (option `exhausted`); docs/KOIKOI.md "The web form": the form pre-selects neither.

SANKO = ["pine-crane", "cherry-curtain", "pampas-moon"]  # Three Brights, 5 points


def koikoi_form(h, nonce: str, action: str = "save", **fields) -> dict:
    return {"action": action, "nonce": h.signed(nonce), "pile-0": SANKO, **fields}


@pytest.fixture
def kk(client) -> str:
    return session(client, "koikoi", ["Aki", "Ben"])


def test_a_new_koikoi_round_preselects_no_answer(client, kk):
    page = client.get(f"/s/{kk}/round/new").get_data(as_text=True)
    radios = re.findall(r'<input type="radio" name="stopped_by"[^>]*>', page)
    assert len(radios) == 3
    assert not any("checked" in r for r in radios)
    assert "a round ends when a player stops, or when the hands run out" in page


def test_a_yaku_tapped_in_before_saying_who_stopped_previews_the_question_not_nobody_scores(client, kk, h):
    r = client.post(f"/s/{kk}/round/preview", data=koikoi_form(h, "p"), headers={"HX-Request": "true"})
    said = words(r)
    assert "Say how the round ended: who stopped (勝負), or “Nobody: the hands ran out”" in said
    assert "nobody scores" not in said.lower()


@pytest.mark.parametrize("action", ["score", "save"])
def test_score_or_save_without_saying_how_the_round_ended_asks_and_saves_nothing(client, kk, h, action):
    r = client.post(f"/s/{kk}/round/new", data=koikoi_form(h, "u", action), follow_redirects=True)
    assert r.status_code == (422 if action == "save" else 200)
    assert "Say how the round ended" in words(r)
    assert "Save round 1" not in words(r)
    assert 'value="pine-crane" checked' in r.get_data(as_text=True)  # the taps are kept
    assert client.get(f"/api/v1/sessions/{kk}").get_json()["rounds"] == []


@pytest.mark.parametrize(
    ("stopped_by", "totals"),
    [("Aki", {"Aki": 5, "Ben": 0}), ("", {"Aki": 0, "Ben": 0})],
    ids=["Aki stopped: Aki scores", "Nobody, chosen: the hands ran out (exhausted = nobody)"],
)
def test_an_answer_scores_and_saves(client, kk, h, stopped_by, totals):
    r = client.post(f"/s/{kk}/round/new", data=koikoi_form(h, "a", stopped_by=stopped_by))
    assert r.status_code == 303
    assert client.get(f"/api/v1/sessions/{kk}").get_json()["totals"] == totals


def test_editing_a_round_where_the_hands_ran_out_shows_that_answer(client, kk, h):
    assert client.post(f"/s/{kk}/round/new", data=koikoi_form(h, "e", stopped_by="")).status_code == 303
    rid = client.get(f"/api/v1/sessions/{kk}").get_json()["rounds"][0]["id"]
    page = client.get(f"/s/{kk}/round/{rid}/edit").get_data(as_text=True)
    assert re.search(r'name="stopped_by" value="" checked', page)


def test_every_card_left_still_fills_the_pile_before_the_answer(client, kk, h):
    r = client.post(f"/s/{kk}/round/new", data=koikoi_form(h, "r", "rest-1"), follow_redirects=True)
    assert len(re.findall(r'name="pile-1" value="[\w-]+" checked', r.get_data(as_text=True))) == 45


def test_a_round_won_at_the_deal_needs_no_answer(client, kk, h):
    """KOIKOI-RULES.md "Lucky hands": the holder wins at the deal; piles and stopped_by stay empty."""
    teshi = ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1", "pine-chaff-2",
             "plum-chaff-1", "plum-chaff-2", "iris-chaff-1", "iris-chaff-2"]
    r = client.post(f"/s/{kk}/round/new", data={"action": "save", "nonce": h.signed("t"), "hand-1": teshi})
    assert r.status_code == 303
    assert client.get(f"/api/v1/sessions/{kk}").get_json()["totals"] == {"Aki": 0, "Ben": 6}
