"""A message of the rules core (an error, a warning, a yaku's note) names a house rule as players read it: its
label from the ruleset, the new-session form's and the rules page's (``referee.option_names``), never its key
(``option stop_points``).  Every family's messages that name an option, one case each."""

from __future__ import annotations

import re

import pytest

from referee import api
from referee.errors import RefereeError
from referee.option_names import house_rule, option_label
from referee.ruleset import load_ruleset

THREE = ["A", "B", "C"]
SHIKO = ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"]
RIBBONS = ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon", "wisteria-ribbon", "iris-ribbon",
           "bush-clover-ribbon", "peony-blue-ribbon", "chrysanthemum-blue-ribbon"]
NINE_CHAFF = ["pine-chaff-1", "pine-chaff-2", "plum-chaff-1", "plum-chaff-2", "cherry-chaff-1", "cherry-chaff-2",
              "wisteria-chaff-1", "wisteria-chaff-2", "iris-chaff-1"]
GOSTOP = {"ruleset": "gostop", "players": THREE, "stopped_by": "A", "piles": {"A": SHIKO[:3]}}
KOIKOI = {"ruleset": "koikoi", "players": ["A", "B"], "stopped_by": None}
#: A key as a message once printed it: "(option stop_points)", "option sake_cup = either".
KEY = re.compile(r"\(option |option [a-z]+_[a-z_]+|option (players|viewing|sake_cup)\b")


def said(round_: dict) -> str:
    """What the core says of a round: its error's message, or its warnings and notes."""
    try:
        return " | ".join(api.score_json(round_)["warnings"])
    except RefereeError as e:
        return e.message


#: (round, the words naming the rule), id: the rule source and the message.
CASES = [
    ({**GOSTOP, "piles": {"A": SHIKO[:2]}}, "stopping takes 3 (house rule “Points to stop”)",
     "GOSTOP-RULES.md:33 a stopper below stop_points"),
    ({**GOSTOP, "bonus": {"A": [9]}}, "(house rule “Bonus cards in the deck”) are worth [2, 3]",
     "GOSTOP-RULES.md:15 a bonus value the deck lacks"),
    ({**GOSTOP, "bonus": {"A": [3], "B": [3]}}, "the deck (house rule “Bonus cards in the deck”: 2, 2, 3) holds 1",
     "GOSTOP-RULES.md:15 more bonus cards than the deck"),
    ({**GOSTOP, "options": {"sake_cup": "pi"}, "piles": {"A": [*SHIKO[:3], "chrysanthemum-sake-cup"]},
      "sake_cup": {"A": "animal"}}, "always a pi (house rule “The sake cup (국진)”: Pi)",
     "GOSTOP-RULES.md:12 the sake cup fixed"),
    ({**GOSTOP, "nagari_carry": 16}, "at most 8 (house rule “Highest nagari multiplier”)",
     "GOSTOP-RULES.md:68 nagari_cap"),
    ({**GOSTOP, "players": ["A", "B"]}, "is for 3 players (house rule “Allowed numbers of players”)",
     "GOSTOP-RULES.md:72 players"),
    ({**KOIKOI, "options": {"tsukifuda": True}, "piles": {"A": ["pine-crane"]}},
     "the house rule “Month cards (tsukifuda 月札)” scores the cards of the round's month",
     "KOIKOI-RULES.md tsukifuda needs the month"),
    ({**KOIKOI, "options": {"rain_spoils_viewing": "rain-man"},
      "piles": {"A": ["cherry-curtain", "chrysanthemum-sake-cup", "willow-rain-man", "pine-crane"]}},
     "(house rule “Rain spoils the viewings”: Rain man)", "KOIKOI-RULES.md rain spoils the viewings"),
    ({**KOIKOI, "options": {"viewing": "limited"}, "piles": {"A": ["cherry-curtain", "chrysanthemum-sake-cup"]}},
     "(house rule “Viewing yaku (Cherry-blossom and Moon Viewing)”: Limited)", "KOIKOI-RULES.md viewing limited"),
    ({**KOIKOI, "options": {"sake_cup": "either"}, "piles": {"A": [*NINE_CHAFF, "chrysanthemum-sake-cup"]}},
     "which scores more (house rule “How the sake cup counts”: Either)", "KOIKOI-RULES.md sake cup either"),
    ({"ruleset": "roppyakken", "options": {"exact_instant_yaku": True}, "players": THREE,
      "piles": {"A": [*SHIKO, "willow-rain-man", "pine-chaff-1"]}},
     "also holds willow-rain-man (house rule “Exact instant wins only”)", "RULES.md exact instant wins: a card more"),
    ({"ruleset": "roppyakken", "options": {"exact_instant_yaku": True}, "players": THREE, "piles": {"A": RIBBONS}},
     "more than 7 (house rule “Exact instant wins only”)", "RULES.md exact instant wins: too many cards"),
    ({"ruleset": "roppyakken", "options": {"rain_spoils_viewing": "any-willow"}, "players": THREE,
      "piles": {"A": ["cherry-curtain", "pampas-moon", "chrysanthemum-sake-cup", "willow-swallow"]}},
     "willow in the pile (house rule “Rain spoils the viewing yaku”: Any willow)", "RULES.md rain spoils viewings"),
    ({"ruleset": "hachihachi", "players": THREE, "multiplier": 1, "piles": {"A": SHIKO, "B": [], "C": []},
      "dekiyaku": [{"player": "A", "yaku": "shiko", "decision": "stop", "liable": "C"}]},
     "does not play liability (house rule “Liability: who throws the completing card pays alone”)",
     "FudaWiki Dekiyaku liability off"),
]


# Bug: "Ben stopped with 0 points; stopping takes 3 (option stop_points)" showed players the option's key;
# so did every message here ("(option sake_cup = either)", "(option liable_thrower)").
@pytest.mark.parametrize(("round_", "words"), [c[:2] for c in CASES], ids=[c[2] for c in CASES])
def test_a_message_names_a_house_rule_by_its_label(round_, words):
    message = said(round_)
    assert words in message, message
    assert not KEY.search(message), message


@pytest.mark.parametrize(("ruleset", "key", "label"), [
    ("gostop", "stop_points", "Points to stop"),
    ("koikoi", "viewing", "Viewing yaku (Cherry-blossom and Moon Viewing)"),
    ("hachihachi", "liable_thrower", "Liability: who throws the completing card pays alone"),
])
def test_the_label_is_the_rulesets(ruleset, key, label):
    assert option_label(load_ruleset(ruleset).options, key) == label


def test_an_option_the_family_lacks_is_a_programming_mistake():
    with pytest.raises(ValueError, match="no option 'stop_point' in Options; expected one of"):
        house_rule(load_ruleset("gostop").options, "stop_point")
