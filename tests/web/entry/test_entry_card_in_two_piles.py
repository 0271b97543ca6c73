"""A card tapped into two piles (or twice into one) is named by its name and the piles by their players, with
what to do, never by its id (``iris-bridge is in both pile Aki and pile Ben``)."""

from __future__ import annotations

import html
import re

import pytest
from web_helpers import session
from werkzeug.datastructures import MultiDict

from referee.cards import BY_ID

GAMES = [("roppyakken", ["Aki", "Ben", "Cho"]), ("koikoi", ["Aki", "Ben"]), ("gostop", ["Aki", "Ben", "Cho"]),
         ("hachihachi", ["Aki", "Ben", "Cho"])]


def _error(client, h, ruleset, players, piles: dict[int, list[str]]) -> str:
    token = session(client, ruleset, players)
    form = MultiDict({"action": "score", "nonce": h.signed("n-1"), "stopped_by": "", "ending": "nobody"})
    for seat, cards in piles.items():
        for c in cards:
            form.add(f"pile-{seat}", c)
    body = html.unescape(client.post(f"/s/{token}/round/new", data=form, follow_redirects=True).get_data(as_text=True))
    found = re.findall(r'<p class="error"[^>]*>(.*?)</p>', body, flags=re.S)
    assert found, "no error on the page"
    return " ".join(found[0].split())


# Bug: "iris-bridge is in both pile Aki and pile Ben".
@pytest.mark.parametrize(("ruleset", "players"), GAMES, ids=[g[0] for g in GAMES])
def test_a_card_in_two_piles_is_named_with_the_players_piles(client, h, ruleset, players):
    error = _error(client, h, ruleset, players, {0: ["iris-bridge"], 1: ["iris-bridge"]})
    assert f"{BY_ID['iris-bridge'].name} is in both Aki's pile and Ben's pile; take it out of one." in error, error
    assert "iris-bridge" not in error, error
