"""The Hachi-hachi round page names dekiyaku as its menu does ("Poetry Ribbons 赤短") and counts the piles
that hold them once: the error and the hint under the picker agree on how many players made dekiyaku.

Bug (a new user's report): with dekiyaku in three piles the page said "The piles hold dekiyaku for 3 players
(Aki: gokou; Ben: akatan; Chie: aotan)" and, below, "Two piles hold dekiyaku"; once a decision was stated,
"⚠ Ben's pile holds akatan, which no decision mentions".
"""

from __future__ import annotations

import html

import pytest
from web_helpers import session, text
from werkzeug.datastructures import MultiDict

GOKOU = ["pine-crane", "cherry-curtain", "pampas-moon", "willow-rain-man", "paulownia-phoenix"]
AKATAN = ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon"]
AOTAN = ["peony-blue-ribbon", "chrysanthemum-blue-ribbon", "maple-blue-ribbon"]
PLAYERS = ["Aki", "Ben", "Chie"]


def page(client, h, token, piles, calls=()) -> str:
    form = MultiDict({"action": "score", "nonce": h.signed("dk"), "multiplier": "1"})
    for i, cards in enumerate(piles):
        for c in cards:
            form.add(f"pile-{i}", c)
    for k, (player, yaku, decision) in enumerate(calls):
        form.add(f"dk-player-{k}", player)
        form.add(f"dk-yaku-{k}", yaku)
        form.add(f"dk-decision-{k}", decision)
    r = client.post(f"/s/{token}/round/new", data=form, follow_redirects=True)
    return text(html.unescape(r.get_data(as_text=True)))


@pytest.fixture
def hh(client) -> str:
    return session(client, "hachihachi", PLAYERS)


COUNTS = [
    ("three piles", [GOKOU, AKATAN, AOTAN], 3,
     "(Aki: Five Brights 五光; Ben: Poetry Ribbons 赤短; Chie: Blue Ribbons 青短)"),
    ("two piles", [GOKOU, AKATAN, []], 2, "(Aki: Five Brights 五光; Ben: Poetry Ribbons 赤短)"),
]


@pytest.mark.parametrize(("piles", "makers", "named"), [c[1:] for c in COUNTS], ids=[c[0] for c in COUNTS])
def test_the_error_and_the_hint_count_the_same_players_and_name_dekiyaku_as_the_menu(client, h, hh, piles,
                                                                                       makers, named):
    said = page(client, h, hh, piles)
    assert f"The piles hold dekiyaku for {makers} players {named}" in said
    assert f"The piles hold dekiyaku for {makers} players: say below who made theirs first" in said
    assert "Two piles" not in said
    assert "akatan" not in said
    assert "gokou" not in said


def test_a_dekiyaku_no_decision_mentions_is_named_as_the_menu_names_it(client, h, hh):
    said = page(client, h, hh, [GOKOU, AKATAN, AOTAN], [("Aki", "gokou", "stop")])
    assert "Ben's pile holds Poetry Ribbons 赤短, which no decision mentions" in said
    assert "Chie's pile holds Blue Ribbons 青短, which no decision mentions" in said
    menu = client.get(f"/s/{hh}/round/new").get_data(as_text=True)
    assert ">Poetry Ribbons 赤短</option>" in menu  # the menu's words, which the messages now use
