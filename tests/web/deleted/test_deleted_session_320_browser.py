"""The delete of a session at 320 px, tapped through as a player does: the scoreboard's "Delete this
session", the confirm page, the page after with Undo, Deleted sessions, and Undo.  No page is wider than the
screen, every control is thumb-sized, and axe-core finds nothing serious."""

from __future__ import annotations

from test_web_card_names_320_browser import SMALLEST

#: A long session name with no space to break at: it must wrap, not widen the page.
LONG = "Practice-game-with-the-whole-family-花札"


def fits(page, h) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 320, page.url
    h.thumb_friendly(page)
    h.accessible(page)


def test_deleting_and_bringing_back_a_session_fits_320_px(live, browser, client, h):
    token = h.new_session(client, name=LONG)
    page = browser.new_page(**SMALLEST)
    page.goto(f"{live}/s/{token}")
    page.click("text=Delete this session")
    page.wait_for_url(f"{live}/s/{token}/delete")
    assert "Aki · Ben · Chiyo" in page.inner_text("main")
    fits(page, h)
    page.click("button.danger")
    page.wait_for_url(f"{live}/s/{token}/deleted")
    assert "deleted" in page.inner_text("main")
    fits(page, h)
    page.goto(f"{live}/deleted")
    fits(page, h)
    page.goto(f"{live}/s/{token}")  # the deleted session's 404, with its way to Undo
    fits(page, h)
    page.click("text=Undo: bring it back")
    page.wait_for_url(f"{live}/s/{token}/deleted")
    page.click("button.primary")
    page.wait_for_url(f"{live}/s/{token}")
    assert "is back, with every round as it was" in page.inner_text("main")
