"""Every link, button, label and summary a phone shows is a thumb's tap, at least 44 px tall (390×844;
Debian's headless Chromium through Playwright, skipping saying why without one): a link in a sentence
("Enter totals only", "What if…", "host key") and a label over its box too, not only the buttons the
app-wide check (small_targets.js) knows by their classes."""

from __future__ import annotations

import pytest
from test_web_phone_fit_browser import example_session
from web_helpers import session

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}}

#: Every shown link, button, label and summary under 44 px tall (not in a closed fold): [[what, width, height]].
#: (A label's own hidden checkbox or radio stands inside it; the label is what a thumb taps.)
SHORT_JS = """() => [...document.querySelectorAll('a[href], button, label, summary')].filter(el => {
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height || !el.checkVisibility({visibilityProperty: true}) || el.closest('.sr')) return false;
  return r.height < 43.5;
}).map(el => {
  const r = el.getBoundingClientRect();
  const what = `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 40)}"`;
  return [what, Math.round(r.width), Math.round(r.height)];
})"""


@pytest.fixture
def sessions(app):
    made = {name: example_session(app, name) for name in ("gostop", "koikoi", "hachihachi")}
    return {**made, "roppyakken": (session(app.test_client(), "roppyakken", ["Aki", "Ben", "Chie"]), [])}


def screens(sessions) -> dict[str, str]:
    gostop = sessions["gostop"][0]
    return {
        "home": "/",
        "new-session": "/new",
        "new-session-gostop": "/new?ruleset=gostop",
        "scoreboard": f"/s/{gostop}",
        **{f"round-entry-{n}": f"/s/{t}/round/new" for n, (t, _) in sessions.items()},
        "round-edit": f"/s/{gostop}/round/{sessions['gostop'][1][0]}/edit",
        "totals-entry": f"/s/{gostop}/round/new?entry=totals",
        "what-if": f"/s/{gostop}/what-if",
        "what-if-koikoi": f"/s/{sessions['koikoi'][0]}/what-if",
    }


SCREENS = list(screens({n: ("t", [1]) for n in ("gostop", "koikoi", "hachihachi", "roppyakken")}))


# Bug (new-user walk-through, 390 px): "Enter totals only" was 19 px tall on every round page, "What if…" on the
# scoreboard 19, "host key" on Home 19, "← Back to the scoreboard" on What if… 19, and the house rules'
# labels on New session and What if… 22.
@pytest.mark.parametrize("screen", SCREENS)
def test_every_link_button_and_label_is_44px_tall(live, browser, sessions, screen):
    page = browser.new_page(**PHONE)
    page.goto(live + screens(sessions)[screen])
    # The house rules and the share box opened (a round's "Why?", whose explanation lines link their words to
    # Help, stays closed).
    page.evaluate("document.querySelectorAll('details:not(.rounds details, .round-block details)')"
                  ".forEach(d => { d.open = true; })")
    assert page.locator("a[href], button, label").count() > 3
    short = page.evaluate(SHORT_JS)
    assert not short, f"under 44 px tall on {screen}: " + "; ".join(f"{w} {x}x{y}" for w, x, y in short)


#: The link's box and what a tap near its top and bottom edges hits: [height, top hits it, bottom hits it].
EDGES_JS = """a => {
  const r = a.getBoundingClientRect(), x = r.left + r.width / 2, on = y => a.contains(document.elementFromPoint(x, y));
  return [r.height, on(r.top + 2), on(r.bottom - 2)];
}"""


# The padding of a link in running text is where a tap lands on it, not only a box measured around it.
def test_a_link_in_a_sentence_takes_a_tap_anywhere_in_its_44px(live, browser, sessions):
    page = browser.new_page(**PHONE)
    page.goto(live + screens(sessions)["round-entry-gostop"])
    page.evaluate("scrollTo(0, 0)")
    height, top, bottom = page.get_by_role("link", name="Enter totals only").evaluate(EDGES_JS)
    assert height >= 44
    assert top
    assert bottom
