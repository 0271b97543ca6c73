"""A round form that saved a round, changed (Back, other cards) and saved again saves nothing, and its 409 page
offers a Save that works: a fresh one-time token, and the round it saved as the round to edit, at its version
now.  Every form that saves a round (the new-round form, the totals pad, the edit form) does so; the same form
sent again unchanged is still answered as its first Save was."""

from __future__ import annotations

import html
import re

import pytest
from web_helpers import rounds, totals
from werkzeug.datastructures import MultiDict


def _text(r) -> str:
    return html.unescape(r.get_data(as_text=True))


def _form_on(page: str) -> tuple[str, dict[str, str]]:
    """The saving form on a page: (its action, its hidden fields)."""
    found = re.search(r'<form method="post"[^>]*?action="([^"#]+)[^"]*"(.*?)</form>', page, flags=re.S)
    assert found, "the page has no saving form"
    return found.group(1), dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', found.group(2)))


def _moved(h) -> dict[str, list[str]]:
    piles = h.piles(0)
    piles["Ben"].append(piles["Aki"].pop())
    return piles


def _cards_form(h, nonce: str, which: str) -> MultiDict:
    return h.round_form(h.piles(0) if which == "first" else _moved(h), nonce=nonce)


def _totals_form(h, nonce: str, which: str) -> MultiDict:
    return MultiDict(totals(h, nonce, *((120, 0, 0) if which == "first" else (0, 120, 0))))


def _other_fields(form: MultiDict) -> MultiDict:
    """``form`` without the fields the page gives (token, version, round number)."""
    return MultiDict([(k, v) for k, v in form.items(multi=True) if k not in ("nonce", "version", "round_number")])


# Bug (new-user try): a new-round form saved, then Back, other cards and Save: the 409 page "this form already
# saved round 1 with other cards" kept the spent token, so its Save answered the same 409 for ever.
@pytest.mark.parametrize("entry", [_cards_form, _totals_form], ids=["cards", "totals"])
def test_a_new_round_form_saved_again_changed_offers_to_save_it_as_that_rounds_edit(client, keeper, h, entry):
    assert client.post(f"/s/{keeper}/round/new", data=entry(h, "back", "first")).status_code == 303
    (saved,) = rounds(client, keeper)
    r = client.post(f"/s/{keeper}/round/new", data=entry(h, "back", "changed"))
    assert r.status_code == 409
    page = _text(r)
    assert "this form already saved round 1" in page
    assert "Save changes to round 1" in page
    action, fields = _form_on(page)
    assert action == f"/s/{keeper}/round/{saved['id']}/edit"
    assert fields["nonce"] != h.signed("back")
    assert fields["version"] == str(saved["version"])
    resend = _other_fields(entry(h, "unused", "changed"))
    resend.update(fields)
    resend["action"] = "save"
    assert client.post(action, data=resend).status_code == 303
    (now,) = rounds(client, keeper)
    assert now["id"] == saved["id"]
    assert now["input"] != saved["input"]
    assert client.post(f"/s/{keeper}/round/new", data=entry(h, "back", "first")).status_code == 303  # as first


def test_an_edit_form_saved_again_changed_offers_a_save_with_a_fresh_token_and_the_version_now(client, keeper, h):
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0))).status_code == 303
    (rnd,) = rounds(client, keeper)
    url = f"/s/{keeper}/round/{rnd['id']}/edit"
    assert client.post(url, data=h.round_form(_moved(h), nonce="edit", version=str(rnd["version"]))).status_code == 303
    (edited,) = rounds(client, keeper)
    r = client.post(url, data=h.round_form(h.piles(2), nonce="edit", version=str(rnd["version"])))
    assert r.status_code == 409
    page = _text(r)
    assert "this form already saved round 1" in page
    action, fields = _form_on(page)
    assert action == url
    assert fields["nonce"] != h.signed("edit")
    assert fields["version"] == str(edited["version"])
    resend = _other_fields(h.round_form(h.piles(2)))
    resend.update(fields)
    assert client.post(url, data=resend).status_code == 303
    assert sorted(rounds(client, keeper)[0]["input"]["piles"]["Ben"]) == sorted(h.piles(2)["Ben"])
    again = client.post(url, data=h.round_form(_moved(h), nonce="edit", version=str(rnd["version"])))
    assert again.status_code == 303  # the first edit's form, unchanged: answered as its first Save was


def test_the_409_pages_reload_keeps_the_fresh_token(client, keeper, h):
    """Reload (the address bar names the kept form) shows the same working Save, not the spent token."""
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0), nonce="back")).status_code == 303
    (saved,) = rounds(client, keeper)
    r = client.post(f"/s/{keeper}/round/new", data=h.round_form(_moved(h), nonce="back"))
    action, fields = _form_on(_text(r))
    shown = re.search(r'data-replace-url="([^"]+)"', _text(r))
    assert shown, "the page names no address for Reload"
    again_action, again_fields = _form_on(_text(client.get(shown.group(1))))
    assert again_action == action == f"/s/{keeper}/round/{saved['id']}/edit"
    assert (again_fields["nonce"], again_fields["version"]) == (fields["nonce"], fields["version"])
