"""Bad input gets a clear error naming the card, field or player (GOSTOP-RULES.md "JSON", line 105)."""

from __future__ import annotations

import pytest
from gs_cases import CUP, DRY, PI, RAIN, cite, score

from referee import api
from referee.errors import RefereeError, RoundFieldError

CHONGTONG = {"type": "chongtong", "player": "A", "cards": ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1",
                                                          "pine-chaff-2"]}

CASES = [
    # (kwargs for score, code, words the message must hold), id
    (({"piles": {"A": DRY[:3], "B": [DRY[0]]}}, "duplicate-card", ["pine-crane", "pile A", "pile B"]),
     cite(105) + " a card in two piles"),
    (({"piles": {"A": ["pine-crain"]}}, "unknown-card", ["pine-crain"]), cite(105) + " unknown card"),
    (({"piles": {"A": DRY[:3]}, "bonus": {"A": [3], "B": [3]}}, "too-many-cards", ["worth 3", "A 1, B 1", "holds 1"]),
     cite(15) + " more bonus cards of a value than the deck holds"),
    (({"piles": {"A": DRY[:3]}, "bonus": {"C": [5]}}, "bad-round", ["bonus", "C", "5"]),
     cite(15) + " a bonus value the deck lacks"),
    # Bug: the web form's "bonus card 1, 2 pi" ticked for A and for B was scored as two 2-pi cards.
    (({"piles": {"A": DRY[:3]}, "bonus": {"A": [{"card": 1}], "B": [{"card": 1}]}}, "duplicate-card",
      ["bonus card 1 (2 pi)", '"bonus" of A', '"bonus" of B', "one of each bonus card"]),
     cite(105) + " one bonus card in two piles"),
    (({"piles": {"A": DRY[:3]}, "bonus": {"A": [{"card": 3}, {"card": 3}]}}, "duplicate-card",
      ["bonus card 3 (3 pi)", 'twice in "bonus" of A']), cite(105) + " one bonus card twice in a pile"),
    (({"piles": {"A": DRY[:3]}, "bonus": {"A": [{"card": 1}], "B": [2], "C": [2]}}, "too-many-cards",
      ["worth 2 pi", "A 1, B 1, C 1", "holds 2"]), cite(15) + " a bonus card by its number counts with its value"),
    (({"piles": {"A": DRY[:3]}, "bonus": {"B": [{"card": 4}]}}, "bad-round", ['"bonus" of B', '{"card": 4}', "1 to 3"]),
     cite(15) + " a bonus card number the deck lacks"),
    (({"piles": {"A": DRY[:3], "B": PI[:3]}, "sake_cup": {"B": "pi"}},
      "bad-round", ["sake_cup", "B", "chrysanthemum-sake-cup"]),
     cite(105) + " a sake_cup for a player without the cup"),
    (({"piles": {"A": [*DRY[:2], RAIN]}}, "below-stop-points", ["A stopped with 2 points", "3"]),
     cite(33) + " a stopper below stop_points"),
    (({"piles": {"A": DRY[:3]}, "instant": CHONGTONG, "stopped_by": None}, "bad-round", ["chongtong", "piles"]),
     cite(64) + " an instant win beside piles"),
    (({"piles": {}, "instant": CHONGTONG}, "bad-round", ["chongtong", "stopped_by"]),
     cite(64) + " an instant win and a stopper"),
    (({"piles": {}, "stopped_by": None, "instant": {**CHONGTONG, "cards": DRY}},
      "bad-round", ["four cards of one month"]),
     cite(64) + " chongtong cards checked"),
    (({"piles": {"A": DRY[:3]}, "ppeok": {"B": [1, 2, 3]}}, "bad-round", ["B", "three ppeok", "stopped_by"]),
     cite(66) + " a stopper in a three-ppeok round"),
    (({"piles": {"A": DRY[:3], "B": [RAIN]}, "gos": {"B": 1, "C": 1}}, "bad-round", ["B and C", "last_go"]),
     cite(74) + " two go-calling losers without last_go"),
    (({"piles": {"A": DRY[:3]}, "gos": {"D": 1}}, "unknown-player", ["gos", "'D'"]), cite(105) + " an unknown player"),
    (({"piles": {"A": DRY[:3]}, "nagari_carry": 3}, "bad-round", ["nagari_carry", "3"]),
     cite(68) + " a carry that is no doubling"),
    (({"piles": {"A": DRY[:3]}, "nagari_carry": 16}, "bad-round", ["at most 8"]),
     cite(68) + " a carry past nagari_cap"),
    (({"piles": {"A": DRY[:3]}, "players": ["A", "B"]}, "player-count", ["3", "2"]),
     cite(72) + " not 3 players in Go-Stop"),
]


