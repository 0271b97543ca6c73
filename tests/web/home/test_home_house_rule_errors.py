"""A house rule given a value it cannot take is refused at its own field, in players' words: the field named by
its label, what it takes and what was typed, never the ruleset's internals (``preset roppyakken (with options):
field 'options.target' is -5; expected an integer of at least 1``)."""

from __future__ import annotations

import html
import re

import pytest

from referee import api

#: What only the ruleset file's reader should see: its field paths, list positions and Python quoting.
INTERNALS = re.compile(r"field '|options\.|\bexpected\b|\bpreset \w|\(with options\)|\[\d+\]|\bgot '|'\w[\w.-]*'")


#: A number past what Python reads from text (4300 digits): it was a 500 server error.
HUGE = "9" * 5000


def _bad_values(spec: dict) -> list[str]:
    if spec["key"] == "players" or spec["type"] == "bool" or spec["unit"] == "card":
        return []  # the form does not show players; a box cannot be wrong; card lists: test_home_new_session_form
    if spec["choices"]:
        return ["zzz"]
    if spec["type"] == "int":
        return ["-5", "0", "abc", "9999999", "2.5", HUGE]
    if spec["type"] == "list[int]":
        return ["13, 0", HUGE] if spec["unit"] == "month" else ["x", "-5", "99", HUGE]
    return []


CASES = [(preset, spec["key"], spec["label"], bad)
         for preset in ("roppyakken", "gostop", "hachihachi", "koikoi")
         for spec in api.ruleset_json(preset)["options"] for bad in _bad_values(spec)]


def _post(client, preset: str, key: str, typed: str):
    players = ["Aki", "Ben"] if preset == "koikoi" else ["Aki", "Ben", "Chiyo"]
    form = {"name": "Friday", "ruleset": preset, "options_shown": preset, "dealer": "0", f"opt.{key}": typed}
    form |= {f"player-{i}": p for i, p in enumerate(players)}
    return client.post("/new", data=form)


# Bug: a target score of -5 said "preset roppyakken (with options): field 'options.target' is -5; expected an
# integer of at least 1" (and "abc" said "expected a whole number, got 'abc'"); every option's refusal of every kind
# (a least value, a whole number, the largest number, a choice, a month) now speaks to players.
@pytest.mark.parametrize(("preset", "key", "label", "typed"), CASES,
                         ids=[f"{p}-{k}-{b if b != HUGE else '5000-digits'}" for p, k, _, b in CASES])
def test_a_house_rule_it_cannot_take_is_named_at_its_field_in_players_words(client, preset, key, label, typed):
    r = _post(client, preset, key, typed)
    if r.status_code == 303:  # a value the rule takes (0 rounds: no fixed number)
        return
    body = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 422
    field = body.split(f'name="opt.{key}"', 1)[1].split("</div>", 1)[0]
    said = re.search(r'<p class="error">(.*?)</p>', field, flags=re.S)
    assert said, f"no error at the field; the page says {re.findall(r'class=.error.[^>]*>(.*?)<', body)}"
    words = said.group(1)
    assert words.startswith((f"“{label}”", f"In “{label}”")), words
    assert not INTERNALS.search(words), words
    assert typed.split(",")[0].strip() in words or "digits" in words, words  # what was typed


@pytest.mark.parametrize(
    ("key", "typed", "says"),
    [("target", "-5", "“Target score” must be 1 or more; you entered -5."),
     ("target", "abc", "“Target score” must be a whole number; you entered “abc”."),
     ("target", "9999999", "“Target score” must be a whole number from 1 to 1000000; you entered 9999999."),
     ("fuke.excluded_months", "13, 0", "In “Months left out of the fuke count”, 13 and 0 are not "
                                       "months; give month numbers 1 to 12."),
     ("winner", "zzz", "“Who wins” must be one of: Highest total, Most times over target; you entered “zzz”.")],
    ids=["least", "whole-number", "too-big", "month", "choice"],
)
def test_the_words_of_each_kind_of_refusal(client, key, typed, says):
    body = html.unescape(_post(client, "roppyakken", key, typed).get_data(as_text=True))
    field = body.split(f'name="opt.{key}"', 1)[1].split("</div>", 1)[0]
    assert f'<p class="error">{says}</p>' in field


def test_the_what_if_form_names_a_rule_it_cannot_take_in_the_same_words(client):
    token = client.post("/api/v1/sessions", json={"name": "F", "players": ["Aki", "Ben", "Chiyo"]}).get_json()[
        "edit_token"]

    def said(key: str, typed: str) -> str:
        r = client.get(f"/s/{token}/what-if", query_string={"ruleset": "roppyakken", "options_shown": "roppyakken",
                                                            f"opt.{key}": typed})
        assert r.status_code == 422
        field = html.unescape(r.get_data(as_text=True)).split(f'name="opt.{key}"', 1)[1].split("</div>", 1)[0]
        return re.search(r'<p class="error">(.*?)</p>', field).group(1)

    assert said("target", "-5") == "“Target score” must be 1 or more; you entered -5."
    players = said("players", "1, 3")  # a family's own check, in its own words
    assert players == "“Allowed numbers of players” must be counts of 2 or more; you entered 1, 3."
    assert not INTERNALS.search(players), players


# Bug: a target score of 10**30 said "must be a whole number between -1000000 and 1000000" while -5 said "must be 1
# or more": a field's largest-number refusal now gives the field's own least value.
@pytest.mark.parametrize(("preset", "key", "least"),
                         [("roppyakken", "target", 1), ("koikoi", "rounds", 1), ("gostop", "chongtong_points", 0)])
def test_a_number_too_big_names_the_fields_own_range(client, preset, key, least):
    spec = next(s for s in api.ruleset_json(preset)["options"] if s["key"] == key)
    r = _post(client, preset, key, str(10**30))
    body = html.unescape(r.get_data(as_text=True))
    field = body.split(f'name="opt.{key}"', 1)[1].split("</div>", 1)[0]
    said = " ".join(re.search(r'<p class="error">(.*?)</p>', field, flags=re.S).group(1).split())
    assert said == f"“{spec['label']}” must be a whole number from {least} to 1000000; you entered {10**30}."


def test_a_number_of_5000_digits_is_refused_in_players_words(client):
    body = html.unescape(_post(client, "roppyakken", "target", HUGE).get_data(as_text=True))
    field = body.split('name="opt.target"', 1)[1].split("</div>", 1)[0]
    assert ('<p class="error">“Target score” must be a whole number from 1 to 1000000; you entered a number of 5000 '
            "digits.</p>") in field


def test_the_what_if_extra_rules_take_a_number_of_5000_digits_without_a_server_error(client):
    token = client.post("/api/v1/sessions", json={"name": "F", "players": ["Aki", "Ben", "Chiyo"]}).get_json()[
        "edit_token"]
    r = client.get(f"/s/{token}/what-if", query_string={"ruleset": "roppyakken", "extra": f"target={HUGE}"})
    assert r.status_code in (200, 422)
    assert "5000 digits" in html.unescape(r.get_data(as_text=True))
