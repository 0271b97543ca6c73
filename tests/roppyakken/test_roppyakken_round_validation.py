"""Bad input gets a clear error with a code (issue 2, "Validation")."""

import pytest
from helpers import SAFE, cli_file, rules, score

from referee.errors import RefereeError
from referee.roppyakken.round import make_round


def err(fn, *args, **kwargs) -> RefereeError:
    with pytest.raises(RefereeError) as e:
        fn(*args, **kwargs)
    return e.value


def test_unknown_card():
    e = err(make_round, rules(), ["A", "B"], {"A": ["maple-dear"]})
    assert e.code == "unknown-card"
    assert "maple-deer" in str(e)


def test_card_in_two_piles_names_both_players():
    e = err(make_round, rules(), ["Ann", "Bo"], {"Ann": ["maple-deer"], "Bo": ["maple-deer"]})
    assert e.code == "duplicate-card"
    assert "Ann" in str(e)
    assert "Bo" in str(e)


def test_hands_may_repeat_pile_cards_but_not_each_other():
    r = rules()
    rnd = make_round(r, ["A", "B"], {"A": ["maple-deer"]}, {"A": ["maple-deer"]})
    assert rnd.hands["A"] == ("maple-deer",)
    e = err(make_round, r, ["A", "B"], {}, {"A": ["maple-deer"], "B": ["maple-deer"]})
    assert e.code == "duplicate-card"
    assert "hand A and hand B" in str(e)


def test_more_cards_than_the_deck_holds():
    e = err(make_round, rules(), ["A", "B"], {"A": ["pine-chaff"], "B": ["pine-chaff", "pine-chaff"]})
    assert e.code == "too-many-cards"


@pytest.mark.parametrize(("preset", "players"), [("roppyakken", 4), ("roppyakken", 1), ("yamayaku", 3),
                                                  ("changara", 3)])
def test_player_count_the_preset_does_not_allow(preset, players):
    e = err(make_round, rules(preset), [f"P{i}" for i in range(players)], {})
    assert e.code == "player-count"


def test_odd_pile_is_a_warning_and_still_scored():
    result = score(["maple-deer"], others=(SAFE,))
    # once "pile A has 1 cards" (issue 18: plural words)
    assert "odd pile for A (1 card): captured piles are even (pairs or fours)" in result.warnings
    assert result.player("A").card_points == 10


def test_unknown_player_in_piles():
    assert err(make_round, rules(), ["A", "B"], {"Z": ["maple-deer"]}).code == "unknown-player"


def test_dealer_must_be_a_player():
    assert err(make_round, rules(), ["A", "B"], {}, dealer="Z").code == "unknown-player"


def test_players_must_be_distinct():
    assert err(make_round, rules(), ["A", "A"], {}).code == "bad-round"


def test_hand_of_more_than_ten_cards():
    hand = ["pine-crane", "plum-chaff-1", "cherry-chaff-1", "wisteria-chaff-1", "iris-chaff-1", "peony-chaff-1",
            "bush-clover-chaff-1", "pampas-chaff-1", "chrysanthemum-chaff-1", "maple-chaff-1", "willow-swallow"]
    assert err(make_round, rules(), ["A", "B"], {}, {"A": hand}).code == "bad-round"


def test_four_of_a_month_on_the_field_is_a_misdeal_except_in_changara():
    field = ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1", "pine-chaff-2", "maple-deer", "iris-bridge"]
    e = err(make_round, rules(), ["A", "B"], {}, field=field)
    assert e.code == "misdeal"
    assert "month 1" in str(e)
    assert make_round(rules("changara"), ["A", "B"], {}, field=field).field == tuple(field)


def test_field_and_hands_share_one_deal():
    e = err(make_round, rules(), ["A", "B"], {}, {"A": ["maple-deer"]}, field=["maple-deer"])
    assert e.code == "duplicate-card"


# Bug (a newcomer's break-test): a field of any size was accepted; a deal puts at most 8 cards there.
def test_field_of_more_than_eight_cards(tmp_path, capsys):
    field = ["pine-crane", "plum-chaff-1", "cherry-chaff-1", "wisteria-chaff-1", "iris-chaff-1", "peony-chaff-1",
             "bush-clover-chaff-1", "pampas-chaff-1", "maple-chaff-1"]
    code, _, err = cli_file(tmp_path, capsys, {"players": ["A", "B"], "piles": {}, "field": field})
    assert code == 2
    assert "at most 8" in err


# Bug (a newcomer's break-test): the duplicate message called the field "hand (field)".
def test_duplicate_between_field_and_hand_names_the_field(tmp_path, capsys):
    code, _, err = cli_file(tmp_path, capsys, {"players": ["A", "B"], "piles": {}, "hands": {"A": ["maple-deer"]},
                                               "field": ["maple-deer"]})
    assert code == 2
    assert "maple-deer is in both hand A and the field" in err
