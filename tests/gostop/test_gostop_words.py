"""Go-Stop output in its players' words (issue 20 QA, wording): names, help texts, the order of the
hwatu months, the sake cup's note and the JSON's Korean names."""

from __future__ import annotations

import dataclasses

import pytest
from gs_cases import CUP, DRY, PI, score

from referee import api, families
from referee.gostop.describe import describe
from referee.ruleset import load_ruleset
from referee.schema import option_specs


def test_godori_is_named_for_its_three_birds():
    """QA: godori was "Five Birds" (it is three cards, worth 5)."""
    names = {y["id"]: y["name"] for y in api.ruleset_json("gostop")["yaku"]}
    assert names["godori"] == "Godori (the three birds)"


def test_korean_names_are_name_ko_and_name_ja_stays():
    """QA: the Korean names sat only in a field called name_ja; name_ko is added, name_ja kept."""
    yaku = {y["id"]: y for y in api.ruleset_json("gostop")["yaku"]}
    assert (yaku["godori"]["name_ko"], yaku["godori"]["name_ja"]) == ("고도리", "고도리")
    assert "name_ko" not in api.ruleset_json("koikoi")["yaku"][0]
    game = api.game_json({"ruleset": "gostop", "players": ["A", "B", "C"], "rounds": [
        {"piles": {"A": DRY[:3], "B": ["willow-rain-man"]}, "stopped_by": "A"}]})
    made = load_ruleset("gostop")
    from referee.gostop.json_io import yaku_made

    lines = yaku_made(made, game["rounds"][0])["A"]
    assert {"id": "samgwang", "name": "Three Brights", "name_ko": "삼광", "name_ja": "삼광"} in lines


def test_option_help_is_players_words_without_section_names():
    """QA: each option's help ended with the rules document's section name in quotes ("Go and stop".)."""
    docs = [s.doc for s in option_specs(load_ruleset("gostop").options)]
    assert not [d for d in docs if '"' in d and d.rstrip(".").endswith('"')]
    go = next(s.doc for s in option_specs(load_ruleset("gostop").options) if s.key == "go_points")
    assert "at most +2" in go  # QA: "first-two (+1, +2, nothing past)" read as +3 in all
    factor = next(s.doc for s in option_specs(load_ruleset("gostop").options) if s.key == "go_factor")
    assert "6 gos ×16" in factor  # QA: what more than 5 gos do


def test_the_help_lists_the_months_in_hwatu_order():
    """QA: the month list ended "12월 비 (willow), 11월 오동 (paulownia)" (CARDS.tsv order)."""
    text = " ".join(line for s in dataclasses.asdict(describe(load_ruleset("gostop")))["sections"]
                    if s["id"] == "months" for line in s["lines"])
    assert "10월 단풍 (maple), 11월 오동 (paulownia), 12월 비 (willow)." in text


def test_the_sake_cup_note_says_what_it_costs_a_loser():
    """QA: a loser's cup was placed "where it is worth more to them"; for a loser it costs them less:
    as a pi B holds 6 pi, not pi-bak (as an animal 4 pi, ×2 피박)."""
    res = score({"A": [*DRY[:3], *PI[:10]], "B": [CUP, *PI[10:14]]})
    assert "B's sake cup counts as a pi (쌍피), where it costs them less" in res.warnings


# Bug (phone walk-through): a Go-Stop average of 850 (a paid nagari and a 20점 round) read "+850" on the
# player page, without its points: money that was not whole points lost its count.
@pytest.mark.parametrize(
    ("stake", "amount", "shown"),
    [
        # stake  money   as the table says it
        (100,    2400,   "2,400 (24점)"),
        (100,    0,      "0 (0점)"),
        (100,    850,    "850 (8.5점)"),
        (100,    833,    "833 (8.33점)"),
        (100,    -850,   "-850 (-8.5점)"),
        (100,    123400, "123,400 (1,234점)"),
        (100,    123450, "123,450 (1,234.5점)"),
        (50,     125,    "125 (2.5점)"),
        (1000,   1500,   "1,500 (1.5점)"),
    ],
    ids=["whole", "zero", "half-point", "hundredths", "negative", "whole-thousands", "thousands", "stake-50",
         "stake-1000"],
)
def test_money_always_says_its_points(stake, amount, shown):
    fmt = families.REGISTRY["gostop"].format_amount
    assert fmt(amount, load_ruleset("gostop", {"point_value": stake})) == shown
