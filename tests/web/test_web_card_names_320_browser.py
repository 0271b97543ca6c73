"""The longest card names on the narrowest phone in use (320×640, Debian's headless Chromium through Playwright,
skipping saying why without one): "Paulownia chaff with coloured (yellow) band", "Willow with Rain Man (Ono no
Michikaze)", "Iris with Eight-plank Bridge" and "Willow lightning (gate)" wrap or fit, never cut by their box or
the screen's edge, on every screen that names cards: the picker's text tiles (their names within the month:
"Lightning", "Chaff with coloured band"), the round's explanation lines, a round's cards (the delete page), the
Help's card ids, and the photo step's correction menus.  A stub detector stands in for the model (as in
``entry/test_entry_photo_narrow_browser.py``)."""

from __future__ import annotations

import pytest
from PIL import Image
from web_helpers import web_app

from referee.cards import BY_ID, CARDS
from referee.web.art import PICKER_COOKIE
from vision.detection import Detection

pytestmark = pytest.mark.slow

SMALLEST = {"viewport": {"width": 320, "height": 640}}
LONGEST = ["paulownia-chaff-yellow", "willow-rain-man", "iris-bridge", "chrysanthemum-sake-cup"]
SPOTS = [(60, 80, 290, 450), (330, 80, 560, 450), (600, 80, 830, 450), (870, 80, 1100, 450)]

#: The text of the matching elements that overflows or is cut: a line past the screen's edge, or past the content
#: box (inside its padding) of an ancestor that clips its overflow (a tile's face): [text].
CUT_JS = """sel => {
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    if (!el.getClientRects().length) continue;
    let clip = null;
    for (let a = el; a; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === 'visible') continue;
      const r = a.getBoundingClientRect(), left = r.left + a.clientLeft + parseFloat(cs.paddingLeft);
      clip = {left, right: left + a.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)};
      break;
    }
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(n);
      const cut = [...range.getClientRects()].filter(r => r.width > 0).some(r => r.left < -0.5
        || r.right > innerWidth + 0.5 || (clip && (r.left < clip.left - 0.5 || r.right > clip.right + 0.5)));
      if (cut) out.push(n.textContent.trim());
    }
  }
  return out;
}"""

#: Each correction menu's shown name: [chosen card's name, shown over the menu (wrapping), its lines inside the
#: menu, the menu's own text (when it shows) inside it].  A closed menu never wraps: its text must fit one line
#: of its box (less its padding and the 20 px of its arrow).
MENUS_JS = """sel => [...document.querySelectorAll(sel)].map(s => {
  const cs = getComputedStyle(s), ctx = document.createElement('canvas').getContext('2d');
  ctx.font = cs.font;
  const text = s.options[s.selectedIndex].text, box = s.getBoundingClientRect();
  const over = s.parentElement.querySelector('.menu-name');
  const overShown = !!over && getComputedStyle(over).display !== 'none';
  const range = document.createRange();
  if (overShown) range.selectNodeContents(over);
  const lines = overShown ? [...range.getClientRects()].filter(r => r.width > 0) : [];
  const inside = lines.every(r => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5
    && r.bottom <= box.bottom + 0.5);
  const ownShown = cs.webkitTextFillColor !== 'rgba(0, 0, 0, 0)';
  const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
  const ownFits = ctx.measureText(text).width <= room && box.right <= innerWidth + 0.5;
  return [text, overShown && over.textContent === text, inside, ownShown ? ownFits : null];
})"""


class Stub:
    def detect(self, image):
        return [Detection(c, 0.95, box) for c, box in zip(LONGEST, SPOTS, strict=True)]


@pytest.fixture
def app(tmp_path):  # the web conftest's app, with the stub detector for the photo step
    return web_app(tmp_path, PHOTO_DETECTOR=Stub)


