"""What the JSON API refuses, naming the field: a form token of the wrong type, a dealer who is not
the oya, piles of no cards, totals too big or not whole, a body that is not JSON."""

from __future__ import annotations

import pytest
from web_helpers import rounds, session


# Bug (web QA): a form token of the wrong type was taken as a key.
@pytest.mark.parametrize("token", [["x"], 5, {"a": 1}, "", "x" * 201], ids=["list", "int", "object", "empty", "long"])
def test_api_form_token_of_a_wrong_type_is_refused(client, keeper, h, token):
    r = client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(0), "form_token": token})
    assert r.status_code == 422  # the request schema's answer (issue 10, item 5)
    assert "form_token" in r.get_json()["message"]
    assert rounds(client, keeper) == []


# Bug (web QA): the API did not document its idempotency key.
def test_api_form_token_is_documented_as_the_idempotency_key(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert "idempotency key" in doc["paths"]["/sessions/{token}/rounds"]["post"]["description"]


# Bug (web QA): the API took a dealer other than the oya.
@pytest.mark.parametrize("dealer", [{"a": 1}, "Nobody", "Ben"], ids=["object", "stranger", "not-oya"])
def test_api_dealer_must_be_the_oya(client, keeper, h, dealer):
    r = client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(0), "dealer": dealer})
    assert r.status_code == 422
    says = "\"dealer\" must be this round's oya" + ("" if isinstance(dealer, dict) else ", 'Aki'")
    assert says in r.get_json()["message"]
    assert rounds(client, keeper) == []


# Bug (phone QA): piles naming every player with no card saved a round of nothing.
@pytest.mark.parametrize(
    "body",
    [{"piles": {"Aki": [], "Ben": [], "Chiyo": []}}, {"hands": {"Aki": []}, "piles": {"Ben": []}}],
    ids=["empty-piles", "empty-hands-and-piles"],
)
def test_the_api_refuses_piles_of_no_cards_as_it_refuses_no_piles(client, keeper, body):
    """test_web_service: ``{"piles": {}}`` is a 422; piles that name every player with no card are the same
    round of nothing."""
    r = client.post(f"/api/v1/sessions/{keeper}/rounds", json=body)
    assert r.status_code == 422, r.get_json()
    assert r.get_json()["error"] == "bad-round"
    assert rounds(client, keeper) == []


# Bug (table walk-through): a total too big was not named as too big.
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


# Bug (table walk-through): 12.5 and a 4301-digit total were misnamed.
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


# Bug (web QA): a body that is not JSON got Python's words (set_int_max_str_digits).
@pytest.mark.parametrize(
    ("body", "says"),
    [
        # (table-fixes: a number over Python's digit limit is said to be too big, not "not valid JSON")
        ('{"name": "n", "players": ["A", "B"], "options": {"target": ' + "1" * 5000 + "}}",
         "the body holds a number too big to read (over 4300 digits)"),
        ("{oops", "the body is not valid JSON"),
    ],
    ids=["5000-digits", "broken"],
)
def test_api_names_what_is_wrong_with_a_body(client, body, says):
    r = client.post("/api/v1/sessions", data=body, content_type="application/json")
    assert r.status_code == 400
    assert says in r.get_json()["message"]
    assert "set_int_max_str_digits" not in r.get_json()["message"]


# Bug (phone walk): the API created a session named "x\u0000" (or only a zero-width space), which the home
# page then listed with no name to tap.
@pytest.mark.parametrize("name", ["x\u0000", "\u200b", "\u202eyadirF"], ids=["nul", "zero-width-space", "rlo"])
def test_the_api_refuses_a_session_name_with_a_character_that_does_not_print(client, name):
    r = client.post("/api/v1/sessions", json={"name": name, "ruleset": "roppyakken", "players": ["Aki", "Ben"]})
    assert r.status_code == 422
    assert "does not show" in r.get_json()["message"]
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []


#: The API's words for a round of nothing, by family: the keys that family's round takes (``Family.round_keys``).
EMPTY = [
    ("roppyakken", ["Aki", "Ben", "Chiyo"], 'a round needs its cards or its points: "piles" (each player\'s captured '
     'cards), "hands" (the dealt hands, for a lucky hand at the deal) or "totals" (points entered on paper); all three '
     'are missing or empty'),
    ("hachihachi", ["Aki", "Ben", "Chiyo"], 'a round needs its cards or its points: "piles" (each player\'s captured '
     'cards), "hands" (the dealt hands, for a lucky hand at the deal) or "totals" (points entered on paper); all three '
     'are missing or empty'),
    ("koikoi", ["Aki", "Ben"], 'a round needs its cards or its points: "piles" (each player\'s captured cards), '
     '"hands" (the dealt hands, for a lucky hand at the deal) or "totals" (points entered on paper); all three are '
     'missing or empty'),
    # Bug (new-user walk-through): Go-Stop's answer offered "hands", a key its rounds refuse.
    ("gostop", ["Aki", "Ben", "Chiyo"], 'a round needs its cards or its points: "piles" (each player\'s captured '
     'cards), "instant" (a chongtong at the deal) or "totals" (points entered on paper); all three are missing or '
     'empty'),
]


@pytest.mark.parametrize(("preset", "players", "said"), EMPTY, ids=[e[0] for e in EMPTY])
def test_the_api_names_what_a_round_of_nothing_needs_in_its_familys_keys(client, preset, players, said):
    token = session(client, preset, players)
    r = client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": {}})
    assert (r.status_code, r.get_json()) == (422, {"error": "bad-round", "message": said})
    assert rounds(client, token) == []


# Bug (new-user walk-through): one card in a three-player Hachi-hachi round answered with the 47 other card ids.
def test_the_api_says_how_many_cards_a_hachihachi_round_lacks_not_which(client):
    token = session(client, "hachihachi", ["Aki", "Ben", "Chiyo"])
    r = client.post(f"/api/v1/sessions/{token}/rounds", json={"multiplier": 1, "piles": {"Aki": ["pine-crane"]}})
    assert r.status_code == 422
    assert r.get_json() == {"error": "pile-points", "message": (
        "the piles hold 1 of the 48 cards; with 3 players every card is played, so a round settled on card points "
        "needs all 48: 47 cards are in no pile")}
