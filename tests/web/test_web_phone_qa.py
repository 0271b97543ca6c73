"""Cases from the "new user on a phone" QA pass before release (each misled a player or saved bad data)."""

from __future__ import annotations

import pytest

FAMILIES = [
    ("roppyakken", ["Aki", "Ben", "Chiyo"]),
    ("hachihachi", ["Aki", "Ben", "Chiyo"]),
]


def rounds(client, token: str) -> list[dict]:
    return client.get(f"/api/v1/sessions/{token}").get_json()["rounds"]


@pytest.mark.parametrize(("preset", "players"), FAMILIES, ids=[f for f, _ in FAMILIES])
def test_a_web_save_of_no_cards_saves_nothing_and_says_why(client, h, preset, players):
    """README "Round input" (and the API since issue 10): a round is its cards or its points.  Found on a
    phone: "Save" on the round page with no card tapped stored an empty round (a void round in
    Roppyakken) while the API refuses the same round.  (A Koi-Koi draw, "the hands ran out", saves without
    cards: test_web_koikoi_qa.)"""
    token = h.new_session(client, players=players, ruleset=preset)
    r = client.post(f"/s/{token}/round/new", data=h.round_form({}, nonce="empty-1"))
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert "Nothing was saved: no card is entered" in page
    assert rounds(client, token) == []


def test_an_edit_that_removes_every_card_saves_nothing(client, h, keeper):
    """The same refusal when an edit takes every card out of a saved round."""
    client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0)))
    rid = rounds(client, keeper)[0]["id"]
    form = h.round_form({}, nonce="edit-empty")
    form["version"] = "1"
    r = client.post(f"/s/{keeper}/round/{rid}/edit", data=form)
    assert r.status_code == 422
    assert rounds(client, keeper)[0]["input"] == {"piles": h.piles(0)}


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


def test_rule_changes_name_the_game_as_the_new_session_form_does(client, h, keeper):
    """Found on a phone: What if… said "scored with roppyakken", and after Apply the flash and the
    Undo button said "change rules to sanbyakuken": the preset's file name, not the game players
    picked from the list ("Sanbyakuken (三百間)")."""
    client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0)))
    page = client.get(f"/s/{keeper}/what-if").get_data(as_text=True)
    assert "scored with <strong>Roppyakken (六百間)</strong>" in page
    r = client.post(f"/s/{keeper}/what-if", data={"ruleset": "sanbyakuken", "extra": "fuke.threshold=40"})
    assert r.status_code == 303
    board = client.get(f"/s/{keeper}").get_data(as_text=True)
    assert "Rules changed to Sanbyakuken (三百間) with fuke.threshold=40" in board  # the flash
    assert "Undo change rules to Sanbyakuken (三百間) with fuke.threshold=40" in board  # the button


FAMILY_SEATS = {"roppyakken": 3, "koikoi": 2, "hachihachi": 3}
EMOJI_NAMES = ["Ben 👨‍🍳", "🏳️‍🌈 Chiyo", "あきこ", "🐗"]


@pytest.mark.parametrize("preset", list(FAMILY_SEATS), ids=list(FAMILY_SEATS))
@pytest.mark.parametrize("name", EMOJI_NAMES, ids=["zwj-chef", "zwj-flag", "japanese", "emoji"])
def test_emoji_and_japanese_names_sit_at_every_table(client, h, preset, name):
    """Found on a phone: "Ben 👨‍🍳" was refused as "not printable" (an emoji built with the zero-width
    joiner U+200D), in a message about "players" as a JSON list."""
    players = [name, "Dai", "Emi"][: FAMILY_SEATS[preset]]
    token = h.new_session(client, players=players, ruleset=preset)
    assert client.get(f"/api/v1/sessions/{token}").get_json()["players"] == players


@pytest.mark.parametrize(
    "name", ["C\u200b", "A\u202eB", "Bo\x07b"], ids=["zero-width-space", "right-to-left-override", "control"]
)
@pytest.mark.parametrize("preset", list(FAMILY_SEATS), ids=list(FAMILY_SEATS))
def test_a_name_with_a_character_that_does_not_print_is_a_clear_form_error(client, preset, name):
    """An invisible or control character in a name is refused in players' words, naming the seat, in
    every game (Hachi-hachi took it)."""
    form = {"name": "x", "ruleset": preset, "dealer": "0"}
    for i, p in enumerate([name, "Dai", "Emi"][: FAMILY_SEATS[preset]]):
        form[f"player-{i}"] = p
    r = client.post("/new", data=form)
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert "Player 1’s name has a character that does not show" in page
    assert "&#34;players&#34;" not in page


def test_the_totals_page_does_not_ask_to_check_cards(client, keeper):
    """Found on a phone: "Enter totals only" (no cards on the page) said "Check the cards, then press
    Score round"; the hint under every entry form (cards, totals, round JSON) now fits all three."""
    page = client.get(f"/s/{keeper}/round/new", query_string={"entry": "totals"}).get_data(as_text=True)
    assert "Check what you entered, then press “Score round”" in page
    assert "Check the cards" not in page


def test_a_totals_save_with_no_number_asks_for_the_points(client, h, keeper):
    """The refusal in the words of the page it is on: "Enter totals only" with every box blank asks for the
    points, not for cards."""
    form = h.round_form({}, nonce="totals-blank", entry="totals")
    for i in range(3):
        form[f"total-{i}"] = ""
    r = client.post(f"/s/{keeper}/round/new", data=form)
    assert r.status_code == 422
    assert "Nothing was saved: no points are entered" in r.get_data(as_text=True)
    assert rounds(client, keeper) == []


@pytest.mark.parametrize(
    ("upload", "says"),
    [
        (None, "Nothing to import: choose a file saved with a scoreboard’s “Export JSON”".replace("’", "&#39;")),
        (("round,Aki,Ben\n1,70,50\n", "game.csv"), "a CSV export is for spreadsheets and cannot be imported"),
    ],
    ids=["no-file", "csv-export"],
)
def test_import_says_which_file_it_takes(client, upload, says):
    """Found on a phone: Import with no file chosen, or with the scoreboard's CSV export, said only
    "That is not valid JSON (Expecting value, line 1, column 1)"."""
    import io

    data = {} if upload is None else {"file": (io.BytesIO(upload[0].encode()), upload[1])}
    r = client.post("/import", data=data, content_type="multipart/form-data")
    assert r.status_code == 422
    assert says in r.get_data(as_text=True)
