"""The API's session says how its game is won (``goal``), as the scoreboard's subtitle does: the words, the
target that decides it, the rounds it is played over and the games of a match (RULES.md "Instant wins and the
end of the game", KOIKOI-RULES.md "The game", RULES.md "Hachi-hachi", GOSTOP-RULES.md), on every route that
answers with a session."""

from __future__ import annotations

import re

import pytest
from web_helpers import text

from referee.web.schemas.outputs import SessionOut

THREE = ["Aki", "Ben", "Chie"]


def create(client, ruleset: str, players, **options) -> dict:
    r = client.post(
        "/api/v1/sessions", json={"name": "Goal", "ruleset": ruleset, "players": players, "options": options}
    )
    assert r.status_code == 201, r.get_data(as_text=True)
    return r.get_json()


def subtitle(client, token: str) -> str:
    body = client.get(f"/s/{token}").get_data(as_text=True)
    return text(re.search(r'<p class="muted">(.*?)</p>', body, re.S).group(1))


# Bug: the session object had no goal: an API client could not tell a game of 12 rounds from one played to 600.
@pytest.mark.parametrize(
    ("ruleset", "players", "options", "goal"),
    [
        ("roppyakken", THREE, {}, {"won": "to 600 points: highest total wins", "target": 600, "rounds": None}),
        (
            "roppyakken",
            THREE,
            {"first_to_target_wins": True},
            {"won": "first to 600 points wins", "target": 600, "rounds": None},
        ),
        (
            "roppyakken",
            THREE,
            {"rounds": 12},
            {"won": "highest total after 12 rounds wins", "target": None, "rounds": 12},
        ),
        (
            "roppyakken",
            THREE,
            {"rounds": 12, "winner": "most-times-over-target"},
            {"won": "most times to 600 points in 12 rounds wins", "target": 600, "rounds": 12},
        ),
        (
            "changara",
            ["Aki", "Ben"],
            {"match_games": 3},
            {
                "won": "to 300 points: highest total wins; best of 3 games",
                "target": 300,
                "rounds": None,
                "match_games": 3,
            },
        ),
        (
            "koikoi",
            ["Aki", "Ben"],
            {"rounds": 6},
            {"won": "highest total after 6 rounds wins; a tie is a draw", "target": None, "rounds": 6},
        ),
        (
            "hachihachi",
            THREE,
            {},
            {"won": "highest total after 12 rounds takes the jackpot; a tie shares it", "target": None, "rounds": 12},
        ),
        ("gostop", THREE, {}, {"won": "no set end: each round is settled as it ends", "target": None, "rounds": None}),
    ],
    ids=[
        "to-target",
        "first-to-target",
        "fixed-rounds",
        "most-times",
        "changara-match",
        "koikoi",
        "hachihachi",
        "gostop",
    ],
)
def test_the_session_says_how_its_game_is_won(client, ruleset, players, options, goal):
    made = create(client, ruleset, players, **options)
    assert made["goal"] == {"match_games": 1, **goal}
    SessionOut.model_validate(made)
    assert made["goal"]["won"] in subtitle(client, made["edit_token"])  # the scoreboard's words
    assert client.get(f"/api/v1/sessions/{made['view_token']}").get_json()["goal"] == made["goal"]


def test_every_route_that_answers_a_session_has_its_goal(client):
    made = create(client, "roppyakken", THREE, rounds=12)
    token = made["edit_token"]
    goal = made["goal"]
    added = client.post(f"/api/v1/sessions/{token}/rounds", json={"totals": {"Aki": 100, "Ben": 0, "Chie": 40}})
    assert added.status_code == 201
    assert added.get_json()["session"]["goal"] == goal
    round_id = added.get_json()["id"]
    edited = client.put(
        f"/api/v1/sessions/{token}/rounds/{round_id}",
        json={"totals": {"Aki": 90, "Ben": 0, "Chie": 40}, "version": added.get_json()["version"]},
    )
    assert edited.status_code == 200, edited.get_data(as_text=True)
    assert edited.get_json()["session"]["goal"] == goal
    change = client.get(f"/api/v1/sessions/{token}").get_json()["last_change"]["id"]
    undone = client.post(f"/api/v1/sessions/{token}/undo", json={"change": change})
    assert undone.status_code == 200
    assert undone.get_json()["session"]["goal"] == goal
    ruled = client.put(f"/api/v1/sessions/{token}/rules", json={"options": {"rounds": 0, "target": 300}})
    assert ruled.status_code == 200, ruled.get_data(as_text=True)
    assert ruled.get_json()["goal"] == {
        "won": "to 300 points: highest total wins",
        "target": 300,
        "rounds": None,
        "match_games": 1,
    }
