"""The scoreboard's rounds table on a phone (390×844 and 360×740; Debian's headless Chromium through Playwright,
skipping saying why without one): a long player's name in a column's header wraps between its words, never
inside one, and a round's "Why?" stays whole beside a badge as long as "Instant win: <that name>"; the page
never scrolls sideways for it.  The dealer (oya) column takes only its header's room beside long names, at any
width (844×390 landscape, a desktop): on a phone, upright or on its side, the dealer is folded into the round's row."""

from __future__ import annotations

import pytest
from test_web_phone_fit_browser import SPLIT_WORDS_JS

pytestmark = pytest.mark.slow

LONG = "Bartholomew Alexander Fitzgerald-Smythe"
PLAYERS = [LONG, "김 민준", "ようこそ Koji"]
#: Four brights in one pile: shiko, an instant win for the long name (and fuke, a void round, beside it).
SHIKO = ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"]


def long_name_session(client, players=PLAYERS) -> str:
    r = client.post("/api/v1/sessions", json={"name": "Friday", "ruleset": "roppyakken", "players": players})
    token = r.get_json()["edit_token"]
    assert client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": {players[0]: SHIKO}}).status_code == 201
    return token


#: As SPLIT_WORDS_JS, but a hyphen is a place to break ("Fitzgerald-" over "Smythe"): [word split].
SPLIT_PARTS_JS = SPLIT_WORDS_JS.replace("\\S+", "[^\\s-]+")
assert SPLIT_PARTS_JS != SPLIT_WORDS_JS


# Bug (new-user walk-through, 390 px): the header read "Bartholome / w / Alexander" (each column a third of
# the table, however long its name) and the round's "Why?" beside the instant-win badge read "Wh / y?".
@pytest.mark.parametrize("width", [390, 360])
def test_a_long_name_and_an_instant_wins_why_keep_their_words_whole(live, browser, client, width):
    token = long_name_session(client)
    page = browser.new_page(viewport={"width": width, "height": 844})
    page.goto(f"{live}/s/{token}")
    assert page.locator(".rounds thead th").all_inner_texts()[-3:] == PLAYERS
    assert "instant win" in page.locator("#round-1 summary").inner_text().lower()
    assert page.evaluate(SPLIT_PARTS_JS, ".rounds thead th") == []
    assert page.evaluate(SPLIT_PARTS_JS, ".rounds summary") == []
    assert page.evaluate(SPLIT_WORDS_JS, ".rounds td.score") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # Every column still shows its amounts, each inside the table.
    table = page.locator("table.rounds").bounding_box()
    assert table["x"] + table["width"] <= width + 0.5


# A word too long for any column (40 letters, no space) still breaks where it must: the page never widens.
def test_a_word_longer_than_its_column_breaks_rather_than_widen_the_page(live, browser, client):
    players = ["X" * 40, "Y" * 40, "Z" * 40]
    token = long_name_session(client, players)
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(f"{live}/s/{token}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate("document.querySelector('.table-scroll').scrollWidth") <= 360


KOIKOI_LONG = ["Bartholomew Alexander Montgomery-Smythe", "Supercalifragilisticexpialidociouslyyyyy"]
#: Three non-rain brights: sankō, a round won by whoever holds them.
SANKO = ["pine-crane", "cherry-curtain", "pampas-moon"]

#: Each header's [width, lines of its name] (a line: the name's text boxes at one height).
HEADERS_JS = """() => [...document.querySelectorAll('.rounds thead th')].map(th => {
  const r = document.createRange(); r.selectNodeContents(th);
  return [th.getBoundingClientRect().width, new Set([...r.getClientRects()].map(b => Math.round(b.top))).size];
})"""


# Bug (new-user try, 844×390, Koi-Koi's 12 rounds): the dealer (oya) column took 321 px of the 736 px table (as
# wide as its dealer's forty-letter word), so the players' names wrapped to 3 lines; at 390 and 320 it was folded.
@pytest.mark.parametrize(("width", "height"), [(844, 390), (1280, 800), (600, 900), (390, 844), (320, 640)])
def test_the_dealer_column_takes_only_the_room_it_needs_beside_long_names(live, browser, client, width, height):
    r = client.post("/api/v1/sessions", json={"name": "Friday", "ruleset": "koikoi", "players": KOIKOI_LONG})
    token = r.get_json()["edit_token"]
    for k in range(3):  # the dealer changes hands: each name is a round's dealer
        winner, other = KOIKOI_LONG[k % 2], KOIKOI_LONG[1 - k % 2]
        played = {"piles": {winner: SANKO, other: []}, "stopped_by": winner}
        assert client.post(f"/api/v1/sessions/{token}/rounds", json=played).status_code == 201
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{live}/s/{token}")
    (num, _), (oya, _), *names = page.evaluate(HEADERS_JS)
    table = page.locator("table.rounds").bounding_box()["width"]
    em = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.rounds th')).fontSize)")
    assert oya <= 6.5 * em + 0.5, (oya, table)  # its header's room, never its dealer's longest word
    assert sum(w for w, _ in names) >= table - num - oya - 1  # the players' columns get the rest
    if width >= 600:  # both names on one line would take 740 px of the 736 px table: a line more at most
        assert all(lines <= 2 for _, lines in names), names
    rounds = client.get(f"/api/v1/sessions/{token}").get_json()["rounds"]
    assert {rnd["dealer"] for rnd in rounds} == set(KOIKOI_LONG)
    for rnd in rounds:  # each round's dealer is named once where the screen shows it, in words, never cut off
        where = f"#round-{rnd['round']} .oya-cell, #round-{rnd['round']} .oya-line"
        shown = page.locator(where).filter(visible=True)
        assert shown.count() == 1, rnd["round"]
        assert rnd["dealer"] in shown.inner_text()
        assert page.evaluate("w => [...document.querySelectorAll(w)].every(e => !e.offsetWidth"
                             " || e.scrollWidth <= e.clientWidth + 1)", where)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
