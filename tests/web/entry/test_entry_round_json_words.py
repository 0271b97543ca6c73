"""The round JSON box (a round page's advanced entry) keeps the JSON's own words, its keys, but speaks no Python:
names listed plainly, not ``['Aki', 'Ben', 'Cho']``, and JSON it cannot read says where, plainly."""

from __future__ import annotations

import html
import re

import pytest
from web_helpers import session
from werkzeug.datastructures import MultiDict

#: Python's reprs: a list in brackets with quoted entries, a quoted name, the decoder's own phrase.
PYTHON = re.compile(r"\['|'\]|'\w[^']*'|Expecting|\(line \d")


def _error(client, h, text: str) -> str:
    token = session(client, "roppyakken", ["Aki", "Ben", "Cho"])
    form = MultiDict({"action": "score", "nonce": h.signed("n-1"), "round_json": text})
    body = html.unescape(client.post(f"/s/{token}/round/new", data=form, follow_redirects=True).get_data(as_text=True))
    found = re.findall(r'<p class="error"[^>]*>(.*?)</p>', body, flags=re.S)
    assert found, "no error on the page"
    return " ".join(found[0].split())


# Bug: the JSON box said "piles for unknown player 'Zed'; players are ['Aki', 'Ben', 'Cho']" and "not valid JSON
# (Expecting value, line 1, column 10)".
@pytest.mark.parametrize(
    ("text", "says"),
    [('{"piles": {"Zed": []}}', "Aki, Ben and Cho"),
     ('{"piles": }', "at line 1, column 11"),
     ('{"piles": {}} x', "at line 1, column 15")],
    ids=["unknown-player", "no-value", "extra-data"],
)
def test_the_json_box_says_its_refusals_without_python(client, h, text, says):
    error = _error(client, h, text)
    assert says in error, error
    assert not PYTHON.search(error), error
