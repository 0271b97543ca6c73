"""A round left half entered is offered again on the "Enter round" page (phone walk-through).

Every tap keeps the round as a draft (``referee.web.drafts``), but a player who left the page
(to the scoreboard, a closed tab) and came back by "Enter round" got an empty form: the cards
tapped in seemed lost.  The page opened fresh now offers the kept draft of the round now due:
Continue (its ``?step=`` page, whose Save saves once) or Start again (the empty form).
"""

from __future__ import annotations

import html
import re

import pytest

from referee.cards import CARDS

HX = {"HX-Request": "true"}
OFFER = "You were entering round"


def text(r) -> str:
    return r.get_data(as_text=True)


def tap(client, keeper, h, cards: int, *, nonce: str = "left", round_number: str = "1",
        draft: str = "page-draft-left") -> str:
    """Tap ``cards`` cards into Aki's pile on the new-round page: the live preview keeps them as the
    page's draft; returns the page's ``?step=`` address it names."""
    form = h.round_form({"Aki": [c.id for c in CARDS[:cards]]}, action="draft", nonce=nonce,
                        round_number=round_number, draft=draft, dealer="Aki")
    r = client.post(f"/s/{keeper}/round/preview", data=form, headers=HX)
    assert r.status_code == 200, text(r)[:300]
    return r.headers["HX-Replace-Url"]


def links(page: str) -> dict[str, str]:
    """The offer's links: their words -> their address."""
    offer = page[page.index(OFFER):]
    offer = offer[: offer.index("</p>")]
    return {html.unescape(re.sub(r"<[^>]+>", "", t)).strip(): html.unescape(href)
            for href, t in re.findall(r'<a href="([^"]+)"[^>]*>(.*?)</a>', offer)}


def test_a_round_left_half_entered_is_offered_with_continue_and_start_again(client, keeper, h):
    step = tap(client, keeper, h, 12)
    client.get(f"/s/{keeper}")  # left for the scoreboard
    page = text(client.get(f"/s/{keeper}/round/new"))
    assert "You were entering round 1 (12 cards tapped in)" in page
    offer = links(page)
    assert offer["Continue it"] == step  # the kept step: the same page, with the same one-time token
    kept = text(client.get(offer["Continue it"]))
    assert kept.count("checked") >= 12
    assert f'name="nonce" value="{h.signed("left")}"' in kept
    assert OFFER not in kept
    fresh = text(client.get(offer["Start again"]))
    assert OFFER not in fresh
    assert "0 of 48" in fresh or "checked" not in fresh
    # Save from the continued page saves round 1 once.
    form = h.round_form(h.piles(0), nonce="left", round_number="1", dealer="Aki")
    assert client.post(f"/s/{keeper}/round/new", data=form).status_code == 303
    assert len(client.get(f"/api/v1/sessions/{keeper}").get_json()["rounds"]) == 1


def test_the_next_tap_after_start_again_is_the_draft_offered(client, keeper, h):
    tap(client, keeper, h, 12)
    tap(client, keeper, h, 3, nonce="again", draft="page-draft-again")
    assert "You were entering round 1 (3 cards tapped in)" in text(client.get(f"/s/{keeper}/round/new"))


def test_a_draft_of_no_card_is_not_offered(client, keeper, h):
    tap(client, keeper, h, 0)
    assert OFFER not in text(client.get(f"/s/{keeper}/round/new"))


@pytest.mark.parametrize(
    "saved_nonce",
    [
        pytest.param("left", id="saved by its own Save"),
        pytest.param("other-phone", id="round 1 saved by another form: round 2 is due"),
    ],
)
def test_a_draft_of_a_round_saved_since_is_not_offered(client, keeper, h, saved_nonce):
    tap(client, keeper, h, 12)
    form = h.round_form(h.piles(0), nonce=saved_nonce, round_number="1", dealer="Aki")
    assert client.post(f"/s/{keeper}/round/new", data=form).status_code == 303
    page = text(client.get(f"/s/{keeper}/round/new"))
    assert OFFER not in page
    assert "<h1>Round 2 " in page


def test_a_saved_rounds_draft_is_not_offered_after_undo(client, keeper, h):
    """The round its Save saved was undone: round 1 is due again, but that form saved once already."""
    tap(client, keeper, h, 12)
    form = h.round_form(h.piles(0), nonce="left", round_number="1", dealer="Aki")
    assert client.post(f"/s/{keeper}/round/new", data=form).status_code == 303
    latest = client.get(f"/api/v1/sessions/{keeper}").get_json()["last_change"]
    assert client.post(f"/s/{keeper}/undo", data={"change": str(latest["id"])}).status_code == 303
    assert client.get(f"/api/v1/sessions/{keeper}").get_json()["rounds"] == []
    assert OFFER not in text(client.get(f"/s/{keeper}/round/new"))


def test_a_viewer_never_sees_the_offer(client, keeper, viewer, h):
    tap(client, keeper, h, 12)
    assert client.get(f"/s/{viewer}/round/new").status_code == 403
    assert OFFER not in text(client.get(f"/s/{viewer}"))
    assert f"/s/{keeper}" not in text(client.get(f"/s/{viewer}"))
