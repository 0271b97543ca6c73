"""A new session with a number of players its game does not seat says so in players' words: the game, the counts
it seats and the names given, never the core's ``(option players); "players" has 2: ['Jiwoo', 'Minho']``."""

from __future__ import annotations

import html
import re

import pytest

#: The core's words for a file's author: option names, JSON keys, Python lists.
INTERNALS = re.compile(r"\(option |\"players\"|\['|got \d")

CASES = [
    ("gostop", ["Jiwoo", "Minho"], "is for 3 players; you named 2 (Jiwoo and Minho)."),
    ("matgo", ["Jiwoo", "Minho", "Sora"], "is for 2 players; you named 3 (Jiwoo, Minho and Sora)."),
    ("koikoi", ["Aki", "Ben", "Chiyo"], "is for 2 players; you named 3 (Aki, Ben and Chiyo)."),
    ("roppyakken", ["Aki", "Ben", "Chiyo", "Dai"], "is for 2 or 3 players; you named 4 (Aki, Ben, Chiyo and Dai)."),
]


# Bug: Go-Stop with two names said "Go-Stop (고스톱) is for 3 players (option players); "players" has 2: ['Jiwoo',
# 'Minho']"; every family's player-count rule now speaks to players.
@pytest.mark.parametrize(("preset", "players", "says"), CASES, ids=[c[0] for c in CASES])
def test_a_player_count_the_game_does_not_seat_is_said_in_players_words(client, preset, players, says):
    form = {"name": "Friday", "ruleset": preset, "dealer": "0"} | {f"player-{i}": p for i, p in enumerate(players)}
    r = client.post("/new", data=form)
    assert r.status_code == 422
    errors = re.findall(r'<p class="error"[^>]*>(.*?)</p>', html.unescape(r.get_data(as_text=True)), flags=re.S)
    said = next((e for e in errors if "players" in e), "")
    assert said.endswith(says), errors
    assert not INTERNALS.search(said), said
