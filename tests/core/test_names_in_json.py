"""One name rule everywhere (issue 11 "Input hygiene", ``referee/names.py``): the round and game JSON
of every family, read by the CLI, the API and the web import, refuse two names that are one player
after NFKC, casefold and trim, with the web's message, and never score them as two players."""

from __future__ import annotations

import json

import pytest
from helpers import cli_file

from referee import api
from referee.cli import main
from referee.errors import RefereeError

SAME = [("A", "a "), ("Aki", "AKI"), ("Aki", "ＡＫＩ"), ("Ben  Ito", "ben ito")]
SAME_IDS = ["trailing-space", "case", "full-width", "inner-spaces"]

# Each family's smallest input, with its seat count (RULES.md: Roppyakken 2-3 players, Hachi-hachi
# 3+ (2 with the FudaWiki deal); KOIKOI-RULES.md "The round": exactly 2).
FAMILIES = {
    "roppyakken": ({"piles": {}}, {"rounds": []}, 3),
    "hachihachi": ({"multiplier": 1, "piles": {}}, {"rounds": []}, 3),
    "koikoi": ({"piles": {}}, {"rounds": []}, 2),
}


def seats(first: str, twin: str, n: int) -> list[str]:
    return [first, twin, "Chiyo"][:n]


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize(("first", "twin"), SAME, ids=SAME_IDS)
@pytest.mark.parametrize("kind", ["score", "game"])
def test_two_names_of_one_player_are_refused(family, first, twin, kind):
    round_in, game_in, n = FAMILIES[family]
    data = {"ruleset": family, "players": seats(first, twin, n), **(round_in if kind == "score" else game_in)}
    with pytest.raises(RefereeError, match="is the same player as") as e:
        (api.score_json if kind == "score" else api.game_json)(data)
    assert e.value.code == "bad-round"
    assert repr(twin) in e.value.message
    assert repr(first) in e.value.message


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_a_round_of_totals_refuses_them_too(family):
    n = FAMILIES[family][2]
    players = seats("A", "a ", n)
    totals = dict.fromkeys(players, 0)
    with pytest.raises(RefereeError, match="is the same player as"):
        api.game_json({"ruleset": family, "players": players, "rounds": [{"totals": totals}]})


@pytest.mark.parametrize(("first", "other"), [("Aki", "Akira"), ("Jose", "José")], ids=["prefix", "accent"])
def test_names_of_two_players_still_play(first, other):
    # tests/core/test_names.py "two players": the rule is no broader than the web's.
    out = api.game_json({"ruleset": "koikoi", "players": [first, other], "rounds": []})
    assert out["players"] == [first, other]


def test_the_cli_says_it_in_one_line_with_status_2(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"ruleset": "koikoi", "players": ["A", "a "], "rounds": []}), encoding="utf-8")
    assert main(["game", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip() == ("hanafuda-referee: error: each player needs a different name; 'a ' is the same "
                           "player as 'A' (names ignore case, full-width letters and spaces)")


# Bug (a newcomer's break-test): non-string, blank and multi-line player names got past the checks.
@pytest.mark.parametrize("players", [["A", ["B"]], ["A", {"c": 1}], ["A", " "], ["A", "B\nC"], []])
def test_players_must_be_printable_names(tmp_path, capsys, players):
    code, _, err = cli_file(tmp_path, capsys, {"players": players, "piles": {}})
    assert code == 2
    assert err.count("\n") == 1
