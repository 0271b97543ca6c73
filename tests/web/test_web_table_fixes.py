"""A phone walk-through at a real table (branch table-fixes): what the scoreboard, the totals pad
and the Koi-Koi round form say.  (Back after Score or Save: ``test_web_back_button*.py``.)"""

from __future__ import annotations

import re

import pytest


def words(r) -> str:
    """The page's words without tags, whitespace runs as one space."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


def session(client, ruleset: str, players, **options: str) -> str:
    form = {"name": "Table", "ruleset": ruleset, "dealer": "0", **{f"opt.{k}": v for k, v in options.items()}}
    form.update({f"player-{i}": p for i, p in enumerate(players)})
    r = client.post("/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:800]
    return r.headers["Location"].rsplit("/", 1)[-1]


def totals(h, nonce: str, *values: int) -> dict:
    return {"entry": "totals", "action": "save", "nonce": h.signed(nonce),
            **{f"total-{i}": str(v) for i, v in enumerate(values)}}


# ---- 2. the round count says what players expect, never "round 0" -------------------------------------
# Hachi-hachi: twelve rounds, one per month (seeds/hachihachi, "The game"); Koi-Koi: option `rounds`
# (KOIKOI-RULES.md "The game").


def test_a_new_hachihachi_session_says_twelve_rounds_to_play_not_round_0(client):
    token = session(client, "hachihachi", ["Aki", "Ben", "Chiyo"])
    board = words(client.get(f"/s/{token}"))
    assert "12 rounds to play" in board
    assert not re.search(r"\bround 0 of\b", board)


@pytest.mark.parametrize(
    ("rounds", "says"),
    [
        ([], "2 rounds to play"),
        ([(5, 0)], "round 2 of 2 next"),
        ([(5, 0), (0, 3)], "all 2 rounds played"),
    ],
    ids=["before-any-round", "one-played", "game-over"],
)
def test_the_koikoi_round_count_names_the_next_round_or_the_rounds_played(client, h, rounds, says):
    token = session(client, "koikoi", ["Aki", "Ben"], rounds="2")
    for k, values in enumerate(rounds):
        assert client.post(f"/s/{token}/round/new", data=totals(h, f"k{k}", *values)).status_code == 303
    board = words(client.get(f"/s/{token}"))
    assert says in board
    assert not re.search(r"\bround 0 of\b", board)