@pytest.fixture
def long_round(client):
    """A Roppyakken session whose one round puts the longest-named cards in Aki's pile: (token, round id)."""
    r = client.post("/api/v1/sessions", json={"name": "Long names", "ruleset": "roppyakken",
                                              "players": ["Aki", "Ben", "Chiyo"]})
    token = r.get_json()["edit_token"]
    firsts = [*LONGEST, "pine-crane", "willow-lightning"]
    rest = [c.id for c in CARDS if c.id not in firsts]
    piles = {"Aki": firsts + rest[:10], "Ben": rest[10:26], "Chiyo": rest[26:]}
    assert client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": piles}).status_code == 201
    return token, client.get(f"/api/v1/sessions/{token}").get_json()["rounds"][0]["id"]


def text_tiles(browser, live):
    context = browser.new_context(**SMALLEST)
    context.add_cookies([{"name": PICKER_COOKIE, "value": "compact", "url": live}])
    return context.new_page()


# Bug (320 px walk-through): in the text tiles "Lightning" ran past its tile's padding onto its border (its soft
# hyphens were only for "lightning" in lower case); "coloured" fit by 1 px.
@pytest.mark.parametrize("where", ["new", "edit"])
def test_every_tiles_card_name_keeps_inside_its_tile_at_320_px(live, browser, long_round, where):
    token, rid = long_round
    page = text_tiles(browser, live)
    page.goto(f"{live}/s/{token}/round/new" if where == "new" else f"{live}/s/{token}/round/{rid}/edit")
    names = page.locator("#panel-0 .face > span")
    assert names.count() == 48
    assert "Chaff with coloured band" in [n.replace("\u00ad", "") for n in names.all_text_contents()]
    assert page.evaluate(CUT_JS, "#panel-0 .face > span") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


def test_the_explanation_and_the_rounds_cards_wrap_at_320_px(live, browser, long_round):
    token, rid = long_round
    page = browser.new_page(**SMALLEST)
    page.goto(f"{live}/s/{token}")
    page.locator(f"#why-{rid} summary").click()
    lines = f"#why-{rid} .lines li"
    assert "Willow with Rain Man (Ono no Michikaze)" in page.locator(lines).all_inner_texts()[0]
    assert page.evaluate(CUT_JS, lines) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.goto(f"{live}/s/{token}/round/{rid}/delete")  # the round's cards, by name
    assert "Paulownia chaff with coloured (yellow) band" in page.locator("main").inner_text()
    assert page.evaluate(CUT_JS, "main p") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


def test_the_help_card_ids_wrap_at_320_px(live, browser):
    page = browser.new_page(**SMALLEST)
    page.goto(f"{live}/help")
    assert page.locator(".card-ids td").count() == 2 * 48
    assert page.evaluate(CUT_JS, ".card-ids td") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


# Bug (320 px walk-through): the photo step's correction menus read "Paulownia chaff with coloured (y" and
# "Willow with Rain Man (Ono no M" (a closed menu never wraps; found too in entry/test_entry_photo_narrow_browser).
def test_every_correction_menu_shows_its_whole_card_name_at_320_px(live, browser, long_round, tmp_path):
    token, _ = long_round
    photo = tmp_path / "pile.jpg"
    Image.new("RGB", (1200, 900), (60, 110, 70)).save(photo, "JPEG")
    page = browser.new_page(**SMALLEST)
    page.goto(f"{live}/s/{token}/round/new")
    page.set_input_files('input[name="snap-pile-0"]', str(photo))
    menus = "#photos-pile-0 .detections select"
    page.wait_for_selector(menus, timeout=30_000)
    shown = page.evaluate(MENUS_JS, menus)
    assert [s[0] for s in shown] == [BY_ID[c].name for c in LONGEST]
    for name, over, inside, own_fits in shown:
        assert over or own_fits, f"{name!r} is cut short in its menu at 320 px"
        assert inside, f"{name!r} runs past its menu at 320 px"
        assert own_fits is not False, f"{name!r}: the menu's own cut text shows too"
    assert page.evaluate(CUT_JS, "#photos-pile-0 .detections") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    # Another card chosen, before the page answers (or without JavaScript): the menu shows its own text, not
    # the name it had.
    page.evaluate("sel => { const s = document.querySelector(sel); s.value = 'pine-crane'; }", menus)
    name, over, _, own_fits = page.evaluate(MENUS_JS, menus)[0]
    assert name == "Pine with Crane (and Sun)"
    assert not over
    assert own_fits
