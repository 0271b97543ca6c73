"""House rules that list cards (Go-Stop's ssangpi and godori, Hachi-hachi's field brights) are stored as card ids
in the order given, whichever path saves them (the new-session form, the API, Import, a rule fixed afterwards), and
a card listed twice or no card is refused in players' words."""

from __future__ import annotations

import json

import pytest

PLAYERS = ["Aki", "Ben", "Chiyo"]


def _api_create(client, ruleset: str, options: dict):
    return client.post("/api/v1/sessions", json={"name": "Friday", "ruleset": ruleset, "players": PLAYERS,
                                                 "options": options})


def _options(client, token: str) -> dict:
    return client.get(f"/api/v1/sessions/{token}").get_json()["options"]


#: (preset, option, entries by name as a table types them, the ids they name in that order).
BY_NAME = [
    ("gostop", "ssangpi", ["willow lightning", "paulownia chaff yellow", "Chrysanthemum chaff"],
     ["willow-lightning", "paulownia-chaff-yellow", "chrysanthemum-chaff-1"]),
    ("gostop", "ssangpi", ["국화 피", "비쌍피"], ["chrysanthemum-chaff-1", "willow-lightning"]),
    ("gostop", "godori", ["pampas-geese", "Plum with Bush Warbler", "藤に不如帰"],  # the preset's own, reordered
     ["pampas-geese", "plum-bush-warbler", "wisteria-cuckoo"]),
    ("hachihachi", "field_x2", ["桜に幕", "Pine with Crane"], ["cherry-curtain", "pine-crane"]),
]
BY_NAME_IDS = ["ssangpi-english", "ssangpi-korean", "godori-mixed", "field_x2-japanese"]


# Bug: options saved through the API kept card names as typed, where the web form stores ids.
@pytest.mark.parametrize(("preset", "key", "entries", "ids"), BY_NAME, ids=BY_NAME_IDS)
def test_the_api_stores_a_card_list_given_by_name_as_card_ids(client, preset, key, entries, ids):
    r = _api_create(client, preset, {key: entries})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["options"] == {key: ids}
    assert _options(client, r.get_json()["edit_token"]) == {key: ids}


# Bug: the same house rule typed in the form and sent to the API was stored two ways (ids, names).
@pytest.mark.parametrize(("preset", "key", "entries", "ids"), BY_NAME, ids=BY_NAME_IDS)
def test_the_api_and_the_form_store_a_card_list_alike(client, preset, key, entries, ids):
    form = {"name": "Friday", "ruleset": preset, "dealer": "0",
            f"opt.{key}": ", ".join(entries)} | {f"player-{i}": p for i, p in enumerate(PLAYERS)}
    by_form = client.post("/new", data=form)
    assert by_form.status_code == 303, by_form.get_data(as_text=True)[-2000:]
    by_api = _api_create(client, preset, {key: entries})
    assert by_api.status_code == 201, by_api.get_json()
    from_form = _options(client, by_form.headers["Location"].rsplit("/", 1)[-1])
    assert from_form == _options(client, by_api.get_json()["edit_token"]) == {key: ids}


# Kept with the fix: the API already refused these, and must still say so once names are stored as ids.
@pytest.mark.parametrize(
    ("entries", "says"),
    [(["willow-lightning", "비쌍피"],
      "Willow lightning (gate) is listed twice (“willow-lightning” and “비쌍피”); list each card once"),
     (["paulownia-chaff-yellow", "paulownia chaff yellow"],
      "Paulownia chaff with coloured (yellow) band is listed twice (“paulownia-chaff-yellow” and “paulownia chaff "
      "yellow”); list each card once"),
     (["willow-lightning", "wilow"],
      "“wilow” is not a card id: ids are the plant, then the card, such as willow-ribbon (Help lists them all)")],
    ids=["twice-by-id-and-korean", "twice-by-id-and-name", "no-card"],
)
def test_the_api_refuses_a_card_listed_twice_or_no_card_in_players_words(client, entries, says):
    r = _api_create(client, "gostop", {"ssangpi": entries})
    assert r.status_code == 422
    assert r.get_json()["error"] == "bad-ruleset"
    assert r.get_json()["message"].endswith(f": {says}")
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []


# Bug: an imported export kept a card list's names as written, where the form stores ids.
def test_import_stores_a_card_list_given_by_name_as_card_ids(client):
    export = {"name": "Chuseok", "game": {"ruleset": "gostop", "players": PLAYERS, "rounds": [],
                                          "options": {"ssangpi": ["국화 피", "Willow lightning (gate)"]}}}
    r = client.post("/import", data={"text": json.dumps(export)})
    assert r.status_code == 303, r.get_data(as_text=True)[-2000:]
    (made,) = client.get("/api/v1/sessions").get_json()["sessions"]
    assert _options(client, made["view_token"]) == {"ssangpi": ["chrysanthemum-chaff-1", "willow-lightning"]}


# Bug: a rule fixed afterwards through the API kept a card list's names as sent.
def test_rules_fixed_through_the_api_store_a_card_list_as_card_ids(client):
    token = _api_create(client, "gostop", {}).get_json()["edit_token"]
    r = client.put(f"/api/v1/sessions/{token}/rules", json={"options": {"ssangpi": ["국화 피", "비쌍피"]}})
    assert r.status_code == 200, r.get_json()
    assert _options(client, token) == {"ssangpi": ["chrysanthemum-chaff-1", "willow-lightning"]}
    what_if = client.post(f"/api/v1/sessions/{token}/rescore", json={"options": {"godori": ["매조 열끗", "흑싸리 열끗",
                                                                                            "공산 열끗"]}})
    assert what_if.status_code == 200, what_if.get_json()
    assert what_if.get_json()["after"]["options"]["godori"] == ["plum-bush-warbler", "wisteria-cuckoo", "pampas-geese"]


# Bug: a rule fixed afterwards on the What if page by a KEY=VALUE line kept a card list's names as typed.
def test_rules_fixed_on_the_what_if_page_store_a_card_list_as_card_ids(client):
    token = _api_create(client, "gostop", {}).get_json()["edit_token"]
    r = client.post(f"/s/{token}/what-if", data={"ruleset": "gostop", "extra": 'ssangpi=["국화 피", "비쌍피"]'})
    assert r.status_code == 303, r.get_data(as_text=True)[-2000:]
    assert _options(client, token) == {"ssangpi": ["chrysanthemum-chaff-1", "willow-lightning"]}
