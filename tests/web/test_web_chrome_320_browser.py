"""The chrome of every screen on the smallest phone (320×640; Debian's headless Chromium through Playwright,
skipping saying why without one): the header keeps its links on one line, and the round entry's bar, however
many players it scores, keeps to a small part of the height, its scores whole and its Score button in reach."""

from __future__ import annotations

import pytest
from test_web_phone_fit_browser import CLIPPED_JS
from web_helpers import session

pytestmark = pytest.mark.slow

SMALLEST = {"viewport": {"width": 320, "height": 640}}
SIX = ["Alpha Bravo Charlie", "Delta", "Echo-Foxtrot", "ジロー", "😀😀", "Zulu"]


@pytest.fixture
def six(client) -> str:
    return session(client, "hachihachi", SIX)


# Bug (new-user walk-through, 320 px): the header's links wrapped to a second line, 88 px tall.
@pytest.mark.parametrize("path", ["/", "/new", "/help", "/players", "SIX", "SIX/round/new", "SIX/what-if"])
def test_the_header_keeps_to_one_line(live, browser, six, path):
    page = browser.new_page(**SMALLEST)
    page.goto(live + (path.replace("SIX", f"/s/{six}") if "SIX" in path else path))
    header = page.locator("header.top").bounding_box()
    assert header["height"] <= 48, header
    links = page.locator("header.top a").all()
    assert len(links) == 5
    for link in links:  # each still a thumb's tap
        box = link.bounding_box()
        assert min(box["height"], box["width"]) >= 44, (link.inner_text(), box)
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


# Bug (new-user walk-through, 320 px): six Hachi-hachi players' bar was about 175 px, 27% of the screen (two
# rows of name-over-score, two lines of status, the Score button).
def test_six_players_bar_keeps_to_a_fifth_of_the_height(live, browser, six):
    page = browser.new_page(**SMALLEST)
    page.goto(f"{live}/s/{six}/round/new")
    bar = page.locator(".entry-bar").bounding_box()
    assert bar["height"] <= 0.2 * 640, bar
    assert page.locator(".entry-bar button.primary").first.is_visible()
    assert page.locator("#preview .live-scores li").count() == 6
    assert page.evaluate(CLIPPED_JS, "#preview .live-scores .num") == []
