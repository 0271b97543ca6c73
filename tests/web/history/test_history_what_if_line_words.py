"""The What if page's KEY=VALUE lines are refused in players' words, as the new-session form refuses its fields: the
option named by its label, never ``preset roppyakken (with options): field 'options.target' is 1.5``."""

from __future__ import annotations

import html
import re

import pytest
from web_helpers import session

INTERNALS = re.compile(r"field '|options\.|\bexpected\b|\(with options\)|\bpreset \w")


def _error(client, extra: str) -> str:
    token = session(client, "roppyakken", ["Aki", "Ben", "Cho"])
    r = client.get(f"/s/{token}/what-if", query_string={"ruleset": "roppyakken", "extra": extra})
    assert r.status_code == 422
    found = re.findall(r'<p class="error"[^>]*>(.*?)</p>', html.unescape(r.get_data(as_text=True)), flags=re.S)
    assert found, "no error on the page"
    return " ".join(found[0].split())


# Bug: target=1.5 said "preset roppyakken (with options): field 'options.target' is 1.5; expected an integer".
@pytest.mark.parametrize(
    ("extra", "says"),
    [("target=1.5", "“Target score” must be a whole number; you entered 1.5."),
     ("target=-5", "“Target score” must be 1 or more; you entered -5."),
     ("yaku.oozan.points=1.5", "“yaku.oozan.points” must be a whole number; you entered 1.5.")],
    ids=["option-not-whole", "option-below-least", "other-field"],
)
def test_a_what_if_line_the_rules_refuse_is_said_in_players_words(client, extra, says):
    error = _error(client, extra)
    assert says in error, error
    assert not INTERNALS.search(error), error


# Bug (phone walk): a Roppyakken session's hint gave the Hachi-hachi key teyaku.mukou-sanbon.kan=2.
@pytest.mark.parametrize(("ruleset", "players", "examples"), [
    ("roppyakken", ["Aki", "Ben", "Cho"], ["yaku.shiko.points=600", "teyaku.sogasu.points=400"]),
    ("hachihachi", ["Aki", "Ben", "Cho"], ["teyaku.sanbon.kan=2", "dekiyaku.gokou.kan=12"]),
    ("koikoi", ["Aki", "Ben"], ["yaku.gokou.points=10", "teyaku.teshi.points=6"]),
    ("gostop", ["Aki", "Ben", "Cho"], ["yaku.ogwang.points=15"]),
], ids=["roppyakken", "hachihachi", "koikoi", "gostop"])
def test_the_key_value_hint_gives_examples_of_the_sessions_own_game(client, ruleset, players, examples):
    token = session(client, ruleset, players)
    page = html.unescape(client.get(f"/s/{token}/what-if").get_data(as_text=True))
    hint = re.search(r"Other rule fields, one .*?\((.*?)\)\s*<textarea", page, flags=re.S).group(1)
    assert re.findall(r"<code>(.*?)</code>", hint) == examples
    for line in examples:  # each one a line the page takes
        r = client.get(f"/s/{token}/what-if", query_string={"ruleset": ruleset, "extra": line})
        assert r.status_code == 200, line
