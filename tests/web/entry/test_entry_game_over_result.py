"""The round that ends the game says so, and who won, instead of naming a next dealer: no next round is
played.  RULES.md "Instant wins and the end of the game" (Roppyakken: a total reaches the target);
KOIKOI-RULES.md "The game" (option ``rounds``; a level game is a draw by default); seeds/hachihachi "The
game" (6 or 12 rounds); GOSTOP-RULES.md: the game has no end of its own, so a round always names the next
seon."""

from __future__ import annotations

import re

import pytest
from web_helpers import text

HH_WIN = {"sign-0": "+", "kan-0": "2", "mon-0": "6", "sign-1": "-", "kan-1": "1", "mon-1": "0",
          "sign-2": "-", "kan-2": "1", "mon-2": "6", "winner": "Aki"}


def pad(values) -> dict[str, str]:
    """The totals pad's boxes: points for seat i (a negative one as its sign and size)."""
    if isinstance(values, dict):
        return values
    out = {}
    for i, v in enumerate(values):
        out[f"total-{i}"] = str(abs(v))
        out[f"sign-{i}"] = "-" if v < 0 else "+"
    return out


# Bug (phone walk-through): a Roppyakken round that won the game for Chiyo still said "Next oya: Chiyo".


def scored_result(client, url: str, fields: dict) -> str:
    """The text of the round result after Score on the totals pad at ``url`` with ``fields``."""
    r = client.post(url, data={"entry": "totals", "action": "score", **fields}, follow_redirects=True)
    assert r.status_code == 200, r.get_data(as_text=True)[:2000]
    return text(re.search(r'<section id="result".*?</section>', r.get_data(as_text=True), re.S).group(0))


@pytest.mark.parametrize(
    ("ruleset", "options", "players", "before", "last", "says", "never"),
    [
        # ruleset       options          players                   rounds saved before          the round scored
        ("roppyakken",  {},              ["Aki", "Ben", "Chiyo"],  [],                          (0, 40, 650),
         "The game is over: Chiyo wins.", "Next oya"),
        ("roppyakken",  {},              ["Aki", "Ben", "Chiyo"],  [],                          (0, 40, 300),
         "Next oya: Chiyo", "game is over"),
        ("changara",    {"match_games": 3}, ["Aki", "Ben"],        [],                          (0, 320),
         "Next oya: Ben", "game is over"),  # game 1 of a best of 3: the match goes on
        ("changara",    {"match_games": 3}, ["Aki", "Ben"],        [{"Aki": 0, "Ben": 320}],    (0, 310),
         "The match is over: Ben wins.", "Next oya"),
        ("koikoi",      {"rounds": 2},   ["Aki", "Ben"],           [{"Aki": 5, "Ben": 0}],      (0, 3),
         "The game is over: Aki wins.", "Next oya"),
        ("koikoi",      {"rounds": 2},   ["Aki", "Ben"],           [{"Aki": 5, "Ben": 0}],      (0, 5),
         "The game is over: a draw.", "Next oya"),
        ("koikoi",      {"rounds": 2},   ["Aki", "Ben"],           [],                          (5, 0),
         "Next oya: Aki", "game is over"),
        ("hachihachi",  {"rounds": 6},   ["Aki", "Ben", "Chiyo"],  [{"Aki": 6, "Ben": -6, "Chiyo": 0}] * 5, HH_WIN,
         "The game is over: Aki wins.", "Next oya"),
        ("gostop",      {},              ["Aki", "Ben", "Chiyo"],  [],                          (10, -4, -6),
         "Next seon: Aki", "game is over"),
    ],
    ids=["roppyakken-target-reached", "roppyakken-goes-on", "changara-game-1-of-a-match", "changara-match-won",
         "koikoi-last-round", "koikoi-last-round-level", "koikoi-goes-on", "hachihachi-last-round",
         "gostop-never-ends"],
)
def test_the_round_result_says_the_game_is_over_or_who_deals_next(client, h, ruleset, options, players, before,
                                                                   last, says, never):
    r = client.post("/api/v1/sessions", json={"name": "End", "ruleset": ruleset, "players": players,
                                              "options": options})
    assert r.status_code == 201, r.get_data(as_text=True)
    token = r.get_json()["edit_token"]
    for totals in before:
        r = client.post(f"/api/v1/sessions/{token}/rounds", json={"totals": totals})
        assert r.status_code == 201, r.get_data(as_text=True)
    result = scored_result(client, f"/s/{token}/round/new", {"nonce": h.signed("end-1"), **pad(last)})
    assert says in result
    assert never not in result


# Bug (phone walk-through): a Koi-Koi game that ended level still marked a player "deals next" on the board.
def test_a_game_ended_in_a_draw_marks_nobody_to_deal_next(client):
    r = client.post("/api/v1/sessions", json={"name": "Level", "ruleset": "koikoi", "players": ["Aki", "Ben"],
                                              "options": {"rounds": 2}})
    token = r.get_json()["edit_token"]
    for totals in ({"Aki": 5, "Ben": 0}, {"Aki": 0, "Ben": 5}):
        assert client.post(f"/api/v1/sessions/{token}/rounds", json={"totals": totals}).status_code == 201
    board = client.get(f"/s/{token}").get_data(as_text=True)
    assert "The game is a draw" in board
    assert "deals next" not in board


# The edit page scores a round in its own place: the last round of a finished game still ends it, an earlier
# one names the next dealer.
@pytest.mark.parametrize(("edited", "says", "never"), [(1, "The game is over: Aki wins.", "Next oya"),
                                                       (0, "Next oya: Aki", "game is over")],
                         ids=["last-round", "first-round"])
def test_an_edited_round_says_the_game_is_over_only_where_it_ends_it(client, h, edited, says, never):
    r = client.post("/api/v1/sessions", json={"name": "Edit", "ruleset": "koikoi", "players": ["Aki", "Ben"],
                                              "options": {"rounds": 2}})
    token = r.get_json()["edit_token"]
    for totals in ({"Aki": 5, "Ben": 0}, {"Aki": 0, "Ben": 3}):
        assert client.post(f"/api/v1/sessions/{token}/rounds", json={"totals": totals}).status_code == 201
    rid = client.get(f"/api/v1/sessions/{token}").get_json()["rounds"][edited]["id"]
    values = [(5, 0), (0, 3)][edited]
    result = scored_result(client, f"/s/{token}/round/{rid}/edit", {"nonce": h.signed("edit-1"), **pad(values)})
    assert says in result
    assert never not in result
