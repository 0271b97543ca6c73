"""Import: what it takes and what it refuses, in players' words, keeping the pasted text."""

from __future__ import annotations

import html
import io
import json

import pytest


# Bug (web QA): a busy database lost the pasted import.
def test_import_on_a_busy_database_keeps_the_pasted_json(client, locked):
    text = '{"game": {"players": ["Aki", "Ben", "Chiyo"], "rounds": []}, "name": "Pasted"}'
    r = client.post("/import", data={"text": text})
    assert r.status_code == 503
    assert "Nothing was saved" in r.get_data(as_text=True)
    assert text in html.unescape(r.get_data(as_text=True))


# Bug (web QA): an option of 5000 digits crashed the import.
def test_an_option_value_of_5000_digits(client):
    text = '{"game": {"players": ["A", "B", "C"], "options": {"target": ' + "1" * 5000 + "}}}"
    r = client.post("/import", data={"text": text})
    assert r.status_code == 422
    assert "cannot be read" in r.get_data(as_text=True)
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []


# Bug (web QA): "Imported 1 rounds".
def test_one_round_is_singular(client, h):
    text = json.dumps({"game": {"players": h.players, "rounds": [{"piles": h.piles(0)}]}, "name": "One"})
    r = client.post("/import", data={"text": text}, follow_redirects=True)
    body = r.get_data(as_text=True)
    assert "Imported 1 round." in body
    assert "1 rounds" not in body
    assert "1 rounds" not in client.get("/").get_data(as_text=True)


# Bug (phone QA): Import with no file or a CSV said only "not valid JSON".
@pytest.mark.parametrize(
    ("upload", "says"),
    [
        (None, "Nothing to import: choose a file saved with a scoreboard’s “Export JSON”".replace("’", "&#39;")),
        (("round,Aki,Ben\n1,70,50\n", "game.csv"), "a CSV export is for spreadsheets and cannot be imported"),
    ],
    ids=["no-file", "csv-export"],
)
def test_import_says_which_file_it_takes(client, upload, says):
    """Found on a phone: Import with no file chosen, or with the scoreboard's CSV export, said only
    "That is not valid JSON (Expecting value, line 1, column 1)"."""

    data = {} if upload is None else {"file": (io.BytesIO(upload[0].encode()), upload[1])}
    r = client.post("/import", data=data, content_type="multipart/form-data")
    assert r.status_code == 422
    assert says in r.get_data(as_text=True)


# Bug: Import said the decoder's "That is not valid JSON (Expecting value, line 1, column 10)".
@pytest.mark.parametrize(
    ("text", "says"),
    [('{"game": }', "This is not a session export: a value was expected at line 1, column 10."),
     ('{"game": {}} x', "This is not a session export: there is more after the export's closing } at line 1, "
                        "column 14.")],
    ids=["no-value", "extra-data"],
)
def test_import_says_bad_json_in_players_words(client, text, says):
    r = client.post("/import", data={"text": text})
    assert r.status_code == 422
    body = html.unescape(r.get_data(as_text=True))
    assert says in body
    assert "Expecting" not in body
    assert "Extra data" not in body


# Bug (phone walk-through): JSON that is not a session export (a round's JSON from the round form's "Advanced"
# box, another app's file) was refused as 'expected a session export with "game": {"players": [...], ...}'.
@pytest.mark.parametrize(
    ("text", "says"),
    [('{"hello": 1}', 'This is not a session export: it has no "game" with its "players".'),
     ('[1, 2]', "This is not a session export: it is JSON, but not an object ({...})."),
     ('{"piles": {"Aki": ["pine-crane"]}, "dealer": "Aki"}',
      "This is not a session export: it has a round's JSON, not a session's."),
     ('{"game": {"totals": {"Aki": 10}}}', "This is not a session export: it has a round's JSON, not a session's.")],
    ids=["another-file", "a-list", "a-rounds-json", "a-round-under-game"],
)
def test_json_that_is_no_session_export_says_what_import_takes(client, text, says):
    r = client.post("/import", data={"text": text})
    assert r.status_code == 422
    body = html.unescape(r.get_data(as_text=True))
    assert says in body
    assert "Import takes a file saved with a scoreboard's “Export JSON”" in body
    assert '"players": [...]' not in body
    assert text in body  # the pasted text is kept
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []
