"""The boxes that take numbers on a phone: a box that asks for several numbers ("1, 2") never opens
a pad without their separator, and what a phone's pad can type between them is read as one."""

from __future__ import annotations

import re

import pytest
from werkzeug.datastructures import MultiDict

GOSTOP = ["Jiwoo", "Minho", "Seoyeon"]
#: (the family's preset, its players) for every round entry form.
TABLES = [("roppyakken", ["Aki", "Ben", "Chiyo"]), ("hachihachi", ["Aki", "Ben", "Chiyo", "Daichi"]),
          ("koikoi", ["Aki", "Ben"]), ("gostop", GOSTOP), ("matgo", ["Jiwoo", "Minho"])]


def create(client, ruleset: str, players: list[str]) -> str:
    form = {"name": "Pads", "ruleset": ruleset, "dealer": "0", **{f"player-{i}": p for i, p in enumerate(players)}}
    r = client.post("/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:1000]
    return r.headers["Location"].rsplit("/", 1)[-1]


def several_number_boxes(page: str) -> list[str]:
    """The text boxes of a page that ask for several numbers (their example lists two): [the tag]."""
    return [tag for tag in re.findall(r"<input\b[^>]*>", page) if re.search(r'placeholder="\d+[,.、] ?\d', tag)]


# Bug (phone walk-through): Go-Stop's ppeok box opened the number pad, and an iPhone's has no comma or
# space, so "1, 2" (two ppeok) could not be typed at all.
@pytest.mark.parametrize(("ruleset", "players"), TABLES, ids=[t[0] for t in TABLES])
@pytest.mark.parametrize("entry", ["cards", "totals"])
def test_a_box_for_several_numbers_opens_a_pad_with_their_separator(client, ruleset, players, entry):
    token = create(client, ruleset, players)
    query = {"entry": "totals"} if entry == "totals" else {}
    page = client.get(f"/s/{token}/round/new", query_string=query).get_data(as_text=True)
    boxes = several_number_boxes(page)
    if ruleset in ("gostop", "matgo") and entry == "cards":
        assert len(boxes) == len(players)  # each player's ppeok (뻑)
    for tag in boxes:
        assert 'inputmode="numeric"' not in tag, tag  # digits only: no comma, no point, no space
        assert 'type="number"' not in tag, tag


def ppeok_form(h, text: str) -> MultiDict:
    """Round 1 as the piles form sends it: nobody stopped (나가리), Minho's ppeok typed as ``text``."""
    form = MultiDict({"action": "save", "nonce": h.signed("pads-1"), "stopped_by": "", "ppeok-1": text})
    for c in ["pine-chaff-1", "pine-chaff-2"]:
        form.add("pile-0", c)
    return form


@pytest.mark.parametrize(
    "typed",
    ["1, 2", "1 2", "1.2", "1. 2", "1、2", "1，2"],
    ids=["comma", "space", "number-pad-point", "point-and-space", "japanese-comma", "full-width-comma"],
)
def test_two_ppeok_typed_as_a_phone_types_them(client, h, typed):
    token = create(client, "gostop", GOSTOP)
    r = client.post(f"/s/{token}/round/new", data=ppeok_form(h, typed))
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    saved = client.get(f"/api/v1/sessions/{token}").get_json()["rounds"][0]["input"]
    assert saved["ppeok"] == {"Minho": [1, 2]}
