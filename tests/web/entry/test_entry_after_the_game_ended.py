"""The round entry page of a finished game says so when it opens, before a card is tapped: the
game is over, who won, and where the next game starts (README "Web app"; RULES.md "Instant wins and
the end of the game")."""

from __future__ import annotations

import re

import pytest
from web_helpers import text


def _finished(client, h) -> str:
    keeper = h.new_session(client, **{"opt.target": "100"})
    done = client.post(f"/api/v1/sessions/{keeper}/rounds", json={"totals": {"Aki": 20, "Ben": 150, "Chiyo": 0}})
    assert done.status_code == 201, done.get_json()
    return keeper


# Bug (phone walk): the round link of a won game opened "Round 2" as a fresh form and said the game
# was over only after 48 cards were tapped and "Score round" pressed.
@pytest.mark.parametrize("query", ["", "?entry=totals"], ids=["cards", "totals"])
def test_the_entry_page_of_a_finished_game_says_it_is_over_on_opening(client, h, query):
    keeper = _finished(client, h)
    page = client.get(f"/s/{keeper}/round/new{query}").get_data(as_text=True)
    alert = re.search(r'<p class="error" role="alert">([^<]+)', page)
    assert alert is not None, "no notice on opening"
    assert alert.group(1) == "The game is over: Ben won. Start a new session for the next game."


def test_the_entry_page_of_a_game_in_play_has_no_such_notice(client, h):
    keeper = h.new_session(client, **{"opt.target": "100"})
    assert "The game is over" not in text(client.get(f"/s/{keeper}/round/new").get_data(as_text=True))
