"""Koi-Koi end to end in a real browser (Debian's headless Chromium through Playwright; never
downloads a browser, skips saying why without one): create a 2-player Koi-Koi session, enter a
round (who stopped, the koi-koi calls, both piles by tapping), see the multipliers, save it, and
watch the viewer's scoreboard by month update by itself; then the same without JavaScript."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

PILES = {
    "Aki": ["peony-blue-ribbon", "chrysanthemum-blue-ribbon", "maple-blue-ribbon", "wisteria-ribbon", "iris-ribbon",
            "pine-chaff-1"],
    "Ben": ["cherry-curtain", "chrysanthemum-sake-cup"],
}


def tap(page, seat: int, card_id: str) -> None:
    page.locator(f'input[name="pile-{seat}"][value="{card_id}"] + .face').click()


def new_koikoi_session(page, live: str) -> None:
    page.goto(live + "/new")
    page.fill('input[name="name"]', "Koi-Koi in the browser")
    page.select_option('select[name="ruleset"]', "koikoi")
    page.wait_for_selector('input[name="options_shown"][value="koikoi"]', state="attached")
    page.fill('input[name="player-0"]', "Aki")
    page.fill('input[name="player-1"]', "Ben")
    page.get_by_role("button", name="Create session").click()
    page.wait_for_selector("#board")


def enter_round(page) -> None:
    page.get_by_text("Enter round 1").click()
    assert "Pine (松, month 1)" in page.locator(".round-month").inner_text()
    page.get_by_label("Aki stopped").check()
    page.select_option('select[name="call-0"]', "Ben")
    for seat, player in enumerate(["Aki", "Ben"]):
        page.locator(f'label[for="tab-{seat}"]').click()
        for cid in PILES[player]:
            tap(page, seat, cid)


def test_a_koikoi_round_on_phones(live, browser):
    phone = {"viewport": {"width": 360, "height": 740}}
    keeper = browser.new_page(**phone)
    new_koikoi_session(keeper, live)
    assert "highest total after 12 rounds wins" in keeper.locator("#board").inner_text()
    keeper.get_by_text("Share with the table").click()
    viewer = browser.new_page(**phone)
    viewer.goto(keeper.locator(".share a").first.get_attribute("href"))

    enter_round(keeper)
    # A card in the other pile shows as taken; the live preview shows the multiplied score.
    assert keeper.locator('input[name="pile-1"][value="maple-blue-ribbon"]').is_disabled()
    keeper.locator("#preview").get_by_text("yaku 7 ×4").wait_for(timeout=5000)
    assert keeper.evaluate("document.documentElement.scrollWidth") <= 360

    keeper.get_by_role("button", name="Score round").click()
    result = keeper.locator("#result").inner_text()
    assert "×2: 7 points or more" in result
    assert "×2: Ben called koi-koi" in result
    assert "Aki stopped: only the stopper scores" in result
    keeper.get_by_role("button", name="Save round 1").click()
    keeper.wait_for_selector("#round-1")
    assert "Pine (松, month 1)" in keeper.locator("#round-1").inner_text()
    assert keeper.locator(".total.oya .pname").inner_text().startswith("Aki")

    viewer.wait_for_selector("#round-1", timeout=6000)
    assert [t.split()[0] for t in viewer.locator(".ptotal").all_inner_texts()] == ["28", "0"]
    assert "round 2 of 12 next" in viewer.locator("#board").inner_text()
    keeper.get_by_text("Enter round 2").click()
    assert "Plum (梅, month 2)" in keeper.locator(".round-month").inner_text()


def test_a_koikoi_round_without_javascript(live, browser):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(live + "/new")
    page.select_option('select[name="ruleset"]', "koikoi")
    page.get_by_role("button", name="Load this game's players and house rules").click()
    page.fill('input[name="name"]', "No JS Koi-Koi")
    page.fill('input[name="player-0"]', "Aki")
    page.fill('input[name="player-1"]', "Ben")
    page.get_by_role("button", name="Create session").click()
    enter_round(page)
    page.get_by_role("button", name="Score round").click()
    assert "×2: Ben called koi-koi" in page.locator("#result").inner_text()
    page.get_by_role("button", name="Save round 1").click()
    assert [t.split()[0] for t in page.locator(".ptotal").all_inner_texts()] == ["28", "0"]
    context.close()
