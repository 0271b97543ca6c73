"""A scoreboard open on a second phone when the session is deleted on the first: within a poll or two, the
board gives way to the notice its 404 page says, with its way back, and it stops polling."""

from __future__ import annotations

import pytest
from test_deleted_session_pages import delete, save_round

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
        assert notice.get_attribute("hx-trigger") is None  # it polls no more
        assert other.locator("section.share").is_hidden()
        other.locator("#board a", has_text=way_back).click()
        if link == "keeper":
            other.wait_for_url(f"{live}/s/{keeper}/deleted")
        else:
            other.wait_for_url(f"{live}/")
    finally:
        other.close()
