"""A scoreboard open on a second phone when the session is deleted on the first: within a poll or two, the
board gives way to the notice its 404 page says, with its way back; it polls on slowly, and when the delete is
undone the board comes back."""

from __future__ import annotations

import pytest
from test_deleted_session_pages import delete, form_of, save_round

PHONE = {"viewport": {"width": 390, "height": 844}}


# Bug (new-user try): the other phone kept its stale board; its live polls got 404 and nothing changed.
@pytest.mark.parametrize(
    ("link", "said", "way_back"),
    [("keeper", "“Friday” was deleted. Its rounds are kept", "↶ Undo: bring it back"),
     ("viewer", "“Friday” was deleted by its scorekeeper", "Your sessions")],
)
def test_a_board_open_on_another_phone_says_its_session_was_deleted(live, browser, client, h, keeper, viewer,
                                                                    link, said, way_back):
    save_round(client, h, keeper)
    other = browser.new_page(**PHONE)
    try:
        other.goto(f"{live}/s/{keeper if link == 'keeper' else viewer}")
        other.wait_for_function("window.htmx !== undefined")
        assert other.locator("#board .totals").count() == 1
        assert delete(client, keeper).status_code == 303
        other.wait_for_selector("#board[data-session-deleted]", timeout=8000)
        notice = other.locator("#board")
        assert said in notice.inner_text()
        assert notice.get_attribute("hx-trigger") == "every 6s"  # it polls on, slowly
        assert other.locator("section.share").is_hidden()
        other.locator("#board a", has_text=way_back).click()
        if link == "keeper":
            other.wait_for_url(f"{live}/s/{keeper}/deleted")
        else:
            other.wait_for_url(f"{live}/")
    finally:
        other.close()


# Bug (tester): the phone showing the notice had stopped polling, so after the scorekeeper's Undo it kept saying
# "was deleted ... this link shows nothing now" for good.
@pytest.mark.parametrize("link", ["keeper", "viewer"])
def test_a_board_open_on_another_phone_comes_back_when_the_delete_is_undone(live, browser, client, h, keeper,
                                                                            viewer, link):
    save_round(client, h, keeper)
    other = browser.new_page(**PHONE)
    try:
        other.goto(f"{live}/s/{keeper if link == 'keeper' else viewer}")
        other.wait_for_function("window.htmx !== undefined")
        assert delete(client, keeper).status_code == 303
        other.wait_for_selector("#board[data-session-deleted]", timeout=8000)
        assert other.locator("section.share").is_hidden()
        gone = client.get(f"/s/{keeper}/deleted").get_data(as_text=True)
        assert client.post(f"/s/{keeper}/restore", data=form_of(gone)).status_code == 303
        other.wait_for_selector("#board .totals", timeout=15000)
        assert other.locator("#board[data-session-deleted]").count() == 0
        assert other.locator("section.share").is_visible()
        assert other.locator("#board").get_attribute("hx-trigger") == "every 2s"  # the board polls as before
    finally:
        other.close()
