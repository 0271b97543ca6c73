"""A Go-Stop stopper's points grow as their cards are tapped in, so the live preview does not refuse "Ben stopped"
while the piles are being entered: before any card it says nothing of the stop points, and with cards it says
them as guidance, not as an error.  Score and Save still refuse a stopper below them, naming the house rule by
its label (GOSTOP-RULES.md "Points from captures": a stopper below ``stop_points`` is an error)."""

from __future__ import annotations

import html
import re

import pytest
from web_helpers import rounds, session
from werkzeug.datastructures import MultiDict

PLAYERS = ["Aki", "Ben", "Cho"]
BELOW = "Ben stopped with 0 points; stopping takes 3 (house rule “Points to stop”)"


def _form(h, cards: list[str], action: str = "score") -> MultiDict:
    form = MultiDict({"action": action, "nonce": h.signed("n-1"), "stopped_by": "Ben"})
    for c in cards:
        form.add("pile-1", c)
    return form


def _preview(client, h, token: str, cards: list[str]) -> str:
    return html.unescape(client.post(f"/s/{token}/round/preview", data=_form(h, cards)).get_data(as_text=True))


# Bug: choosing "Ben stopped" put "Ben stopped with 0 points; stopping takes 3 (option stop_points)" in the live
# score as an error before a single card was in.
def test_the_live_preview_says_nothing_of_the_stop_points_before_any_card(client, h):
    token = session(client, "gostop", PLAYERS)
    fragment = _preview(client, h, token, [])
    assert "stopping takes" not in fragment
    assert 'class="error"' not in fragment
    assert "No cards entered yet" in fragment


@pytest.mark.parametrize("cards", [["pine-crane"], ["pine-crane", "cherry-curtain"]], ids=["one card", "two"])
def test_with_cards_in_the_live_preview_says_the_stop_points_as_guidance(client, h, cards):
    token = session(client, "gostop", PLAYERS)
    fragment = _preview(client, h, token, cards)
    assert re.search(rf'<p class="state hint">{re.escape(BELOW)}', fragment), fragment
    assert 'class="error"' not in fragment


def test_score_and_save_refuse_a_stopper_below_the_stop_points_by_the_rules_label(client, h):
    token = session(client, "gostop", PLAYERS)
    for action, status in (("score", 200), ("save", 422)):
        r = client.post(f"/s/{token}/round/new", data=_form(h, ["pine-crane"], action), follow_redirects=True)
        page = html.unescape(r.get_data(as_text=True))
        assert r.status_code == status
        assert re.search(r'<p class="error" role="alert">([^<]*)</p>', page).group(1) == BELOW
        assert "stop_points" not in page
    assert rounds(client, token) == []
