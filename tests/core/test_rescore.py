"""What-if re-scoring (issue 12, item 6): a saved game played again under other rules, round by round.

The histories are small and hand-checked: the Roppyakken rounds of
``tests/roppyakken/test_roppyakken_first_to_target.py`` (round 1: A 410, B 330; round 2: A 300, B 430)
and one Hachi-hachi round.
"""

import json

import pytest
from helpers import INOSHIKACHO, TEPPO

from referee.cli import main
from referee.errors import RefereeError
from referee.rescore import game_of, merged_options, rescore

ROUND_2 = {"piles": {
    "A": ["pine-crane", "paulownia-phoenix", "pampas-moon"],
    "B": [*INOSHIKACHO, "wisteria-cuckoo", "iris-bridge", "pampas-geese", "chrysanthemum-sake-cup",
          "willow-swallow", "paulownia-chaff-yellow", "pine-poetry-ribbon", "plum-poetry-ribbon",
          "peony-blue-ribbon", "chrysanthemum-blue-ribbon"],
}, "first_to_target": "A"}
GAME = {"ruleset": "roppyakken", "options": {}, "players": ["A", "B"], "dealer": "A",
        "rounds": [{"piles": {"A": TEPPO, "B": INOSHIKACHO}}, ROUND_2]}
EXPORT = {"format": "hanafuda-referee/session-v1", "name": "Friday", "game": GAME, "totals": {"A": 710, "B": 760}}


def test_the_json_shape_and_an_unchanged_history():
    out = rescore(GAME)
    assert set(out) == {"unit", "before", "after", "rounds"}
    assert out["unit"] == "points"
    assert out["before"] == out["after"] == {"ruleset": "roppyakken", "options": {}, "totals": {"A": 710, "B": 760},
                                             "winner": "B"}
    assert out["rounds"] == [
        {"round": 1, "changed": False, "before": {"scores": {"A": 410, "B": 330}, "totals": {"A": 410, "B": 330}},
         "after": {"scores": {"A": 410, "B": 330}, "totals": {"A": 410, "B": 330}}},
        {"round": 2, "changed": False, "before": {"scores": {"A": 300, "B": 430}, "totals": {"A": 710, "B": 760}},
         "after": {"scores": {"A": 300, "B": 430}, "totals": {"A": 710, "B": 760}}},
    ]


def test_another_option_changes_the_winner():
    # first_to_target_wins: A reached 600 first in round 2, so A wins although B ends higher.
    out = rescore(GAME, "roppyakken", {"first_to_target_wins": True})
    assert (out["before"]["winner"], out["after"]["winner"]) == ("B", "A")
    assert out["after"]["totals"] == {"A": 710, "B": 760}


def test_a_shorter_game_leaves_later_rounds_unplayed():
    # Sanbyakuken plays to 300: A's 410 in round 1 ends it.
    out = rescore(GAME, "sanbyakuken", {})
    assert out["after"] == {"ruleset": "sanbyakuken", "options": {}, "totals": {"A": 410, "B": 330}, "winner": "A"}
    assert out["rounds"][1]["after"] == {"scores": None, "totals": None,
                                         "note": "not played: the game was already over"}
    assert [r["changed"] for r in out["rounds"]] == [False, True]


def test_void_rounds_under_the_new_rules():
    # Fuke at 330: B counts 330 in round 1 and A 300 in round 2, so both rounds are void.
    out = rescore(GAME, "roppyakken", {"fuke.threshold": 330})
    assert [r["after"] for r in out["rounds"]] == [
        {"scores": {"A": 0, "B": 0}, "totals": {"A": 0, "B": 0}, "void": True},
        {"scores": {"A": 0, "B": 0}, "totals": {"A": 0, "B": 0}, "void": True},
    ]
    assert out["after"]["winner"] is None


def test_changed_marks_the_rounds_whose_own_result_differs():
    # Found by the rules QA of issue 12: every round after a changed one was marked changed ("●",
    # "rounds changed: 1, 2") because its running totals moved, though it added the same as before.
    # Teppo at 200: round 1 A 110 + 200 = 310 (was 410); round 2 still A 300, B 430.
    out = rescore(GAME, "roppyakken", {"yaku.teppo.points": 200})
    assert [r["after"]["scores"] for r in out["rounds"]] == [{"A": 310, "B": 330}, {"A": 300, "B": 430}]
    assert out["rounds"][1]["after"]["totals"] == {"A": 610, "B": 760}
    assert [r["changed"] for r in out["rounds"]] == [True, False]


