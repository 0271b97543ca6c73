"""Photo to score in headless Chromium (Debian's, never downloaded), issue 9 items 4 and 5:

- only certain cards are tapped into the picker; uncertain ones at or above
  ``vision.SUGGEST_FLOOR`` are offered beside the photo ("Pine chaff 松のカス? Yes / No");
  Yes taps the card in, No dismisses it; nothing below the floor is shown;
- the capture guide is on the Snap slot before the first photo and comes back after a photo
  with uncertain cards;
- two photos of one pile still merge;
- the same with JavaScript off (plain form posts, each answered with a 303).

A stub detector stands in for the model, its detections placed relative to the vision
thresholds, so these tests do not depend on the model's numbers (the real model is
``test_entry_photo_browser.py``).  The photo is a plain drawing made at test time.
"""

from __future__ import annotations

import re

import pytest
from PIL import Image, ImageDraw
from web_helpers import web_app

from vision.detection import SUGGEST_FLOOR, Detection

pytestmark = pytest.mark.slow
ABOVE = min(1.0, SUGGEST_FLOOR + 0.1)
BELOW = SUGGEST_FLOOR / 2
#: Six card-like rectangles on green, 1200 x 900 px: (x1, y1, x2, y2) each.
SPOTS = [(60, 80, 290, 450), (330, 80, 560, 450), (600, 80, 830, 450), (870, 80, 1100, 450)]
SPOTS += [(60, 480, 290, 850), (330, 480, 560, 850)]
FIRST = [
    Detection("pine-crane", 0.97, SPOTS[0]),
    Detection("pine-poetry-ribbon", 0.93, SPOTS[1]),
    Detection("plum-bush-warbler", 0.9, SPOTS[2]),
    Detection("pine-chaff-1", ABOVE, SPOTS[3], uncertain=True),
    Detection("cherry-curtain", ABOVE, SPOTS[4], uncertain=True),
    Detection("willow-lightning", BELOW, SPOTS[5], uncertain=True),  # e.g. the card box lid
]
SECOND = [Detection("maple-deer", 0.95, SPOTS[0]), Detection("pine-crane", 0.96, SPOTS[1])]


class Stub:
    """Answers ``by_call`` in turn (the last repeats)."""

    def __init__(self, *by_call):
        self.by_call, self.calls = list(by_call), 0

    def detect(self, image):
        self.calls += 1
        return self.by_call[min(self.calls, len(self.by_call)) - 1]


@pytest.fixture
def stub():
    return Stub(FIRST, SECOND)


@pytest.fixture
def app(tmp_path, stub):  # the web conftest's app, with the stub detector
    return web_app(tmp_path, PHOTO_DETECTOR=lambda: stub)


@pytest.fixture
def photo(tmp_path):
    im = Image.new("RGB", (1200, 900), (60, 110, 70))
    d = ImageDraw.Draw(im)
    for i, (x1, y1, x2, y2) in enumerate(SPOTS):
        d.rectangle((x1, y1, x2, y2), fill=(250, 245, 235), outline=(20, 20, 20), width=8)
        d.rectangle((x1 + 30, y1 + 30, x2 - 30, y1 + 160), fill=[(200, 40, 40), (40, 120, 70), (50, 80, 200)][i % 3])
    path = tmp_path / "pile.jpg"
    im.save(path, "JPEG", quality=90)
    return path


def picked(page, slot="pile-0") -> set[str]:
    return set(page.eval_on_selector_all(f'input[name="{slot}"]:checked', "els => els.map(e => e.value)"))


def box_titles(page, slot="pile-0") -> list[str]:
    titles = f"#photos-{slot} svg.photo-boxes g.box > title"
    return page.eval_on_selector_all(titles, "els => els.map(e => e.textContent)")


