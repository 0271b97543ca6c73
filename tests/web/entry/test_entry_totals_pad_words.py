"""The totals pad says, in players' words, what a box it cannot read holds: a total that is empty, not a whole
number (text, a decimal), negative where a round only adds points, or too big; in each game's pad (points, Go-Stop's
won-or-paid points, Hachi-hachi's kan and mon).  It keeps what was typed and saves nothing."""

from __future__ import annotations

import pytest
from web_helpers import rounds, words

#: (seat 0's box as typed, what the points pad says).
POINTS = [
    pytest.param("abc", "Aki's total must be a whole number of points, like 120; you entered “abc”.", id="text"),
    pytest.param("12.5", "Aki's total must be a whole number of points, like 120; you entered “12.5”.", id="decimal"),
    pytest.param("1 000", "Aki's total must be a whole number of points, like 120; you entered “1 000”.",
                 id="digits-apart"),
    pytest.param("-10", "Aki's total must be 0 or more points (a round never takes points away); you entered -10.",
                 id="negative"),
    pytest.param("100000", "Aki's total must be at most 99999 points; you entered 100000.", id="one-over"),
    pytest.param("1" + "0" * 30, "Aki's total must be at most 99999 points; you entered a number of 31 digits.",
                 id="31-digits"),
]


def _post(client, token: str, h, boxes: dict[str, str]):
    form = {"entry": "totals", "action": "save", "nonce": h.signed("pad"), **boxes}
    return client.post(f"/s/{token}/round/new", data=form)


def _refused(client, token: str, r, says: str) -> str:
    page = words(r).replace("&#39;", "'")
    assert r.status_code == 422
    assert says in page, r.get_data(as_text=True).split("role=\"alert\">", 1)[-1][:300]
    assert "expected" not in page
    assert "total is '" not in page
    assert rounds(client, token) == []
    return page


# Bug (table walk-through): the totals pad said "Aki's total is 'abc'; expected a whole number of points".
@pytest.mark.parametrize(("typed", "says"), POINTS)
def test_the_points_pad_says_what_a_total_must_be(client, keeper, h, typed, says):
    r = _post(client, keeper, h, {"total-0": typed, "total-1": "0", "total-2": "40"})
    _refused(client, keeper, r, says)
    assert f'value="{typed}"' in r.get_data(as_text=True)  # what was typed is kept


@pytest.mark.parametrize(
    ("boxes", "says"),
    [({"total-0": "10", "total-1": "", "total-2": "0"},
      "Ben's total is empty: enter the points Ben adds this round, 0 if none."),
     ({"total-0": "10", "total-1": "", "total-2": " "},
      "Ben's and Chiyo's totals are empty: enter the points each adds this round, 0 if none.")],
    ids=["one", "two"],
)
def test_the_points_pad_names_an_empty_total(client, keeper, h, boxes, says):
    _refused(client, keeper, _post(client, keeper, h, boxes), says)


def test_a_void_round_counts_empty_totals_as_0_but_refuses_text(client, keeper, h):
    r = _post(client, keeper, h, {"void": "true", "total-0": "abc"})
    _refused(client, keeper, r, "Aki's total must be a whole number of points, like 120; you entered “abc”.")
    assert _post(client, keeper, h, {"void": "true", "total-1": "0"}).status_code == 303


@pytest.mark.parametrize(
    ("boxes", "says"),
    [({"total-0": "abc", "total-1": "10", "sign-1": "-", "total-2": "0"},
      "Aki's total must be a whole number of points, like 120; you entered “abc”."),
     ({"total-0": "10", "total-1": "", "sign-1": "-", "total-2": "10", "sign-2": "-"},
      "Ben's total is empty: enter the points Ben won or paid this round, 0 if none."),
     ({"total-0": "100000", "total-1": "0", "total-2": "0"},
      "Aki's total must be at most 99999 points; you entered 100000.")],
    ids=["text", "empty", "too-big"],
)
def test_the_gostop_pad_says_what_a_total_must_be(client, h, boxes, says):
    token = h.new_session(client, name="Chuseok", ruleset="gostop")
    _refused(client, token, _post(client, token, h, boxes), says)


@pytest.mark.parametrize(
    ("boxes", "says"),
    [({"kan-0": "abc"}, "Aki's kan must be a whole number, like 2; you entered “abc”."),
     ({"mon-0": "1.5"}, "Aki's mon must be a whole number, like 7; you entered “1.5”."),
     # Bug: "²" passed str.isdigit and broke int() (a server error).
     ({"kan-0": "²"}, "Aki's kan must be a whole number, like 2; you entered “²”."),
     ({"kan-0": "-2"},
      "Aki's kan must be a number without + or −, like 2 (“won” or “paid” gives the sign); you entered -2."),
     ({"kan-0": "9999999"},
      "Aki's amount must be at most 99999 mon (8333 kan 3 mon); you entered 9999999 kan 0 mon."),
     ({"kan-0": "", "mon-0": ""},
      "Aki's amount is empty: enter the kan and mon Aki won or paid this round, 0 if none.")],
    ids=["kan-text", "mon-decimal", "kan-superscript", "kan-negative", "too-big", "empty"],
)
def test_the_hachihachi_pad_says_what_an_amount_must_be(client, h, boxes, says):
    pytest.importorskip("referee.hachihachi", reason="the Hachi-hachi module is not installed")
    token = h.new_session(client, name="HH", ruleset="hachihachi")
    seats = {"sign-0": "+", "kan-0": "1", "mon-0": "0", "sign-1": "-", "kan-1": "1", "mon-1": "0",
             "sign-2": "+", "kan-2": "0", "mon-2": "0"}
    _refused(client, token, _post(client, token, h, seats | boxes), says)


# Bug: a void round with a total typed said the core's "a void round (fuke) adds nothing, but Aki's total is 40".
@pytest.mark.parametrize(
    ("ruleset", "players", "says"),
    [("roppyakken", ["Aki", "Ben", "Chiyo"],
      "The round is ticked “Fuke: this round was void (everyone 0, the same oya deals again)”, so Aki's total must "
      "be 0; you entered 40. Enter 0 for everyone, or untick it."),
     ("koikoi", ["Aki", "Ben"],
      "The round is ticked “Nobody scored this round (both 0: a draw, or the hands ran out)”, so Aki's total must "
      "be 0; you entered 40. Enter 0 for everyone, or untick it.")],
    ids=["roppyakken-fuke", "koikoi-nobody-scored"],
)
def test_a_void_round_says_a_total_typed_must_be_0(client, h, ruleset, players, says):
    token = h.new_session(client, name="Void", players=players, ruleset=ruleset)
    page = _refused(client, token, _post(client, token, h, {"void": "true", "total-0": "40"}), says)
    assert "total is 40" not in page
