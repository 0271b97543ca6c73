"""The offer of a round left half entered, on a 390 px phone (Debian's headless Chromium through Playwright;
skips, saying why, without one): "Continue it" and "Start again" are thumb-sized buttons, and Start again
dismisses the offer for good.
"""

from __future__ import annotations

import pytest
from web_helpers import session

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True}
OFFER = "You were entering round"


def left_half_entered(browser, live, client):
    """A round with two cards tapped in, left for the scoreboard and opened again by "Enter round"."""
    token = session(client, "roppyakken", ["Aki", "Ben", "Chiyo"])
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live}/s/{token}/round/new")
    for cid in ("pine-crane", "cherry-curtain"):
        page.locator(f'input[name="pile-0"][value="{cid}"] + .face').click()
    page.wait_for_url("**step=*")  # the preview kept the taps as the page's draft
    page.goto(f"{live}/s/{token}")
    page.goto(f"{live}/s/{token}/round/new")
    page.get_by_text(OFFER).wait_for()
    return page, token


# Bug (phone walk-through): the offer's two choices were small inline text links ("Continue it · Start again").
def test_the_offers_choices_are_thumb_sized_buttons(live, browser, client, h):
    page, _ = left_half_entered(browser, live, client)
    for name in ("Continue it", "Start again"):
        box = page.locator(".flash", has_text=OFFER).get_by_text(name, exact=True).bounding_box()
        assert box["height"] >= 44, f"{name}: {box}"
        assert box["width"] >= 44, f"{name}: {box}"
        assert box["x"] >= 0, f"{name} runs off the phone: {box}"
        assert box["x"] + box["width"] <= 390, f"{name} runs off the phone: {box}"
    h.thumb_friendly(page)


def test_start_again_on_the_phone_is_not_asked_again(live, browser, client):
    page, token = left_half_entered(browser, live, client)
    page.locator(".flash", has_text=OFFER).get_by_text("Start again", exact=True).click()
    page.wait_for_url("**fresh=1*")
    assert page.locator('input[name="pile-0"]:checked').count() == 0
    page.goto(f"{live}/s/{token}/round/new")
    assert page.get_by_text(OFFER).count() == 0