@pytest.mark.parametrize(("kwargs", "code", "words"), [c for c, _ in CASES], ids=[i for _, i in CASES])
def test_bad_round(kwargs, code, words):
    kwargs = dict(kwargs)
    piles = kwargs.pop("piles")
    with pytest.raises(RefereeError) as e:
        score(piles, **kwargs)
    assert e.value.code == code
    for w in words:
        assert w in e.value.message


def test_matgo_is_for_two():
    """GOSTOP-RULES.md:78: Matgo with three players is a player-count error naming the option (by its label)."""
    with pytest.raises(RefereeError, match="house rule “Allowed numbers of players”") as e:
        score({"A": DRY}, preset="matgo", players=["A", "B", "C"])
    assert e.value.code == "player-count"


def test_a_game_names_the_round_and_a_carry_that_disagrees():
    """GOSTOP-RULES.md:104: the referee carries the nagari; a round's own nagari_carry must agree."""
    game = {"ruleset": "gostop", "players": ["A", "B", "C"], "dealer": "A",
            "rounds": [{"stopped_by": None}, {"piles": {"A": DRY[:3]}, "stopped_by": "A", "nagari_carry": 1}]}
    with pytest.raises(RefereeError, match=r"round 2: \"nagari_carry\" is 1, but the referee carries ×2") as e:
        api.game_json(game)
    assert e.value.round_number == 2


@pytest.mark.parametrize(("options", "field"), [
    ({"players": [4]}, "options.players"),
    ({"ssangpi": ["pine-crane"]}, "options.ssangpi[0]"),
    ({"bonus_cards": [5]}, "options.bonus_cards[0]"),
    ({"go_factor": "tripling"}, "options.go_factor"),
], ids=[cite(72), cite(11), cite(15), cite(39)])
def test_bad_ruleset_names_the_field(options, field):
    with pytest.raises(RefereeError) as e:
        api.score_json({"ruleset": "gostop", "options": options, "players": ["A", "B", "C"]})
    assert e.value.code == "bad-ruleset"
    assert field in e.value.message


STOPPED = {"ruleset": "gostop", "players": ["A", "B", "C"], "piles": {"A": DRY[:3]}}


def test_a_round_must_say_how_it_ended():
    """QA: a round with no "stopped_by" was scored as a nagari (×2 next round) though A holds 3 points to
    stop; the JSON must say who stopped or that nobody did, as the web form asks."""
    with pytest.raises(RefereeError) as e:
        api.score_json(STOPPED)
    assert (e.value.code, "\"stopped_by\" is missing" in e.value.message) == ("bad-round", True)
    assert "null" in e.value.message
    with pytest.raises(RefereeError, match=r"round 1: \"stopped_by\" is missing"):
        api.game_json({k: v for k, v in STOPPED.items() if k != "piles"} | {"rounds": [{"piles": {"A": DRY[:3]}}]})


@pytest.mark.parametrize(("extra", "outcome"), [
    ({"stopped_by": None}, "nagari"),
    ({"stopped_by": "A"}, "stopped"),
    ({"piles": {}, "instant": CHONGTONG}, "chongtong"),
    ({"piles": {}, "ppeok": {"B": [1, 2, 3]}}, "three-ppeok"),
], ids=["explicit null: a nagari", "a stopper", cite(64) + " chongtong says it", cite(66) + " 3뻑 says it"])
def test_an_ending_that_is_said_is_scored(extra, outcome):
    assert api.score_json(STOPPED | extra)["outcome"] == outcome


