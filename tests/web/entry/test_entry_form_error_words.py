"""A round form's error speaks of the form's own fields, as the player sees them, never of the round JSON behind
them (``"ppeok" of Aki is ["x"]``, ``"last_go" is 'Aki'``, ``calls[0].player``); the JSON box keeps the JSON's
words, since there the player wrote the keys."""

from __future__ import annotations

import re

import pytest
from web_helpers import first_form_error, session

#: The round JSON's words: its keys in quotes or in snake_case, list positions, Python's lists and quotes.
INTERNALS = re.compile(r"\"\w[\w.\[\]]*\"|\w\[\d+\]|\['|'\w[^']*'|\b[a-z]+_[a-z_]+\b|\[\d")

THREE = ["Aki", "Ben", "Chiyo"]


def _error(client, token: str, fields: list[tuple[str, str]], signed) -> str:
    return first_form_error(client, token, fields, signed)


GOSTOP = [
    ([("ppeok-0", "x"), ("stopped_by", "")], "Aki's ppeok (뻑)"),
    ([("ppeok-0", "99"), ("stopped_by", "")], "Aki's ppeok (뻑)"),
    ([("ppeok-0", "1, 1"), ("stopped_by", "")], "names turn 1 twice"),
    ([("ppeok-0", "1, 2, 3, 4"), ("stopped_by", "")], "the third ends the round"),
    ([("ppeok-0", "1, 2, 3"), ("stopped_by", "Ben")], "choose “Nobody stopped”"),
    ([("gos-0", "13"), ("stopped_by", "")], "Aki's Go 고"),
    ([("gos-1", "abc"), ("stopped_by", "")], "Ben's Go 고"),
    ([("shakes-2", "-1"), ("stopped_by", "")], "Chiyo's Shake 흔들기"),
    ([("last_go", "Aki"), ("stopped_by", "Ben")], "Aki, who called no go"),
    ([("dokbak", "Aki"), ("stopped_by", "Aki")], "Aki, who stopped"),
    ([("instant-player", "Aki"), ("stopped_by", "")], "choose the month"),
    ([("instant-player", "Aki"), ("instant-month", "1"), ("stopped_by", "Aki")], "ends the round at the deal"),
    ([("bonus-0", "0:2"), ("bonus-1", "0:2"), ("bonus-2", "0:2"), ("stopped_by", "")], "tick each bonus card once"),
]


# Bug: the Go-Stop form's errors quoted the round JSON: '"ppeok" of Aki is ["x"]; expected the turn numbers (1 to
# 12) of Aki's ppeok, e.g. [1, 2]', '"last_go" is 'Aki', who called no go ("gos" of Aki is 0)'.
@pytest.mark.parametrize(("fields", "says"), GOSTOP, ids=[f"{f[0][0]}={f[0][1]}" for f, _ in GOSTOP])
def test_a_go_stop_forms_error_names_its_fields_as_the_form_does(client, h, fields, says):
    error = _error(client, session(client, "gostop", THREE), fields, h.signed)
    assert says in error, error
    assert not INTERNALS.search(error), error


@pytest.mark.parametrize(
    ("fields", "says"),
    [([("status-0", "drop"), ("order-0", "9")], "you entered 9"),
     ([("status-0", "drop"), ("order-0", "1"), ("status-1", "drop"), ("order-1", "1")], "you entered 1, 1")],
    ids=["order-9", "order-twice"],
)
def test_a_hachi_hachi_forms_drop_out_order_error_names_the_call_order(client, h, fields, says):
    error = _error(client, session(client, "hachihachi", [*THREE, "Dai"]), fields, h.signed)
    assert error.startswith("The call order of the players who drop out"), error
    assert says in error, error
    assert not INTERNALS.search(error), error


@pytest.mark.parametrize(
    ("fields", "says"),
    [([("call-0", "Zed"), ("stopped_by", "Aki")], "Koi-koi call 1 must be one of the players (Aki, Ben)"),
     ([("stopped_by", "Zed")], "Who stopped must be one of the players (Aki, Ben)")],
    ids=["call", "stopped_by"],
)
def test_a_koi_koi_forms_fields_are_named_by_the_form_not_by_index_or_key(client, h, fields, says):
    error = _error(client, session(client, "koikoi", ["Aki", "Ben"]), fields, h.signed)
    assert error.startswith(says), error
    assert not INTERNALS.search(error), error


def test_the_json_box_keeps_the_jsons_own_words(client, h):
    error = _error(client, session(client, "gostop", THREE),
                   [("round_json", '{"piles": {}, "ppeok": {"Aki": ["x"]}, "stopped_by": null}')], h.signed)
    assert error.startswith('"ppeok" of Aki is ["x"]'), error
