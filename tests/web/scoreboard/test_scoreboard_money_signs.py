"""Money shown with its points (Go-Stop's "−8,000 (−80점)") carries one sign on both: the money and the
점 in brackets are the same amount, so a loser's points are minus too, and a winner's plus.
GOSTOP-RULES.md "Settlement": money is points × the stake (점당)."""

from __future__ import annotations

import re

import pytest
from web_helpers import text

ROUND = {"totals": {"Jiwoo": 80, "Minho": -50, "Seoyeon": -30}}  # 점, entered on paper


def gostop_session(client) -> str:
    r = client.post("/api/v1/sessions", json={"name": "Signs", "ruleset": "gostop",
                                              "players": ["Jiwoo", "Minho", "Seoyeon"]})
    assert r.status_code == 201, r.get_data(as_text=True)
    token = r.get_json()["edit_token"]
    assert client.post(f"/api/v1/sessions/{token}/rounds", json=ROUND).status_code == 201
    return token


# Bug (phone walk-through): a loser showed as "−8,000 (80점)", the points without the money's minus.
@pytest.mark.parametrize(
    ("page", "shows"),
    [
        # page                     the amounts it shows, each with one sign on money and 점
        ("scoreboard",             ["+8,000 (+80점)", "\u22125,000 (\u221250점)", "\u22123,000 (\u221230점)"]),
        ("player Minho",           ["\u22125,000 (\u221250점)"]),
        ("player Jiwoo",           ["+8,000 (+80점)"]),
        ("round edit",             ["+8,000 (+80점)", "\u22125,000 (\u221250점)"]),
    ],
    ids=["scoreboard-totals-and-rounds", "player-page-loser", "player-page-winner", "entry-result"],
)
def test_money_and_its_points_carry_the_same_sign(client, page, shows):
    token = gostop_session(client)
    if page == "scoreboard":
        body = client.get(f"/s/{token}").get_data(as_text=True)
    elif page.startswith("player"):
        body = client.get(f"/players/{page.split()[1].lower()}").get_data(as_text=True)
    else:
        rid = client.get(f"/api/v1/sessions/{token}").get_json()["rounds"][0]["id"]
        form = client.get(f"/s/{token}/round/{rid}/edit").get_data(as_text=True)
        nonce = re.search(r'name="nonce" value="([^"]+)"', form).group(1)
        data = {"entry": "totals", "action": "score", "nonce": nonce, "total-0": "80", "sign-0": "+",
                "total-1": "50", "sign-1": "-", "total-2": "30", "sign-2": "-"}
        body = client.post(f"/s/{token}/round/{rid}/edit", data=data, follow_redirects=True).get_data(as_text=True)
    body = text(body)
    for amount in shows:
        assert amount in body, amount
    # No amount anywhere with a sign on one side only.
    assert not re.search(r"[+\u2212][\d,.]+ \([\d,.]+점\)", body)
    assert not re.search(r"(?<![+\u2212\d,.])[\d,.]*[1-9][\d,.]* \([+\u2212][\d,.]+점\)", body)
