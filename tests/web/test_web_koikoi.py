"""Koi-Koi in the web app (issue 13, "Web" and "API and OpenAPI"): a 2-player session of 12
months; round entry with both piles, who stopped (or the hands ran out), the koi-koi calls in
order, the dealt hands and the month; the scoreboard by month; the JSON API."""

from __future__ import annotations

import json
import re

import pytest
from werkzeug.datastructures import MultiDict

from referee import api

PLAYERS = ["Aki", "Ben"]
AOTAN_7 = ["peony-blue-ribbon", "chrysanthemum-blue-ribbon", "maple-blue-ribbon", "wisteria-ribbon", "iris-ribbon",
           "pine-chaff-1"]
HANAMI = ["cherry-curtain", "chrysanthemum-sake-cup"]
TESHI = ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1", "pine-chaff-2",
         "plum-chaff-1", "plum-chaff-2", "iris-chaff-1", "iris-chaff-2"]


def create(client, **options: str) -> str:
    form = {"name": "Koi-Koi night", "ruleset": "koikoi", "dealer": "0", "player-0": "Aki", "player-1": "Ben",
            **{f"opt.{k}": v for k, v in options.items()}}
    r = client.post("/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:1000]
    return r.headers["Location"].rsplit("/", 1)[-1]


def round_form(h, action="save", nonce="kk-1", piles=None, hands=None, stopped_by="Aki", calls=("Ben",)):
    """The calls form as a browser without JavaScript submits it."""
    form = MultiDict({"action": action, "nonce": h.signed(nonce), "stopped_by": stopped_by or ""})
    piles = {"Aki": AOTAN_7, "Ben": HANAMI} if piles is None else piles
    for i, p in enumerate(PLAYERS):
        for c in piles.get(p, []):
            form.add(f"pile-{i}", c)
        for c in (hands or {}).get(p, []):
            form.add(f"hand-{i}", c)
    for k, who in enumerate(calls):
        form.add(f"call-{k}", who)
    return form


@pytest.fixture
def kk(client) -> str:
    return create(client)


def test_a_koikoi_session_is_for_two_players(client):
    r = client.post("/new", data={"name": "Three", "ruleset": "koikoi", "dealer": "0", "player-0": "A",
                                  "player-1": "B", "player-2": "C"})
    assert r.status_code == 422
    assert "Koi-Koi is for 2 players; you named 3 (A, B and C)." in r.get_data(as_text=True)


def test_the_new_session_form_offers_every_koikoi_option(client):
    page = client.get("/new?ruleset=koikoi").get_data(as_text=True)
    for key in ("sake_cup", "viewing", "rain_spoils_viewing", "tsukifuda", "opponent_koikoi", "own_koikoi",
                "exhausted", "oyaken_points", "draw_dealer", "rounds", "tie"):
        assert f'name="opt.{key}"' in page


def test_the_round_entry_form(client, kk):
    page = client.get(f"/s/{kk}/round/new").get_data(as_text=True)
    assert "Pine (松, month 1)" in page  # the month, for tsukifuda
    assert page.count('name="stopped_by"') == 3  # Aki, Ben, or nobody: the hands ran out
    assert "the hands ran out" in page
    assert 'name="call-0"' in page
    assert 'name="call-3"' in page
    assert 'name="pile-0"' in page
    assert 'name="pile-1"' in page
    assert 'id="hands"' in page  # the dealt hands, optional: their pickers load when opened
    assert 'name="hand-1"' in client.get(f"/s/{kk}/round/hands").get_data(as_text=True)
    assert 'data-snap="pile-0"' in page  # Snap for both piles, as in the other games
    assert 'data-snap="pile-1"' in page


def test_score_then_save_a_round(client, kk, h):
    scored = client.post(f"/s/{kk}/round/new", data=round_form(h, action="score"), follow_redirects=True)
    body = scored.get_data(as_text=True)
    assert scored.status_code == 200
    assert "×2: 7 points or more" in body
    assert "×2: Ben called koi-koi" in body
    assert "<strong>28</strong>" in body
    assert "Save round 1" in body
    saved = client.post(f"/s/{kk}/round/new", data=round_form(h))
    assert saved.status_code == 303
    session = client.get(f"/api/v1/sessions/{kk}").get_json()
    assert session["totals"] == {"Aki": 28, "Ben": 0}
    assert session["next_dealer"] == "Aki"
    assert session["rounds"][0]["input"] == {
        "piles": {"Aki": sorted(AOTAN_7, key=_deck_order), "Ben": sorted(HANAMI, key=_deck_order)},
        "calls": [{"player": "Ben"}], "stopped_by": "Aki"}
    board = client.get(f"/s/{kk}").get_data(as_text=True)
    assert "Pine (松, month 1)" in board  # the scoreboard by month
    assert "round 2 of 12 next" in board
    assert "Plum (梅, month 2)" in client.get(f"/s/{kk}/round/new").get_data(as_text=True)


def _deck_order(card_id: str) -> int:
    from referee.cards import CARD_IDS

    return CARD_IDS.index(card_id)


def test_hands_ran_out_and_a_lucky_hand(client, kk, h):
    r = client.post(f"/s/{kk}/round/new", data=round_form(h, stopped_by=None, calls=()))
    assert r.status_code == 303
    r = client.post(f"/s/{kk}/round/new", data=round_form(h, nonce="kk-2", piles={}, hands={"Ben": TESHI},
                                                          stopped_by=None, calls=()))
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    session = client.get(f"/api/v1/sessions/{kk}").get_json()
    assert [rnd["scores"] for rnd in session["rounds"]] == [{"Aki": 0, "Ben": 0}, {"Aki": 0, "Ben": 6}]
    assert [rnd["dealer"] for rnd in session["rounds"]] == ["Aki", "Aki"]
    assert session["next_dealer"] == "Ben"


def test_a_stopper_without_yaku_is_shown_and_nothing_is_saved(client, kk, h):
    r = client.post(f"/s/{kk}/round/new", data=round_form(h, stopped_by="Ben", piles={"Ben": ["pine-crane"]}))
    assert r.status_code == 422
    body = r.get_data(as_text=True)
    assert "Ben stopped but holds no yaku" in body
    assert client.get(f"/api/v1/sessions/{kk}").get_json()["rounds"] == []
    # Everything entered comes back as it was: the tap, who stopped, the call.
    assert re.search(r'name="pile-1" value="pine-crane"[^>]*checked', body)
    assert re.search(r'name="stopped_by" value="Ben" checked', body)
    assert re.search(r'<option value="Ben" selected>1\. Ben</option>', body)


def test_editing_a_round_rescores_the_game(client, kk, h):
    client.post(f"/s/{kk}/round/new", data=round_form(h))
    rnd = client.get(f"/api/v1/sessions/{kk}").get_json()["rounds"][0]
    edit = client.get(f"/s/{kk}/round/{rnd['id']}/edit").get_data(as_text=True)
    assert "Pine (松, month 1)" in edit
    form = round_form(h, calls=())
    form.add("version", str(rnd["version"]))
    r = client.post(f"/s/{kk}/round/{rnd['id']}/edit", data=form)
    assert r.status_code == 303
    assert client.get(f"/api/v1/sessions/{kk}").get_json()["totals"] == {"Aki": 14, "Ben": 0}


def test_the_json_box_may_repeat_the_month_if_it_matches(client, kk, h):
    rnd = {"piles": {"Aki": AOTAN_7}, "stopped_by": "Aki", "month": 1}
    ok = client.post(f"/s/{kk}/round/new", data={"round_json": json.dumps(rnd), "action": "save",
                                                 "nonce": h.signed("j1")})
    assert ok.status_code == 303
    bad = client.post(f"/s/{kk}/round/new", data={"round_json": json.dumps({**rnd, "month": 5}), "action": "save",
                                                  "nonce": h.signed("j2")})
    assert bad.status_code == 422
    assert "this round&#39;s month is 2" in bad.get_data(as_text=True)


def test_the_game_ends_after_its_rounds_and_a_tie_is_a_draw(client, h):
    token = create(client, rounds="2")
    client.post(f"/s/{token}/round/new", data=round_form(h, piles={"Aki": HANAMI}, calls=()))
    client.post(f"/s/{token}/round/new", data=round_form(h, nonce="kk-2", piles={"Ben": HANAMI}, stopped_by="Ben",
                                                         calls=()))
    board = client.get(f"/s/{token}").get_data(as_text=True)
    assert "The game is a draw" in board
    assert "Enter round 3" not in board
    r = client.post(f"/s/{token}/round/new", data=round_form(h, nonce="kk-3", calls=()))
    assert r.status_code == 422
    assert "it ended in a draw" in r.get_data(as_text=True)
    api_r = client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": {"Aki": HANAMI}, "stopped_by": "Aki"})
    assert api_r.status_code == 409


def test_the_api_creates_sessions_and_rounds(client):
    r = client.post("/api/v1/sessions", json={"name": "API", "ruleset": "koikoi", "players": PLAYERS,
                                              "dealer": "Ben", "options": {"rounds": 6}})
    assert r.status_code == 201, r.get_json()
    token = r.get_json()["edit_token"]
    preview = client.post(f"/api/v1/sessions/{token}/preview",
                          json={"piles": {"Aki": AOTAN_7}, "calls": [{"player": "Ben", "call": "koikoi"}],
                                "stopped_by": "Aki", "month": 1})
    assert preview.status_code == 200, preview.get_json()
    assert preview.get_json()["players"]["Aki"]["round_score"] == 28
    wrong = client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": {}, "month": 4})
    assert wrong.status_code == 422
    assert "this round's month is 1" in wrong.get_json()["message"]
    added = client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": {"Aki": AOTAN_7}, "stopped_by": "Aki"})
    assert added.status_code == 201
    session = added.get_json()["session"]
    assert session["totals"] == {"Aki": 14, "Ben": 0}
    assert session["family"] == "koikoi"
    export = client.get(f"/api/v1/sessions/{token}/export").get_json()
    assert api.game_json(export["game"])["totals"] == {"Aki": 14, "Ben": 0}  # a valid `game` input


def test_openapi_documents_koikoi_rounds(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    props = doc["components"]["schemas"]["Round"]["properties"]
    assert {"calls", "stopped_by", "month"} <= set(props)
    assert "Koi-Koi" in doc["components"]["schemas"]["Round"]["description"]


def test_the_deck_check_has_no_card_point_total(client, kk, h):
    form = round_form(h, action="score")
    r = client.post(f"/s/{kk}/round/deck-check", data=form)
    body = r.get_data(as_text=True)
    assert "8 of 48 cards in piles" in body
    assert "264" not in body


def test_every_why_line_links_to_its_rule_on_the_help_page(client, kk, h):
    from urllib.parse import urlsplit

    client.post(f"/s/{kk}/round/new", data=round_form(h))
    client.post(f"/s/{kk}/round/new", data=round_form(h, nonce="kk-2", piles={}, hands={"Ben": TESHI},
                                                      stopped_by=None, calls=()))
    body = client.get(f"/s/{kk}").get_data(as_text=True)
    hrefs = re.findall(r'<a class="term" href="([^"]+)"', body)
    anchors = {urlsplit(href).fragment for href in hrefs}
    assert {"y-aotan", "multipliers", "stopping", "y-hanami-zake", "y-teshi"} <= anchors
    for path in {urlsplit(href).path for href in hrefs}:
        page = client.get(path).get_data(as_text=True)
        for href in hrefs:
            if urlsplit(href).path == path:
                assert f'id="{urlsplit(href).fragment}"' in page, href


def test_a_round_entered_as_totals(client, kk, h):
    page = client.get(f"/s/{kk}/round/new?entry=totals").get_data(as_text=True)
    assert 'name="total-0"' in page
    form = {"entry": "totals", "action": "save", "nonce": h.signed("t1"), "total-0": "0", "total-1": "12"}
    assert client.post(f"/s/{kk}/round/new", data=form).status_code == 303
    both = {"entry": "totals", "action": "save", "nonce": h.signed("t2"), "total-0": "3", "total-1": "12"}
    r = client.post(f"/s/{kk}/round/new", data=both)
    assert r.status_code == 422
    assert "only one player scores a round" in r.get_data(as_text=True)
    session = client.get(f"/api/v1/sessions/{kk}").get_json()
    assert (session["totals"], session["next_dealer"]) == ({"Aki": 0, "Ben": 12}, "Ben")


@pytest.mark.parametrize("ruleset", ["koikoi", "koikoi-fudawiki", "koikoi-clubhouse"])
def test_the_new_session_form_seats_exactly_two(client, ruleset):
    # Found in QA (issue 13 x issue 11 "exactly the preset's seats"): Koi-Koi has no `players`
    # option (it is always 2 players, KOIKOI-RULES.md "The round"), so the form offered 6 seats
    # and said "2 to 6 players".
    body = client.get(f"/new?ruleset={ruleset}").get_data(as_text=True)
    assert body.count('name="player-') == 2
    assert "2 players." in body
    assert "2 to 6" not in body
