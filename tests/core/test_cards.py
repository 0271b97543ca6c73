"""The 48 cards match CARDS.tsv (shared/cards/CARDS.tsv, copied into the package)."""

from collections import Counter

import pytest

from referee.cards import BY_ID, CARD_IDS, CARDS, FULL_DECK, ids_of, mask, month_cards, month_label


def test_deck_has_48_distinct_ids():
    assert len(CARDS) == 48
    assert len(set(CARD_IDS)) == 48


def test_point_totals_per_game():
    # RULES.md "Card points and the round": the deck totals 490; Hachi-hachi: 264 = 3 x 88.
    assert sum(c.roppyakken_points for c in CARDS) == 490
    assert sum(c.hachihachi_points for c in CARDS) == 264


def test_kinds_match_the_seed_table():
    # seed 000 "Card Values": 5 brights, 9 animals, 10 ribbons, 24 chaff.
    assert Counter(c.kind for c in CARDS) == {"bright": 5, "animal": 9, "ribbon": 10, "chaff": 24}
    assert BY_ID["plum-bush-warbler"].roppyakken_points == 50
    assert BY_ID["paulownia-chaff-yellow"].roppyakken_points == 10


def test_four_cards_per_month():
    for month in range(1, 13):
        assert len(month_cards(month)) == 4


def test_masks_round_trip():
    ids = ("pine-crane", "willow-lightning", "paulownia-chaff-2")
    assert ids_of(mask(ids)) == ids
    assert mask(CARD_IDS) == FULL_DECK


def test_kind_terms():
    assert BY_ID["pine-crane"].kind_term == "hikari"
    assert BY_ID["maple-deer"].kind_term == "tane"
    assert BY_ID["iris-ribbon"].kind_term == "tanzaku"
    assert BY_ID["iris-chaff-1"].kind_term == "kasu"


@pytest.mark.parametrize(
    ("month", "label"),
    [(1, "Pine (松, month 1)"), (7, "Bush clover (萩, month 7)"), (10, "Maple (紅葉, month 10)"),
     (12, "Paulownia (桐, month 12)")],
    ids=["pine", "bush-clover", "maple", "paulownia"],
)
def test_month_label_names_the_plant_in_english_and_japanese(month, label):
    assert month_label(month) == label


@pytest.mark.parametrize("month", [0, 13])
def test_month_label_refuses_a_month_outside_the_year(month):
    with pytest.raises(ValueError, match="1-12"):
        month_label(month)
