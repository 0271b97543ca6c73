"""Game progression: RULES.md "Instant wins and the end of the game" and the presets' game rules."""

import pytest
from helpers import INOSHIKACHO, POETRY, SAFE, SHIKO, TEPPO, rules

from referee.errors import RefereeError
from referee.roppyakken.game import new_game, play_game, play_round

# Cards 110 + 30 + 100, teppo 300, inoshikacho 300, oozan 150: 990.
BIG = [*TEPPO, *INOSHIKACHO, "pine-crane", "plum-bush-warbler"]
LOW = ["maple-blue-ribbon", "iris-ribbon", "wisteria-ribbon", "peony-blue-ribbon"]  # 40


def rnd(**piles):
    return {"piles": piles}


def test_running_totals_and_next_dealer_is_the_top_scorer():
    state = play_game(rules(), ["A", "B", "C"], [rnd(A=SAFE, B=POETRY, C=LOW)])
    assert dict(state.totals) == {"A": 40, "B": 130, "C": 40}
    assert state.dealer == "B"
    assert state.winner is None


def test_void_round_same_dealer_and_no_score():
    state = play_game(rules(), ["A", "B"], [rnd(A=SAFE, B=["maple-deer"])], dealer="B")
    assert state.rounds[0].result.void
    assert dict(state.totals) == {"A": 0, "B": 0}
    assert state.dealer == "B"


C40 = ["maple-deer", "bush-clover-boar", "chrysanthemum-sake-cup", "willow-swallow"]


def test_dealer_tie_goes_to_first_in_play_order_from_the_dealer():
    state = play_game(rules(), ["A", "B", "C"], [rnd(A=LOW, B=SAFE, C=C40)], dealer="B")
    assert state.dealer == "B"
    state = play_game(rules(), ["A", "B", "C"], [rnd(A=LOW, B=SAFE, C=C40)], dealer="C")
    assert state.dealer == "C"


def test_target_ends_the_game_with_the_highest_total():
    state = play_game(rules(), ["A", "B"], [rnd(A=BIG, B=SAFE)])
    assert state.totals["A"] == 990
    assert state.winner == "A"



def test_equal_totals_over_target_continue():
    r = rules("sanbyakuken")
    state = play_game(r, ["A", "B"], [rnd(A=[*INOSHIKACHO, "pine-chaff-1"], B=["bush-clover-ribbon", *BLUE_LIKE])])
    assert dict(state.totals) == {"A": 330, "B": 330}
    assert state.winner is None


BLUE_LIKE = ["peony-blue-ribbon", "maple-blue-ribbon", "chrysanthemum-blue-ribbon", "chrysanthemum-sake-cup",
             "cherry-curtain", "cherry-chaff-1", "wisteria-ribbon", "wisteria-cuckoo", "iris-bridge"]
# B: ribbons 50 + sake cup 10 + curtain 50 + cuckoo, bridge 20 = 130; aotan 100 + hanami 100 = 330.


def test_instant_win_ends_the_game():
    state = play_game(rules(), ["A", "B"], [rnd(A=SHIKO, B=SAFE)])
    assert state.winner == "A"
    with pytest.raises(RefereeError) as e:
        play_round(state, {"A": SAFE})
    assert e.value.code == "game-over"


def test_errors_in_a_game_name_the_round():
    with pytest.raises(RefereeError, match="round 2: unknown card"):
        play_game(rules(), ["A", "B"], [rnd(A=SAFE, B=LOW), rnd(A=["bogus"])])


def test_fixed_rounds_highest_total():
    r = rules(rounds=2)
    state = play_game(r, ["A", "B"], [rnd(A=BIG, B=SAFE)])
    assert state.winner is None  # 990 > 600 but the game runs two rounds
    state = play_round(state, {"A": SAFE, "B": LOW})
    assert state.winner == "A"


def test_fixed_rounds_void_rounds_do_not_count():
    state = play_game(rules(rounds=1), ["A", "B"], [rnd(A=SAFE, B=[])])
    assert state.scored_rounds == 0
    assert state.winner is None


def test_most_times_over_target():
    r = rules(rounds=2, winner="most-times-over-target", target=300)
    state = play_game(r, ["A", "B"], [rnd(A=BIG, B=SAFE), rnd(A=SAFE, B=[*INOSHIKACHO, "pine-chaff-1"])])
    assert dict(state.wins) == {"A": 1, "B": 1}
    # Tied on times over the target: the higher running total (B 330 reset to 0, A 40) decides.
    assert state.winner == "A"


def test_changara_best_of_three_match():
    r = rules("changara")
    win = rnd(A=[*INOSHIKACHO, "pine-chaff-1"], B=SAFE)  # 330 >= 300
    state = play_game(r, ["A", "B"], [win])
    assert state.game == 2
    assert dict(state.wins) == {"A": 1, "B": 0}
    assert dict(state.totals) == {"A": 0, "B": 0}
    assert state.winner is None
    state = play_round(state, win["piles"])
    assert state.winner == "A"


def test_new_game_validates_players():
    with pytest.raises(RefereeError):
        new_game(rules(), ["A", "B", "C", "D"])


# Issue 18: when several players pass the target in one round, one line says why the winner won.
@pytest.mark.parametrize(
    ("totals", "options", "first", "winner", "line"),
    [
        ({"A": 150, "B": 120, "C": 0}, {}, None, "A",
         "A and B reached 100: A wins with the highest total, 150 (RULES.md, Instant wins and the end of the game)"),
        ({"A": 150, "B": 150, "C": 0}, {}, None, None,
         "A and B are level at 150, over 100: the game goes on with another round "
         "(RULES.md, Instant wins and the end of the game)"),
        ({"A": 150, "B": 120, "C": 0}, {"first_to_target_wins": True}, "B", "B",
         "A and B reached 100: B wins, the first to get there (house rule first_to_target_wins, seed 002 local rule)"),
    ],
    ids=["highest total", "level: the game goes on", "first to the target"],
)
def test_several_over_the_target_get_one_line_saying_why(totals, options, first, winner, line):
    from referee import api

    rnd = {"totals": totals, **({"first_to_target": first} if first else {})}
    out = api.game_json({"ruleset": "roppyakken", "options": {"target": 100, **options}, "players": ["A", "B", "C"],
                         "rounds": [rnd]})
    assert out["winner"] == winner
    assert out["rounds"][0]["warnings"].count(line) == 1


def test_one_player_over_the_target_needs_no_such_line():
    from referee import api

    out = api.game_json({"ruleset": "roppyakken", "options": {"target": 100}, "players": ["A", "B", "C"],
                         "rounds": [{"totals": {"A": 150, "B": 20, "C": 0}}]})
    assert out["winner"] == "A"
    assert not [w for w in out["rounds"][0]["warnings"] if "reached 100" in w]
