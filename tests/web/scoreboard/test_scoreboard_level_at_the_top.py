"""The scoreboard says why a game goes on when its rules would end it but the top is level: RULES.md "Instant
wins and the end of the game" ("If the highest totals tie, the game continues with another round"; with
option ``rounds``, ties then another round) and KOIKOI-RULES.md "The game" (option ``tie = extra-round``).
The game result's ``level`` names the players level at the top (tests/core/test_level_at_the_top.py): the
rules, not a preset's name, decide.

Bug (a new user's report): after round 2 Ben and Chie were level on 830, both marked "reached 600", and the
board only offered "Enter round 3": the rule was on the rules page alone.
"""

from __future__ import annotations

import html

import pytest
from web_helpers import session, text, totals

LEVEL = "are level on"


def board_after(client, h, ruleset, players, played, **options) -> str:
    token = session(client, ruleset, players, **options)
    for i, values in enumerate(played):
        r = client.post(f"/s/{token}/round/new", data=totals(h, f"lv-{i}", *values))
        assert r.status_code == 303, r.get_data(as_text=True)[:400]
    return text(html.unescape(client.get(f"/s/{token}").get_data(as_text=True)))


THREE = ["Aki", "Ben", "Chie"]
SAYS = [
    ("Roppyakken: two over 600, level", "roppyakken", THREE, [(100, 400, 400), (0, 430, 430)], {},
     "Ben and Chie are level on 830: another round decides."),
    ("Roppyakken, fixed rounds: level after the last", "roppyakken", THREE, [(100, 200, 200), (0, 50, 50)],
     {"rounds": "2"}, "Ben and Chie are level on 250: another round decides."),
    ("Koi-Koi, tie = extra-round: level after the last", "koikoi", ["Aki", "Ben"], [(5, 0), (0, 5)],
     {"rounds": "2", "tie": "extra-round"}, "Aki and Ben are level on 5: another round decides."),
]


@pytest.mark.parametrize(("ruleset", "players", "played", "options", "says"), [c[1:] for c in SAYS],
                         ids=[c[0] for c in SAYS])
def test_a_level_top_that_plays_another_round_is_said_on_the_board(client, h, ruleset, players, played, options,
                                                                   says):
    assert says in board_after(client, h, ruleset, players, played, **options)


QUIET = [
    ("Roppyakken: level, but under the target", "roppyakken", THREE, [(100, 400, 400)], {}),
    ("Roppyakken: over the target, one leader", "roppyakken", THREE, [(100, 400, 400), (0, 430, 440)], {}),
    ("Roppyakken: the tie played off", "roppyakken", THREE, [(100, 400, 400), (0, 430, 430), (0, 0, 50)], {}),
    ("Koi-Koi, tie = draw: a draw, no other round", "koikoi", ["Aki", "Ben"], [(5, 0), (0, 5)], {"rounds": "2"}),
    ("Koi-Koi: level before the last round", "koikoi", ["Aki", "Ben"], [(5, 0), (0, 5)],
     {"rounds": "3", "tie": "extra-round"}),
]


@pytest.mark.parametrize(("ruleset", "players", "played", "options"), [c[1:] for c in QUIET],
                         ids=[c[0] for c in QUIET])
def test_no_level_line_where_the_rules_do_not_play_another_round_for_it(client, h, ruleset, players, played,
                                                                        options):
    assert LEVEL not in board_after(client, h, ruleset, players, played, **options)
