"""Rulesets as data: presets, user files, overrides and validation (issue 2, section 3)."""

import re
from pathlib import Path

import pytest

from referee.api import ruleset_json
from referee.errors import RefereeError
from referee.ruleset import load_ruleset, preset_names

PRESETS = ["changara", "roppyakken", "roppyakken-ja", "sambong", "sanbyakuken", "yamayaku", "yukbaek"]
REFEREE = Path(__file__).parents[2] / "referee"


def test_every_preset_loads():
    assert set(PRESETS) <= set(preset_names())
    for name in PRESETS:
        rules = load_ruleset(name)
        assert rules.name == name
        assert rules.title


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("roppyakken", {"target": 600, "players": (2, 3), "settlement": "plain"}),
        ("sanbyakuken", {"target": 300}),
        ("yamayaku", {"players": (2,)}),
        ("changara", {"players": (2,), "target": 300, "match_games": 3, "field_four_misdeal": False}),
        ("yukbaek", {"lucky_hands": False, "settlement": "difference"}),
        ("sambong", {"settlement": "round-up", "instant_wins": False, "hand_four_misdeal": False}),
        ("roppyakken-ja", {"teppo_replaces_viewing": False, "rain_spoils_viewing": "never",
                           "exact_instant_yaku": False}),
    ],
    ids=["RULES.md roppyakken", "RULES.md sanbyakuken", "RULES.md yamayaku", "RULES.md changara",
         "RULES.md yukbaek", "RULES.md sambong", "RULES.md roppyakken-ja"],
)
def test_preset_options(preset, expected):
    options = load_ruleset(preset).options
    assert {k: getattr(options, k) for k in expected} == expected


def test_roppyakken_ja_fuke():
    fuke = load_ruleset("roppyakken-ja").options.fuke
    assert (fuke.count_yaku, fuke.excluded_months) == (False, (11, 12))


def test_no_code_branches_on_a_preset_name():
    names = "|".join(map(re.escape, PRESETS))
    pattern = re.compile(rf"""["']({names})["']""")
    for path in REFEREE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for m in pattern.finditer(text):
            # The only preset name allowed in code is the default ruleset of a round that names none.
            assert m.group(1) == "roppyakken", f"{path}: {m.group(0)}"
            assert "if" not in text[text.rfind("\n", 0, m.start()):m.start()], f"{path} branches on a preset"


def test_option_override_with_dotted_key():
    assert load_ruleset("roppyakken", {"fuke.threshold": "40"}).options.fuke.threshold == 40
    assert load_ruleset("roppyakken", {"yaku.oozan.points": 100}).yaku_by_id("oozan").points == 100
    assert load_ruleset("roppyakken", {"fuke.excluded_months": "[11, 12]"}).options.fuke.excluded_months == (11, 12)


def test_user_file_extends_a_preset(tmp_path):
    f = tmp_path / "house.toml"
    f.write_text('extends = "roppyakken"\ntitle = "Our table"\n[yaku.oozan]\npoints = 100\n'
                 '[yaku.kozan]\npoints = 150\n', encoding="utf-8")
    rules = load_ruleset(str(f))
    assert (rules.yaku_by_id("oozan").points, rules.yaku_by_id("kozan").points) == (100, 150)
    assert rules.title == "Our table"
    assert rules.name == "house"


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('extends = "roppyakken"\n[options]\ntarget = "six hundred"\n',
         r"field 'options.target' is 'six hundred'; expected an integer"),
        ('extends = "roppyakken"\n[options]\nsettlement = "halves"\n',
         r"field 'options.settlement' is 'halves'; expected one of 'plain', 'difference', 'round-up'"),
        ('extends = "roppyakken"\n[options]\ntargett = 5\n',
         r"field 'options.targett' is 5; expected no such field"),
        ('extends = "roppyakken"\n[yaku.kozan]\ncards = ["pine-crain"]\n',
         r"field 'yaku.kozan.cards' has 'pine-crain'"),
        ('extends = "roppyakken"\n[yaku.teppo]\nreplaces = ["nope"]\n', r"'yaku.teppo.replaces' names 'nope'"),
        ('extends = "roppyakken"\n[yaku.x]\nen = "X"\nja = "X"\npoints = 1\ncards = ["pine-crane"]\n'
         'enabled_if = "nope"\n', r"'yaku.x.enabled_if' is 'nope'; expected the name of a true/false option"),
        ('extends = "roppyakken"\n[options]\nmatch_games = 2\n', r"'options.match_games' is 2; expected an odd"),
        ('extends = "roppyakken"\n[options.fuke]\nthreshold = -1\n', r"expected an integer of at least 0"),
        ('game = "poker"\n', r"field 'game' is 'poker'"),
        ('extends = "nothing-like-this"\n', r"unknown ruleset 'nothing-like-this'"),
        ("this is [ not toml", r"not valid TOML"),
    ],
    ids=["wrong type", "bad choice", "unknown field", "bad card selector", "replaces unknown yaku",
         "unknown option name", "even match", "below minimum", "unknown game", "unknown parent", "bad TOML"],
)
def test_bad_file_names_file_field_value_and_expectation(tmp_path, toml, message):
    f = tmp_path / "bad.toml"
    f.write_text(toml, encoding="utf-8")
    with pytest.raises(RefereeError, match=message) as e:
        load_ruleset(str(f))
    assert e.value.code == "bad-ruleset"
    if "extends" not in message and "unknown ruleset" not in message:
        assert str(f) in str(e.value)


