"""Photos at a real table, in a phone browser (390×844 Chromium; issue 18 rows 2, 3 and 5).

A stub detector stands in for the model (the flow is under test, not recognition): two piles'
photos each show one cherry chaff (two cards, no conflict), a photo snapped on the wrong tab
moves to the right pile and is removed in one tap each, and Reload after a snap keeps the taps
and the photos.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image
from web_helpers import web_app

from vision.detection import Detection

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True}


class Stub:
    """The first photo shows a cherry chaff and the crane; every later one, a cherry chaff."""

    def __init__(self):
        self.calls = 0

    def detect(self, image):
        self.calls += 1
        first = [Detection("cherry-chaff-1", 0.95, (10, 10, 110, 170)),
                 Detection("pine-crane", 0.96, (120, 10, 220, 170))]
        return first if self.calls == 1 else [Detection("cherry-chaff-1", 0.94, (10, 10, 110, 170))]


@pytest.fixture
def app(tmp_path):  # the web conftest's app, with the stub detector
    stub = Stub()
    return web_app(tmp_path, PHOTO_DETECTOR=lambda: stub)


def ticked(page, slot: str) -> list[str]:
    return sorted(page.eval_on_selector_all(f'input[name="{slot}"]:checked', "els => els.map(e => e.value)"))


def snap(page, seat: int, path) -> None:
    page.locator(f'label[for="tab-{seat}"]').click()
    page.set_input_files(f'input[name="snap-pile-{seat}"]', str(path))
    page.wait_for_selector(f"#photos-pile-{seat} .det", timeout=30_000)


def test_two_chaff_photos_then_move_and_remove_a_photo_and_reload(live, browser, client, h, tmp_path):
    photo = tmp_path / "pile.jpg"
    buf = io.BytesIO()
    Image.new("RGB", (640, 480), (30, 120, 60)).save(buf, "JPEG")
    photo.write_bytes(buf.getvalue())
    token = h.new_session(client)
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live}/s/{token}/round/new")
    snap(page, 0, photo)
    snap(page, 1, photo)
    assert ticked(page, "pile-0") == ["cherry-chaff-1", "pine-crane"]
    assert ticked(page, "pile-1") == ["cherry-chaff-2"]  # the deck's other cherry chaff
    assert page.locator("[data-conflict]").count() == 0
    # Box numbers read at phone size, and a tile's confidence badge never covers its name.
    sizes = page.eval_on_selector_all("#photos-pile-1 .box-label",
                                      "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert sizes
    assert min(sizes) >= 12
    page.locator('label[for="tab-0"]').click()
    page.get_by_role("button", name="Compact").click()  # text tiles: the names a badge could cover
    overlaps = page.eval_on_selector_all("#panel-0 .tile:has(.conf)", """tiles => tiles.map(t => {
        const a = t.querySelector('.conf').getBoundingClientRect();
        const b = t.querySelector('.face > span').getBoundingClientRect();
        return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    })""")
    assert overlaps == [False, False]
    h.accessible(page)
    page.locator('label[for="tab-1"]').click()
    h.thumb_friendly(page)
    # Ben's photo was Chiyo's pile: one tap moves it, another removes it.
    page.locator("#photos-pile-1").get_by_role("button", name="Move to Chiyo's pile").click()
    page.wait_for_selector("#photos-pile-2 .det")
    assert ticked(page, "pile-1") == []
    assert ticked(page, "pile-2") == ["cherry-chaff-2"]
    page.locator('label[for="tab-2"]').click()
    page.locator("#photos-pile-2").get_by_role("button", name="Remove this photo").click()
    page.wait_for_function("() => !document.querySelector('#photos-pile-2 .det')")
    assert ticked(page, "pile-2") == []
    # Reload after the snaps (Android reloads the tab when the camera closes): taps and photo kept.
    page.wait_for_function("() => location.search.includes('step=')")
    page.reload()
    assert ticked(page, "pile-0") == ["cherry-chaff-1", "pine-crane"]
    assert page.locator("#photos-pile-0 .det").count() == 2  # the photo, with its two boxes
    assert page.locator("#photos-pile-2 .det").count() == 0
    page.context.close()
