"""A player's page on the narrowest phone in use (320 px; Debian's headless Chromium through Playwright,
skipping saying why without one): the sessions table fits the screen, so the page never scrolls sideways."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


# Bug (phone walk): at 320 px a Hachi-hachi total ("−5 kan 0 mon") kept on one line pushed the player's
# sessions table 24 px past the screen's edge, so the whole page scrolled sideways.
def test_a_players_sessions_table_fits_a_320_px_phone(live, browser):
    page = browser.new_page(viewport={"width": 320, "height": 640})
    page.goto(f"{live}/")
    for ruleset, name in [("hachihachi", "Test hachihachi"), ("roppyakken", "Friday at Aki's")]:
        r = page.request.post(f"{live}/api/v1/sessions", data={"name": name, "ruleset": ruleset,
                                                               "players": ["Aki", "Ben", "Chiyo"]})
        assert r.status == 201, r.text()
    page.goto(f"{live}/players/aki")
    assert page.locator("table.history tbody tr").count() == 2
    assert "kan" in page.locator("table.history").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
