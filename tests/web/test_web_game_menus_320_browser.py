"""The game menus (the new-session form's and the What-if page's "Game and rules") at 320 px: a closed menu
never wraps, so on a narrow phone the chosen game's whole title shows over its menu (app.css ".menu", the
pattern of the photo step's correction menus, test_web_card_names_320_browser.py)."""

from __future__ import annotations

from test_web_card_names_320_browser import MENUS_JS, SMALLEST
from web_helpers import session

#: Titles too long for one line of a closed menu at 320 px (referee/rulesets/*.toml).
LONG = [("roppyakken-ja", "Roppyakken, Japanese rules (六百間)"),
        ("koikoi-clubhouse", "Koi-Koi (こいこい), Clubhouse Games")]


def assert_whole(page, menu: str, title: str) -> None:
    [(name, over, inside, own_fits)] = page.evaluate(MENUS_JS, menu)
    assert name == title
    assert over or own_fits, f"{title!r} is cut short in its menu at 320 px"
    assert inside, f"{title!r} runs past its menu at 320 px"
    assert own_fits is not False, f"{title!r}: the menu's own cut text shows too"
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


# Bug (320 px walk-through): the new-session menu read "Roppyakken, Japanese rules (六" cut short.
def test_the_new_session_game_menu_shows_the_whole_title_at_320_px(live, browser):
    page = browser.new_page(**SMALLEST)
    (first, first_title), (other, other_title) = LONG
    page.goto(f"{live}/new?ruleset={first}")
    menu = "#new-session select[name=ruleset]"
    assert_whole(page, menu, first_title)
    # Another game chosen: the answer brings the menu back with it chosen, its whole title over the menu.
    with page.expect_response(lambda r: "/new" in r.url and r.request.method == "GET"):
        page.select_option(menu, other)
    page.wait_for_function("() => document.querySelector('#game-menu .menu-name').textContent.includes('Clubhouse')")
    assert_whole(page, menu, other_title)


# Bug (320 px walk-through): the What-if menu read "Koi-Koi (こいこい), Clubho" cut short.
def test_the_what_if_game_menu_shows_the_whole_title_at_320_px(live, browser, client):
    page = browser.new_page(**SMALLEST)
    for (name, title), played in zip(LONG, ["roppyakken", "koikoi"], strict=True):
        token = session(client, played, ["Aki", "Ben"])  # the menu lists the games of the session's family
        page.goto(f"{live}/s/{token}/what-if?ruleset={name}")
        assert_whole(page, "form select[name=ruleset]", title)
