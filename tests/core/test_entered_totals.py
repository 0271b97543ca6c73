"""Entered totals: rounds a table scored on paper go through the core like any round (issue 11).

Roppyakken family: points, 0 or more; the highest entered total deals next (RULES.md "Instant wins
and the end of the game", ties from the oya). Hachi-hachi: kan/mon that sum to zero (RULES.md
"Hachi-hachi": every mon is paid from one player to another). README "JSON formats", "Entered totals".
"""

from __future__ import annotations

import json

import pytest

from referee import api
from referee.cli import main
from referee.errors import RefereeError

ABC = ["A", "B", "C"]


def ropp(totals, dealer="A", ruleset="roppyakken", players=ABC, **extra):
    return api.score_json({"ruleset": ruleset, "players": players, "dealer": dealer, "totals": totals, **extra})


def hh(totals, dealer="A", players=ABC, **extra):
    return api.score_json({"ruleset": "hachihachi", "players": players, "dealer": dealer, "totals": totals, **extra})


def lines_sum(out):
    sums = dict.fromkeys(out["players"], 0)
    for line in out["explanation"]:
        sums[line["player"]] += line["points"]
    return sums


# ---- Roppyakken family ------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "totals", "dealer", "next_dealer"),
    [
        ("roppyakken", {"A": 120, "B": 40, "C": 300}, "A", "C"),
        ("roppyakken", {"A": 120, "B": 0, "C": 120}, "B", "C"),  # tie: first from the oya (B, C, A)
        ("roppyakken", {"A": 0, "B": 0, "C": 0}, "B", "B"),  # all zero, as after fuke: the oya deals again
        ("yukbaek", {"A": 0, "B": 160, "C": 0}, "A", "B"),  # settled on paper: added as entered
        ("sambong", {"A": 300, "B": 100, "C": 0}, "C", "A"),
    ],
    ids=["highest-deals", "tie-from-oya", "all-zero-oya-again", "yukbaek-as-entered", "sambong-as-entered"],
)
def test_a_totals_round_scores_what_was_entered(ruleset, totals, dealer, next_dealer):
    out = ropp(totals, dealer, ruleset)
    assert {p: r["round_score"] for p, r in out["players"].items()} == totals
    assert lines_sum(out) == totals  # one line per player, equal to the total
    assert [line["code"] for line in out["explanation"]] == ["entered-total"] * 3
    assert out["entered_totals"] is True
    assert out["next_dealer"] == next_dealer
    assert out["void"] is False
    assert out["instant_win"] is None


def test_a_card_round_is_not_marked_entered():
    out = api.score_json({"players": ABC, "piles": {"A": ["pine-crane", "pine-chaff-1"]}})
    assert out["entered_totals"] is False


def test_totals_rounds_play_a_game_to_its_target_with_card_rounds_between():
    game = api.game_json(
        {
            "ruleset": "sanbyakuken",
            "players": ABC,
            "rounds": [
                {"totals": {"A": 100, "B": 50, "C": 0}},
                {"piles": {"B": ["pine-crane", "pine-chaff-1"], "C": ["plum-bush-warbler", "plum-chaff-1"]}},
                {"totals": {"A": 200, "B": 0, "C": 40}},
            ],
        }
    )
    assert [r["dealer"] for r in game["rounds"]] == ["A", "A", "A"]  # A scored most; round 2 is void: A again
    assert game["rounds"][1]["void"] is True
    assert game["totals"] == {"A": 300, "B": 50, "C": 40}
    assert game["winner"] == "A"  # the target (300) ends the game
    with pytest.raises(RefereeError, match="round 4: the game is over"):
        api.game_json({"ruleset": "sanbyakuken", "players": ABC,
                       "rounds": [*game_rounds(game), {"totals": {"A": 0, "B": 0, "C": 0}}]})


def game_rounds(game):
    return [{"totals": {p: r["players"][p]["round_score"] for p in ABC}} for r in game["rounds"]]


def test_a_changara_match_counts_games_won_from_totals():
    rounds = [{"totals": {"A": 300, "B": 0}}, {"totals": {"A": 0, "B": 310}}, {"totals": {"A": 350, "B": 20}}]
    game = api.game_json({"ruleset": "changara", "players": ["A", "B"], "rounds": rounds})
    assert [r["game_winner"] for r in game["rounds"]] == ["A", "B", "A"]
    assert game["wins"] == {"A": 2, "B": 1}
    assert game["winner"] == "A"


