"""Reloading the round form mid-entry (or the phone reloading the tab after the camera app) shows the
live preview of the taps it kept, without another tap (Debian's headless Chromium through Playwright;
skips, saying why, without one): every player's running score, and the live preview's own prompt.
"""

from __future__ import annotations

import pytest
from web_helpers import session

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True}


def tap(page, seat: int, cards) -> None:
    page.locator(f'label[for="tab-{seat}"]').click()
    for cid in cards:
        page.locator(f'input[name="pile-{seat}"][value="{cid}"] + .face').click()


# Bug (phone walk): after a reload every tap was kept but each running score read "–" until the next tap,
# and Go-Stop's "Say how the round ended" prompt was gone.
@pytest.mark.parametrize(("ruleset", "players", "cards", "shown"), [
    ("roppyakken", ["Aki", "Ben", "Chiyo"], ["pine-crane", "cherry-curtain"], "total 0"),
    ("gostop", ["Jiwoo", "Minho", "Seoyeon"], ["pine-chaff-1", "pine-chaff-2"], "Say how the round ended"),
], ids=["roppyakken-running-scores", "gostop-how-it-ended-prompt"])
def test_a_reload_mid_entry_shows_the_live_preview_of_the_kept_taps(
        live, browser, client, ruleset, players, cards, shown):
    token = session(client, ruleset, players)
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live}/s/{token}/round/new")
    tap(page, 0, cards)
    preview = page.locator("#preview")
    preview.get_by_text(f"{len(cards)} of 48").wait_for()
    preview.get_by_text(shown).first.wait_for()
    before = preview.locator(".live-scores").inner_text()
    page.wait_for_url("**step=*")  # the preview kept the taps as the page's draft
    page.reload()
    assert page.locator('input[name="pile-0"]:checked').count() == len(cards)
    preview = page.locator("#preview")
    preview.get_by_text(shown).first.wait_for(timeout=5000)
    assert preview.locator(".live-scores").inner_text() == before
    if ruleset == "roppyakken":
        assert "–" not in before