def test_a_round_the_new_rules_reject_is_left_out_with_its_reason():
    # To 720 with first_to_target_wins: round 2 names A first, but A (710) no longer reaches the target.
    out = rescore(GAME, "roppyakken", {"target": 720, "first_to_target_wins": True})
    assert out["rounds"][1]["after"] == {
        "scores": None, "totals": None,
        "note": "first_to_target is 'A', who did not reach 720 in this round (B did)",
    }
    assert out["after"]["totals"] == {"A": 410, "B": 330}
    assert out["after"]["winner"] is None


def test_merged_options_follow_the_command_line_reading():
    game = {**GAME, "options": {"target": 700}}
    assert merged_options(game, None, {"fuke.threshold": 40}) == ("roppyakken", {"target": 700, "fuke.threshold": 40})
    assert merged_options(game, "roppyakken", {}) == ("roppyakken", {"target": 700})
    assert merged_options(game, "sanbyakuken", {"fuke.threshold": 40}) == ("sanbyakuken", {"fuke.threshold": 40})


@pytest.mark.parametrize(
    ("ruleset", "options", "code", "match"),
    [
        ("hachihachi", {}, "bad-ruleset", "only a roppyakken ruleset can re-score them"),
        ("nope", {}, "bad-ruleset", "unknown ruleset 'nope'"),
        ("roppyakken", {"target": "high"}, "bad-ruleset", "'options.target' is 'high'; expected an integer"),
    ],
    ids=["another game's ruleset", "unknown preset", "bad option"],
)
def test_bad_what_if_rules_are_clear_errors(ruleset, options, code, match):
    with pytest.raises(RefereeError, match=match) as e:
        rescore(GAME, ruleset, options)
    assert e.value.code == code


def test_game_of_reads_an_export_or_a_game():
    assert game_of(EXPORT) == GAME
    assert game_of(GAME) == GAME
    with pytest.raises(RefereeError, match="expected a session export"):
        game_of({"name": "no game"})


# ---- Hachi-hachi: money ---------------------------------------------------------------------------

HH_ROUND = json.loads((__import__("pathlib").Path(__file__).parents[2] / "referee/examples/hachihachi-round.json")
                      .read_text(encoding="utf-8"))


def test_hachihachi_what_if_in_mon():
    # docs/HACHIHACHI.md worked example: A +176, D +60, B +92, C -328 under split.  Under FudaWiki's
    # each-opponent values every share is paid by each payer.
    rnd = {k: v for k, v in HH_ROUND.items() if k not in ("ruleset", "options", "players", "dealer", "carry")}
    game = {"ruleset": "hachihachi", "options": {}, "players": HH_ROUND["players"], "dealer": "A", "rounds": [rnd]}
    out = rescore(game, "hachihachi-fudawiki", {})
    assert out["unit"] == "mon"
    assert out["before"]["mon_per_kan"] == 12
    assert out["rounds"][0]["before"]["scores"] == {"A": 176, "D": 60, "B": 92, "C": -328}
    # Ante 5 kan (60 mon) each; the jackpot waits for round 12.
    assert out["before"]["totals"] == {"A": 116, "D": 0, "B": 32, "C": -388}
    assert out["rounds"][0]["changed"] is True
    assert sum(out["rounds"][0]["after"]["scores"].values()) == 0


# ---- the command line ---------------------------------------------------------------------------


def test_cli_rescore_json(tmp_path, capsys):
    f = tmp_path / "export.json"
    f.write_text(json.dumps(EXPORT), encoding="utf-8")
    assert main(["rescore", str(f), "--option", "first_to_target_wins=true"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["after"]["options"] == {"first_to_target_wins": True}
    assert (out["before"]["winner"], out["after"]["winner"]) == ("B", "A")


def test_cli_rescore_text(tmp_path, capsys):
    f = tmp_path / "export.json"
    f.write_text(json.dumps(EXPORT), encoding="utf-8")
    assert main(["rescore", str(f), "--ruleset", "sanbyakuken", "--format", "text"]) == 0
    text = capsys.readouterr().out
    assert "after:  sanbyakuken" in text
    assert "    2 *       300 -> -       430 -> -" in text
    assert "after: not played: the game was already over" in text
    assert "total       710 -> 410     760 -> 330" in text
    assert "winner: B -> A" in text


def test_cli_rescore_error_is_one_line(tmp_path, capsys):
    f = tmp_path / "export.json"
    f.write_text(json.dumps(EXPORT), encoding="utf-8")
    assert main(["rescore", str(f), "--ruleset", "hachihachi"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "only a roppyakken ruleset" in err
