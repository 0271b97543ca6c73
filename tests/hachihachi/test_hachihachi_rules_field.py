"""Rulesets and the field multiplier (RULES.md "Hachi-hachi"; FudaWiki "Multiple Brights Case")."""

import pytest
from hh_cases import rules

from referee.errors import RefereeError
from referee.hachihachi.field import field_multipliers, round_multiplier
from referee.schema import option_specs


def test_presets_load_with_every_rules_md_option():
    base, fuda = rules("hachihachi"), rules("hachihachi-fudawiki")
    keys = {s.key for s in option_specs(base.options)}
    assert {"mon_per_kan", "payment_basis", "field_multiplier", "inoshikacho", "rounds"} <= keys
    assert (base.options.payment_basis, fuda.options.payment_basis) == ("split", "each")
    assert base.game == fuda.game == "hachihachi"
    assert fuda.options.special.all_eights_kan == 10  # FudaWiki: 10 kan from each opponent
    assert [d.id for d in base.dekiyaku] == ["gokou", "shiko", "nanatan", "akatan", "aotan"]
    assert "inoshikacho" in [d.id for d in rules(inoshikacho=True).dekiyaku]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"mon_per_kan": 11}, "options.mon_per_kan"),
        ({"payment_basis": "half"}, "options.payment_basis"),
        ({"rounds": 7}, "options.rounds"),
        ({"dekiyaku.akatan.kan": "seven"}, "dekiyaku.akatan.kan"),
        ({"dekiyaku.akatan.cards": ["pine-dragon"]}, "dekiyaku.akatan.cards"),
        ({"teyaku.sanbon.shapes": [[3, 3]]}, "teyaku.sanbon.shapes[0]"),
        # Found by the rules QA of issue 12: a negative dekiyaku loaded and made the stopper pay.
        ({"dekiyaku.akatan.kan": -7}, "dekiyaku.akatan.kan"),
        ({"teyaku.sanbon.kan": -2}, "teyaku.sanbon.kan"),
        # ... and a month outside 1-12 loaded, then broke the session's Help page.
        ({"standing_months": [4, 13]}, "options.standing_months"),
        ({"standing_months": [0]}, "options.standing_months"),
        ({"standing_chaff_months": [99]}, "options.standing_chaff_months"),
    ],
    ids=["rate", "basis", "rounds", "dekiyaku-value", "dekiyaku-cards", "teyaku-shape", "negative-dekiyaku",
         "negative-teyaku", "month-13", "month-0", "chaff-month-99"],
)
def test_bad_option_names_the_field(options, field):
    with pytest.raises(RefereeError) as e:
        rules(**options)
    assert e.value.code == "bad-ruleset"
    assert field in str(e.value)


def test_dekiyaku_value_override():
    assert rules(**{"dekiyaku.akatan.kan": 8}).dekiyaku_by_id("akatan").kan == 8


def _own(r, cards):
    return field_multipliers(r, cards)[0]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ([], 1),
        (["willow-swallow"], 1),
        (["willow-ribbon", "willow-lightning"], 1),
        (["pine-crane"], 2),
        (["cherry-curtain"], 2),
        (["pampas-moon"], 2),
        (["willow-rain-man"], 4),
        (["paulownia-phoenix"], 4),
    ],
    ids=[
        "small",
        "swallow-is-x1",
        "other-willow-x1",
        "crane",
        "curtain",
        "moon",
        "rain-man",
        "phoenix",
    ],
)
def test_single_field_bright(field, value):
    r = rules()
    assert round_multiplier(r, _own(r, field)).value == value


def test_carry_over_rain_man_phoenix_crane():
    # Issue / FudaWiki: ×4 now, then ×4, then ×2.
    r = rules()
    m1 = round_multiplier(r, _own(r, ["willow-rain-man", "paulownia-phoenix", "pine-crane"]))
    assert (m1.value, m1.carry) == (4, (4, 2))
    m2 = round_multiplier(r, (), m1.carry)
    assert (m2.value, m2.carry) == (4, (2,))
    m3 = round_multiplier(r, (), m2.carry)
    assert (m3.value, m3.carry) == (2, ())
    m4 = round_multiplier(r, (), m3.carry)
    assert (m4.value, m4.carry) == (1, ())


def test_queued_round_puts_its_own_field_at_the_back():
    r = rules()
    m = round_multiplier(r, _own(r, ["pampas-moon", "willow-rain-man"]), (2,))
    assert (m.value, m.carry, m.from_carry) == (2, (4, 2), True)


def test_stack_option_multiplies():
    r = rules(field_multiplier="stack")
    m = round_multiplier(r, _own(r, ["willow-rain-man", "paulownia-phoenix", "pine-crane"]))
    assert (m.value, m.carry) == (32, ())


def test_bad_carry():
    with pytest.raises(RefereeError) as e:
        round_multiplier(rules(), (), (3,))
    assert e.value.code == "bad-round"
