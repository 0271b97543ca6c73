"""Enter in a round-form field scores the round (phone QA; 390×844 Chromium).

Found on the phone walk-through: pressing Enter (the keyboard's Go) in a field of the round form
"clicked" the form's first button, which is whatever the page happens to show first: the tile-size
switch with card art, "Show the field cards" or "+ Every card in no pile goes to ..." without.
The form's default action is now Score, whatever buttons come before the entry bar.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}}


def test_enter_in_the_call_order_field_scores_the_round(live, browser, client, h):
    # Hachi-hachi with four seated players asks each drop-out's call order in a text field.
    token = h.new_session(client, name="Four", ruleset="hachihachi", players=["A", "B", "C", "D"])
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{live}/s/{token}/round/new")
    page.select_option('select[name="status-0"]', "drop")  # the call order shows for a drop-out
    field = page.locator('input[name="order-0"]')
    field.fill("1")
    with page.expect_request(lambda r: r.method == "POST" and "/round/new" in r.url) as sent:
        field.press("Enter")
    assert "action=score" in (sent.value.post_data or "")
    context.close()
