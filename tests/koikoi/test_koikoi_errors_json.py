"""Koi-Koi rounds and games as JSON (KOIKOI-RULES.md "JSON"), and every error the rules name:
each names the card, field or player."""

import json
from importlib import resources

import pytest

from referee import api
from referee.errors import RefereeError, RoundFieldError


def example(name: str) -> dict:
    return json.loads(resources.files("referee").joinpath(f"examples/{name}").read_text("utf-8"))


def test_the_example_round():
    out = api.score_json(example("koikoi-round.json"))
    aki, ben = out["players"]["Aki"], out["players"]["Ben"]
    assert (aki["yaku_total"], aki["round_score"], out["multiplier"]) == (7, 28, 4)
    assert [y["id"] for y in ben["yaku"]] == ["sankou", "hanami-zake", "tsukimi-zake"]
    assert ben["round_score"] == 0
    assert (out["winner"], out["next_dealer"], out["month"]) == ("Aki", "Aki", 3)
    for p, r in out["players"].items():
        assert sum(x["points"] for x in out["explanation"] if x["player"] == p) == r["round_score"]
    assert [x["en"] for x in out["explanation"] if x["player"] == "Aki"][1:] == [
        "×2: 7 points or more", "×2: Ben called koi-koi"]


def test_the_example_game():
    out = api.game_json(example("koikoi-game.json"))
    assert [(r["round"], r["month"], r["dealer"]) for r in out["rounds"]] == [(1, 1, "Aki"), (2, 2, "Ben"),
                                                                              (3, 3, "Ben")]
    assert [r["totals"] for r in out["rounds"]] == [{"Aki": 0, "Ben": 10}, {"Aki": 0, "Ben": 10},
                                                    {"Aki": 6, "Ben": 10}]
    assert (out["complete"], out["winner"], out["draw"], out["next_dealer"]) == (True, "Ben", False, "Aki")


BASE = {"ruleset": "koikoi", "players": ["A", "B"], "month": 1}
ERRORS = [
    ("a card in two piles names both players", {"piles": {"A": ["pine-crane"], "B": ["pine-crane"]}},
     "duplicate-card", "pine-crane is in both pile A and pile B"),
    ("an unknown card", {"piles": {"A": ["pine-crain"]}}, "unknown-card", "pine-crain"),
    ("not exactly two players: players and the count", {"players": ["A", "B", "C"]}, "player-count",
     'Koi-Koi is for exactly 2 players; "players" has 3'),
    ("a stopper without yaku", {"piles": {"A": ["pine-crane"]}, "stopped_by": "A"}, "no-yaku",
     "A stopped but holds no yaku"),
    ("an unknown option", {"options": {"sake_cups": "both"}}, "bad-ruleset", "options.sake_cups"),
    ("a bad option value", {"options": {"sake_cup": "three"}}, "bad-ruleset", "'options.sake_cup' is 'three'"),
    ("a stopper who is not a player", {"stopped_by": "C"}, "unknown-player", '"stopped_by" is \'C\''),
    ("a call by someone else", {"calls": [{"player": "C", "call": "koikoi"}]}, "unknown-player",
     "calls[0].player"),
    ("a call that is not koi-koi", {"calls": [{"player": "A", "call": "agari"}]}, "bad-round",
     "call 1 is 'agari'"),
    ("a month outside 1-12", {"month": 13}, "bad-round", '"month" is 13'),
    ("a hand of nine cards", {"hands": {"A": [f"{m}-chaff-1" for m in ("pine", "plum", "cherry", "wisteria", "iris",
                                                                      "peony", "pampas", "maple", "paulownia")]}},
     "bad-round", "hand A has 9 cards"),
    ("two hands share a card", {"hands": {"A": ["pine-crane"], "B": ["pine-crane"]}}, "duplicate-card",
     "hand A and hand B"),
    ("an unknown key", {"stopper": "A"}, "bad-round", "unknown key(s) in the round: stopper"),
]