def test_extends_loop(tmp_path):
    (tmp_path / "a.toml").write_text(f'extends = "{tmp_path}/b.toml"\n', encoding="utf-8")
    (tmp_path / "b.toml").write_text(f'extends = "{tmp_path}/a.toml"\n', encoding="utf-8")
    with pytest.raises(RefereeError, match="loops"):
        load_ruleset(str(tmp_path / "a.toml"))


def test_unknown_preset():
    with pytest.raises(RefereeError, match="unknown ruleset 'roppyaken'"):
        load_ruleset("roppyaken")


def test_option_schema_lists_every_option_for_forms():
    schema = {o["key"]: o for o in ruleset_json("roppyakken")["options"]}
    assert schema["fuke.threshold"]["type"] == "int"
    assert schema["fuke.threshold"]["default"] == 30
    assert schema["rain_spoils_viewing"]["choices"] == ["never", "any-willow", "unless-crane"]
    assert all(o["doc"] for o in schema.values())
    for name in ("willow_ribbon_in_seven_ribbons", "teppo_replaces_viewing", "instant_wins", "exact_instant_yaku",
                 "lucky_hands", "hand_four_misdeal", "triple_hand_three", "korean_ribbon_yaku", "korean_values",
                 "rounds", "winner", "target", "fuke.count_yaku", "fuke.excluded_months", "fuke.enabled"):
        assert name in schema


# Bug of the 360 px walk-through: the forms hinted "separate several with commas" under Go-Stop's ssangpi and
# Hachi-hachi's field brights, never saying that they take card ids; the schema now says so (``unit = "card"``).
@pytest.mark.parametrize("preset", preset_names())
def test_every_option_listing_cards_says_it_takes_card_ids(preset):
    from referee.cards import BY_ID

    for o in ruleset_json(preset)["options"]:
        holds_cards = o["type"] == "list[str]" and o["default"] and all(v in BY_ID for v in o["default"])
        assert (o["unit"] == "card") == bool(holds_cards), o["key"]


# Bug of the 360 px walk-through: a mistyped card in Go-Stop's ssangpi or godori said "expected a card id of
# CARDS.tsv" (Hachi-hachi's field brights: "expected a card id"), a file players never see; every card-list
# option now names the entry that is no card, the nearest id and where the ids are listed.
CARD_LISTS = [(o["key"], preset) for preset in preset_names() for o in ruleset_json(preset)["options"]
              if o["unit"] == "card"]


@pytest.mark.parametrize(("key", "preset"), CARD_LISTS, ids=[f"{p}-{k}" for k, p in CARD_LISTS])
def test_a_card_list_option_names_the_entry_that_is_no_card_in_players_words(key, preset):
    default = next(o["default"] for o in ruleset_json(preset)["options"] if o["key"] == key)
    typo = default[-1].replace("l", "", 1) if "l" in default[-1] else default[-1][:-1]  # wilow-lightning
    with pytest.raises(RefereeError) as e:
        load_ruleset(preset, {key: [*default[:-1], typo]})
    assert e.value.code == "bad-ruleset"
    message = e.value.message
    assert f"field 'options.{key}[{len(default) - 1}]'" in message  # the CLI and the forms still find the field
    assert f"“{typo}” is not a card id: ids are the plant, then the card, such as {default[-1]} " in message
    assert "(Help lists them all)" in message
    assert "CARDS.tsv" not in message