PARTS = [
    # (round fields, options, the error's parts), id
    (({"gos": {"B": 13}}, {}, {"code": "bad-round", "field": "gos", "rule": "count", "player": "B", "value": 13,
                               "limit": 12}), cite(89) + " gos at most MAX_CALLS"),
    (({"ppeok": {"B": ["x"]}}, {}, {"field": "ppeok", "rule": "turns", "player": "B", "value": ["x"], "limit": 12}),
     cite(65) + " ppeok turn numbers"),
    (({"ppeok": {"B": [2, 1, 2]}}, {}, {"field": "ppeok", "rule": "twice", "player": "B", "value": (2, 1, 2)}),
     cite(65) + " a ppeok turn once"),
    (({"ppeok": {"B": [1, 2, 3, 4]}}, {}, {"field": "ppeok", "rule": "too-many", "player": "B", "limit": 3}),
     cite(66) + " 3뻑 ends the round"),
    (({"ppeok": {"B": [1, 2, 3]}}, {}, {"field": "stopped_by", "rule": "three-ppeok", "player": "B", "value": "A"}),
     cite(66) + " a stopper in a three-ppeok round"),
    (({"last_go": "B"}, {}, {"field": "last_go", "rule": "no-go", "player": "B"}), cite(74) + " last_go called go"),
    (({"dokbak": "A"}, {}, {"field": "dokbak", "rule": "stopper", "player": "A"}), cite(74) + " dokbak is a loser"),
    (({"piles": {}, "stopped_by": None, "instant": {**CHONGTONG, "cards": DRY}}, {},
      {"field": "instant.cards", "rule": "one-month", "player": "A", "value": tuple(DRY)}), cite(64) + " a month"),
    (({"piles": {}, "instant": CHONGTONG}, {}, {"field": "instant", "rule": "played", "value": ("stopped_by",)}),
     cite(64) + " chongtong at the deal"),
    (({"bonus": {"A": [3], "B": [3]}}, {}, {"code": "too-many-cards", "field": "bonus", "rule": "too-many",
                                            "value": 3, "limit": 1, "counts": {"A": 1, "B": 1}}),
     cite(15) + " as many bonus cards as the deck"),
    (({"bonus": {"C": [5]}}, {}, {"field": "bonus", "rule": "not-in-deck", "player": "C", "value": 5,
                                  "limit": (2, 3)}), cite(15) + " a bonus value the deck has"),
    (({"bonus": {"B": [{"card": 2}], "C": [3, {"card": 2}]}}, {},
      {"code": "duplicate-card", "field": "bonus", "rule": "two-piles", "player": "B", "value": 2, "limit": 2,
       "players": ("B", "C")}), cite(105) + " one bonus card, one pile"),
    (({"bonus": {"B": [{"card": 3}]}}, {"bonus_cards": [2, 3]},
      {"field": "bonus", "rule": "no-such-card", "player": "B", "value": {"card": 3}, "limit": 2}),
     cite(15) + " a bonus card of the deck"),
    (({"piles": {"A": [*DRY[:3], CUP]}, "sake_cup": {"A": "animal"}}, {"sake_cup": "pi"},
      {"field": "sake_cup", "rule": "fixed", "player": "A", "value": "animal", "limit": "pi"}),
     cite(12) + " option sake_cup fixes it"),
    (({"stopped_by": "Z"}, {}, {"code": "unknown-player", "field": "stopped_by", "rule": "not-a-player", "value": "Z",
                                "players": ("A", "B", "C"), "message": '"stopped_by" is \'Z\'; expected one of the '
                                "players ['A', 'B', 'C']"}), cite(89) + " the stopper is a player"),
    (({"piles": {}, "instant": {**CHONGTONG, "player": "Z"}}, {},
      {"code": "unknown-player", "field": "instant.player", "rule": "not-a-player", "value": "Z"}),
     cite(64) + " chongtong by a player"),
]


@pytest.mark.parametrize(("fields", "options", "parts"), [c for c, _ in PARTS], ids=[i for _, i in PARTS])
def test_a_refused_field_carries_its_parts_beside_its_message(fields, options, parts):
    """The parts a form says the refusal from (``RoundFieldError``), without reading the message."""
    fields = {"piles": {"A": DRY[:3]}, **fields}
    with pytest.raises(RoundFieldError) as e:
        score(fields.pop("piles"), options=options, **fields)
    assert {k: getattr(e.value, k) for k in parts} == parts
