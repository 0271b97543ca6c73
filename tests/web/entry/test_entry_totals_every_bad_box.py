"""The totals pad ("Enter totals only") names every box it cannot read at once, each beside its box (as the
house-rule forms say every refused option at once), and keeps everything typed; a number far too big is said
with the limit."""

from __future__ import annotations

import html
import re

import pytest
from web_helpers import session

THREE = ["Aki", "Ben", "Chie"]


def _fieldsets(page: str) -> list[str]:
    return re.findall(r'<fieldset class="total-entry">(.*?)</fieldset>', page, flags=re.S)


# Bug (new-user try): "12.5", "-abc" and "999999999999999999999" in three players' boxes said only the first.
@pytest.mark.parametrize(
    ("ruleset", "players", "typed", "said"),
    [
        ("gostop", THREE, {"total-0": "12.5", "total-1": "-abc", "total-2": "999999999999999999999"},
         ["Aki's total must be a whole number of points, like 120; you entered “12.5”.",
          "Ben's total must be a whole number of points, like 120; you entered “-abc”.",
          "Chie's total must be at most 99999 points; you entered a number of 21 digits."]),
        ("roppyakken", THREE, {"total-0": "12.5", "total-1": "-40", "total-2": "999999999999999999999"},
         ["Aki's total must be a whole number of points, like 120; you entered “12.5”.",
          "Ben's total must be 0 or more points (a round never takes points away); you entered -40.",
          "Chie's total must be at most 99999 points; you entered a number of 21 digits."]),
        ("koikoi", ["Aki", "Ben"], {"total-0": "six", "total-1": "1e30"},
         ["Aki's total must be a whole number of points, like 120; you entered “six”.",
          "Ben's total must be at most 99999 points; you entered 1e30."]),
        ("hachihachi", THREE, {"kan-0": "1.5", "mon-0": "", "kan-1": "-2", "mon-1": "", "kan-2": "99999999",
                               "mon-2": "0"},
         ["Aki's kan must be a whole number, like 2; you entered “1.5”.",
          "Ben's kan must be a number without + or −, like 2 (“won” or “paid” gives the sign); you entered -2.",
          "Chie's amount must be at most 99999 mon (8333 kan 3 mon); you entered 99999999 kan 0 mon."]),
    ],
    ids=["gostop", "roppyakken", "koikoi", "hachihachi"],
)
@pytest.mark.parametrize("action", ["save", "score"])
def test_every_box_it_cannot_read_is_said_at_once_beside_it(client, h, ruleset, players, typed, said, action):
    token = session(client, ruleset, players)
    form = {"entry": "totals", "action": action, "nonce": h.signed("bad"), "winner": "Aki", **typed}
    r = client.post(f"/s/{token}/round/new", data=form, follow_redirects=True)
    assert r.status_code == (422 if action == "save" else 200)
    page = html.unescape(r.get_data(as_text=True))
    top = " ".join(re.search(r'<p class="error" role="alert">(.*?)</p>', page, flags=re.S).group(1).split())
    assert all(s in top for s in said), top  # the summary names every one
    boxes = _fieldsets(page)
    for i, (box, s) in enumerate(zip(boxes, said, strict=True)):
        assert f'<p class="field-error" id="err-total-{i}">{s}</p>' in " ".join(box.split())  # beside its box
        assert f'aria-invalid="true" aria-describedby="err-total-{i}"' in box
    for name, value in typed.items():
        assert re.search(rf'name="{name}"[^>]*\s+value="{re.escape(value)}"', page, flags=re.S), name  # kept


def test_an_empty_box_beside_a_bad_one_is_said_too_and_a_good_one_is_not(client, h):
    token = session(client, "roppyakken", THREE)
    form = {"entry": "totals", "action": "save", "nonce": h.signed("mix"), "total-0": "abc", "total-1": "",
            "total-2": "40"}
    page = html.unescape(client.post(f"/s/{token}/round/new", data=form).get_data(as_text=True))
    assert "Aki's total must be a whole number" in page
    assert "Ben's total is empty: enter the points Ben adds this round, 0 if none." in page
    aki, ben, chie = _fieldsets(page)
    assert 'id="err-total-0"' in aki
    assert 'id="err-total-1"' in ben
    assert "error" not in chie
    assert 'aria-invalid' not in chie


# Bug (new-user try): player 1 empty, player 2 " 7 " and player 3 "1,000": the alert named player 3's "1,000" first,
# then player 1's empty box (errors of form were said before empty boxes), out of the boxes' order.
@pytest.mark.parametrize(
    ("ruleset", "players", "typed", "said"),
    [
        ("koikoi", ["Aki", "Ben"], {"total-0": "", "total-1": "1,000"},
         ["Aki's total is empty", "Ben's total must be a whole number of points, like 120; you entered “1,000”."]),
        ("roppyakken", THREE, {"total-0": "", "total-1": " 7 ", "total-2": "1,000"},
         ["Aki's total is empty", "Chie's total must be a whole number of points, like 120; you entered “1,000”."]),
        ("gostop", THREE, {"total-0": "", "total-1": " 7 ", "total-2": "1,000"},
         ["Aki's total is empty", "Chie's total must be a whole number of points, like 120; you entered “1,000”."]),
        ("gostop", THREE, {"total-0": "x", "total-1": "", "total-2": "1,000"},
         ["Aki's total must be a whole number of points", "Ben's total is empty",
          "Chie's total must be a whole number of points, like 120; you entered “1,000”."]),
        ("hachihachi", THREE, {"kan-0": "", "mon-0": "", "kan-1": " 7 ", "mon-1": "", "kan-2": "1,000", "mon-2": ""},
         ["Aki's amount is empty", "Chie's kan must be a whole number, like 2; you entered “1,000”."]),
        ("hachihachi", THREE, {"kan-0": "x", "mon-0": "", "kan-1": "", "mon-1": "", "kan-2": "1,000", "mon-2": ""},
         ["Aki's kan must be a whole number", "Ben's amount is empty",
          "Chie's kan must be a whole number, like 2; you entered “1,000”."]),
    ],
    ids=["koikoi", "roppyakken", "gostop", "gostop-between", "hachihachi", "hachihachi-between"],
)
@pytest.mark.parametrize("action", ["save", "score"])
def test_the_alert_names_the_bad_boxes_in_seat_order_whatever_is_wrong(client, h, ruleset, players, typed, said,
                                                                       action):
    token = session(client, ruleset, players)
    form = {"entry": "totals", "action": action, "nonce": h.signed("order"), "winner": "Aki", **typed}
    page = html.unescape(client.post(f"/s/{token}/round/new", data=form, follow_redirects=True).get_data(as_text=True))
    top = " ".join(re.search(r'<p class="error" role="alert">(.*?)</p>', page, flags=re.S).group(1).split())
    at = [top.find(s) for s in said]
    assert -1 not in at, top  # every bad box is said
    assert at == sorted(at), top  # in the boxes' (seats') order
    assert top.count("empty") == sum("empty" in s for s in said), top  # a good box (" 7 ") is not said
