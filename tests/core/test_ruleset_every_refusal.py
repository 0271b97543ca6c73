"""Every house rule the rules refuse, found at once (``ruleset.refused_options``) and said in one error
(``ruleset.check_options``): the forms, the API and the command line all read them from here."""

from __future__ import annotations

import pytest

from referee.errors import RefereeError
from referee.ruleset import RefusedOptionsError, check_options, refused_options
from referee.schema import FieldError

# (preset, options given, the keys refused in the order the rules check them)
REFUSED = [
    pytest.param("roppyakken", {"target": -5, "winner": "zzz"}, ["target", "winner"], id="roppyakken"),
    pytest.param("roppyakken", {"target": -5, "yaku.oozan.points": 1.5}, ["target", "yaku.oozan.points"],
                 id="roppyakken-yaku-field"),
    pytest.param("koikoi", {"rounds": 0, "tie": "x", "sake_cup": "maybe"}, ["sake_cup", "rounds", "tie"], id="koikoi"),
    pytest.param("gostop", {"ssangpi": ["nope"], "stop_points": 0}, ["stop_points", "ssangpi"], id="gostop"),
    pytest.param("hachihachi", {"field_x2": ["zzz"], "players": "x"}, ["players", "field_x2"], id="hachihachi"),
]


@pytest.mark.parametrize(("preset", "options", "keys"), REFUSED)
def test_every_refused_option_is_found_and_the_rest_taken(preset, options, keys):
    taken, refused, other = refused_options(preset, options)
    assert [k for k, _ in refused] == keys
    assert all(isinstance(e, FieldError) for _, e in refused)
    assert other is None
    assert not set(keys) & set(taken)


@pytest.mark.parametrize(("preset", "options", "keys"), REFUSED)
def test_one_error_names_every_refused_option(preset, options, keys):
    with pytest.raises(RefusedOptionsError) as caught:
        check_options(preset, options)
    e = caught.value
    assert (e.code, [k for k, _ in e.refusals], e.other) == ("bad-ruleset", keys, None)
    assert e.message.startswith(f"preset {preset} (with options): {len(keys)} options refused: {keys[0]} (field ")
    for key, refusal in e.refusals:
        assert f"{key} ({refusal.message.removeprefix(f'preset {preset} (with options): ')})" in e.message


def test_one_refused_option_says_its_own_refusal():
    with pytest.raises(RefusedOptionsError) as caught:
        check_options("roppyakken", {"target": -5})
    assert caught.value.message == ("preset roppyakken (with options): field 'options.target' is -5; expected an "
                                    "integer of at least 1")


def test_a_refusal_about_no_option_given_is_said_after_the_options(tmp_path):
    house = tmp_path / "house.toml"
    house.write_text('extends = "roppyakken"\n[options]\nwinner = "nobody"\n', encoding="utf-8")
    with pytest.raises(RefusedOptionsError) as caught:
        check_options(house, {"target": -5})
    assert [k for k, _ in caught.value.refusals] == ["target"]
    assert caught.value.message == (
        f"{house} (with options): 1 option refused: target (field 'options.target' is -5; expected an integer of "
        f"at least 1); and without it: {house}: field 'options.winner' is 'nobody'; expected one of 'highest-total', "
        "'most-times-over-target'")


def test_rules_that_refuse_no_option_raise_as_loading_does(tmp_path):
    house = tmp_path / "house.toml"
    house.write_text('extends = "roppyakken"\n[options]\nwinner = "nobody"\n', encoding="utf-8")
    with pytest.raises(FieldError) as caught:
        check_options(house, {"target": 300})
    assert caught.value.path == "options.winner"
    with pytest.raises(RefereeError) as caught:
        check_options("no-such-preset", {"target": -5})
    assert caught.value.message.startswith("unknown ruleset 'no-such-preset': not a preset")
    assert check_options("roppyakken", {"target": 300, "winner": "highest-total"}) is None
