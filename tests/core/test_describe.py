"""How each ruleset scores, generated from the ruleset files (issue 11 "Help").

Every active yaku, teyaku and dekiyaku of every preset is described with its value and
cards; options change the words; every family in the registry has a describer.
"""

from __future__ import annotations

import dataclasses

import pytest

from referee import families
from referee.describe import how_it_scores
from referee.explain import mask_ids
from referee.ruleset import load_ruleset, preset_names
from referee.wording import need_words, words

PRESETS = preset_names()


def entries(how):
    return {y.id: y for s in how.sections for y in s.yaku}


def text(how):
    return " ".join(line for s in how.sections for line in s.lines)


def test_every_family_has_a_describer():
    """A new family (Koi-Koi, issue 13) needs ``referee.<family>.describe`` for its Help page."""
    assert all(f.describe is not None for f in families.REGISTRY.values())


def test_a_family_without_a_describer_still_gets_its_description_and_options(monkeypatch):
    rules = load_ruleset("sanbyakuken")
    monkeypatch.setitem(families.REGISTRY, rules.game, dataclasses.replace(families.of(rules), describe=None))
    how = how_it_scores(load_ruleset("sanbyakuken"))
    assert how.sections[0].lines == ("Roppyakken played to 300 points.",)
    assert next(o for o in how.options if o.key == "target").value == "300"


@pytest.mark.parametrize("preset", PRESETS)
def test_every_active_yaku_is_described_with_its_value_and_cards(preset):
    rules = load_ruleset(preset)
    how = how_it_scores(rules)
    found = entries(how)
    assert how.title == rules.title
    if rules.game == "roppyakken":
        for y in rules.yaku:
            e = found[y.id]
            assert e.en == y.en
            assert e.value == (f"{y.points} points" if y.points or not y.chaff_upgrade else "no points of its own")
            assert e.cards == mask_ids(y.pool)
            assert e.need == need_words(y.need, y.pool.bit_count())
        for t in rules.teyaku:
            assert found[t.id].value == f"{t.points} points"
        assert len(found) == len(rules.yaku) + len(rules.teyaku)
    elif rules.game == "hachihachi":
        for d in rules.dekiyaku:
            assert found[d.id].value == f"{d.kan} kan"
            assert found[d.id].cards == mask_ids(d.pool)
        for t in rules.teyaku:
            assert found[t.id].value == f"{t.kan} kan"
    elif rules.game == "gostop":  # Go-Stop (issue 20): points as 점, the cards of a set line
        for y in rules.yaku:
            assert found[y.id].value == f"{y.points}점"
            assert found[y.id].cards == (mask_ids(y.pool) if y.rule == "cards" else ())
        assert len(found) == len(rules.yaku)
    else:  # Koi-Koi (issue 13): points, "1 point" for the one-point yaku
        for y in (*rules.yaku, *rules.teyaku):
            assert found[y.id].value == f"{y.points} point{'' if y.points == 1 else 's'}"
        assert len(found) == len(rules.yaku) + len(rules.teyaku)
    keys = {o.key for o in how.options}
    assert "players" in keys or rules.game == "koikoi"  # Koi-Koi is always two players: no option


# The test above checks that every yaku is there; these check what it says, written out by hand from
# the preset files (referee/rulesets/*.toml), not computed with the helpers the describers use.
RIBBONS_10 = ("pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon", "wisteria-ribbon", "iris-ribbon",
              "peony-blue-ribbon", "bush-clover-ribbon", "chrysanthemum-blue-ribbon", "maple-blue-ribbon",
              "willow-ribbon")


ENTRIES = [
    ("roppyakken", "teppo", "300 points", ("cherry-curtain", "pampas-moon", "chrysanthemum-sake-cup"), "all 3"),
    ("roppyakken", "shiko", "600 points", ("pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"),
     "all 4"),
    # Seven Ribbons: 9 ribbons, and Willow's with willow_ribbon_in_seven_ribbons (on in the preset).
    ("roppyakken", "nanatan", "600 points", RIBBONS_10, "any 7 of these 10"),
    ("hachihachi", "gokou", "12 kan",
     ("pine-crane", "cherry-curtain", "pampas-moon", "willow-rain-man", "paulownia-phoenix"), "all 5"),
    ("hachihachi", "akatan", "7 kan", ("pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon"),
     "all 3"),
    ("hachihachi", "kuttsuki", "4 kan", (), ""),  # a teyaku: a rule, not a card list
    ("koikoi", "inoshikacho", "5 points", ("peony-butterflies", "bush-clover-boar", "maple-deer"), "all 3"),
    ("koikoi", "tane", "1 point",
     ("plum-bush-warbler", "wisteria-cuckoo", "iris-bridge", "peony-butterflies", "bush-clover-boar",
      "pampas-geese", "chrysanthemum-sake-cup", "maple-deer", "willow-swallow"), "any 5 animals"),
    ("gostop", "godori", "5점", ("plum-bush-warbler", "wisteria-cuckoo", "pampas-geese"), "all 3"),
]