@pytest.mark.parametrize(("extra", "code", "message"), [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_round_errors(extra, code, message):
    with pytest.raises(RefereeError) as e:
        api.score_json({**BASE, **extra})
    assert e.value.code == code
    assert message in e.value.message


def test_a_round_after_the_game_has_ended():
    game = example("koikoi-game.json")
    game["rounds"].append({"piles": {}})
    with pytest.raises(RefereeError, match=r"round 4: the game is over \(Ben won after 3 rounds\)") as e:
        api.game_json(game)
    assert e.value.code == "game-over"


def test_an_error_inside_a_game_names_the_round():
    game = example("koikoi-game.json")
    game["rounds"][1]["stopped_by"] = "Aki"
    with pytest.raises(RefereeError, match=r"^round 2: Aki stopped but holds no yaku"):
        api.game_json(game)


NOT_PLAYERS = [
    ({"stopped_by": "C"}, '"stopped_by" is \'C\'; expected one of the players [\'A\', \'B\']',
     {"field": "stopped_by", "value": "C", "index": None}),
    ({"calls": [{"player": "A"}, {"player": "C"}]}, '"calls[1].player" is \'C\'; expected one of the players '
     "['A', 'B']", {"field": "calls.player", "value": "C", "index": 1}),
    ({"dealer": 7}, '"dealer" is 7; expected one of the players [\'A\', \'B\']', {"field": "dealer", "value": 7}),
]


@pytest.mark.parametrize(("extra", "message", "parts"), NOT_PLAYERS, ids=["stopped_by", "calls", "dealer"])
def test_a_name_that_is_not_a_player_carries_its_parts_beside_its_message(extra, message, parts):
    """KOIKOI-RULES.md "JSON": the stopper, each koi-koi call's player and the dealer are players; the parts
    (``referee.errors.one_of_the_players``) let a form name its own field, the message stays the JSON's."""
    with pytest.raises(RoundFieldError) as e:
        api.score_json({**BASE, **extra})
    assert (e.value.code, e.value.message, e.value.rule, e.value.players) == (
        "unknown-player", message, "not-a-player", ("A", "B"))
    assert {k: getattr(e.value, k) for k in parts} == parts


def test_an_error_inside_a_game_keeps_its_class_and_parts():
    """A game raises a round's error as ``in_round``: the message and ``round_number`` name the round, and a
    ``RoundFieldError`` is still one, with its parts (once a plain ``RefereeError`` with the message alone)."""
    game = example("koikoi-game.json")
    game["rounds"][1]["calls"] = [{"player": "Zed"}]
    with pytest.raises(RoundFieldError) as e:
        api.game_json(game)
    assert e.value.message == "round 2: \"calls[0].player\" is 'Zed'; expected one of the players ['Aki', 'Ben']"
    assert str(e.value) == e.value.message
    assert (e.value.code, e.value.round_number, e.value.field, e.value.index, e.value.value) == (
        "unknown-player", 2, "calls.player", 0, "Zed")


def test_an_odd_pile_and_a_short_hand_are_warnings():
    out = api.score_json({**BASE, "piles": {"A": ["pine-crane"]}, "hands": {"B": ["plum-chaff-1"]},
                          "stopped_by": None})
    # once "pile A has 1 cards" (issue 18: plural words)
    assert "odd pile for A (1 card): captured piles are even (pairs)" in out["warnings"]
    assert "short hand for B (1 card): a dealt hand holds 8" in out["warnings"]


def test_the_ruleset_lists_every_option_of_the_rules():
    keys = [o["key"] for o in api.ruleset_json("koikoi")["options"]]
    assert keys == ["sake_cup", "special_extras", "special_stacks_with_generic", "viewing", "rain_spoils_viewing",
                    "tsukifuda", "lucky_hands", "teshi_counts_as_pairs", "seven_plus_double", "opponent_koikoi",
                    "own_koikoi", "exhausted", "oyaken_points", "draw_dealer", "rounds", "tie"]


def test_the_cli_scores_koikoi_and_lists_its_options(capsys):
    from referee.cli import main

    path = str(resources.files("referee").joinpath("examples/koikoi-round.json"))
    assert main(["score", path, "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert "Month: Cherry (桜, month 3)" in out
    assert "+14  ×2: Ben called koi-koi" in out
    assert main(["score", path, "--option", "opponent_koikoi=off"]) == 0
    assert json.loads(capsys.readouterr().out)["players"]["Aki"]["round_score"] == 14
    game = str(resources.files("referee").joinpath("examples/koikoi-game.json"))
    assert main(["game", game, "--format", "text"]) == 0
    assert "winner: Ben" in capsys.readouterr().out
    assert main(["rulesets", "koikoi"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["game"] == "koikoi"
    assert {"sake_cup", "tie"} <= {o["key"] for o in listed["options"]}
    assert main(["score", path, "--option", "sake_cup=three"]) == 2
    assert "field 'options.sake_cup' is 'three'" in capsys.readouterr().err


# ---- Entered totals (README "Entered totals"): a Koi-Koi round scored on paper ----
TOTALS = [
    ("the stopper's points", {"A": 12, "B": 0}, False, {"A": 12, "B": 0}, "A"),
    ("nobody scored", {"A": 0, "B": 0}, False, {"A": 0, "B": 0}, None),
    ("void: nobody scored", {"A": 0, "B": 0}, True, {"A": 0, "B": 0}, None),
]


@pytest.mark.parametrize(("totals", "void", "scores", "winner"), [c[1:] for c in TOTALS], ids=[c[0] for c in TOTALS])
def test_entered_totals(totals, void, scores, winner):
    out = api.score_json({**BASE, "totals": totals, "void": void})
    assert {p: r["round_score"] for p, r in out["players"].items()} == scores
    assert (out["winner"], out["outcome"], out["next_dealer"]) == (winner, "entered-totals", winner or "A")
    assert [x["code"] for x in out["explanation"]] == ["entered-total", "entered-total"]


TOTALS_ERRORS = [
    ("two players scored", {"totals": {"A": 5, "B": 6}}, "only one player scores a round"),
    ("a negative total", {"totals": {"A": -5, "B": 0}}, "A's total is -5"),
    ("points in a void round", {"totals": {"A": 5, "B": 0}, "void": True}, "nobody scored adds nothing"),
    ("totals with cards", {"totals": {"A": 5, "B": 0}, "piles": {"A": ["pine-crane"]}}, "also gives piles"),
    ("totals with a stopper", {"totals": {"A": 5, "B": 0}, "stopped_by": "A"}, "also gives stopped_by"),
    ("a missing total", {"totals": {"A": 5}}, "no total entered for B"),
]


@pytest.mark.parametrize(("extra", "message"), [c[1:] for c in TOTALS_ERRORS], ids=[c[0] for c in TOTALS_ERRORS])
def test_entered_totals_errors(extra, message):
    with pytest.raises(RefereeError, match=message) as e:
        api.score_json({**BASE, **extra})
    assert e.value.code == "bad-totals"


def test_a_game_mixes_cards_and_entered_totals():
    game = example("koikoi-game.json")
    game["rounds"].insert(1, {"totals": {"Aki": 0, "Ben": 7}})
    game["options"] = {"rounds": 4}
    out = api.game_json(game)
    assert [r["month"] for r in out["rounds"]] == [1, 2, 3, 4]
    assert out["totals"] == {"Aki": 6, "Ben": 17}


def test_a_round_must_say_how_it_ended():
    """QA (Go-Stop's gap, here too): a round with no "stopped_by" was scored as "the hands ran out",
    though A holds a yaku; it must name the stopper or say null.  A lucky hand at the deal says it."""
    piles = {"piles": {"A": ["pine-crane", "cherry-curtain", "pampas-moon"]}}
    with pytest.raises(RefereeError, match=r"\"stopped_by\" is missing.*null when the hands ran out") as e:
        api.score_json(BASE | piles)
    assert e.value.code == "bad-round"
    with pytest.raises(RefereeError, match=r"round 1: \"stopped_by\" is missing"):
        api.game_json({"ruleset": "koikoi", "players": ["A", "B"], "rounds": [piles]})
    assert api.score_json(BASE | piles | {"stopped_by": None})["outcome"] == "hands-ran-out"
    assert api.score_json(BASE | piles | {"stopped_by": "A"})["winner"] == "A"
