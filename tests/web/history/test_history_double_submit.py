"""The history forms that change a saved game (edit a round, delete a round, apply other rules) carry
the one-time token, as the round, new-session and import forms do: the same form sent again (a double
tap, Back and Save, a retry) is answered as the first was and changes nothing more, also after the
change it made was undone or another change came after it."""

from __future__ import annotations

import re

from web_helpers import rounds, undo_form

RULE_FIX = "first_to_target_wins=true"


def _nonce(page: str) -> str:
    found = re.search(r'name="nonce" value="([^"]+)"', page)
    assert found, "the form has no one-time token"
    return found.group(1)


def _text(r) -> str:
    return r.get_data(as_text=True)


def _saved_round(client, h, keeper) -> dict:
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0))).status_code == 303
    (rnd,) = rounds(client, keeper)
    return rnd


def _edit_form(client, h, keeper, rnd, piles):
    """The edit page's form as its page gives it (its token and version), with ``piles`` tapped in."""
    page = _text(client.get(f"/s/{keeper}/round/{rnd['id']}/edit"))
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    form = h.round_form(piles, version=version)
    form["nonce"] = _nonce(page)
    return form


def _moved(h) -> dict[str, list[str]]:
    piles = h.piles(0)
    piles["Ben"].append(piles["Aki"].pop())
    return piles


# Bug (double submit): an edit form sent again after its edit was undone said "Someone else saved a
# different version of this round", though nobody else had.
def test_an_edit_sent_again_after_its_undo_is_recognised_and_saves_nothing(client, keeper, h):
    rnd = _saved_round(client, h, keeper)
    url = f"/s/{keeper}/round/{rnd['id']}/edit"
    form = _edit_form(client, h, keeper, rnd, _moved(h))
    assert client.post(url, data=form).status_code == 303
    client.post(f"/s/{keeper}/undo", data=undo_form(client, keeper))
    again = client.post(url, data=form)
    body = _text(again)
    assert again.status_code == 409
    assert "Someone else" not in body
    assert "undone" in body
    assert sorted(rounds(client, keeper)[0]["input"]["piles"]["Ben"]) == sorted(h.piles(0)["Ben"])
    # The cards are kept, with a fresh token and the round's version now: Save there saves them.
    resend = h.round_form(_moved(h), nonce="unused", version=re.search(r'name="version" value="(\d+)"',
                                                                        body).group(1))
    resend["nonce"] = _nonce(body)
    assert resend["nonce"] != form["nonce"]
    assert client.post(url, data=resend).status_code == 303
    assert sorted(rounds(client, keeper)[0]["input"]["piles"]["Ben"]) == sorted(_moved(h)["Ben"])


# Bug (double submit): an edit form saved, then changed (Back after Save) and saved again, blamed
# "someone else" for the first save.
def test_an_edit_form_saved_again_with_other_cards_saves_nothing(client, keeper, h):
    rnd = _saved_round(client, h, keeper)
    url = f"/s/{keeper}/round/{rnd['id']}/edit"
    form = _edit_form(client, h, keeper, rnd, _moved(h))
    assert client.post(url, data=form).status_code == 303
    other = h.round_form(h.piles(0), version=form["version"])
    other["nonce"] = form["nonce"]
    again = client.post(url, data=other)
    body = _text(again)
    assert again.status_code == 409
    assert "Someone else" not in body
    assert "this form already saved round 1" in body
    assert sorted(rounds(client, keeper)[0]["input"]["piles"]["Ben"]) == sorted(_moved(h)["Ben"])


def test_the_conflict_pages_save_carries_the_forms_token(client, keeper, h):
    rnd = _saved_round(client, h, keeper)
    url = f"/s/{keeper}/round/{rnd['id']}/edit"
    mine = _edit_form(client, h, keeper, rnd, _moved(h))
    theirs = _edit_form(client, h, keeper, rnd, h.piles(2))
    assert client.post(url, data=theirs).status_code == 303
    page = client.post(url, data=mine)
    assert page.status_code == 409
    assert _nonce(_text(page)) == mine["nonce"]


def _rule_fix_form(client, edit: str, extra: str = RULE_FIX) -> dict[str, str]:
    """The What if page's "Apply these rules" form, as its page gives it."""
    page = _text(client.get(f"/s/{edit}/what-if", query_string={"ruleset": "roppyakken", "extra": extra}))
    apply_form = page[page.index('<form method="post"'):]
    apply_form = apply_form[: apply_form.index("</form>")]
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', apply_form))
    assert "nonce" in fields, "the apply form has no one-time token"
    return fields


def _options(client, edit: str) -> dict:
    return client.get(f"/api/v1/sessions/{edit}").get_json()["options"]


# Bug (double submit): an "Apply these rules" form sent again after another rule change (or after
# its change was undone) applied its rules a second time.
def test_a_rule_fix_sent_again_after_another_change_applies_nothing(client, keeper):
    first = _rule_fix_form(client, keeper)
    second = _rule_fix_form(client, keeper, "")
    assert client.post(f"/s/{keeper}/what-if", data=first).status_code == 303
    assert _options(client, keeper) == {"first_to_target_wins": True}
    assert client.post(f"/s/{keeper}/what-if", data=second).status_code == 303
    assert _options(client, keeper) == {}
    again = client.post(f"/s/{keeper}/what-if", data=first, follow_redirects=True)
    assert "were already applied from this form" in _text(again)
    assert _options(client, keeper) == {}


def test_a_rule_fix_sent_again_after_its_undo_applies_nothing(client, keeper):
    form = _rule_fix_form(client, keeper)
    assert client.post(f"/s/{keeper}/what-if", data=form).status_code == 303
    client.post(f"/s/{keeper}/undo", data=undo_form(client, keeper))
    again = client.post(f"/s/{keeper}/what-if", data=form)
    assert again.status_code == 409
    assert "undone" in _text(again)
    assert _options(client, keeper) == {}
    fresh = _nonce(_text(again))
    assert fresh != form["nonce"]
    assert client.post(f"/s/{keeper}/what-if", data={**form, "nonce": fresh}).status_code == 303
    assert _options(client, keeper) == {"first_to_target_wins": True}


# Bug (double submit): a double tap on "Delete round" answered the second tap with "not found".
def test_a_delete_sent_twice_deletes_once_and_says_so(client, keeper, h):
    rnd = _saved_round(client, h, keeper)
    url = f"/s/{keeper}/round/{rnd['id']}/delete"
    form = {"nonce": _nonce(_text(client.get(url)))}
    assert client.post(url, data=form).status_code == 303
    again = client.post(url, data=form)
    assert again.status_code == 303
    said = _text(client.get(again.headers["Location"]))
    assert "Round 1 deleted. “Undo” brings it back. This form was sent twice" in said
    assert rounds(client, keeper) == []


def test_a_delete_sent_again_after_its_undo_deletes_nothing(client, keeper, h):
    rnd = _saved_round(client, h, keeper)
    url = f"/s/{keeper}/round/{rnd['id']}/delete"
    form = {"nonce": _nonce(_text(client.get(url)))}
    assert client.post(url, data=form).status_code == 303
    client.post(f"/s/{keeper}/undo", data=undo_form(client, keeper))
    again = client.post(url, data=form)
    assert again.status_code == 409
    assert "undone" in _text(again)
    assert len(rounds(client, keeper)) == 1
    assert client.post(url, data={"nonce": _nonce(_text(again))}).status_code == 303
    assert rounds(client, keeper) == []