@pytest.mark.parametrize(
    ("totals", "extra", "code", "message"),
    [
        ({"A": 10, "B": 0}, {}, "bad-totals", "no total entered for C"),
        ({"A": 10, "B": 0, "C": 0, "D": 5}, {}, "unknown-player", "totals for unknown player 'D'"),
        ({"A": -10, "B": 0, "C": 0}, {}, "bad-totals", "A's total is -10; a round adds 0 or more"),
        ({"A": 10.5, "B": 0, "C": 0}, {}, "bad-totals", "A's total is 10.5; expected a whole number of points"),
        ({"A": True, "B": 0, "C": 0}, {}, "bad-totals", "expected a whole number"),
        ({"A": "120", "B": 0, "C": 0}, {}, "bad-totals", "A's total is '120'"),
        ({"A": 10**6, "B": 0, "C": 0}, {}, "bad-totals", "at most 99999"),
        ([10, 0, 0], {}, "bad-totals", '"totals" must map each player'),
        ({"A": 10, "B": 0, "C": 0}, {"piles": {"A": ["pine-crane"]}}, "bad-totals", "also gives piles"),
        ({"A": 10, "B": 0, "C": 0}, {"hands": {"B": ["pine-crane"]}}, "bad-totals", "also gives hands"),
    ],
    ids=["missing-player", "unknown-player", "negative", "float", "bool", "text", "too-large", "list",
         "with-piles", "with-hands"],
)
def test_bad_totals_get_a_clear_error(totals, extra, code, message):
    with pytest.raises(RefereeError, match=message) as e:
        ropp(totals, **extra)
    assert e.value.code == code


def test_empty_piles_beside_totals_are_not_cards():
    out = ropp({"A": 10, "B": 0, "C": 0}, piles={"A": [], "B": []})
    assert out["players"]["A"]["round_score"] == 10


def test_totals_keep_the_player_count_check():
    with pytest.raises(RefereeError, match="for 2 or 3 players, got 4") as e:
        ropp({"A": 0, "B": 0, "C": 0, "D": 0}, players=["A", "B", "C", "D"])
    assert e.value.code == "player-count"


# ---- Hachi-hachi -------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "net"),
    [
        ({"A": 30, "B": -12, "C": -18}, {"A": 30, "B": -12, "C": -18}),
        ({"A": "2 kan 6 mon", "B": "-1 kan", "C": "-2 kan 6 mon"}, {"A": 30, "B": -12, "C": -18}),
        ({"A": "-5 mon", "B": 5, "C": 0}, {"A": -5, "B": 5, "C": 0}),
    ],
    ids=["mon", "kan-and-mon-text", "mon-text"],
)
def test_hachihachi_totals_in_kan_and_mon(totals, net):
    out = hh(totals)
    assert out["net"] == net
    assert lines_sum(out) == net
    assert out["outcome"] == "entered-totals"
    assert sum(p["mon"] for p in out["payments"] if p["to"] == "A") - sum(
        p["mon"] for p in out["payments"] if p["from"] == "A"
    ) == net["A"]  # the payments reach the nets


@pytest.mark.parametrize(
    ("totals", "code", "message"),
    [
        ({"A": 30, "B": -12, "C": -17}, "bad-totals", r"sum to 0 kan 1 mon \(\+1 mon\); a Hachi-hachi round sums"),
        ({"A": "2 kan 13 mon", "B": 0, "C": 0}, "bad-money", "the mon part is 13"),
        ({"A": "lots", "B": 0, "C": 0}, "bad-money", "cannot read 'lots' as money"),
        ({"A": 0, "B": 0}, "bad-totals", "no total entered for C"),
    ],
    ids=["not-zero-sum", "mon-part-too-large", "not-money", "missing"],
)
def test_hachihachi_totals_refused(totals, code, message):
    with pytest.raises(RefereeError, match=message) as e:
        hh(totals)
    assert e.value.code == code


def test_hachihachi_totals_with_cards_or_calls_are_refused():
    with pytest.raises(RefereeError, match="also gives dekiyaku") as e:
        hh({"A": 0, "B": 0, "C": 0}, dekiyaku=[{"player": "A", "yaku": "akatan"}])
    assert e.value.code == "bad-totals"


