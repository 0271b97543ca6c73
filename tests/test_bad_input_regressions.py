"""Bad input found by a newcomer's break-test; each once crashed or misled. Kept as regressions."""

import json

import pytest
from helpers import SAFE

from referee.cli import main
from referee.errors import RefereeError
from referee.notation import parse_cards
from referee.ruleset import load_ruleset

EXAMPLE = "referee/examples/roppyakken-round.json"


def cli(tmp_path, capsys, payload, *argv):
    f = tmp_path / "in.json"
    f.write_text(payload if isinstance(payload, str) else json.dumps(payload), encoding="utf-8")
    code = main([*argv, str(f)] if argv else ["score", str(f)])
    out, err = capsys.readouterr()
    return code, out, err


def test_new_yaku_missing_fields_is_a_ruleset_error(tmp_path):
    # Once a TypeError traceback.
    f = tmp_path / "house.toml"
    f.write_text('extends = "roppyakken"\n[yaku.newone]\npoints = 100\n', encoding="utf-8")
    with pytest.raises(RefereeError, match=r"table 'yaku.newone' lacks required field\(s\) en, ja, cards"):
        load_ruleset(str(f))


def test_nested_yaku_override_merges_into_the_yaku():
    # Once replaced the whole yaku table and crashed.
    rules = load_ruleset("roppyakken", {"yaku": {"oozan": {"points": 131}}})
    oozan = rules.yaku_by_id("oozan")
    assert (oozan.points, oozan.need) == (131, 3)


@pytest.mark.parametrize(
    "rounds",
    [[{"piles": 5}], [{"piles": {"A": 5}}], [{"piles": {}, "hands": 5}], [{}], [{"piles": {}, "dealer": "Q"}]],
    ids=["piles not an object", "pile not a list", "hands not an object", "no piles", "unknown key"],
)
def test_game_round_with_wrong_types_is_one_line(tmp_path, capsys, rounds):
    code, _, err = cli(tmp_path, capsys, {"players": ["A", "B"], "rounds": rounds}, "game")
    assert code == 2
    assert err.startswith("hanafuda-referee: error: round 1")
    assert err.count("\n") == 1


@pytest.mark.parametrize("players", [["A", ["B"]], ["A", {"c": 1}], ["A", " "], ["A", "B\nC"], []])
def test_players_must_be_printable_names(tmp_path, capsys, players):
    code, _, err = cli(tmp_path, capsys, {"players": players, "piles": {}})
    assert code == 2
    assert err.count("\n") == 1


def test_deeply_nested_json(tmp_path, capsys):
    code, _, err = cli(tmp_path, capsys, "[" * 100000 + "]" * 100000)
    assert code == 2
    assert "nested too deeply" in err


def test_utf8_bom_is_accepted(tmp_path, capsys):
    code, out, _ = cli(tmp_path, capsys, "\ufeff" + json.dumps({"players": ["A", "B"], "piles": {"A": SAFE}}))
    assert code == 0
    assert json.loads(out)["players"]["A"]["card_points"] == 40


def test_short_english_names_from_the_readme():
    assert parse_cards(["Pine with Crane", "willow with rain man"]) == ("pine-crane", "willow-rain-man")


@pytest.mark.parametrize(
    ("options", "message"),
    [({"players": "[]"}, "options.players"), ({"fuke.excluded_months": "[13]"}, "months 1-12"),
     ({"yaku.oozan.points": "-100"}, "'yaku.oozan.points' is -100")],
)
def test_invalid_option_values(options, message):
    with pytest.raises(RefereeError, match=message):
        load_ruleset("roppyakken", options)


def test_ruleset_path_is_relative_to_the_round_file(tmp_path, capsys, monkeypatch):
    (tmp_path / "house.toml").write_text('extends = "roppyakken"\n[yaku.oozan]\npoints = 100\n', encoding="utf-8")
    monkeypatch.chdir("/")
    code, out, _ = cli(tmp_path, capsys, {"ruleset": "house.toml", "players": ["A", "B"],
                                          "piles": {"A": ["pine-crane", "plum-bush-warbler", "cherry-curtain"]}})
    assert code == 0
    assert json.loads(out)["players"]["A"]["yaku"][0]["points"] == 100


def test_usage_errors_are_one_line(capsys):
    with pytest.raises(SystemExit) as e:
        main(["score", "--format", "xml", EXAMPLE])
    assert e.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_field_of_more_than_eight_cards(tmp_path, capsys):
    field = ["pine-crane", "plum-chaff-1", "cherry-chaff-1", "wisteria-chaff-1", "iris-chaff-1", "peony-chaff-1",
             "bush-clover-chaff-1", "pampas-chaff-1", "maple-chaff-1"]
    code, _, err = cli(tmp_path, capsys, {"players": ["A", "B"], "piles": {}, "field": field})
    assert code == 2
    assert "at most 8" in err


def test_duplicate_between_field_and_hand_names_the_field(tmp_path, capsys):
    code, _, err = cli(tmp_path, capsys, {"players": ["A", "B"], "piles": {}, "hands": {"A": ["maple-deer"]},
                                          "field": ["maple-deer"]})
    assert code == 2
    assert "maple-deer is in both hand A and the field" in err


# QA (issue 20): messages leaked Python ("it is None", "got None", "is True"); they say what is missing
# in players' words, in every family.
@pytest.mark.parametrize(("data", "words"), [
    ({"ruleset": "gostop", "piles": {}}, ['"players" must be a list of names', "but it is missing"]),
    ({"ruleset": "gostop", "players": ["A", "B", "C"], "piles": {}, "instant": {"type": "chongtong"}},
     ['"instant.player" is missing; expected one of the players']),
    ({"ruleset": "gostop", "players": ["A", "B", "C"], "stopped_by": "A", "gos": {"B": 1, "C": 1},
      "piles": {"A": ["pine-crane", "cherry-curtain", "pampas-moon"], "B": ["willow-rain-man"]}},
     ['say which called last in "last_go"', "it is missing"]),
    ({"ruleset": "gostop", "players": ["A", "B", "C"], "stopped_by": None, "gos": {"A": True}},
     ['"gos" of A is true; expected a whole number']),
    ({"ruleset": "koikoi", "players": ["A", "B"], "stopped_by": None, "calls": [{"player": None}]},
     ['"calls[0].player" is missing']),
    ({"ruleset": "koikoi", "piles": {}}, ["but it is missing"]),
    ({"ruleset": "roppyakken", "piles": {}}, ["but it is missing"]),
    ({"ruleset": "hachihachi", "players": None, "multiplier": 1, "piles": {}}, ["players is missing"]),
], ids=["gostop players", "gostop instant.player", "gostop last_go", "gostop a true count", "koikoi call player",
        "koikoi players", "roppyakken players", "hachihachi players"])
def test_a_missing_value_is_said_in_players_words(data, words):
    from referee import api

    with pytest.raises(RefereeError) as e:
        api.score_json(data)
    for w in words:
        assert w in e.value.message
    assert "None" not in e.value.message
    assert "True" not in e.value.message
