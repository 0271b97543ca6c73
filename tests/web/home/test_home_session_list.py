"""The home page's list of sessions: each one's game, players and where it stands."""

from __future__ import annotations

import html
import re

import pytest


def home_line(client, name: str) -> str:
    """The standing line of session ``name`` on the home page, its whitespace collapsed."""
    body = html.unescape(client.get("/").get_data(as_text=True))
    card = re.search(rf"<strong>{re.escape(name)}</strong>(.*?)</a>", body, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", " ", card.split("<time")[0]).split())


# Bug (phone walk-through): the leader line read "Leader: Jiwoo (+27,000 (270점))", brackets nested in
# brackets; every family's amount now follows a comma, keeping only its own brackets.
@pytest.mark.parametrize(
    ("ruleset", "totals", "says"),
    [
        # game         a round entered as totals                       the home page says
        ("gostop",     {"Jiwoo": 270, "Minho": -120, "Seoyeon": -150}, "Leader: Jiwoo, +27,000 (+270점)"),
        ("roppyakken", {"Jiwoo": 120, "Minho": 40, "Seoyeon": 300},    "Leader: Seoyeon, 300"),
        ("hachihachi", {"Jiwoo": 30, "Minho": -12, "Seoyeon": -18},    "Leader: Jiwoo, −2 kan 6 mon"),  # ante paid
    ],
    ids=["gostop-money-and-points", "roppyakken-points", "hachihachi-kan-and-mon"],
)
def test_the_leader_line_nests_no_brackets(client, ruleset, totals, says):
    r = client.post("/api/v1/sessions", json={"name": "Table", "ruleset": ruleset, "players": list(totals)})
    assert r.status_code == 201, r.get_data(as_text=True)
    token = r.get_json()["edit_token"]
    assert client.post(f"/api/v1/sessions/{token}/rounds", json={"totals": totals}).status_code == 201
    line = home_line(client, "Table")
    assert says in line
    assert not re.search(r"\([^()]*\(", line)  # no bracket opened inside another
