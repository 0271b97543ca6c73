"""A mistyped dotted key (``fuk.threshold`` for ``fuke.threshold``, a yaku that is not there, an empty part) is
refused as its own option, with every other option the rules refuse (``ruleset.refused_options``), never as the
one refusal that stops the check; and a check of each option before loading (``check``: the web app's bound on
numbers) is said with them."""

from __future__ import annotations

import pytest

from referee.errors import RefereeError
from referee.ruleset import RefusedOptionsError, check_options, refused_options
from referee.schema import FieldError

SOURCE = "preset roppyakken (with options)"
TARGET = f"{SOURCE}: field 'options.target' is -5; expected an integer of at least 1"

# (preset, options given, the keys refused in the order the rules check them)
MISTYPED = [
    pytest.param("roppyakken", {"fuk.threshold": 40, "target": -5}, ["fuk.threshold", "target"], id="option-table"),
    pytest.param("roppyakken", {"fuk.a": 1, "fuk.b": 2, "target": -5}, ["fuk.a", "fuk.b", "target"],
                 id="two-in-one-mistyped-table"),
    pytest.param("roppyakken", {"target.x": 5, "winner": "zzz"}, ["target.x", "winner"], id="under-a-number"),
    pytest.param("roppyakken", {"fuke.": 1, ".threshold": 2, "target": -5}, ["fuke.", ".threshold", "target"],
                 id="empty-parts"),
    pytest.param("roppyakken", {"yaku.oozen.points": 5, "yaku.nosuch.points": 5, "target": -5},
                 ["target", "yaku.oozen.points", "yaku.nosuch.points"], id="roppyakken-yaku"),
    pytest.param("koikoi", {"yaku.nosuch.points": 5, "rounds": 0}, ["rounds", "yaku.nosuch.points"], id="koikoi"),
    pytest.param("gostop", {"yaku.nosuch.points": 5, "stop_points": 0}, ["stop_points", "yaku.nosuch.points"],
                 id="gostop"),
    pytest.param("hachihachi", {"dekiyaku.nosuch.kan": 5, "teyaku.nosuch.kan": 5, "players": "x"},
                 ["players", "teyaku.nosuch.kan", "dekiyaku.nosuch.kan"], id="hachihachi"),
]


# Bug (API review): a typo in a dotted key ({"fuk.threshold": 40}: 'options.fuk', no such field) was the refusal
# about no option given, so it stopped the check and the other refused options (target -5) were never said.
@pytest.mark.parametrize(("preset", "options", "keys"), MISTYPED)
def test_a_mistyped_key_is_refused_with_every_other(preset, options, keys):
    taken, refused, other = refused_options(preset, options)
    assert [k for k, _ in refused] == keys
    assert all(isinstance(e, FieldError) for _, e in refused)
    assert (other, taken) == (None, {})


def test_a_mistyped_key_keeps_its_refusal_s_words():
    with pytest.raises(RefusedOptionsError) as caught:
        check_options("roppyakken", {"fuk.threshold": 40, "yaku.oozen.points": 5, "target": -5})
    said = {key: e.message for key, e in caught.value.refusals}
    assert said["fuk.threshold"].startswith(f"{SOURCE}: field 'options.fuk' is {{\"threshold\": 40}}; expected no "
                                            "such field (known: players, target, ")
    assert said["yaku.oozen.points"] == f"{SOURCE}: table 'yaku.oozen' lacks required field(s) en, ja, cards"
    assert said["target"] == TARGET
    assert caught.value.message.startswith(f"{SOURCE}: 3 options refused: fuk.threshold (field 'options.fuk' is ")


def _past_ten(source: str, key: str, value: object) -> RefereeError | None:
    """A stand-in for the web app's bound on numbers: any number past 10."""
    if isinstance(value, int) and value > 10:
        return FieldError(source, f"options.{key}", value, "at most 10", rule="largest")
    return None


def test_an_option_the_check_refuses_is_said_with_the_rules_refusals():
    with pytest.raises(RefusedOptionsError) as caught:
        check_options("roppyakken", {"fuke.threshold": 2000, "fuk.threshold": 40, "target": -5}, _past_ten)
    refusals = caught.value.refusals
    assert [k for k, _ in refusals] == ["fuke.threshold", "fuk.threshold", "target"]
    assert refusals[0][1].message == f"{SOURCE}: field 'options.fuke.threshold' is 2000; expected at most 10"
    assert caught.value.other is None
    assert check_options("roppyakken", {"fuke.threshold": 10}, _past_ten) is None


def test_a_check_with_a_ruleset_that_is_none_says_that_alone():
    taken, refused, other = refused_options("no-such-preset", {"target": 2000}, _past_ten)
    assert (taken, refused) == ({"target": 2000}, [])
    assert other is not None
    assert other.message.startswith("unknown ruleset 'no-such-preset'")
