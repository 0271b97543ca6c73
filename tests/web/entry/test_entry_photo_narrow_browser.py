"""The photo review's correction menus on the narrowest phone in use (320 px; Debian's headless Chromium through
Playwright, skipping saying why without one): each menu shows its card's whole name, none cut short.  A stub
detector stands in for the model (as in ``test_entry_photo_suggestions_browser.py``)."""

from __future__ import annotations

import pytest
from PIL import Image
from web_helpers import web_app

from vision.detection import Detection

pytestmark = pytest.mark.slow

SPOTS = [(60, 80, 290, 450), (330, 80, 560, 450), (600, 80, 830, 450), (870, 80, 1100, 450)]
CARDS = ["pine-crane", "chrysanthemum-sake-cup", "iris-bridge", "pine-chaff-1"]

#: Each correction menu whose chosen card's name is wider than the menu shows: [name, ...].  A closed menu never
#: wraps, so the name's width (in the menu's own font) plus its padding and arrow must fit its inner width.
CUT_JS = """sel => [...document.querySelectorAll(sel)].filter(s => {
  const cs = getComputedStyle(s), ctx = document.createElement("canvas").getContext("2d");
  ctx.font = cs.font;
  const text = s.options[s.selectedIndex].text;
  const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
  return ctx.measureText(text).width > room || s.getBoundingClientRect().right > innerWidth + 0.5;
}).map(s => s.options[s.selectedIndex].text)"""


class Stub:
    def detect(self, image):
        return [Detection(c, 0.95, box) for c, box in zip(CARDS, SPOTS, strict=True)]


@pytest.fixture
def app(tmp_path):  # the web conftest's app, with the stub detector
    return web_app(tmp_path, PHOTO_DETECTOR=Stub)


# Bug (phone walk): at 320 px the menus cut "Pine with Crane (and Sun)" short.
def test_the_correction_menus_show_whole_card_names_at_320_px(live, browser, client, h, tmp_path):
    photo = tmp_path / "pile.jpg"
    Image.new("RGB", (1200, 900), (60, 110, 70)).save(photo, "JPEG")
    keeper = h.new_session(client)
    page = browser.new_page(viewport={"width": 320, "height": 640})
    page.goto(f"{live}/s/{keeper}/round/new")
    page.set_input_files('input[name="snap-pile-0"]', str(photo))
    page.wait_for_selector("#photos-pile-0 .detections select", timeout=30_000)
    menus = "#photos-pile-0 .detections select"
    assert page.locator(menus).count() == len(CARDS)
    assert page.evaluate(CUT_JS, menus) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
