"""The "How it is won" line follows the house rules chosen, on the new-session form and on the scoreboard: the
rules' ``goal`` of the ruleset with its options applied (RULES.md "Instant wins and the end of the game": the
target, options ``rounds`` and ``match_games``; KOIKOI-RULES.md "The game": ``rounds``, ``tie``; RULES.md
"Hachi-hachi": 12 rounds or 6).  On the form it is re-rendered (htmx, ``/new?part=goal``) when an option
changes, and after a post the form sends back.

Bug (a new user's report): changing Target to 800 (or the number of rounds, or best-of) left the form's line at
"to 600 points"; with target 800, 5 rounds and best of 3 the scoreboard said "highest total wins · best of 3
games"; Koi-Koi's line said "after the last round" without saying how many rounds.
"""

from __future__ import annotations

import re

import pytest
from web_helpers import session, text


def goal_line(body: str) -> str:
    found = re.search(r'<p class="goal" id="game-goal">(.*?)</p>', body, re.S)
    assert found, "the form says nothing of how the game is won"
    return text(found.group(1)).strip().removeprefix("How it is won: ")


def subtitle(client, token: str) -> str:
    body = client.get(f"/s/{token}").get_data(as_text=True)
    return text(re.search(r'<p class="muted">(.*?)</p>', body, re.S).group(1))


def form_fields(ruleset: str, **options: str) -> dict[str, str]:
    """The new-session form as htmx includes it (``hx-include="#new-session"``) once an option is changed."""
    return {"name": "", "ruleset": ruleset, "options_shown": ruleset, "dealer": "0",
            **{f"opt.{k}": v for k, v in options.items()}}


GOALS = [
    ("Roppyakken: target 800", "roppyakken", {"target": "800"}, "to 800 points: highest total wins"),
    ("Roppyakken: 5 rounds", "roppyakken", {"rounds": "5"}, "highest total after 5 rounds wins"),
    ("Roppyakken: target 800, 5 rounds, best of 3", "roppyakken",
     {"target": "800", "rounds": "5", "match_games": "3"}, "highest total after 5 rounds wins; best of 3 games"),
    ("Roppyakken: target 800, best of 3", "roppyakken", {"target": "800", "match_games": "3"},
     "to 800 points: highest total wins; best of 3 games"),
    ("Roppyakken: 12 rounds, most times over 700", "roppyakken",
     {"rounds": "12", "winner": "most-times-over-target", "target": "700"},
     "most times to 700 points in 12 rounds wins"),
    ("Koi-Koi: its 12 rounds", "koikoi", {}, "highest total after 12 rounds wins; a tie is a draw"),
    ("Koi-Koi: 6 rounds, tie to the dealer", "koikoi", {"rounds": "6", "tie": "dealer"},
     "highest total after 6 rounds wins; a tie goes to the next dealer"),
    ("Koi-Koi: 1 round", "koikoi", {"rounds": "1"}, "highest total after 1 round wins; a tie is a draw"),
    ("Hachi-hachi: a half game", "hachihachi", {"rounds": "6"},
     "highest total after 6 rounds takes the jackpot; a tie shares it"),
]


@pytest.mark.parametrize(("ruleset", "options", "says"), [c[1:] for c in GOALS], ids=[c[0] for c in GOALS])
def test_the_form_line_follows_the_options_as_they_change(client, ruleset, options, says):
    swapped = client.get("/new", query_string={**form_fields(ruleset, **options), "part": "goal"},
                         headers={"HX-Request": "true"})
    assert goal_line(swapped.get_data(as_text=True)) == says
    sent_back = client.post("/new", data={**form_fields(ruleset, **options), "action": "create"})
    assert sent_back.status_code == 422  # no name: the form comes back with the options as typed
    assert goal_line(sent_back.get_data(as_text=True)) == says


@pytest.mark.parametrize(("ruleset", "options", "says"), [c[1:] for c in GOALS], ids=[c[0] for c in GOALS])
def test_the_scoreboard_says_the_goal_of_its_house_rules(client, ruleset, options, says):
    players = ["Aki", "Ben"] if ruleset == "koikoi" else ["Aki", "Ben", "Chie"]
    line = subtitle(client, session(client, ruleset, players, **options))
    assert f" · {says}" in line
    assert line.count("best of") <= 1


def test_the_form_asks_for_the_line_again_when_an_option_changes(client):
    page = client.get("/new", query_string={"ruleset": "roppyakken"}).get_data(as_text=True)
    wrapper = re.search(r'<div id="goal"([^>]*)>\s*<p class="goal" id="game-goal">', page)
    assert wrapper, "no element that re-renders the goal line"
    attrs = wrapper.group(1)
    assert 'hx-get="/new?part=goal"' in attrs
    assert 'hx-trigger="change from:#options"' in attrs
    assert 'hx-include="#new-session"' in attrs
    assert 'hx-swap="outerHTML"' in attrs


def test_a_refused_option_leaves_the_line_at_the_rules_it_can_load(client):
    swapped = client.get("/new", query_string={**form_fields("roppyakken", target="0"), "part": "goal"},
                         headers={"HX-Request": "true"})
    assert goal_line(swapped.get_data(as_text=True)) == "to 600 points: highest total wins"
