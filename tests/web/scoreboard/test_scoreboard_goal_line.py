"""The scoreboard's subtitle says how the session's game is won, as its ruleset and options say it: RULES.md
"Instant wins and the end of the game" (the game ends after a round in which a total reaches the target, and
the highest total wins; option ``first_to_target_wins``, seed 002's local rule; options ``rounds`` and
``winner = most-times-over-target``)."""

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
        ("roppyakken",  {"rounds": 12},                  "highest total wins",                "to 600"),
        ("roppyakken",  MOST_TIMES,                      "most times to 600 points wins",     "first"),
        ("changara",    {"match_games": 3},              "to 300 points: highest total wins", "first to"),
        ("koikoi",      {},                              "",                                  "wins"),
    ],
    ids=["roppyakken-default", "first-to-target-wins", "sanbyakuken", "fixed-rounds", "most-times-over-target",
         "changara-match", "koikoi-no-target"],
)
def test_the_subtitle_names_the_rule_in_force(client, ruleset, options, says, never):
    players = ["Aki", "Ben"] if ruleset in ("changara", "koikoi") else ["Aki", "Ben", "Chiyo"]
    line = subtitle(client, ruleset, players, **options)
    assert says in line
    assert never not in line


# Bug (phone walk-through): the preset's description said "first to 600 points wins" too, of its default rules.
def test_the_roppyakken_description_names_its_default_rule(client):
    page = text(client.get("/help/roppyakken").get_data(as_text=True))
    assert "played to 600 points, the highest total wins" in page
    assert "first to 600 points wins" not in page
