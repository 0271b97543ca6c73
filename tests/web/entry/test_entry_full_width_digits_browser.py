"""Full-width digits (全角, "１２０" as a Japanese keyboard types them) in a real browser (Debian's headless Chromium
through Playwright, skipping saying why without one): no box of a round form that takes a number refuses them
("Please match the requested format"), and the totals pad scores what they say."""

from __future__ import annotations

import re

import pytest
from web_helpers import session

pytestmark = pytest.mark.slow

#: What a box that takes a number is.
NUMBER_BOX = "input[inputmode=numeric], input[inputmode=decimal], input[type=number]"
#: Each such box of the page: [name, its value, whether the browser would send it, its message].
CHECK_JS = """sel => [...document.querySelectorAll(sel)].map(b => [b.name, b.value, b.checkValidity(),
  b.validationMessage])"""


def typed_in_full_width(page) -> list[list]:
    """Every box that takes a number given "１２" as an IME types it: CHECK_JS's answer."""
    boxes = page.locator(NUMBER_BOX)
    for k in range(boxes.count()):
        boxes.nth(k).focus()
        page.keyboard.insert_text("１２")
    return page.evaluate(CHECK_JS, NUMBER_BOX)


# Bug (new user): the totals boxes had pattern="[0-9]*", so "１２０" typed on a Japanese keyboard got the
# browser's "Please match the requested format" though the server reads it.
@pytest.mark.parametrize(
    ("ruleset", "players", "entry"),
    [("roppyakken", ["Aki", "Ben", "Chiyo"], "totals"), ("gostop", ["Jiwoo", "Minho", "Seoyeon"], "totals"),
     ("hachihachi", ["Aki", "Ben", "Chiyo"], "totals"), ("gostop", ["Jiwoo", "Minho", "Seoyeon"], "cards"),
     ("hachihachi", ["Aki", "Ben", "Chiyo", "Daichi"], "cards")],
    ids=["points", "points-won-or-paid", "kan-and-mon", "go-stop-counts", "drop-out-order"],
)
def test_no_number_box_refuses_full_width_digits(live, browser, client, ruleset, players, entry):
    token = session(client, ruleset, players)
    page = browser.new_page()
    page.goto(f"{live}/s/{token}/round/new" + ("?entry=totals" if entry == "totals" else ""))
    boxes = typed_in_full_width(page)
    assert len(boxes) >= len(players)  # a box per player at least (four players: a drop-out's call order)
    assert [b for b in boxes if not b[2]] == []


def test_totals_typed_in_full_width_digits_are_scored(live, browser, client):
    token = session(client, "roppyakken", ["Aki", "Ben", "Chiyo"])
    page = browser.new_page()
    page.goto(f"{live}/s/{token}/round/new?entry=totals")
    for i, typed in enumerate(["１２０", "４０", "３００"]):
        page.locator(f'input[name="total-{i}"]').focus()
        page.keyboard.insert_text(typed)
    page.locator('button[value="score"]').click()
    page.locator("#save").click(timeout=10_000)
    page.wait_for_url(re.compile(rf"/s/{token}([?#].*)?$"))  # the scoreboard
    assert client.get(f"/api/v1/sessions/{token}").get_json()["totals"] == {"Aki": 120, "Ben": 40, "Chiyo": 300}