@pytest.mark.parametrize(
    ("totals", "winner", "dealer", "expected"),
    [
        ({"A": 10, "B": 10, "C": -20}, None, "B", "B"),  # tie: first from the dealer
        ({"A": 10, "B": 10, "C": -20}, None, "C", "A"),
        ({"A": 10, "B": 10, "C": -20}, "C", "A", "C"),  # stated: the dekiyaku maker, say
    ],
    ids=["tie-dealer-first", "tie-round-the-table", "stated-winner"],
)
def test_hachihachi_totals_winner_deals_next(totals, winner, dealer, expected):
    out = hh(totals, dealer, **({"winner": winner} if winner else {}))
    assert out["winner"] == out["next_dealer"] == expected


def test_hachihachi_game_of_totals_keeps_the_ledger_and_consumes_the_carry():
    game = api.game_json(
        {
            "ruleset": "hachihachi",
            "options": {"rounds": 6},
            "players": ABC,
            "rounds": [
                {"totals": {"A": 30, "B": -12, "C": -18}, "carry": [4, 2]},
                {"totals": {"A": 0, "B": 12, "C": -12}, "winner": "C"},
            ],
        }
    )
    ante = 3 * 12  # a half game: 3 kan each
    assert game["rounds"][-1]["totals"] == {"A": 30 - ante, "B": 0 - ante, "C": -30 - ante}
    assert [r["multiplier"] for r in game["rounds"]] == [4, 2]
    assert game["carry"] == []
    assert game["next_dealer"] == "C"
    assert game["complete"] is False


def test_hachihachi_totals_seat_everyone_of_a_four_player_table():
    out = hh({"A": 24, "B": -6, "C": -6, "D": -12}, players=["A", "B", "C", "D"])
    assert sum(out["net"].values()) == 0
    assert len([line for line in out["explanation"] if line["code"] == "entered-total"]) == 4


# ---- CLI ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "shown"),
    [
        ({"ruleset": "roppyakken", "players": ABC, "totals": {"A": 120, "B": 0, "C": 40}}, "A: 120"),
        ({"ruleset": "hachihachi", "players": ABC, "totals": {"A": 30, "B": -12, "C": -18}}, "A: 2 kan 6 mon"),
    ],
    ids=["roppyakken", "hachihachi"],
)
def test_cli_score_takes_totals(tmp_path, capsys, payload, shown):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    assert main(["score", str(path), "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert shown in out
    assert "Entered totals: the table scored this round on paper" in out


def test_cli_game_takes_totals_and_refuses_a_bad_sum(tmp_path, capsys):
    game = {"ruleset": "hachihachi", "options": {"rounds": 6}, "players": ABC,
            "rounds": [{"totals": {"A": 30, "B": -12, "C": -18}}]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game), encoding="utf-8")
    assert main(["game", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["rounds"][0]["net"] == {"A": 30, "B": -12, "C": -18}
    game["rounds"][0]["totals"]["C"] = -17
    path.write_text(json.dumps(game), encoding="utf-8")
    assert main(["game", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "round 1: the amounts entered sum to" in err


# ---- a round the table's fuke voided ------------------------------------------


def test_a_void_totals_round_keeps_the_oya_and_does_not_count_toward_fixed_rounds():
    """RULES.md "Fuke": the same dealer deals again; "Fixed rounds": a void round does not count."""
    rounds = [{"totals": {"A": 0, "B": 0, "C": 0}, "void": True}, {"totals": {"A": 50, "B": 40, "C": 200}}]
    game = api.game_json({"ruleset": "roppyakken", "options": {"rounds": 2}, "players": ABC, "dealer": "B",
                          "rounds": rounds})
    assert game["rounds"][0]["void"] is True
    assert [r["dealer"] for r in game["rounds"]] == ["B", "B"]
    assert game["winner"] is None  # one scored round of two
    assert game["next_dealer"] == "C"


@pytest.mark.parametrize(
    ("round_", "code", "message"),
    [
        ({"totals": {"A": 40, "B": 0, "C": 0}, "void": True}, "bad-totals", r"a void round \(fuke\) adds nothing"),
        ({"totals": {"A": 0, "B": 0, "C": 0}, "void": "yes"}, "bad-totals", '"void" is \'yes\'; expected true'),
        ({"piles": {"A": ["pine-crane"]}, "void": True}, "bad-round", '"void" is only for a round of entered totals'),
    ],
    ids=["void-with-points", "void-not-bool", "void-with-cards"],
)
def test_bad_void_rounds(round_, code, message):
    with pytest.raises(RefereeError, match=message) as e:
        api.score_json({"players": ABC, **round_})
    assert e.value.code == code
    with pytest.raises(RefereeError, match="round 1: " + message):
        api.game_json({"players": ABC, "rounds": [round_]})
