"""Roppyakken house rule ``first_to_target_wins`` (issue 12, item 3c).

Seed 002 (the Japanese text): "ただし600点に到達した人が出た時点で即終了とするルールもある" (some tables end
the game the moment someone reaches 600).  With the option, the first player to reach the target
during the round wins, even if another ends the round higher; a round in which two or more
reach it names the first in ``first_to_target``.  Off in every preset.
"""

import pytest
from helpers import INOSHIKACHO, TEPPO, rules

from referee import api
from referee.errors import RefereeError
from referee.roppyakken.game import play_game, target_crossers

# Round 1: A teppo 300 + its cards 110 = 410; B inoshikacho 300 + 30 = 330.
ROUND_1 = {"piles": {"A": TEPPO, "B": INOSHIKACHO}}
# Round 2: A matsu-kiri-bozu 150 + its cards 150 = 300 (A: 710);
# B inoshikacho 330 + six 10-point animals 60 + four lone ribbons 40 = 430 (B: 760).
ROUND_2 = {"piles": {
    "A": ["pine-crane", "paulownia-phoenix", "pampas-moon"],
    "B": [*INOSHIKACHO, "wisteria-cuckoo", "iris-bridge", "pampas-geese", "chrysanthemum-sake-cup",
          "willow-swallow", "paulownia-chaff-yellow", "pine-poetry-ribbon", "plum-poetry-ribbon",
          "peony-blue-ribbon", "chrysanthemum-blue-ribbon"],
}}
ON = {"first_to_target_wins": True}


def game(options, round_2=ROUND_2):
    return play_game(rules(**options), ["A", "B"], [ROUND_1, round_2])


def test_the_example_round_2_ends_a_710_b_760():
    state = game({})
    assert dict(state.totals) == {"A": 710, "B": 760}
    assert state.winner == "B"  # the default: the highest total


def test_first_to_target_wins_example():
    # Issue 12: round 2 ends A 710, B 760, and A crossed 600 first: A wins.
    state = game(ON, {**ROUND_2, "first_to_target": "A"})
    assert dict(state.totals) == {"A": 710, "B": 760}
    assert state.winner == "A"


def test_two_crossing_without_saying_who_was_first_is_an_error():
    with pytest.raises(RefereeError, match=r"round 2: A and B both reached 600 in this round: say who got there "
                       r"first \(\"first_to_target\"\)") as e:
        game(ON)
    assert (e.value.code, e.value.round_number) == ("missing-decision", 2)


def test_the_first_must_have_reached_the_target_this_round():
    with pytest.raises(RefereeError, match="first_to_target is 'A', who did not reach 600 in this round") as e:
        play_game(rules(**ON), ["A", "B"], [{**ROUND_1, "first_to_target": "A"}])
    assert e.value.code == "bad-decision"
    with pytest.raises(RefereeError, match="first_to_target 'Z' is not a player") as e:
        game(ON, {**ROUND_2, "first_to_target": "Z"})
    assert e.value.code == "unknown-player"


def test_one_crossing_needs_no_statement():
    # Round 2 without B's pile: only A (710) reaches 600.
    state = game(ON, {"piles": {"A": ROUND_2["piles"]["A"], "B": ["wisteria-cuckoo", "iris-bridge",
                                                                  "pampas-geese", "willow-swallow"]}})
    assert state.winner == "A"


def test_off_the_statement_is_ignored_with_a_warning():
    state = game({}, {**ROUND_2, "first_to_target": "A"})
    assert state.winner == "B"
    assert any("first_to_target A is ignored" in w for w in state.rounds[-1].result.warnings)


def test_the_app_asks_only_when_two_or_more_cross():
    r = rules(**ON)
    assert target_crossers(r, {"A": 410, "B": 330}, {"A": 300, "B": 430}) == ("A", "B")
    assert target_crossers(r, {"A": 410, "B": 330}, {"A": 300, "B": 40}) == ()  # one crosses
    assert target_crossers(rules(), {"A": 410, "B": 330}, {"A": 300, "B": 430}) == ()  # option off


def test_a_total_exactly_on_the_target_has_reached_it():
    # A bug once survived here: "<=" read as "<" left a total landing on the target uncounted.
    # Target 710: round 2 ends A exactly on 710 and B on 760, so both reached it.
    with pytest.raises(RefereeError, match="A and B both reached 710 in this round") as e:
        game({**ON, "target": 710})
    assert e.value.code == "missing-decision"
    assert game({**ON, "target": 710}, {**ROUND_2, "first_to_target": "A"}).winner == "A"
    r = rules(**ON, target=710)
    assert target_crossers(r, {"A": 410, "B": 330}, {"A": 300, "B": 430}) == ("A", "B")
    assert target_crossers(r, {"A": 410, "B": 330}, {"A": 299, "B": 430}) == ()  # A one short: B alone


def test_a_total_already_on_the_target_does_not_reach_it_again():
    r = rules(**ON, target=710)
    assert r.reaching_target({"A": 710, "B": 330}, {"A": 720, "B": 760}) == ("B",)


def test_in_the_game_json():
    data = {"ruleset": "roppyakken", "options": ON, "players": ["A", "B"],
            "rounds": [ROUND_1, {**ROUND_2, "first_to_target": "A"}]}
    assert api.game_json(data)["winner"] == "A"


@pytest.mark.parametrize("preset", api.preset_names())
def test_off_in_every_preset(preset):
    r = rules(preset)
    assert getattr(r.options, "first_to_target_wins", False) is False
