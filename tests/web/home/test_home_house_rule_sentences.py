"""A house rule's refusal reads as a sentence whatever the rule's label is: the label is a name on the form
("Round scores up to a multiple of", "Mizuten: card points the dealer needs"), not a noun that can start a
sentence, so the refusal names it in quotes; and a list's refusal names every entry it cannot take."""

from __future__ import annotations

import html
import re

import pytest

from referee import api
from referee.web.forms.options import refusal

#: A word a sentence's subject cannot end with before its verb ("a multiple of must be").
_DANGLING = re.compile(r"\b(?:of|at|to|by|for|with|in|on|up|below|or|and|the|a|needs|wins|counts)\s+"
                       r"(?:must|is|are|cannot|needs)\b")


def _kinds(spec: dict) -> list[tuple[str, object, object]]:
    """(rule, value, limit) of every refusal the field can give, as ``refusal`` takes them."""
    kind = spec["type"]
    if kind == "bool":
        return [("bool", "yes", None)]
    if spec["choices"]:
        return [("choice", "zzz", spec["choices"])]
    if kind == "int":
        least = spec["min"] if spec["min"] is not None else 0
        return [("min", least - 1, least), ("integer", "abc", None), ("largest", 10**9, spec["min"])]
    if kind == "list[int]":
        out = [("integers", ["x"], None), ("integers", ["x", "y"], None), ("largest", 10**9, None),
               ("list", "7", None), ("words", [1], None)]
        if spec["unit"] == "month":
            out += [("month", 13, None), ("month", [13, 0], None)]
        return out
    return [("string", 5, None), ("list", "x", None), ("table", {}, None), ("unknown", 1, None)]


#: Each option of each preset once (presets of one game share most of them), with each refusal it can give.
_SPECS = {(spec["key"], spec["label"]): spec for preset in api.preset_names()
          for spec in api.ruleset_json(preset)["options"]}
CASES = [(label, *kind, key) for (key, label), spec in _SPECS.items() for kind in _kinds(spec)]


# Bug (new-user try): "Round scores up to a multiple of must be 1 or more": the field's label was pasted in as
# the sentence's subject, which reads for "Target score" but not for most labels.
@pytest.mark.parametrize(("label", "rule", "value", "limit", "key"), CASES,
                         ids=[f"{c[4]}-{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_every_refusal_of_every_option_reads_as_a_sentence(label, rule, value, limit, key):
    said = refusal(label, rule, value, limit, expected="counts of 2 or more")
    assert f"“{label}”" in said, said  # the label as the field's name, never the sentence's grammar
    unquoted = said.replace(f"“{label}”", "the field")
    assert not _DANGLING.search(unquoted), said
    assert said[0].isupper() or said[0] == "“", said
    assert said.endswith("."), said


def test_a_round_up_multiple_below_one_is_said_as_a_sentence(client):
    r = _post(client, "changara", "round_up_to", "0")
    assert _field_error(r, "round_up_to") == "“Round scores up to a multiple of” must be 1 or more; you entered 0."


# Bug (new-user try): "13, 0" for the months left out of the fuke count named only 13.
@pytest.mark.parametrize(("preset", "key"), [(p, s["key"]) for p in api.preset_names()
                                             for s in api.ruleset_json(p)["options"] if s["unit"] == "month"],
                         ids=lambda v: v)
def test_a_list_of_months_names_every_entry_that_is_no_month(client, preset, key):
    label = next(s["label"] for s in api.ruleset_json(preset)["options"] if s["key"] == key)
    said = _field_error(_post(client, preset, key, "13, 2, 0, 14"), key)
    assert said == f"In “{label}”, 13, 0 and 14 are not months; give month numbers 1 to 12."


def test_a_list_of_numbers_names_every_entry_that_is_no_number(client):
    said = _field_error(_post(client, "gostop", "ppeok_payouts", "x, 3, y"), "ppeok_payouts")
    assert said == "In “Ppeok (뻑) payouts”, “x” and “y” are not whole numbers; separate several numbers with commas."


def test_a_what_if_line_naming_several_bad_months_names_them_all(client):
    token = client.post("/api/v1/sessions", json={"name": "F", "players": ["Aki", "Ben", "Chiyo"]}).get_json()[
        "edit_token"]
    r = client.get(f"/s/{token}/what-if", query_string={"ruleset": "roppyakken",
                                                        "extra": "fuke.excluded_months=[13, 11, 0]"})
    assert r.status_code == 422
    body = " ".join(html.unescape(r.get_data(as_text=True)).split())
    assert "In “Months left out of the fuke count”, 13 and 0 are not months; give month numbers 1 to 12." in body


def _post(client, preset: str, key: str, typed: str):
    players = ["Aki", "Ben"] if preset == "koikoi" else ["Aki", "Ben", "Chiyo"]
    form = {"name": "Friday", "ruleset": preset, "options_shown": preset, "dealer": "0", f"opt.{key}": typed}
    form |= {f"player-{i}": p for i, p in enumerate(players)}
    return client.post("/new", data=form)


def _field_error(r, key: str) -> str:
    assert r.status_code == 422, r.status_code
    field = html.unescape(r.get_data(as_text=True)).split(f'name="opt.{key}"', 1)[1].split("</div>", 1)[0]
    found = re.search(r'<p class="error">(.*?)</p>', field, flags=re.S)
    assert found, "no error at the field"
    return " ".join(found.group(1).split())
