"""The scoreboard's subtitle says how the session's game is won, as its ruleset and options say it: RULES.md
"Instant wins and the end of the game" (the game ends after a round in which a total reaches the target, and
the highest total wins; option ``first_to_target_wins``, seed 002's local rule; options ``rounds`` and
``winner = most-times-over-target``); KOIKOI-RULES.md "The game" (options ``rounds`` and ``tie``); RULES.md
"Hachi-hachi" (12 rounds or 6, the jackpot to the winner, tied winners split it); GOSTOP-RULES.md (the game
has no end of its own)."""

from __future__ import annotations

import re

import pytest
from web_helpers import text


def subtitle(client, ruleset: str, players, **options) -> str:
    r = client.post("/api/v1/sessions", json={"name": "Goal", "ruleset": ruleset, "players": players,
                                              "options": options})
    assert r.status_code == 201, r.get_data(as_text=True)
    body = client.get(f"/s/{r.get_json()['edit_token']}").get_data(as_text=True)
    return text(re.search(r'<p class="muted">(.*?)</p>', body, re.S).group(1))


MOST_TIMES = {"rounds": 12, "winner": "most-times-over-target"}


# Bug (phone walk-through): a Roppyakken session said "first to 600 points" with first_to_target_wins off,
# where two players over 600 in one round leave the higher total the winner.
@pytest.mark.parametrize(
    ("ruleset", "options", "says", "never"),
    [
        # ruleset       options                          says                                 never
        ("roppyakken",  {},                              "to 600 points: highest total wins", "first to"),
        ("roppyakken",  {"first_to_target_wins": True},  "first to 600 points wins",          "highest"),
        ("sanbyakuken", {},                              "to 300 points: highest total wins", "first to"),
        ("roppyakken",  {"rounds": 12},                  "highest total after 12 rounds wins", "to 600"),
        ("roppyakken",  MOST_TIMES,                      "most times to 600 points in 12 rounds wins", "first"),
        ("changara",    {"match_games": 3},              "to 300 points: highest total wins", "first to"),
    ],
    ids=["roppyakken-default", "first-to-target-wins", "sanbyakuken", "fixed-rounds", "most-times-over-target",
         "changara-match"],
)
def test_the_subtitle_names_the_rule_in_force(client, ruleset, options, says, never):
    players = ["Aki", "Ben"] if ruleset in ("changara", "koikoi") else ["Aki", "Ben", "Chiyo"]
    line = subtitle(client, ruleset, players, **options)
    assert says in line
    assert never not in line


# Bug (phone walk-through): the Koi-Koi, Hachi-hachi, Go-Stop and Matgo subtitles named the game and the rounds
# to play but never how the game is won (or, in Go-Stop, that it has no end of its own).
@pytest.mark.parametrize(
    ("ruleset", "players", "options", "says"),
    [
        # ruleset        players  options                 says
        ("koikoi",          2, {},                        "highest total after 12 rounds wins; a tie is a draw"),
        ("koikoi",          2, {"rounds": 6},             "highest total after 6 rounds wins; a tie is a draw"),
        ("koikoi",          2, {"rounds": 1},             "highest total after 1 round wins; a tie is a draw"),
        ("koikoi",          2, {"tie": "dealer"},         "a tie goes to the next dealer"),
        ("koikoi",          2, {"tie": "extra-round"},    "a tie plays one more round at a time"),
        ("koikoi-fudawiki", 2, {},                        "highest total after 12 rounds wins"),
        ("hachihachi",      3, {},                        "highest total after 12 rounds takes the jackpot"),
        ("hachihachi",      4, {"rounds": 6},             "after 6 rounds takes the jackpot; a tie shares it"),
        ("gostop",          3, {},                        "no set end: each round is settled as it ends"),
        ("matgo",           2, {},                        "no set end: each round is settled as it ends"),
    ],
    ids=["koikoi-default", "koikoi-6-rounds", "koikoi-1-round", "koikoi-tie-dealer", "koikoi-tie-extra-round",
         "koikoi-fudawiki", "hachihachi-default", "hachihachi-half-game", "gostop", "matgo"],
)
def test_the_subtitle_says_how_every_game_is_won_or_ends(client, ruleset, players, options, says):
    line = subtitle(client, ruleset, ["Aki", "Ben", "Chiyo", "Dai"][:players], **options)
    assert says in line


# Bug (new-user try): "highest total after 12 rounds wins; a tie is a draw · 12 rounds to play" said the
# rounds twice, and a Hachi-hachi board said who takes the jackpot twice (subtitle and the ante line).
@pytest.mark.parametrize(("ruleset", "players"), [("koikoi", 2), ("hachihachi", 3)])
def test_the_board_says_the_rounds_and_the_winner_once(client, ruleset, players):
    r = client.post("/api/v1/sessions", json={"name": "Once", "ruleset": ruleset,
                                              "players": ["Aki", "Ben", "Chiyo"][:players]})
    page = text(client.get(f"/s/{r.get_json()['edit_token']}").get_data(as_text=True))
    assert page.count("12 rounds") == 1
    assert page.count("highest total") == 1


# Bug (phone walk-through): the preset's description said "first to 600 points wins" too, of its default rules.
def test_the_roppyakken_description_names_its_default_rule(client):
    page = text(client.get("/help/roppyakken").get_data(as_text=True))
    assert "played to 600 points, the highest total wins" in page
    assert "first to 600 points wins" not in page