@pytest.mark.parametrize(
    ("preset", "yaku_id", "value", "cards", "need"), ENTRIES, ids=[f"{p}-{y}" for p, y, *_ in ENTRIES]
)
def test_a_yaku_entry_says_its_value_cards_and_need(preset, yaku_id, value, cards, need):
    e = entries(how_it_scores(load_ruleset(preset)))[yaku_id]
    assert (e.value, e.cards, e.need) == (value, cards, need)


def test_need_words():
    assert need_words(3, 3) == "all 3"
    assert need_words(7, 10) == "any 7 of these 10"


@pytest.mark.parametrize(
    ("preset", "options", "says"),
    [
        ("roppyakken", {}, "If anyone's count is 30 or less, the round is void"),
        ("roppyakken", {"fuke.threshold": 40}, "If anyone's count is 40 or less, the round is void"),
        ("roppyakken", {}, "reaches 600 points"),
        ("sanbyakuken", {}, "reaches 300 points"),
        ("roppyakken-ja", {}, "card points without the cards of Willow (柳, month 11) and Paulownia (桐, month 12)"),
        ("yukbaek", {}, "No fuke here"),
        ("yukbaek", {}, "their score minus the second-highest score"),
        ("sambong", {}, "rounded up to a multiple of 100: 320 becomes 400"),
        ("changara", {}, "best of 3 games"),
        ("roppyakken", {"rounds": 12, "winner": "most-times-over-target"}, "A game is 12 scored rounds"),
        ("roppyakken", {"instant_wins": False}, "No yaku ends the game at once"),
        ("roppyakken", {"lucky_hands": False}, "Lucky hands are not scored here."),
        ("hachihachi", {}, "1 kan = 12 mon"),
        ("hachihachi", {"mon_per_kan": 10}, "1 kan = 10 mon"),
        ("hachihachi", {}, "shared between the players who pay"),
        ("hachihachi-fudawiki", {}, "paid it by each player who pays"),
        ("hachihachi", {"rounds": 6}, "starts at minus 3 kan"),
        ("hachihachi", {"field_multiplier": "stack"}, "multiply together"),
    ],
    ids=["fuke-30", "fuke-40-house-rule", "target-600", "target-300", "ja-fuke-months", "yukbaek-no-fuke",
         "yukbaek-difference", "sambong-round-up", "changara-match", "most-times", "no-instant-wins",
         "no-lucky-hands", "mon-12", "mon-10", "split", "each", "half-game-ante", "stack"],
)
def test_the_words_follow_the_rules(preset, options, says):
    assert says in text(how_it_scores(load_ruleset(preset, options)))


def test_a_house_rule_yaku_value_is_described():
    how = how_it_scores(load_ruleset("roppyakken", {"yaku.oozan.points": 100}))
    assert entries(how)["oozan"].value == "100 points"


def test_a_yaku_turned_off_is_not_described():
    assert "hanami" not in entries(how_it_scores(load_ruleset("yamayaku")))


@pytest.mark.parametrize(
    ("preset", "yaku_id", "note"),
    [
        ("roppyakken", "teppo", "It replaces Flower Viewing (hanami) and Moon Viewing (tsukimi)"),
        ("roppyakken", "shiko", "wins the game at once, even in a round that fuke voids"),
        ("yukbaek", "nanatan", "It must include Willow red ribbon."),
        ("sambong", "shiko", "Add 200 points for each of Plum with Bush Warbler or Willow with Rain Man"),
        ("changara", "matsushima", "turns one 0-point chaff of the pile into a 50-point card"),
        ("sambong", "tesi", "holds 4 cards of one month"),
        ("hachihachi", "gokou", "It replaces Four Brights (shiko)."),
        ("hachihachi", "karasu", "+1 kan when the player captures 89 card points or more"),
        ("hachihachi", "haneken", "months as 3+2+2"),
        ("hachihachi-fudawiki", "haneken", "+1 kan when the player also captures all four cards"),
        ("hachihachi", "aka", "no bright, no animal and 2 or more ribbons"),
    ],
    ids=lambda v: str(v),
)
def test_yaku_notes(preset, yaku_id, note):
    e = entries(how_it_scores(load_ruleset(preset)))[yaku_id]
    assert any(note in n for n in e.notes), e.notes


def test_words():
    assert words(["a"]) == "a"
    assert words(["a", "b"], "or") == "a or b"
    assert words(["a", "b", "c"]) == "a, b and c"
