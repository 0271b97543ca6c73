"""The Go-Stop result says one score for the winner: the points column, "wins on N points" and the explanation
lines agree.  GOSTOP-RULES.md "Go and stop": "n gos add n points to the base"; "JSON": ``score`` is the
winner's base + go points, and each player's money lines sum to their money."""

from __future__ import annotations

import re

import pytest
from web_helpers import session, text
from werkzeug.datastructures import MultiDict

PLAYERS = ["Aki", "Ben", "Cho"]
SAMGWANG = ["pine-crane", "cherry-curtain", "pampas-moon"]  # 3 points
#: (the winner's go count, Ben's and Cho's piles, Aki's score, money column), cited
ROUNDS = [
    ("1", {"Ben": ["willow-rain-man"]}, 4, ["+1,200 (+12점)", "−400 (−4점)", "−800 (−8점)"]),
    ("2", {"Ben": ["willow-rain-man"], "Cho": ["paulownia-phoenix"]}, 5, ["+1,000 (+10점)", "−500 (−5점)",
                                                                         "−500 (−5점)"]),
    ("", {"Ben": ["willow-rain-man"], "Cho": ["paulownia-phoenix"]}, 3, ["+600 (+6점)", "−300 (−3점)",
                                                                        "−300 (−3점)"]),
]


def _scored(client, h, gos: str, others: dict[str, list[str]]) -> str:
    token = session(client, "gostop", PLAYERS)
    form = MultiDict({"action": "score", "nonce": h.signed("n-1"), "stopped_by": "Aki", "gos-0": gos})
    for seat, p in enumerate(PLAYERS):
        for c in (SAMGWANG if p == "Aki" else others.get(p, [])):
            form.add(f"pile-{seat}", c)
    page = client.post(f"/s/{token}/round/new", data=form, follow_redirects=True).get_data(as_text=True)
    start = page.index('id="result"')
    return page[start:page.index("</section>", start)]


# Bug: with one go Aki's row read "points 3" under "Aki wins on 4 points": the column showed the point lines
# alone (base), the sentence base + go points (score).
@pytest.mark.parametrize(("gos", "others", "score", "money"), ROUNDS,
                         ids=["GOSTOP-RULES.md:37 one go +1", "two gos +2", "no go"])
def test_the_winners_points_are_one_score_everywhere(client, h, gos, others, score, money):
    result = _scored(client, h, gos, others)
    rows = re.findall(r"<tr><th>(\w+)</th><td>([^<]*)</td><td>[^<]*</td><td><strong>([^<]*)</strong>", result)
    assert rows[0][:2] == ("Aki", str(score))
    assert [m for *_, m in rows] == money
    assert f"Aki wins on {score} points." in text(result)
    # Aki's lines (each loser's share, line by line) add up to Aki's money, in points (점).
    taken = re.findall(r"\(\+(\d+)점\) from (?:Ben|Cho):", text(result))
    assert f"+{sum(map(int, taken))}점" in money[0]


# The same bug for an instant win: chongtong's 10 points (GOSTOP-RULES.md "Instant wins") read "points 0".
def test_an_instant_wins_points_are_its_score(client, h):
    token = session(client, "gostop", PLAYERS)
    form = MultiDict({"action": "score", "nonce": h.signed("n-1"), "stopped_by": "", "instant-player": "Ben",
                      "instant-month": "1"})
    page = client.post(f"/s/{token}/round/new", data=form, follow_redirects=True).get_data(as_text=True)
    result = page[page.index('id="result"'):]
    assert re.search(r"<tr><th>Ben</th><td>10</td>", result)
    assert "Ben wins on 10 points (chongtong)." in text(result)