def test_a_card_list_entry_far_from_any_card_is_named_with_an_example_id():
    with pytest.raises(RefereeError, match=r"“xyzzy” is not a card id: ids are the plant, then the card, such as "
                                           r"[a-z]+-[a-z-]+ \(Help lists them all\)"):
        load_ruleset("gostop", {"ssangpi": ["xyzzy"]})


def test_points_from_must_name_a_whole_number_option(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('extends = "roppyakken"\n[teyaku.mitatesan]\npoints_from = "lucky_hands"\n', encoding="utf-8")
    with pytest.raises(RefereeError, match=r"'teyaku\.mitatesan\.points_from' is 'lucky_hands'; expected the name of a "
                       r"whole-number option"):
        load_ruleset(str(f))


# Bug (a newcomer's break-test): a new yaku lacking fields was a TypeError traceback.
def test_new_yaku_missing_fields_is_a_ruleset_error(tmp_path):
    f = tmp_path / "house.toml"
    f.write_text('extends = "roppyakken"\n[yaku.newone]\npoints = 100\n', encoding="utf-8")
    with pytest.raises(RefereeError, match=r"table 'yaku.newone' lacks required field\(s\) en, ja, cards"):
        load_ruleset(str(f))


# Bug (a newcomer's break-test): a nested override replaced the whole yaku table and crashed.
def test_nested_yaku_override_merges_into_the_yaku():
    rules = load_ruleset("roppyakken", {"yaku": {"oozan": {"points": 131}}})
    oozan = rules.yaku_by_id("oozan")
    assert (oozan.points, oozan.need) == (131, 3)


# Bug (a newcomer's break-test): no players, month 13 and negative yaku points were accepted.
@pytest.mark.parametrize(
    ("options", "message"),
    [({"players": "[]"}, "options.players"), ({"fuke.excluded_months": "[13]"}, "months 1-12"),
     ({"yaku.oozan.points": "-100"}, "'yaku.oozan.points' is -100")],
)
def test_invalid_option_values(options, message):
    with pytest.raises(RefereeError, match=message):
        load_ruleset("roppyakken", options)


# Bug: a card-list option took the same card twice without a word (ssangpi = [willow-lightning, willow-lightning]),
# and took ids only where every other card input takes names too.
@pytest.mark.parametrize(("key", "preset"), CARD_LISTS, ids=[f"{p}-{k}" for k, p in CARD_LISTS])
def test_a_card_list_option_refuses_a_card_listed_twice_naming_it(key, preset):
    from referee.cards import BY_ID

    default = next(o["default"] for o in ruleset_json(preset)["options"] if o["key"] == key)
    twice = [*default, default[0]]
    with pytest.raises(RefereeError) as e:
        load_ruleset(preset, {key: twice})
    assert e.value.code == "bad-ruleset"
    assert f"field 'options.{key}[{len(default)}]'" in e.value.message  # the later entry: the forms find the field
    assert f"{BY_ID[default[0]].name} (“{default[0]}”) is listed twice; list each card once" in e.value.message


@pytest.mark.parametrize(("key", "preset"), CARD_LISTS, ids=[f"{p}-{k}" for k, p in CARD_LISTS])
def test_a_card_list_option_takes_card_names_as_the_other_card_inputs_do(key, preset):
    from referee.cards import BY_ID

    default = next(o["default"] for o in ruleset_json(preset)["options"] if o["key"] == key)
    for names in ([BY_ID[c].name for c in default], [BY_ID[c].name_ja for c in default], [c.upper() for c in default]):
        assert getattr(load_ruleset(preset, {key: names}).options, key) == tuple(default), names


def test_a_card_list_option_names_one_card_given_twice_by_two_names():
    with pytest.raises(RefereeError, match="Willow lightning \\(gate\\) is listed twice \\(“willow-lightning” and "
                                           "“비쌍피”\\); list each card once"):
        load_ruleset("gostop", {"ssangpi": ["willow-lightning", "비쌍피"]})


def test_a_generic_chaff_name_in_a_card_list_takes_its_months_next_chaff():
    assert load_ruleset("gostop", {"ssangpi": ["pine chaff", "pine-chaff"]}).options.ssangpi == ("pine-chaff-1",
                                                                                                 "pine-chaff-2")
    with pytest.raises(RefereeError, match="“pine chaff” is listed 3 times, but the deck has only 2 pine chaff; list "
                                           "each card once"):
        load_ruleset("gostop", {"ssangpi": ["pine chaff", "pine chaff", "pine chaff"]})
