""""Every card in no pile goes to X" follows the taps in a phone browser (Debian's headless Chromium
through Playwright; skips, saying why, without one): offered on the last pile once every other
playing pile holds cards, as the server offers it (``forms.piles.rest_seats``).
"""

from __future__ import annotations

import pytest
from web_helpers import session

from referee.cards import CARD_IDS

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True}


# Bug (phone walk): with a Hachi-hachi player sitting out, the page's script counted the empty pile of
# the player forced out, so after the first tap the button never showed on the last playing pile.
@pytest.mark.parametrize("status", ["forced", "drop"])
def test_a_player_sitting_out_does_not_hide_every_card_left_from_the_last_playing_pile(
        live, browser, client, status):
    pytest.importorskip("referee.hachihachi", reason="the Hachi-hachi module is not installed")
    token = session(client, "hachihachi", ["Aki", "Ben", "Chiyo", "Dai"])
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live}/s/{token}/round/new")
    page.select_option('select[name="status-0"]', status)  # Aki sits this round out
    for seat, cards in ((1, CARD_IDS[:16]), (2, CARD_IDS[16:32])):
        page.locator(f'label[for="tab-{seat}"]').click()
        for cid in cards:
            page.locator(f'input[name="pile-{seat}"][value="{cid}"] + .face').click()
    page.locator('label[for="tab-3"]').click()
    rest = page.get_by_role("button", name="Every card in no pile goes to Dai")
    assert rest.is_visible()
    assert not page.locator("#panel-0 button.rest").is_visible()  # never to the player sitting out
    rest.click()
    page.locator("#preview").get_by_text("48 of 48").wait_for()
    assert page.locator('input[name="pile-3"]:checked').count() == 16
