"""The picker's text tiles keep every card's name readable, on a 360×740 phone and on a desktop
(Debian's headless Chromium through Playwright; skips, saying why, without one).

Found on a phone walk-through: the ✓ badge of a chosen card sat over the end of its name
("Cra✓ne", "Phoe✓nix"), and in the narrow tiles "Lightning" and "coloured" ran past the tile's
edge and were cut ("Lightn").  The checks read the boxes the browser laid out: the badge (the
face's ``::after``) against each line of the name, and each line of the name against the inside
of its tile.
"""

from __future__ import annotations

import pytest

from referee.web.art import PICKER_COOKIE

pytestmark = pytest.mark.slow

SCREENS = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}

#: Every tile of the first pile picked (checked as a tap leaves it, without the live preview).
CHECK_ALL_JS = "() => document.querySelectorAll('#panel-0 .tile input').forEach(i => { i.checked = true; })"

#: Per tile of the first pile: the card, the lines of its name, the inside of its face (inside the
#: border) and the ✓ badge's box (from the face's ``::after``, placed in the face's padding box; null
#: when it shows none).  Boxes as [left, top, right, bottom].
TILES_JS = """() => [...document.querySelectorAll('#panel-0 .tile')].map(tile => {
  const face = tile.querySelector('.face'), name = face.querySelector(':scope > span');
  const f = face.getBoundingClientRect();
  const inner = [f.left + face.clientLeft, f.top + face.clientTop,
                 f.left + face.clientLeft + face.clientWidth, f.top + face.clientTop + face.clientHeight];
  const range = document.createRange();
  range.selectNodeContents(name);
  const lines = [...range.getClientRects()].filter(r => r.width > 0).map(r => [r.left, r.top, r.right, r.bottom]);
  const after = getComputedStyle(face, '::after');
  let badge = null;
  if (after.content !== 'none' && after.display !== 'none') {
    const right = inner[2] - parseFloat(after.right), top = inner[1] + parseFloat(after.top);
    badge = [right - parseFloat(after.width), top, right, top + parseFloat(after.height)];
  }
  return {card: tile.querySelector('input').value, name: name.textContent, lines, inner, badge};
})"""


def overlap(a, b) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def inside(line, box) -> bool:
    return line[0] >= box[0] - 0.5 and line[2] <= box[2] + 0.5 and line[1] >= box[1] - 0.5 and line[3] <= box[3] + 0.5


@pytest.fixture
def text_tiles(live, browser, client, h):
    """A page per screen size that opens the round entry of a new Roppyakken session with text
    tiles (the device chose "Compact", though the shipped card pictures are there)."""
    token = h.new_session(client)
    opened = []

    def open_page(screen: str):
        context = browser.new_context(viewport=SCREENS[screen])
        context.add_cookies([{"name": PICKER_COOKIE, "value": "compact", "url": live}])
        page = context.new_page()
        page.goto(f"{live}/s/{token}/round/new")
        assert page.locator("#panel-0 .tile").count() == 48
        assert page.locator(".picker-art").count() == 0  # text tiles
        opened.append(context)
        return page

    yield open_page
    for context in opened:
        context.close()


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_check_badge_leaves_the_card_name_clear(text_tiles, screen):
    page = text_tiles(screen)
    page.evaluate(CHECK_ALL_JS)
    tiles = page.evaluate(TILES_JS)
    assert all(t["badge"] for t in tiles), "a picked tile shows its ✓ badge"
    covered = [t["name"] for t in tiles if any(overlap(t["badge"], line) for line in t["lines"])]
    assert not covered, f"the ✓ badge covers part of these names at {SCREENS[screen]['width']} px: {covered}"


@pytest.mark.parametrize("picked", [False, True], ids=["unpicked", "picked"])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_card_name_fits_inside_its_tile(text_tiles, screen, picked):
    page = text_tiles(screen)
    if picked:
        page.evaluate(CHECK_ALL_JS)
    tiles = page.evaluate(TILES_JS)
    assert all(t["lines"] for t in tiles)
    cut = [t["name"] for t in tiles if not all(inside(line, t["inner"]) for line in t["lines"])]
    assert not cut, f"names running past their tile at {SCREENS[screen]['width']} px: {cut}"


# Bug (screen walk-through): a pile tab's count read "1 cards" to a screen reader once a card was tapped in.
def test_a_pile_tabs_count_says_card_or_cards_as_cards_are_tapped(text_tiles):
    page = text_tiles("phone")
    count = page.locator('label[for="tab-0"] .count')
    assert count.text_content() == "0 cards"
    page.locator('input[name="pile-0"][value="pine-crane"] + .face').click()
    assert count.text_content() == "1 card"
    page.locator('input[name="pile-0"][value="pine-poetry-ribbon"] + .face').click()
    assert count.text_content() == "2 cards"
