"""The game ledger: antes, jackpot, standings, carry-over (seed 003 "Final Scoring")."""

import pytest
from hh_cases import PILES, rules

from referee.errors import RefereeError
from referee.hachihachi import play_game_json
from referee.hachihachi.game import play_game, split_jackpot

BIG_FIELD = [
    "willow-rain-man",
    "paulownia-phoenix",
    "pine-crane",
    "plum-chaff-1",
    "iris-chaff-1",
    "maple-chaff-1",
]


def half_game(**changes):
    rounds = [{"field": BIG_FIELD, "piles": PILES}] + [{"piles": PILES} for _ in range(5)]
    data = {
        "ruleset": "hachihachi",
        "options": {"rounds": 6},
        "players": ["A", "B", "C"],
        "dealer": "A",
        "rounds": rounds,
    }
    data.update(changes)
    return data


def test_half_game_ledger_carry_and_jackpot():
    # Multipliers ×4 (rain man), ×4 (phoenix, carried), ×2 (crane, carried), then ×1 ×3.
    # Each round: A +5, B +5, C -10 card points; sum of multipliers 13.
    # Ante 3 kan = 36 mon each, jackpot 108; A and B tie at -36 + 65 = 29 and split it.
    out = play_game_json(half_game())
    assert [e["multiplier"] for e in out["rounds"]] == [4, 4, 2, 1, 1, 1]
    assert out["rounds"][0]["totals"] == {"A": -16, "B": -16, "C": -76}
    assert out["complete"] is True
    assert (out["ante"], out["jackpot"]) == (36, 108)
    assert out["winners"] == ["A", "B"]
    assert out["winner"] == "A, B"
    assert out["jackpot_shares"] == {"A": 54, "B": 54}
    assert out["standings"] == [
        {"rank": 1, "player": "A", "mon": 83, "text": "6 kan 11 mon"},
        {"rank": 1, "player": "B", "mon": 83, "text": "6 kan 11 mon"},
        {"rank": 3, "player": "C", "mon": -166, "text": "-14 kan 2 mon"},
    ]
    assert sum(s["mon"] for s in out["standings"]) == 0


def test_stack_option_in_a_game():
    out = play_game_json(half_game(options={"rounds": 6, "field_multiplier": "stack"}))
    assert [e["multiplier"] for e in out["rounds"]] == [32, 1, 1, 1, 1, 1]


def test_unfinished_game_has_no_jackpot_yet():
    out = play_game_json(half_game(rounds=[{"piles": PILES}]))
    assert out["complete"] is False
    assert out["winners"] == []
    assert out["winner"] is None
    assert {s["player"]: s["mon"] for s in out["standings"]} == {"A": -31, "B": -31, "C": -46}


def test_full_game_ante_is_five_kan():
    g = play_game(rules(), ["A", "B", "C"], [{"piles": PILES}])
    assert (g.ante, g.jackpot) == (60, 180)


def test_too_many_rounds():
    with pytest.raises(RefereeError) as e:
        play_game_json(half_game(rounds=[{"piles": PILES}] * 7))
    assert e.value.code == "game-over"


def test_round_errors_name_the_round():
    with pytest.raises(RefereeError) as e:
        play_game_json(half_game(rounds=[{"piles": PILES}, {"piles": {**PILES, "C": []}}]))
    assert e.value.code == "pile-points"
    assert str(e.value).startswith("round 2:")


def test_dealer_follows_the_winner():
    piles = {"A": PILES["C"], "B": PILES["A"], "C": PILES["B"]}  # B wins round 1
    g = play_game(rules(rounds=6), ["A", "B", "C"], [{"piles": piles}, {"piles": PILES}])
    assert [r.dealer for r in g.rounds] == ["A", "B"]
    # Round 2 is dealt by B, so B plays first and wins the 93-93 tie.
    assert g.rounds[1].winner == "B"


@pytest.mark.parametrize(
    ("jackpot", "winners", "shares"),
    [
        (180, ["A"], {"A": 180}),
        (180, ["A", "B"], {"A": 90, "B": 90}),
        (100, ["A", "B", "C"], {"A": 34, "B": 33, "C": 33}),
    ],
    ids=["one-winner", "two-tied", "remainder"],
)
def test_split_jackpot(jackpot, winners, shares):
    assert split_jackpot(jackpot, winners) == shares


def test_six_player_game_round():
    out = play_game_json(
        {
            "ruleset": "hachihachi",
            "players": list("ABCDEF"),
            "dealer": "A",
            "rounds": [
                {
                    "dropped": {"B": {"order": 1}, "C": {"order": 2}, "D": {"order": 3}},
                    "piles": {"A": PILES["A"], "E": PILES["B"], "F": PILES["C"]},
                }
            ],
        }
    )
    # A wins (93, first in play order) and takes the 4.5 kan pot.
    assert out["rounds"][0]["net"] == {"A": 5 + 54, "B": -12, "C": -18, "D": -24, "E": 5, "F": -10}


def test_example_game_file():
    import json
    from importlib import resources

    text = resources.files("referee").joinpath("examples/hachihachi-game.json").read_text("utf-8")
    out = play_game_json(json.loads(text))
    # Round 2 (×4, carried phoenix): A's Mizuten made at 93 points, karasu + its bonus,
    # B's haneken, cards +5/+5/-10 -> A 188, B 188, C -376 (see docs/HACHIHACHI.md).
    assert out["rounds"][1]["net"] == {"A": 188, "B": 188, "C": -376}
    # Round 3 (×2, carried crane): C continues after akatan, then aotan: 14 kan × 2.
    assert out["rounds"][2]["net"] == {
        "A": 96 - 84 - 168,
        "B": -48 + 168 - 168,
        "C": -48 - 84 + 336,
    }
    # Round 4: All Eights goes to the dealer C, first in play order.
    assert (out["rounds"][3]["dealer"], out["rounds"][3]["winner"]) == ("C", "C")
    assert out["winner"] == "B"
    assert {s["player"]: s["mon"] for s in out["standings"]} == {"A": -119, "B": 19 + 108, "C": -8}


def test_round_with_other_players_is_refused():
    with pytest.raises(RefereeError) as e:
        play_game_json(half_game(rounds=[{"players": ["A", "B", "Z"], "piles": PILES}]))
    assert e.value.code == "bad-round"
    assert "differ" in str(e.value)
