"""Full-width digits (全角, "１２０" as a Japanese keyboard types them): every box that takes a number keeps a
phone's number pad (``inputmode``) with no ``pattern`` that the browser would refuse them by, and the server
reads them as the digits they are (Python's ``\\d`` and ``int`` read every decimal digit)."""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser

import pytest
from werkzeug.datastructures import MultiDict

#: (the family's preset, its players) for every round entry form.
TABLES = [("roppyakken", ["Aki", "Ben", "Chiyo"]), ("hachihachi", ["Aki", "Ben", "Chiyo", "Daichi"]),
          ("koikoi", ["Aki", "Ben"]), ("gostop", ["Jiwoo", "Minho", "Seoyeon"]), ("matgo", ["Jiwoo", "Minho"])]
FULL_WIDTH = "１２０"


class _Inputs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "input":
            self.found.append(dict(attrs))


def number_boxes(page: str) -> list[dict[str, str | None]]:
    """The inputs of a page that open a number pad or take a number: their attributes."""
    parser = _Inputs()
    parser.feed(page)
    return [a for a in parser.found if a.get("inputmode") in ("numeric", "decimal") or a.get("type") == "number"]


def refuses_full_width(box: dict[str, str | None]) -> bool:
    """Whether the browser refuses "１２０" in the box by its ``pattern`` (matched whole, as HTML does; a
    JavaScript ``\\d`` or ``[0-9]`` is ASCII only, hence ``re.ASCII``)."""
    pattern = box.get("pattern")
    return pattern is not None and not re.fullmatch(pattern, FULL_WIDTH, re.ASCII)


def create(client, ruleset: str, players: list[str], **fields: str) -> str:
    form = {"name": "Digits", "ruleset": ruleset, "dealer": "0", **fields,
            **{f"player-{i}": p for i, p in enumerate(players)}}
    r = client.post("/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:1000]
    return r.headers["Location"].rsplit("/", 1)[-1]


def pages(client, ruleset: str, players: list[str]) -> dict[str, str]:
    """Every page of a game with boxes for numbers: the new-session form, both round forms, What if."""
    token = create(client, ruleset, players)
    return {
        "new session": client.get("/new", query_string={"ruleset": ruleset}).get_data(as_text=True),
        "round (cards)": client.get(f"/s/{token}/round/new").get_data(as_text=True),
        "round (totals)": client.get(f"/s/{token}/round/new", query_string={"entry": "totals"}).get_data(as_text=True),
        "what if": client.get(f"/s/{token}/what-if").get_data(as_text=True),
    }


# Bug (new user): the totals boxes had pattern="[0-9]*", so "１２０" typed on a Japanese keyboard got the
# browser's "Please match the requested format" though the server reads it.
@pytest.mark.parametrize(("ruleset", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_no_number_box_refuses_full_width_digits(client, ruleset, players):
    found = pages(client, ruleset, players)
    totals = number_boxes(found["round (totals)"])
    assert len(totals) >= len(players)  # a box per player at least: the check below has boxes to check
    assert all(box.get("inputmode") == "numeric" for box in totals)  # a phone still opens its number pad
    refused = {where: [box.get("name") for box in number_boxes(page) if refuses_full_width(box)]
               for where, page in found.items()}
    assert refused == {where: [] for where in found}


def _totals(h, **boxes: str) -> MultiDict:
    return MultiDict({"entry": "totals", "action": "save", "nonce": h.signed("digits-1"), **boxes})


@pytest.mark.parametrize(
    ("ruleset", "players", "boxes"),
    [
        ("roppyakken", ["Aki", "Ben", "Chiyo"], {"total-0": "１２０", "total-1": "４０", "total-2": "０"}),
        ("gostop", ["Jiwoo", "Minho", "Seoyeon"],
         {"total-0": "１０", "sign-0": "+", "total-1": "４", "sign-1": "-", "total-2": "６", "sign-2": "-"}),
        ("hachihachi", ["Aki", "Ben", "Chiyo"],
         {"kan-0": "２", "mon-0": "６", "sign-0": "+", "kan-1": "１", "mon-1": "３", "sign-1": "-",
          "kan-2": "１", "mon-2": "３", "sign-2": "-"}),
    ],
    ids=["points", "points-won-or-paid", "kan-and-mon"],
)
def test_totals_typed_in_full_width_digits_are_saved_as_typed_in_ascii(client, h, ruleset, players, boxes):
    saved = []
    for typed in (boxes, {k: unicodedata.normalize("NFKC", v) for k, v in boxes.items()}):
        token = create(client, ruleset, players)
        r = client.post(f"/s/{token}/round/new", data=_totals(h, **typed))
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
        saved.append(client.get(f"/api/v1/sessions/{token}").get_json()["rounds"][0]["totals"])
    assert saved[0] == saved[1]
    assert any(saved[1].values())


def test_a_house_rule_typed_in_full_width_digits_is_read(client):
    token = create(client, "roppyakken", ["Aki", "Ben", "Chiyo"], **{"opt.target": "３００"})
    assert client.get(f"/api/v1/sessions/{token}").get_json()["options"]["target"] == 300
