"""Go-Stop end to end on a phone (390×844; Debian's headless Chromium through Playwright, skipping
saying why without one): a three-round Go-Stop evening with a nagari carried into the next round,
then a Matgo round.  Screenshots go to $GOSTOP_SHOTS (else the test's temporary folder)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}}
SAMGWANG = ["pine-crane", "cherry-curtain", "pampas-moon"]
BIRDS = ["plum-bush-warbler", "wisteria-cuckoo", "pampas-geese"]
HONGDAN = ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon"]


def tap(page, seat: int, cards) -> None:
    page.locator(f'label[for="tab-{seat}"]').click()
    for cid in cards:
        page.locator(f'input[name="pile-{seat}"][value="{cid}"] + .face').click()


def new_session(page, live: str, ruleset: str, players) -> None:
    page.goto(live + "/new")
    page.fill('input[name="name"]', f"{ruleset} on a phone")
    page.select_option('select[name="ruleset"]', ruleset)
    page.wait_for_selector(f'input[name="options_shown"][value="{ruleset}"]', state="attached")
    for i, p in enumerate(players):
        page.fill(f'input[name="player-{i}"]', p)
    page.get_by_role("button", name="Create session").click()
    page.wait_for_selector("#board")


def save(page, number: int) -> None:
    page.get_by_role("button", name="Score round").click()
    page.get_by_role("button", name=f"Save round {number}").click()
    page.wait_for_selector(f"#round-{number}")


def totals(page) -> dict[str, str]:
    """Player -> total money as the scoreboard shows it (ranked: highest first)."""
    return {li.locator(".pname").inner_text().split()[0]: li.locator(".ptotal").inner_text().split("(")[0].strip()
            for li in page.locator(".totals .total").all()}


def test_a_gostop_evening_and_a_matgo_round_on_a_phone(live, browser, tmp_path):
    shots = Path(os.environ.get("GOSTOP_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(**PHONE)
    new_session(page, live, "gostop", ["Jiwoo", "Minho", "Seoyeon"])

    # Round 1: nobody stops (나가리); Minho's first-turn ppeok pays 3 from each.
    page.get_by_text("Enter round 1").click()
    page.get_by_label("Nobody stopped").check()
    page.fill('input[name="ppeok-1"]', "1")
    tap(page, 0, ["pine-chaff-1", "pine-chaff-2"])
    page.screenshot(path=shots / "gostop-round-entry.png", full_page=True)
    save(page, 1)
    assert totals(page) == {"Jiwoo": "−300", "Minho": "+600", "Seoyeon": "−300"}

    # Round 2 carries ×2: Jiwoo's samgwang 3 + 1 go = 4, ×2 나가리; Minho holds a bright (8),
    # Seoyeon none (×2 광박: 16).
    page.get_by_text("Enter round 2").click()
    assert "×2 나가리" in page.locator(".round-month").inner_text()
    page.get_by_label("Jiwoo stopped").check()
    page.fill('input[name="gos-0"]', "1")
    tap(page, 0, SAMGWANG)
    tap(page, 1, ["willow-rain-man"])
    page.get_by_role("button", name="Score round").click()
    result = page.locator("#result").inner_text()
    assert "×2 나가리" in result
    assert "×2 광박: Seoyeon holds no bright" in result
    page.screenshot(path=shots / "gostop-round-scored.png", full_page=True)
    page.get_by_role("button", name="Save round 2").click()
    page.wait_for_selector("#round-2")
    assert totals(page) == {"Jiwoo": "+2,100", "Minho": "−200", "Seoyeon": "−1,900"}

    # Round 3: Seoyeon shakes and stops on godori 5: ×2 흔들기, 10 from each.
    page.get_by_text("Enter round 3").click()
    assert page.locator(".round-month").count() == 0  # no carry after a stop
    page.get_by_label("Seoyeon stopped").check()
    page.fill('input[name="shakes-2"]', "1")
    tap(page, 2, BIRDS)
    save(page, 3)
    assert totals(page) == {"Jiwoo": "+1,100", "Minho": "−1,200", "Seoyeon": "+100"}
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=shots / "gostop-scoreboard.png", full_page=True)

    # Matgo: Minho called go and lost: (5 + 3) ×2 고박 = 16, 1,600.
    new_session(page, live, "matgo", ["Jiwoo", "Minho"])
    page.get_by_text("Enter round 1").click()
    page.get_by_label("Jiwoo stopped").check()
    page.fill('input[name="gos-1"]', "1")
    tap(page, 0, BIRDS + HONGDAN)
    tap(page, 1, ["willow-rain-man"])
    page.get_by_role("button", name="Score round").click()
    assert "×2 고박: Minho called go once and lost" in page.locator("#result").inner_text()
    page.get_by_role("button", name="Save round 1").click()
    page.wait_for_selector("#round-1")
    assert totals(page) == {"Jiwoo": "+1,600", "Minho": "−1,600"}
    page.screenshot(path=shots / "matgo-scoreboard.png", full_page=True)
