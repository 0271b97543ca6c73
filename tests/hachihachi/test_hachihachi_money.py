"""Money: integer mon shown as kan and mon (seed 003 "The units of scoring"; RULES.md)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.errors import RefereeError
from referee.hachihachi.ledger import Book
from referee.hachihachi.money import format_mon, half_kan, parse_money, round_half_away, shares


@pytest.mark.parametrize(
    ("mon", "rate", "text"),
    [
        (-5, 12, "-1 kan 7 mon"),  # seed 003: "forced to pay 5 mon ... -1 kan 7 mon"
        (0, 12, "0 kan 0 mon"),
        (12, 12, "1 kan 0 mon"),
        (30, 12, "2 kan 6 mon"),
        (-12, 12, "-1 kan 0 mon"),
        (-13, 12, "-2 kan 11 mon"),
        (-5, 10, "-1 kan 5 mon"),
        (25, 10, "2 kan 5 mon"),
    ],
    ids=[
        "seed-minus-5-mon",
        "zero",
        "one-kan",
        "two-and-a-half-kan",
        "minus-one-kan",
        "minus-13",
        "decimal-minus-5",
        "decimal-25",
    ],
)
def test_format_mon(mon, rate, text):
    assert format_mon(mon, rate) == text
    assert parse_money(text, rate) == mon


@pytest.mark.parametrize(
    ("text", "mon"),
    [("3 kan", 36), ("-5 mon", -5), ("  -1 KAN 7 mon ", -5)],
    ids=["kan-only", "mon-only", "spacing-and-case"],
)
def test_parse_money_short_forms(text, mon):
    assert parse_money(text) == mon


@pytest.mark.parametrize(
    "text",
    ["1.5 kan", "1 kan 12 mon", "kan", "", "1 kan -3 mon"],
    ids=["float", "mon-too-big", "no-number", "empty", "negative-mon"],
)
def test_parse_money_rejects(text):
    with pytest.raises(RefereeError) as e:
        parse_money(text)
    assert e.value.code == "bad-money"


@given(st.integers(-(10**6), 10**6), st.sampled_from([10, 12]))
def test_money_round_trip(mon, rate):
    text = format_mon(mon, rate)
    assert parse_money(text, rate) == mon
    assert 0 <= int(text.split()[2]) < rate


def test_half_kan_is_whole_mon():
    assert half_kan(1, 12) == 6  # issue: "A half kan is 6 mon"
    assert half_kan(3, 10) == 15


@pytest.mark.parametrize(
    ("num", "den", "out"),
    [(5, 2, 3), (-5, 2, -3), (7, 3, 2), (8, 3, 3), (4, 2, 2)],
    ids=["half-up", "half-away-negative", "down", "up", "exact"],
)
def test_round_half_away(num, den, out):
    assert round_half_away(num, den) == out


def test_seed_split_example():
    # Seed 003: "if you gained 5 kan from a yaku, you would take 2.5 kan each from your two
    # opponents".
    book = Book("split", 1)
    paid = book.gain("A", 5 * 12, ["B", "C"], code="x", en="x", ja="x")
    assert paid == {"B": 30, "C": 30}
    assert book.net(["A", "B", "C"]) == {"A": 60, "B": -30, "C": -30}


def test_split_rounding_keeps_zero_sum():
    # RULES.md "Rounding": 5 mon split two ways is 3 mon from each, and the receiver gets 6.
    book = Book("split", 1)
    assert book.gain("A", 5, ["B", "C"], code="x", en="x", ja="x") == {"B": 3, "C": 3}
    assert book.net(["A", "B", "C"]) == {"A": 6, "B": -3, "C": -3}
    assert shares(5, 2) == 3


def test_each_basis_and_paying_alone():
    book = Book("each", 2)
    assert book.gain("A", 12, ["B", "C"], code="x", en="x", ja="x") == {"B": 24, "C": 24}
    # One payer covering two pays what both would have: 2 × 24.
    assert book.gain("A", 12, ["B"], covers=2, code="x", en="x", ja="x") == {"B": 48}
