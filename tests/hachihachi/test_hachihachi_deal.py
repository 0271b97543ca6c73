"""The deck check follows the deal actually played (issue 12, item 1; referee.hachihachi.deal).

Seed 003 "Setup for each month" and FudaWiki "Hachi-Hachi for Two Players": 7 cards a hand, 6 on
the field, one draw per hand card.  Three active players play all 48 cards (264 points); two
leave 14 never drawn, so at most 34 cards reach the piles.
"""

import json

import pytest
from hh_cases import PILES, TWO_A, TWO_B, settle

from referee.cards import CARD_IDS
from referee.cli import main
from referee.errors import RefereeError
from referee.hachihachi.deal import check_piles, deal_for


@pytest.mark.parametrize(
    ("active", "in_play", "undrawn"),
    [(3, 48, 0), (2, 34, 14)],
    ids=["three-play-every-card", "two-leave-14-never-drawn"],
)
def test_the_deal_of_the_variant_played(active, in_play, undrawn):
    deal = deal_for(active)
    assert (deal.in_play, deal.undrawn) == (in_play, undrawn)


def test_two_players_settle_on_card_points_without_the_14_never_drawn():
    # Issue 12's example: 2 players, ×1, no dekiyaku; A's pile 108 points, B's 61, 14 cards never
    # drawn.  RULES.md "Two players (FudaWiki)": the loser pays (108 - 61) × 1 = 47 mon.
    r = settle(players=["A", "B"], multiplier=1, piles={"A": TWO_A, "B": TWO_B})
    assert r.outcome == "cards"
    assert r.card_points == {"A": 108, "B": 61}
    assert r.net == {"A": 47, "B": -47}


def test_two_players_cannot_hold_more_than_the_34_cards_that_reach_the_table():
    # The old check asked two players for all 48 cards; now 48 is too many for their deal.
    with pytest.raises(RefereeError, match="14 cards are never drawn, so at most 34") as e:
        settle(players=["A", "B"], piles={"A": PILES["A"] + PILES["C"], "B": PILES["B"]})
    assert e.value.code == "pile-points"


# Six chaff (1 point each) that make no dekiyaku: with TWO_A and TWO_B (28 cards), 34 and 35 cards.
CHAFF = ["pampas-chaff-1", "pampas-chaff-2", "chrysanthemum-chaff-1", "chrysanthemum-chaff-2", "maple-chaff-1",
         "maple-chaff-2", "paulownia-chaff-1"]


def test_two_players_may_hold_exactly_the_34_cards_that_reach_the_table():
    # A "<=" planted as "<" in DeckCheck.ok was caught only by a random property test.
    piles = {"A": TWO_A + CHAFF[:3], "B": TWO_B + CHAFF[3:6]}
    check = check_piles(2, piles)
    assert (check.cards, check.ok, check.problem()) == (34, True, None)
    r = settle(players=["A", "B"], multiplier=1, piles=piles)
    assert (r.outcome, r.card_points, r.net) == ("cards", {"A": 111, "B": 64}, {"A": 47, "B": -47})


def test_two_players_holding_35_cards_hold_one_too_many():
    piles = {"A": TWO_A + CHAFF[:3], "B": TWO_B + CHAFF[3:7]}
    check = check_piles(2, piles)
    assert (check.cards, check.ok) == (35, False)
    with pytest.raises(RefereeError, match="the piles hold 35 cards; with 2 players 14 cards are never drawn, so at "
                       "most 34 can be captured") as e:
        settle(players=["A", "B"], multiplier=1, piles=piles)
    assert e.value.code == "pile-points"


def test_three_players_still_need_every_card():
    with pytest.raises(RefereeError, match="the piles hold 28 of the 48 cards; with 3 players every card") as e:
        settle(piles={"A": TWO_A, "B": TWO_B, "C": []})
    assert e.value.code == "pile-points"


# Three players play every card: the piles against the deck, the cards in no pile named only while few are missing.
# Bug (new-user walk-through): one card entered named the 47 others.
@pytest.mark.parametrize(
    ("held", "said"),
    [
        (["pine-crane"], "the piles hold 1 of the 48 cards; with 3 players every card is played, so a round settled "
                         "on card points needs all 48: 47 cards are in no pile"),
        ([], "the piles hold 0 of the 48 cards; with 3 players every card is played, so a round settled on card "
             "points needs all 48: 48 cards are in no pile"),
        ([c for c in CARD_IDS if c not in ("pine-crane", "pine-chaff-1")],
         "the piles hold 243 of 264 points (21 missing); with 3 players every card is played, so a round settled on "
         "card points needs all 48 cards. Cards in no pile: pine-crane, pine-chaff-1"),
        (CARD_IDS[:40], "the piles hold 40 of the 48 cards; with 3 players every card is played, so a round settled "
                        "on card points needs all 48: 8 cards are in no pile"),
        (CARD_IDS[:41], "the piles hold 225 of 264 points (39 missing); with 3 players every card is played, so a "
                        "round settled on card points needs all 48 cards. Cards in no pile: "
                        + ", ".join(CARD_IDS[41:])),
    ],
    ids=["one-card", "no-card", "two-missing-named", "eight-missing-counted", "seven-missing-named"],
)
def test_three_players_are_told_the_cards_in_no_pile_by_name_only_when_few(held, said):
    check = check_piles(3, {"A": held[0::2], "B": held[1::2]})
    assert check.problem() == said
    assert check.refusal(["A", "B", "C"]).cards == check.missing  # the API's parts still list every one


def test_two_of_four_active_follow_the_two_player_deal():
    r = settle(
        players=["A", "B", "C", "D"], dropped={"B": {"order": 1}, "C": {"order": 2}},
        piles={"A": TWO_A, "D": TWO_B},
    )
    assert r.card_points == {"A": 108, "D": 61}


def test_deck_check_counts_distinct_cards_and_their_points():
    check = check_piles(2, {"A": TWO_A, "B": TWO_B})
    assert (check.cards, check.points, check.ok) == (28, 169, True)
    assert len(check.missing) == 20  # 14 never drawn and 6 left on the field, say
    assert check_piles(3, PILES).ok


def test_cli_settles_the_two_player_example(tmp_path, capsys):
    # Before the fix: exit 2, "the piles hold 169 of 264 points".
    f = tmp_path / "two.json"
    f.write_text(json.dumps({"ruleset": "hachihachi", "players": ["A", "B"], "multiplier": 1,
                             "piles": {"A": TWO_A, "B": TWO_B}}), encoding="utf-8")
    assert main(["score", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["net"] == {"A": 47, "B": -47}
    assert out["net_text"] == {"A": "3 kan 11 mon", "B": "-4 kan 1 mon"}
