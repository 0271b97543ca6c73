"""End to end in a real browser: Debian's headless Chromium driven by Playwright's Python package.

Creates a 3-player Roppyakken session, enters a round by tapping cards, sees the
result, saves it, and watches a second page (the viewer link) update by itself.
Never downloads a browser: it uses the installed ``chromium`` (``CHROMIUM`` env
to point elsewhere) and skips, with the reason, when there is none.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow
def totals_by_player(page) -> dict[str, str]:
    """The scoreboard's totals (ranked on the page), by player."""
    names = [n.split()[0] for n in page.locator(".total .pname").all_inner_texts()]
    points = [t.split()[0] for t in page.locator(".total .ptotal").all_inner_texts()]
    return dict(zip(names, points, strict=True))


def tap(page, seat: int, card_id: str, group: str = "pile") -> None:
    page.locator(f'input[name="{group}-{seat}"][value="{card_id}"] + .face').click()


def test_score_a_round_on_phones(live, browser, h):
    phone = {"viewport": {"width": 360, "height": 740}}
    keeper = browser.new_page(**phone)
    keeper.goto(live + "/")
    keeper.get_by_text("New session").first.click()
    keeper.fill('input[name="name"]', "Browser game")
    for i, p in enumerate(h.players):
        keeper.fill(f'input[name="player-{i}"]', p)
    keeper.get_by_role("button", name="Create session").click()
    keeper.wait_for_selector("#board")
    assert keeper.locator(".total.oya .pname").inner_text().startswith("Aki")

    assert keeper.locator("details#share").get_attribute("open") is not None  # open on the first visit
    viewer_url = keeper.locator(".share a").first.get_attribute("href")
    viewer = browser.new_page(**phone)
    viewer.goto(viewer_url)
    assert viewer.locator("#round-1").count() == 0
    assert viewer.get_by_text("Enter round").count() == 0

    keeper.get_by_text("Enter round 1").click()
    piles = h.piles(0)
    for seat, player in enumerate(h.players):
        keeper.locator(f'label[for="tab-{seat}"]').click()
        for cid in piles[player]:
            tap(keeper, seat, cid)
    # A card in another player's pile shows as taken and cannot be moved by a tap.
    taken = keeper.locator('input[name="pile-0"][value="pampas-moon"]')
    assert taken.is_disabled()
    assert keeper.locator("#panel-0 .tile.taken .taken-by").first.inner_text() in h.players
    keeper.locator("#preview").get_by_text("24 of 48").wait_for(timeout=5000)
    assert keeper.locator('label[for="tab-2"] [data-count]').inner_text() == "8"

    keeper.get_by_role("button", name="Score round").click()
    result = keeper.locator("#result")
    result.wait_for()
    assert "Next oya: Chiyo" in result.inner_text()
    assert "Brights (hikari)" in result.inner_text()
    keeper.get_by_role("button", name="Save round 1").click()
    keeper.wait_for_selector("#round-1")
    assert "Round 1 saved" in keeper.content()
    assert keeper.locator(".total.oya .pname").inner_text().startswith("Chiyo")

    # The viewer's page updates by polling, without a reload.
    viewer.wait_for_selector("#round-1", timeout=6000)
    assert totals_by_player(viewer) == {"Aki": "70", "Ben": "50", "Chiyo": "220"}


def test_the_core_actions_work_without_javascript(live, browser, h):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(live + "/new")
    page.fill('input[name="name"]', "No JS")
    for i, p in enumerate(h.players):
        page.fill(f'input[name="player-{i}"]', p)
    page.get_by_role("button", name="Create session").click()
    page.get_by_text("Enter round 1").click()
    piles = h.piles(0)
    for seat, player in enumerate(h.players):
        page.locator(f'label[for="tab-{seat}"]').click()  # CSS tabs: no script needed
        for cid in piles[player]:
            tap(page, seat, cid)
    page.get_by_role("button", name="Score round").click()
    assert "Next oya: Chiyo" in page.locator("#result").inner_text()
    page.get_by_role("button", name="Save round 1").click()
    assert page.locator("#round-1").count() == 1
    assert totals_by_player(page) == {"Aki": "70", "Ben": "50", "Chiyo": "220"}
    page.get_by_text("Why?").first.click()
    page.get_by_text("Delete").first.click()
    page.get_by_role("button", name="Delete round 1").click()
    assert page.locator("#round-1").count() == 0
    page.get_by_role("button", name="Undo delete round 1").click()
    assert page.locator("#round-1").count() == 1
    context.close()


def test_a_360px_phone_never_scrolls_sideways(live, browser, client, h):
    """QA at 360 px: a 40-character name and six Hachi-hachi players once widened the page;
    the sticky preview covered ~130 px of cards; "taken by" was drawn over the card's name.
    Issue 11: a 100-character session name scrolled the round page sideways, and a long name
    hid the card count on its tab."""
    long = "長" * 40
    players = ["Aki", long, "Chiyo"]
    r = client.post("/api/v1/sessions", json={"name": "W" * 100, "ruleset": "roppyakken", "players": players})
    token = r.get_json()["edit_token"]
    piles = dict(zip(players, h.piles(0).values(), strict=True))
    assert client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": piles}).status_code == 201
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(f"{live}/s/{token}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.goto(f"{live}/s/{token}/round/new")
    tap(page, 0, "pine-crane")
    page.locator('label[for="tab-1"]').click()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # The entry bar (live scores, Score, Save) keeps most of the screen for the cards.
    assert page.evaluate("document.querySelector('.entry-bar').getBoundingClientRect().height") <= 170
    count = page.locator('label[for="tab-1"] .count').bounding_box()
    tab = page.locator('label[for="tab-1"]').bounding_box()
    assert count["width"] > 10
    assert count["x"] + count["width"] <= tab["x"] + tab["width"]  # the count stays in view beside a long name
    face = page.locator('#panel-1 input[value="pine-crane"] + .face').bounding_box()
    taken = page.locator('#panel-1 input[value="pine-crane"] ~ .taken-by').bounding_box()
    assert taken["y"] >= face["y"] + face["height"] - 1  # below the card, not over its name
    assert "\u00ad" in page.locator('#panel-1 input[value="peony-butterflies"] + .face > span').inner_text()


def test_without_htmx_a_preset_change_reloads_the_options(live, browser):
    """Offline tables: when no htmx loads at all, /new still shows the chosen preset's options."""
    pytest.importorskip("referee.hachihachi", reason="the Hachi-hachi module is not installed")
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.route("**/htmx*.js", lambda route: route.abort())
    page.goto(f"{live}/new")
    assert page.evaluate("window.htmx === undefined")
    page.fill('input[name="player-0"]', "Aki")
    page.select_option('select[name="ruleset"]', "hachihachi")
    page.wait_for_selector('input[name="options_shown"][value="hachihachi"]', state="attached")
    assert page.input_value('input[name="player-0"]') == "Aki"
