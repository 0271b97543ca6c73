"""The new-session form says, beside the game chosen, how that game is won: the words of its scoreboard's
subtitle (the rules' ``goal``: RULES.md "Instant wins and the end of the game", KOIKOI-RULES.md "The game",
RULES.md "Hachi-hachi", GOSTOP-RULES.md), for every preset, on the page and in the fragment a preset
change swaps in (htmx), and without JavaScript after "Load this game's players and house rules"."""

from __future__ import annotations

import re

import pytest
from web_helpers import text

from referee import api
from referee.ruleset import load_ruleset

PRESETS = api.preset_names()


def goal_line(body: str) -> str:
    """The form's "How it is won" line, as read (tags dropped)."""
    found = re.search(r'<p class="goal" id="game-goal">(.*?)</p>', body, re.S)
    assert found, "the form says nothing of how the game is won"
    return text(found.group(1)).strip()


def subtitle(client, ruleset: str) -> str:
    """The subtitle of a new session's scoreboard under ``ruleset`` (its default options)."""
    seats = 2 if ruleset.startswith(("koikoi", "matgo", "changara", "yamayaku")) else 3
    r = client.post("/api/v1/sessions", json={"name": "Goal", "ruleset": ruleset,
                                              "players": ["Aki", "Ben", "Chiyo"][:seats]})
    assert r.status_code == 201, r.get_data(as_text=True)
    body = client.get(f"/s/{r.get_json()['edit_token']}").get_data(as_text=True)
    return text(re.search(r'<p class="muted">(.*?)</p>', body, re.S).group(1))


# Bug (phone walk-through): the game choices never said how each game is won, though its scoreboard did.
@pytest.mark.parametrize("ruleset", PRESETS)
def test_the_form_says_how_the_chosen_game_is_won(client, ruleset):
    goal = load_ruleset(ruleset).goal
    assert goal
    page = client.get("/new", query_string={"ruleset": ruleset}).get_data(as_text=True)
    assert goal_line(page) == f"How it is won: {goal}"
    assert 'aria-describedby="game-goal"' in page  # read out with the game's menu
    swapped = client.get("/new", query_string={"ruleset": ruleset}, headers={"HX-Request": "true"})
    assert goal_line(swapped.get_data(as_text=True)) == f"How it is won: {goal}"
    reloaded = client.post("/new", data={"ruleset": ruleset, "action": "reload", "name": "Friday"})
    assert goal_line(reloaded.get_data(as_text=True)) == f"How it is won: {goal}"


@pytest.mark.parametrize("ruleset", ["roppyakken", "sanbyakuken", "koikoi", "hachihachi", "gostop", "matgo"])
def test_the_form_and_the_scoreboard_say_it_in_the_same_words(client, ruleset):
    said = goal_line(client.get("/new", query_string={"ruleset": ruleset}).get_data(as_text=True))
    assert said.removeprefix("How it is won: ") in subtitle(client, ruleset)


def test_each_game_says_its_own_way_of_winning(client):
    lines = {r: goal_line(client.get("/new", query_string={"ruleset": r}).get_data(as_text=True))
             for r in ("roppyakken", "sanbyakuken", "koikoi", "hachihachi", "gostop")}
    assert lines["roppyakken"].endswith("to 600 points: highest total wins")
    assert lines["sanbyakuken"].endswith("to 300 points: highest total wins")
    assert "after 12 rounds wins" in lines["koikoi"]
    assert "takes the jackpot" in lines["hachihachi"]
    assert "no set end" in lines["gostop"]
