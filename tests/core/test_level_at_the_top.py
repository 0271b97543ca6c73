"""A game result's ``level``: the players level at the top whose tie the rules play off with another round
(RULES.md "Instant wins and the end of the game": "If the highest totals tie, the game continues with another
round"; KOIKOI-RULES.md "The game", option ``tie = extra-round``); empty otherwise.  The scoreboard says it
(tests/web/scoreboard/test_scoreboard_level_at_the_top.py).
"""

from __future__ import annotations

import pytest

from referee.families import of
from referee.ruleset import load_ruleset

ABC, AB = ["A", "B", "C"], ["A", "B"]
LEVEL = [
    # ruleset     players  rounds (entered totals)                                   options   level
    ("roppyakken: level over the target", "roppyakken", ABC,
     [{"A": 100, "B": 400, "C": 400}, {"A": 0, "B": 430, "C": 430}], {}, ["B", "C"]),
    ("roppyakken: level under the target", "roppyakken", ABC, [{"A": 100, "B": 400, "C": 400}], {}, []),
    ("roppyakken: one leader over the target", "roppyakken", ABC,
     [{"A": 100, "B": 400, "C": 400}, {"A": 0, "B": 430, "C": 440}], {}, []),
    ("roppyakken, fixed rounds: level after the last", "roppyakken", ABC,
     [{"A": 100, "B": 200, "C": 200}, {"A": 0, "B": 50, "C": 50}], {"rounds": 2}, ["B", "C"]),
    ("roppyakken, fixed rounds: level before the last", "roppyakken", ABC,
     [{"A": 100, "B": 200, "C": 200}], {"rounds": 2}, []),
    ("changara match: a game's level top", "changara", AB, [{"A": 300, "B": 300}], {"match_games": 3}, ["A", "B"]),
    ("koikoi, tie = extra-round: level after the last", "koikoi", AB, [{"A": 5, "B": 0}, {"A": 0, "B": 5}],
     {"rounds": 2, "tie": "extra-round"}, ["A", "B"]),
    ("koikoi, tie = draw: the game ends", "koikoi", AB, [{"A": 5, "B": 0}, {"A": 0, "B": 5}], {"rounds": 2}, []),
    ("koikoi, tie = extra-round: level before the last", "koikoi", AB, [{"A": 5, "B": 0}, {"A": 0, "B": 5}],
     {"rounds": 3, "tie": "extra-round"}, []),
]


@pytest.mark.parametrize(("ruleset", "players", "rounds", "options", "level"), [c[1:] for c in LEVEL],
                         ids=[c[0] for c in LEVEL])
def test_the_game_result_names_the_players_level_at_the_top(ruleset, players, rounds, options, level):
    rules = load_ruleset(ruleset, options)
    out = of(rules).game_json(rules, {"players": players, "rounds": [{"totals": t} for t in rounds]})
    assert out["level"] == level
    assert out["winner"] is None or not level
