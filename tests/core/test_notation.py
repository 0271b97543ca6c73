"""Card notation: ids, English and Japanese names, interchangeable chaff (issue 2, section 2)."""

import pytest

from referee.errors import RefereeError
from referee.notation import parse_cards, parse_groups, split_card_list


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("pine-crane", "pine-crane"),
        ("PINE CRANE", "pine-crane"),
        ("pine_crane", "pine-crane"),
        ("Pine with Crane (and Sun)", "pine-crane"),
        ("松に鶴", "pine-crane"),
        ("柳に小野道風", "willow-rain-man"),
        ("桐のカス（黄）", "paulownia-chaff-yellow"),
        ("Willow lightning (gate)", "willow-lightning"),
    ],
)
def test_one_token(token, expected):
    assert parse_cards([token]) == (expected,)


def test_generic_chaff_takes_the_next_free_one():
    assert parse_cards(["pine-chaff", "Pine chaff"]) == ("pine-chaff-1", "pine-chaff-2")
    assert parse_cards(["pine-chaff-1", "pine-chaff"]) == ("pine-chaff-1", "pine-chaff-2")
    assert parse_cards(["pine-chaff", "pine-chaff-1"]) == ("pine-chaff-2", "pine-chaff-1")


def test_generic_paulownia_chaff_never_takes_the_yellow_one():
    assert parse_cards(["paulownia chaff", "桐のカス"]) == ("paulownia-chaff-1", "paulownia-chaff-2")


def test_generic_chaff_is_shared_across_piles():
    assert parse_groups({"A": ["maple-chaff"], "B": ["maple-chaff"]}) == {
        "A": ("maple-chaff-1",), "B": ("maple-chaff-2",)}


def test_unknown_card_names_token_and_suggests():
    with pytest.raises(RefereeError, match=r"'pine-crain'.*pine-crane") as e:
        parse_cards(["pine-crain"])
    assert e.value.code == "unknown-card"


def test_non_string_card_is_unknown():
    with pytest.raises(RefereeError) as e:
        parse_cards([42])
    assert e.value.code == "unknown-card"


def test_duplicate_across_piles_names_card_and_both_players():
    with pytest.raises(RefereeError, match="pine-crane is in both pile A and pile B") as e:
        parse_groups({"A": ["pine-crane"], "B": ["松に鶴"]})
    assert e.value.code == "duplicate-card"


def test_duplicate_in_one_pile():
    with pytest.raises(RefereeError, match="twice"):
        parse_cards(["maple-deer", "maple deer"])


def test_more_chaff_than_the_deck_holds():
    with pytest.raises(RefereeError) as e:
        parse_cards(["pine-chaff"] * 3)
    assert e.value.code == "too-many-cards"


# QA (issue 20): Korean hwatu names were "unknown card"; they are data (referee/data/hwatu_names.tsv),
# numbered as hwatu numbers months (11월 오동 paulownia, 12월 비 willow: GOSTOP-RULES.md "Cards").
@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("비광", "willow-rain-man"),
        ("비 광", "willow-rain-man"),
        ("12월 광", "willow-rain-man"),
        ("11월 광", "paulownia-phoenix"),
        ("똥광", "paulownia-phoenix"),
        ("송학 광", "pine-crane"),
        ("송학광", "pine-crane"),
        ("벚꽃 광", "cherry-curtain"),
        ("공산 광", "pampas-moon"),
        ("국진", "chrysanthemum-sake-cup"),
        ("매조 새", "plum-bush-warbler"),
        ("흑싸리 새", "wisteria-cuckoo"),
        ("공산 새", "pampas-geese"),
        ("비쌍피", "willow-lightning"),
        ("오동 쌍피", "paulownia-chaff-yellow"),
        ("단풍 청단", "maple-blue-ribbon"),
        ("난초 초단", "iris-ribbon"),
    ],
)
def test_a_korean_hwatu_name(token, expected):
    assert parse_cards([token]) == (expected,)


def test_a_korean_chaff_name_takes_the_next_plain_chaff():
    assert parse_cards(["오동 피", "오동피", "11월 쌍피"]) == ("paulownia-chaff-1", "paulownia-chaff-2",
                                                         "paulownia-chaff-yellow")


@pytest.mark.parametrize(("token", "words"), [
    ("송학", ["송학 is a month of 4 cards", "did you mean 송학 광 (pine-crane), 송학 홍단 (pine-poetry-ribbon)"]),
    ("고도리", ["고도리 is a set of 3 cards", "매조 새 (plum-bush-warbler)", "공산 새 (pampas-geese)"]),
    ("비강", ["unknown card '비강'; did you mean", "비광 (willow-rain-man)"]),
], ids=["a month", "a set", "a typo"])
def test_a_korean_name_of_no_one_card_says_what_it_could_mean(token, words):
    with pytest.raises(RefereeError) as e:
        parse_cards([token])
    assert e.value.code == "unknown-card"
    for w in words:
        assert w in e.value.message


# Bug (a newcomer's break-test): the README's short card names ("Pine with Crane") were unknown cards.
def test_short_english_names_from_the_readme():
    assert parse_cards(["Pine with Crane", "willow with rain man"]) == ("pine-crane", "willow-rain-man")


# Bug: a card-list house rule typed in a form was split at every space, so "Willow lightning" was two entries;
# commas separate the entries, and spaces still separate ids.
@pytest.mark.parametrize(
    ("typed", "entries"),
    [
        ("willow-lightning, paulownia-chaff-yellow", ["willow-lightning", "paulownia-chaff-yellow"]),
        ("willow-lightning paulownia-chaff-yellow", ["willow-lightning", "paulownia-chaff-yellow"]),
        ("willow-lightning,paulownia-chaff-yellow,", ["willow-lightning", "paulownia-chaff-yellow"]),
        ("Willow lightning (gate), 오동 쌍피", ["Willow lightning (gate)", "오동 쌍피"]),
        ("willow lightning", ["willow lightning"]),
        ("Pine with Crane Cherry with Curtain", ["Pine with Crane", "Cherry with Curtain"]),
        ("松に鶴、桜に幕", ["松に鶴", "桜に幕"]),
        ("pine-crane wilow-lightning paulownia-phoenix", ["pine-crane", "wilow-lightning", "paulownia-phoenix"]),
        ("Wilow with Lightning", ["Wilow with Lightning"]),
        ("  ", []),
    ],
    ids=["commas", "spaces", "no-spaces", "names", "name-with-space", "names-without-commas", "japanese",
         "typo-between", "typo-name", "blank"],
)
def test_a_typed_card_list_splits_at_commas_and_between_cards(typed, entries):
    assert split_card_list(typed) == entries
