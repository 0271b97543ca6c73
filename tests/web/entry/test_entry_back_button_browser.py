"""Back and Reload around Score and Save in a real phone browser (390×844 Chromium; table fixes item 1).

Before the fix, Score rendered its result straight from the POST: Back from the scoreboard (after
Save) or from a second Score landed on Chrome's "Confirm Form Resubmission" page
(net::ERR_CACHE_MISS).  Now every page in the round's history is a GET.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}}


def tap(page, seat: int, card_id: str) -> None:
    page.locator(f'input[name="pile-{seat}"][value="{card_id}"] + .face').click()


@pytest.mark.parametrize("js", [True, False], ids=["with JavaScript", "without JavaScript"])
def test_back_and_reload_after_score_and_save_never_ask_to_resubmit(live, browser, client, h, js):
    token = h.new_session(client)
    context = browser.new_context(java_script_enabled=js, **PHONE)
    page = context.new_page()
    page.goto(f"{live}/s/{token}/round/new")
    piles = h.piles(0)
    for seat, player in enumerate(h.players):
        page.locator(f'label[for="tab-{seat}"]').click()
        for cid in piles[player]:
            tap(page, seat, cid)
    page.get_by_role("button", name="Score round").click()
    assert "Next oya: Chiyo" in page.locator("#result").inner_text()
    first = page.url
    with page.expect_navigation():  # Score asks /ping first: the old page's #result is there meanwhile
        page.get_by_role("button", name="Score again").click()
    page.locator("#result").wait_for()
    # Back from a second Score: the first result again, from a GET (no resubmission page).
    response = page.go_back()
    assert page.url == first
    assert response is None or response.ok
    assert "Next oya: Chiyo" in page.locator("#result").inner_text()
    # Save is one tap; then Back from the scoreboard returns to the entry form with its cards kept.
    page.get_by_role("button", name="Save round 1").click()
    page.wait_for_selector("#round-1")
    response = page.go_back()
    assert response is None or response.ok
    assert page.locator('input[name="pile-2"]:checked').count() == len(piles["Chiyo"])
    # Reload re-shows the result as the saved round: no second Save, its edit page instead (issue 18 row 7).
    response = page.reload()
    assert response.ok
    assert "Brights (hikari)" in page.locator("#result").inner_text()
    assert page.get_by_role("button", name="Save round 1").count() == 0
    page.get_by_role("link", name="Edit round 1").click()
    page.wait_for_url(f"**/s/{token}/round/*/edit")
    assert len(client.get(f"/api/v1/sessions/{token}").get_json()["rounds"]) == 1
    context.close()