def test_only_certain_cards_are_tapped_in_and_the_rest_are_one_tap_suggestions(live, browser, client, h, photo):
    keeper = h.new_session(client)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{live}/s/{keeper}/round/new")

    # before the first snap: the capture guide, a drawing with a text alternative
    guide = page.locator("#guide-pile-0")
    assert guide.is_visible()
    assert guide.get_attribute("data-guide") == "first"
    assert guide.get_by_role("img", name=re.compile("eight cards face up in two rows")).count() == 1
    assert "Face up in rows, each card showing at least its top half" in guide.inner_text()

    page.set_input_files('input[name="snap-pile-0"]', str(photo))
    page.wait_for_selector("#photos-pile-0 li.ask", timeout=30_000)
    assert picked(page) == {"pine-crane", "pine-poetry-ribbon", "plum-bush-warbler"}
    asks = page.locator("#photos-pile-0 li.ask")
    assert asks.count() == 2
    assert "Pine chaff 松のカス?" in asks.nth(0).inner_text()
    assert "Cherry with Curtain 桜に幕?" in asks.nth(1).inner_text()
    # below the floor: no box, no question
    titles = box_titles(page)
    assert len(titles) == 5
    assert not any("Willow" in t for t in titles)
    assert "Willow" not in page.locator("#photos-pile-0 .photo-review").inner_text()
    # beside the photo: to its right, level with it, and on screen together (390 px wide)
    fig = page.locator("#photos-pile-0 .photo-fig").bounding_box()
    first = asks.nth(0).bounding_box()
    assert first["x"] >= fig["x"] + fig["width"] - 1
    assert first["y"] < fig["y"] + fig["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # a photo with uncertain cards brings the guide back
    assert page.locator("#guide-pile-0").get_attribute("data-guide") == "unclear"
    page.screenshot(path=str(photo.parent / "suggestions.png"), full_page=True)

    # tapping a suggestion's box on the photo leads to its question
    page.locator('#photos-pile-0 a[href="#ask-pile-0-pine-chaff-1"]').click()
    assert page.evaluate("document.activeElement.value") == "yes:pine-chaff-1:pile-0"

    # Yes taps the card in
    page.get_by_role("button", name="Yes, Pine chaff is in Aki's pile").click()
    # Locator waits, not wait_for_function: the app's CSP forbids the eval that one uses.
    from playwright.sync_api import expect

    expect(page.locator('input[name="pile-0"][value="pine-chaff-1"]')).to_be_checked()
    assert page.locator("#photos-pile-0 li.ask").count() == 1
    page.locator("#deck-check").get_by_text("4 of 48").wait_for(timeout=10_000)

    # No dismisses it: no question, no box, not in the pile
    page.get_by_role("button", name="No, Cherry with Curtain is not in Aki's pile").click()
    page.wait_for_selector("#photos-pile-0 li.ask", state="detached", timeout=10_000)
    assert picked(page) == {"pine-crane", "pine-poetry-ribbon", "plum-bush-warbler", "pine-chaff-1"}
    assert not any("Cherry" in t for t in box_titles(page))
    assert "to confirm" not in page.locator("#photos-pile-0").inner_text()

    # a second photo of the pile merges with the first
    page.set_input_files('input[name="snap-pile-0"]', str(photo))
    expect(page.locator("#photos-pile-0 .photo-fig")).to_have_count(2, timeout=30_000)
    assert picked(page) == {"pine-crane", "pine-poetry-ribbon", "plum-bush-warbler", "pine-chaff-1", "maple-deer"}
    assert "5 cards tapped in from 2 photos" in page.locator("#photos-pile-0 .photo-summary").inner_text()
    assert page.locator("#guide-pile-0").count() == 0  # the latest photo was all certain

    page.get_by_role("button", name="Score round").click()
    page.locator("#result").wait_for()
    page.get_by_role("button", name="Save round 1").click()
    page.wait_for_selector("#round-1")
    saved = client.get(f"/api/v1/sessions/{keeper}").get_json()
    assert set(saved["rounds"][0]["input"]["piles"]["Aki"]) == {
        "pine-crane",
        "pine-poetry-ribbon",
        "plum-bush-warbler",
        "pine-chaff-1",
        "maple-deer",
    }


def test_suggestions_and_the_guide_work_without_javascript(live, browser, client, h, photo, stub):
    keeper = h.new_session(client)
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live}/s/{keeper}/round/new")
    assert page.locator("#guide-pile-0").is_visible()
    page.set_input_files('input[name="snap-pile-0"]', str(photo))
    page.locator("#photos-pile-0").get_by_role("button", name="Detect cards").click()
    page.wait_for_selector("#photos-pile-0 li.ask")
    assert "/round/photo/" in page.url  # the post was answered with a 303 to the review
    assert page.url.endswith("#photos-pile-0")
    assert picked(page) == {"pine-crane", "pine-poetry-ribbon", "plum-bush-warbler"}
    assert page.locator("#guide-pile-0").get_attribute("data-guide") == "unclear"

    page.get_by_role("button", name="Yes, Cherry with Curtain is in Aki's pile").click()
    page.wait_for_selector('input[name="pile-0"][value="cherry-curtain"]:checked')
    page.get_by_role("button", name="No, Pine chaff is not in Aki's pile").click()
    page.wait_for_selector("#photos-pile-0 li.ask", state="detached")
    assert picked(page) == {"pine-crane", "pine-poetry-ribbon", "plum-bush-warbler", "cherry-curtain"}
    page.reload()  # a GET: nothing is uploaded or answered again
    assert stub.calls == 1
    assert picked(page) == {"pine-crane", "pine-poetry-ribbon", "plum-bush-warbler", "cherry-curtain"}
    context.close()
