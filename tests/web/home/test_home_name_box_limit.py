"""A player's name box holds the real limit, MAX_NAME characters (``referee.web.forms.limits``), not 800:
the served ``maxlength`` is MAX_NAME on every name box (the new-session form, the options a game change redraws,
the form given back refused), the session's name box MAX_SESSION_NAME; the server still refuses a longer name.
``app.js`` then counts characters as players do (an emoji is one: test_home_name_box_limit_browser.py)."""

from __future__ import annotations

import re

import pytest

from referee.web.forms.limits import MAX_NAME, MAX_NAME_UNITS, MAX_SESSION_NAME


def _name_boxes(page: str) -> list[str]:
    return re.findall(r'<input name="player-\d+"[^>]*>', page)


# Bug (new-user try): the name box took 800 characters, refused only after submit.
@pytest.mark.parametrize(
    "where",
    ["new", "game changed", "refused"],
)
def test_every_name_box_holds_the_real_limit(client, where):
    if where == "new":
        page = client.get("/new").get_data(as_text=True)
    elif where == "game changed":
        page = client.get("/new", query_string={"ruleset": "gostop", "player-0": "Aki"},
                          headers={"HX-Request": "true"}).get_data(as_text=True)
    else:
        r = client.post("/new", data={"name": "T", "ruleset": "roppyakken", "dealer": "0", "player-0": "x" * 41,
                                      "player-1": "Ben", "player-2": "Chiyo"})
        assert r.status_code == 422
        assert f"keep player names to {MAX_NAME}" in r.get_data(as_text=True)  # the server still checks
        page = r.get_data(as_text=True)
    boxes = _name_boxes(page)
    assert boxes
    for box in boxes:
        assert f'maxlength="{MAX_NAME}"' in box
        assert f'data-max-chars="{MAX_NAME}"' in box
        assert f'data-max-units="{MAX_NAME_UNITS}"' in box
    if where != "game changed":
        assert re.search(rf'<input name="name"[^>]*maxlength="{MAX_SESSION_NAME}"', page)
