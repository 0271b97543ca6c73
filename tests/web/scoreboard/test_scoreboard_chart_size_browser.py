"""The scoreboard's chart of totals keeps to a part of the screen and its text to a normal size at every
width (Debian's headless Chromium through Playwright, skipping saying why without one): drawn as an SVG that
scales with its box, it once grew with the page's width, filling a phone held sideways."""

from __future__ import annotations

import pytest
from test_web_phone_fit_browser import example_session

pytestmark = pytest.mark.slow

#: The chart's box and the size its axis text is drawn at on the screen (its font size times the SVG's
#: scale): [width, height, text px].
CHART_JS = """() => {
  const svg = document.querySelector('svg.chart'), box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  const text = parseFloat(getComputedStyle(svg.querySelector('text')).fontSize) * scale;
  return [box.width, box.height, text];
}"""


# Bug (landscape walk-through, 844x390): the chart was about 370 px tall and its axis numbers about 28 px,
# the whole screen; on a desktop it grew the same way.
@pytest.mark.parametrize(("width", "height"), [(844, 390), (1280, 800), (390, 844), (320, 640)],
                         ids=["phone-landscape", "desktop", "phone", "small-phone"])
def test_the_chart_keeps_to_part_of_the_screen_and_normal_text(app, live, browser, width, height):
    token, _ = example_session(app, "koikoi")
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{live}/s/{token}")
    w, h, text = page.evaluate(CHART_JS)
    assert h <= 0.5 * height, (w, h)
    assert 10 <= text <= 16, text  # the 12 px of its axis text, give or take its scale (10.4 px at 320 px)
    if width <= 400:  # a phone held upright: the chart still takes the page's width
        main = page.locator("main").bounding_box()
        assert w >= main["width"] - 2 * 12 - 1, (w, main)
