"""The round forms' player menus (Koi-Koi's calls; Go-Stop's chongtong player, last go and 독박; Hachi-hachi's
dekiyaku maker, the liable thrower and the winner of a round of totals) at 320 px: a closed menu never wraps, so
on a narrow phone the chosen player's whole name (up to 40 characters, ``forms.limits.MAX_NAME``) shows over its
menu, as the game menus' does (app.css ".menu", test_web_game_menus_320_browser.py), both when the page comes
back with it chosen and as soon as it is chosen (app.js data-menu-follows)."""

from __future__ import annotations

import pytest
from test_web_card_names_320_browser import MENUS_JS, SMALLEST
from web_helpers import session

pytestmark = pytest.mark.slow

#: Names too long for one line of a closed menu at 320 px, at most 40 characters each.
LONG = ["Alexandrina Featherstonehaugh-Wolfe", "Bartholomew Montgomery-Ravenscroft", "Chiyo Takahashi-Yamamoto"]
#: (the family's preset, its players, house rules, the form, the menus naming players, what opens them first).
FORMS = [
    ("koikoi", LONG[:2], {}, "", ["call-0", "call-1"], None),
    ("gostop", LONG, {}, "", ["instant-player", "last_go", "dokbak"], "summary:has-text('chongtong')"),
    ("hachihachi", LONG, {"liable_thrower": True}, "", ["dk-player-0", "dk-liable-0"], None),
    ("hachihachi", LONG, {}, "?entry=totals", ["winner"], None),
]


def assert_whole(page, menu: str) -> None:
    [(name, over, inside, own_fits)] = page.evaluate(MENUS_JS, f"select[name='{menu}']")
    assert over, f"{menu}: {name!r} is cut short at 320 px"  # too long for the menu's own line: shown over it
    assert inside, f"{menu}: {name!r} runs past its menu at 320 px"
    assert own_fits is not False, f"{menu}: the menu's own cut text shows too"
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


# Bug (320 px walk-through): a player menu read "Alexandrina Featherstonehaugh-W" cut short once she was chosen.
@pytest.mark.parametrize(
    ("ruleset", "players", "options", "query", "menus", "opener"),
    FORMS,
    ids=["koikoi-calls", "gostop-play", "hachihachi-dekiyaku", "hachihachi-totals"],
)
def test_a_chosen_players_whole_name_shows_in_the_menu_at_320_px(
    live, browser, client, ruleset, players, options, query, menus, opener
):
    token = session(client, ruleset, players, **{k: str(v).lower() for k, v in options.items()})
    page = browser.new_page(**SMALLEST)
    page.goto(f"{live}/s/{token}/round/new{query}")
    if opener:
        page.click(opener)
    for k, menu in enumerate(menus):
        chosen = players[k % len(players)]
        page.select_option(f"select[name='{menu}']", chosen)
        assert chosen in page.evaluate(MENUS_JS, f"select[name='{menu}']")[0][0]
        assert_whole(page, menu)
