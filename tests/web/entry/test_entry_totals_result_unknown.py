"""A round of totals entered on paper (README "Entered totals") has no known cards, so its result table shows
"–" for what the cards would have said (Roppyakken's card points and yaku, Koi-Koi's yaku, Go-Stop's points
paid on, GOSTOP-RULES.md "JSON"), as Koi-Koi already did, and only the amount entered in its last column."""

from __future__ import annotations

import re

import pytest
from web_helpers import session

THREE = ["Aki", "Ben", "Chie"]


def result_rows(client, h, ruleset: str, players, values, **extra: str) -> dict[str, list[str]]:
    """Player -> the cells of their row in the scored result (HTML tags dropped)."""
    token = session(client, ruleset, players)
    form = {"action": "score", "nonce": h.signed("paper-1"), "entry": "totals", **extra}
    form.update({f"total-{i}": str(v) for i, v in enumerate(values)})
    page = client.post(f"/s/{token}/round/new", data=form, follow_redirects=True).get_data(as_text=True)
    table = re.search(r'<table class="result">(.*?)</table>', page, re.S).group(1)
    rows = {}
    for p in players:
        row = re.search(rf"<tr><th>{p}</th>(.*?)</tr>", table, re.S).group(1)
        rows[p] = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td>(.*?)</td>", row, re.S)]
    return rows


# Bug: Go-Stop's points column (and Roppyakken's cards and yaku columns) said "0" for every player of a round
# entered on paper, beside money of +500 (+5점): points the referee never counted.
@pytest.mark.parametrize(
    ("ruleset", "players", "values", "unknown", "amounts"),
    [
        ("roppyakken", THREE, (120, 0, 40), 2, ["120", "0", "40"]),
        ("sanbyakuken", THREE, (120, 0, 40), 2, ["120", "0", "40"]),
        ("koikoi", ["Aki", "Ben"], (6, 0), 1, ["6", "0"]),
        ("gostop", THREE, (5, 0, -5), 1, ["+500 (+5점)", "0 (0점)", "−500 (−5점)"]),
        ("matgo", ["Aki", "Ben"], (7, -7), 1, ["+700 (+7점)", "−700 (−7점)"]),
    ],
    ids=["roppyakken", "sanbyakuken", "koikoi", "gostop", "matgo"],
)
def test_a_round_of_totals_shows_no_points_it_did_not_count(client, h, ruleset, players, values, unknown, amounts):
    rows = result_rows(client, h, ruleset, players, values)
    assert [cells[:unknown] for cells in rows.values()] == [["–"] * unknown] * len(players)
    assert [cells[-1] for cells in rows.values()] == amounts


def test_a_gostop_nagari_of_totals_shows_no_points_either(client, h):
    rows = result_rows(client, h, "gostop", THREE, (0, 0, 0), void="true")
    assert [cells[0] for cells in rows.values()] == ["–"] * 3
