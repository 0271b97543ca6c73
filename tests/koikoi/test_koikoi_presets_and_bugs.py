"""The three Koi-Koi presets (KOIKOI-RULES.md "Presets") and the bugs public Koi-Koi scorers
keep shipping (issue 13), each as a case that would catch it."""

import pytest
from kk_cases import (
    BLUE,
    BRIGHTS4,
    CHAFF,
    OTHER_ANIMALS,
    PLAIN,
    POETRY,
    RAIN_MAN,
    SAKE_CUP,
    game,
    rules,
    score,
    yaku_of,
)

from referee.ruleset import preset_names

CHERRY = ["cherry-curtain", "cherry-poetry-ribbon", "cherry-chaff-1", "cherry-chaff-2"]
PRESETS = [
    # preset, pile, month, yaku
    ("koikoi", [*BRIGHTS4, RAIN_MAN], 1, {"gokou": 10}),
    ("koikoi", BRIGHTS4[:3], 1, {"sankou": 5}),
    ("koikoi", CHERRY, 3, {}),
    ("koikoi", [*BLUE, *PLAIN[:2]], 1, {"aotan": 7}),
    ("koikoi-fudawiki", [*BRIGHTS4, RAIN_MAN], 1, {"gokou": 15}),
    ("koikoi-fudawiki", BRIGHTS4[:3], 1, {"sankou": 6}),
    ("koikoi-fudawiki", CHERRY, 3, {"tsukifuda": 4}),
    ("koikoi-fudawiki", [*BLUE, *PLAIN[:2]], 1, {"aotan": 7}),
    ("koikoi-clubhouse", [*BRIGHTS4, RAIN_MAN], 1, {"gokou": 10}),
    ("koikoi-clubhouse", [*BLUE, *PLAIN[:2]], 1, {"aotan": 7, "tanzaku": 1}),
]


def _case_id(case) -> str:
    return f"{case[0]}: {', '.join(f'{k} {v}' for k, v in case[3].items()) or 'nothing'}"


@pytest.mark.parametrize(("preset", "pile", "month", "expected"), PRESETS, ids=[_case_id(c) for c in PRESETS])
def test_presets(preset, pile, month, expected):
    assert yaku_of(score(pile, preset=preset, stopped_by=None, month=month)) == expected


def test_presets_differ_from_koikoi_only_where_the_rules_say():
    base = rules().options
    assert vars(rules("koikoi-fudawiki").options) == {**vars(base), "tsukifuda": True}
    assert vars(rules("koikoi-clubhouse").options) == {**vars(base), "special_stacks_with_generic": True}
    assert {p for p in preset_names() if p.startswith("koikoi")} == {"koikoi", "koikoi-fudawiki", "koikoi-clubhouse"}


# ---- The bugs (issue 13), each kept as a regression case ----
def test_extra_animals_add_one_each_past_five():
    assert yaku_of(score([*OTHER_ANIMALS, SAKE_CUP, "maple-deer"], stopped_by=None)) == {"tane": 3}


def test_seven_or_more_fires_on_the_yaku_total():
    assert score([*BLUE, *PLAIN[:2]]).player("A").round_score == 14


def test_seven_or_more_comes_before_the_koikoi_double_not_after():
    tanzaku_3 = [*PLAIN, POETRY[0], BLUE[0], BLUE[1]]
    assert score(tanzaku_3, calls=["B"]).player("A").round_score == 6  # not 12


def test_a_koikoi_call_does_not_double_the_next_round():
    g = game([
        {"piles": {"A": POETRY}, "calls": [{"player": "B", "call": "koikoi"}], "stopped_by": "A"},
        {"piles": {"A": POETRY[:2], "B": BLUE}, "stopped_by": "B"},
    ])
    assert [r.result.scores for r in g.rounds] == [{"A": 10, "B": 0}, {"A": 0, "B": 5}]


def test_a_yaku_grown_after_koikoi_is_counted():
    # A made tanzaku with five ribbons, called koi-koi, grew it to seven and stopped.
    grown = [*PLAIN, POETRY[0], BLUE[0], BLUE[1]]
    assert score(grown, calls=["A"]).player("A").yaku_total == 3


def test_the_sake_cup_counts_as_chaff_by_default():
    assert yaku_of(score([*CHAFF[:9], SAKE_CUP], stopped_by=None)) == {"kasu": 1}


@pytest.mark.parametrize(("value", "scores"), [("never", True), ("rain-man", False)])
def test_rain_voiding_the_viewings_is_a_choice(value, scores):
    result = score(["cherry-curtain", SAKE_CUP, RAIN_MAN], stopped_by=None, rain_spoils_viewing=value)
    assert ("hanami-zake" in yaku_of(result)) is scores


def test_a_dealt_four_is_teshi_6_not_two_pairs_12():
    hand = ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1", "pine-chaff-2",
            "plum-chaff-1", "plum-chaff-2", "iris-chaff-1", "iris-chaff-2"]
    assert score([], stopped_by=None, hands={"A": hand}).player("A").round_score == 6
