"""The scoreboard's rounds table on a phone (390×844 and 360×740; Debian's headless Chromium through Playwright,
skipping saying why without one): a long player's name in a column's header wraps between its words, never
inside one, and a round's "Why?" stays whole beside a badge as long as "Instant win: <that name>"; the page
never scrolls sideways for it."""

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
