"""Import (the home page's form and ``hanafuda-referee import``) names every house rule of the file that the rules
refuse in one error, as the new-session form, the command line's ``--option`` and the API's rules do
(``ruleset.check_options``)."""

from __future__ import annotations

import html
import json

import pytest

from referee.cli import main

SOURCE = "preset roppyakken (with options)"
TARGET = "target (field 'options.target' is -5; expected an integer of at least 1)"
WINNER = "winner (field 'options.winner' is 'zzz'; expected one of 'highest-total', 'most-times-over-target')"
FUK = "fuk.threshold (field 'options.fuk' is {\"threshold\": 40}; expected no such field"
BOUND = "fuke.threshold (field 'options.fuke.threshold' is 2000000; expected a number between -1000000 and 1000000)"

CASES = pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"target": -5, "winner": "zzz"}, [TARGET, WINNER]),
        ({"fuk.threshold": 40, "target": -5}, [FUK, TARGET]),
        ({"fuke.threshold": 2000000, "target": -5}, [BOUND, TARGET]),
    ],
    ids=["two-options", "mistyped-key", "number-past-the-bound"],
)


def _export(options: dict) -> str:
    return json.dumps({"name": "Friday", "game": {"ruleset": "roppyakken", "players": ["Aki", "Ben", "Chiyo"],
                                                  "options": options, "rounds": []}})


# Bug (import walk-through): a file with two refused house rules was refused naming the first only; fixed, it was
# refused again for the second (and a number past the bound hid every other refused option).
@CASES
def test_the_import_form_names_every_refused_option(client, options, said):
    r = client.post("/import", data={"text": _export(options)})
    assert r.status_code == 422
    page = html.unescape(r.get_data(as_text=True))
    for words in said:
        assert words in page
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []


@CASES
def test_the_import_command_names_every_refused_option(tmp_path, capsys, options, said):
    file = tmp_path / "friday.json"
    file.write_text(_export(options), encoding="utf-8")
    assert main(["import", str(file), "--data", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1  # one error line
    for words in said:
        assert words in err
