"""A player's name box in the browser stops at MAX_NAME characters as players count them: 45 letters typed
keep 40, and a name of emoji (each one character, many UTF-16 units) is kept whole up to 40 of them, never cut
short by ``maxlength``'s units nor cut in half (app.js, Intl.Segmenter)."""

from __future__ import annotations

from referee.web.forms.limits import MAX_NAME

FAMILY = "👨‍👩‍👧‍👦"  # one character: 7 code points, 11 UTF-16 units


# Bug (new-user try): the box took 800 characters, refused only after submit.
def test_a_name_box_stops_at_the_limit_in_characters(live, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(f"{live}/new")
        box = page.locator('input[name="player-0"]')
        box.click()
        box.press_sequentially("a" * (MAX_NAME + 5))
        assert box.input_value() == "a" * MAX_NAME
        box.fill("")
        box.click()
        page.keyboard.insert_text(FAMILY * 10)  # pasted: 110 units, 10 characters
        assert box.input_value() == FAMILY * 10
        box.fill("")
        box.click()
        page.keyboard.insert_text(FAMILY * (MAX_NAME + 1))
        assert box.input_value() == FAMILY * MAX_NAME  # whole emoji, the limit in characters
    finally:
        page.close()
