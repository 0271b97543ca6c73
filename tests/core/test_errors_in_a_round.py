"""A game raises a round's error as ``RefereeError.in_round``: the message and ``round_number`` name the round, and
the error keeps its class and parts (``RoundFieldError``, ``DuplicateCardError``...), so that whoever says it in
other words (a round form) still can; ``without_round_number`` gives it back as it reads beside its round."""

from __future__ import annotations

import pytest

from referee import api
from referee.errors import PlayerCountError, RefereeError, RoundFieldError, without_round_number
from referee.notation import DuplicateCardError

ERRORS = [
    (RefereeError("bad-round", "a round"), {}),
    (RoundFieldError("unknown-player", "\"stopped_by\" is 'Zed'", field="stopped_by", rule="not-a-player",
                     value="Zed", players=("Aki", "Ben")), {"field": "stopped_by", "value": "Zed"}),
    (DuplicateCardError("pine-crane is in both pile A and pile B", "pine-crane", "pile", ("A", "B")),
     {"card": "pine-crane", "owners": ("A", "B")}),
    (PlayerCountError("Koi-Koi is for exactly 2 players", "Koi-Koi", (2,), ("A", "B", "C")), {"allowed": (2,)}),
]


@pytest.mark.parametrize(("error", "parts"), ERRORS, ids=[type(e).__name__ for e, _ in ERRORS])
def test_in_round_is_a_copy_of_the_same_class_and_parts_naming_the_round(error, parts):
    before = error.message
    inside = error.in_round(3)
    assert type(inside) is type(error)
    assert inside is not error
    assert (inside.code, inside.message, str(inside), inside.round_number) == (
        error.code, f"round 3: {error.message}", f"round 3: {error.message}", 3)
    assert {k: getattr(inside, k) for k in parts} == parts
    assert (error.message, error.args, error.round_number) == (before, (before,), None)  # the original is as it was
    beside = inside.without_round_number()
    assert (type(beside), beside.code, beside.message, beside.round_number) == (
        type(error), error.code, error.message, None)
    assert {k: getattr(beside, k) for k in parts} == parts


@pytest.mark.parametrize(("message", "left"), [("round 12: a round", "a round"), ("round two: x", "round two: x"),
                                               ("a round: x", "a round: x"), ("round 3:x", "round 3:x")])
def test_without_round_number_takes_off_only_a_round_number(message, left):
    assert without_round_number(message) == left


# Bug: each game wrapped a round's error as a plain RefereeError of its message, so the parts a form words it by
# were lost ("round N:" wrappers of Go-Stop, Koi-Koi, Hachi-hachi, Roppyakken).
@pytest.mark.parametrize(("game", "field"), [
    ({"ruleset": "gostop", "players": ["A", "B", "C"], "rounds": [{"stopped_by": None}, {"stopped_by": "Z"}]},
     "stopped_by"),
    ({"ruleset": "koikoi", "players": ["A", "B"], "rounds": [{"piles": {}, "stopped_by": None},
                                                             {"piles": {}, "calls": [{"player": "Z"}]}]},
     "calls.player"),
], ids=["gostop", "koikoi"])
def test_a_games_round_error_keeps_its_parts(game, field):
    with pytest.raises(RoundFieldError) as e:
        api.game_json(game)
    assert (e.value.code, e.value.round_number, e.value.field, e.value.rule) == (
        "unknown-player", 2, field, "not-a-player")
    assert e.value.message.startswith("round 2: ")


@pytest.mark.parametrize("ruleset", ["roppyakken", "hachihachi"])
def test_a_games_card_in_two_piles_keeps_its_parts(ruleset):
    rnd = {"piles": {"A": ["pine-crane"], "B": ["pine-crane"]}}
    if ruleset == "hachihachi":
        rnd["multiplier"] = 1
    with pytest.raises(DuplicateCardError) as e:
        api.game_json({"ruleset": ruleset, "players": ["A", "B", "C"], "rounds": [rnd]})
    assert (e.value.round_number, e.value.card, e.value.owners) == (1, "pine-crane", ("A", "B"))
    assert e.value.message.startswith("round 1: ")
