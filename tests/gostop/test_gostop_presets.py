"""The four presets and house files (GOSTOP-RULES.md "Presets", lines 76-81), hwatu names (line 7)
and the Help description."""

from __future__ import annotations

from importlib import resources

import pytest
from gs_cases import cite

from referee import families
from referee.describe import how_it_scores
from referee.gostop.hwatu import hwatu_month, month_name
from referee.ruleset import load_ruleset

DIFFERENCES = {
    # preset: (option values that differ from gostop), line
    "matgo": ({"players": (2,), "stop_points": 7, "pibak_max": 7, "bonus_cards": (2, 3),
               "ppeok_payouts": (7, 14, 21)}, 78),
    "matgo-pmang": ({"players": (2,), "stop_points": 7, "pibak_max": 7, "bonus_cards": (2, 3), "chongtong_points": 7,
                     "ppeok_payouts": (7,)}, 79),
    "gostop-sloperama": ({"sagwang_dry": 5}, 80),
}


@pytest.mark.parametrize("preset", sorted(DIFFERENCES),
                         ids=[cite(DIFFERENCES[p][1]) + " " + p for p in sorted(DIFFERENCES)])
def test_preset_differs_from_gostop_only_where_the_rules_say(preset):
    base, rules = load_ruleset("gostop").options, load_ruleset(preset).options
    want, _ = DIFFERENCES[preset]
    for key, value in want.items():
        assert getattr(rules, key) == value, key
    changed = {k for k in vars(base) if getattr(base, k) != getattr(rules, k)}
    assert changed == set(want)


def test_gostop_defaults():
    """GOSTOP-RULES.md:11,15,33,57,64,65,66,68: the defaults of the common Korean rules."""
    o = load_ruleset("gostop").options
    assert (o.stop_points, o.pibak_max, o.chongtong_points, o.three_ppeok_points, o.nagari_cap) == (3, 5, 10, 7, 8)
    assert (o.ppeok_payouts, o.bonus_cards, o.ssangpi) == ((3, 6, 12), (2, 2, 3),
                                                          ("willow-lightning", "paulownia-chaff-yellow"))
    assert (o.go_points, o.go_factor, o.dokbak, o.meongbak, o.sake_cup) == (
        "every", "doubling", "pays-all", "winner-seven", "choice")


RULES_SECTIONS = {"Cards", "Points from captures", "Go and stop", "Settlement factors", "Instant wins, ppeok, nagari",
                  "Players and money"}


def test_every_option_has_help_text():
    """The issue: every option is a ruleset field with help text and its GOSTOP-RULES.md section (``source``,
    out of the help text players read: issue 20 QA)."""
    import dataclasses

    from referee.gostop.rules import Options
    for f in dataclasses.fields(Options):
        assert f.metadata["doc"], f.name
        assert f.metadata["label"], f.name
        assert f.metadata["source"] in RULES_SECTIONS, f"{f.name}: cite the GOSTOP-RULES.md section"


def test_house_file_extends_gostop():
    """GOSTOP-RULES.md:81: the example house file changes three values and keeps the rest."""
    path = resources.files("referee").joinpath("examples/gostop-house.toml")
    rules = load_ruleset(str(path))
    assert (rules.options.point_value, rules.options.pibak_max, rules.options.bomb_doubles) == (500, 6, False)
    assert rules.options.stop_points == 3
    assert rules.game == "gostop"


def test_registered_once_in_the_family_registry():
    assert families.REGISTRY["gostop"].title == "Go-Stop (고스톱)"
    assert {load_ruleset(p).game for p in ("gostop", "matgo", "matgo-pmang", "gostop-sloperama")} == {"gostop"}


@pytest.mark.parametrize(("month", "hwatu", "name"), [(1, 1, "1월 송학 (pine)"), (11, 12, "12월 비 (willow)"),
                                                      (12, 11, "11월 오동 (paulownia)")], ids=[cite(7)] * 3)
def test_hwatu_month_names(month, hwatu, name):
    assert (hwatu_month(month), month_name(month)) == (hwatu, name)


def test_help_is_generated_from_the_ruleset():
    """The Help page follows the file: sloperama's dry four brights, matgo's two players."""
    slope = how_it_scores(load_ruleset("gostop-sloperama"))
    sagwang = next(y for y in slope.section("yaku").yaku if y.id == "sagwang")
    assert "5점" in " ".join(sagwang.notes)
    assert sagwang.ja == "사광"
    assert "For 2 players" in how_it_scores(load_ruleset("matgo")).section("overview").lines[0]
    assert "12월 비" in how_it_scores(load_ruleset("gostop")).section("months").lines[0]
