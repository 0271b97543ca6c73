"""An edit that leaves a round as it was saved (the same cards, in any tap order, and the same details) saves
nothing and logs nothing: no "edit round N" in the change log for Undo to offer, and the page says
"Nothing changed" rather than "updated" (nor an error)."""

from __future__ import annotations

import re

from web_helpers import rounds
from werkzeug.datastructures import MultiDict


def _text(r) -> str:
    return r.get_data(as_text=True)


def _last_change(client, keeper) -> dict:
    return client.get(f"/api/v1/sessions/{keeper}").get_json()["last_change"]


def _edit_form(client, keeper, rnd, form: MultiDict) -> MultiDict:
    """``form`` with the edit page's one-time token and version, as its page gives them."""
    page = _text(client.get(f"/s/{keeper}/round/{rnd['id']}/edit"))
    form["version"] = re.search(r'name="version" value="(\d+)"', page).group(1)
    form["nonce"] = re.search(r'name="nonce" value="([^"]+)"', page).group(1)
    return form


# Bug (new-user try): Save on an edit page that changed nothing logged "edit round 1", which Undo then offered
# to take back.
def test_an_edit_that_changes_nothing_saves_and_logs_nothing(client, keeper, h):
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0))).status_code == 303
    (rnd,) = rounds(client, keeper)
    before = _last_change(client, keeper)
    form = _edit_form(client, keeper, rnd, h.round_form(h.piles(0)))
    r = client.post(f"/s/{keeper}/round/{rnd['id']}/edit", data=form, follow_redirects=True)
    assert r.status_code == 200
    assert "Nothing changed: round 1 already has these cards" in _text(r)
    assert "updated" not in _text(r)
    assert _last_change(client, keeper) == before
    assert rounds(client, keeper)[0]["version"] == rnd["version"]


def test_the_same_cards_tapped_in_another_order_change_nothing(client, keeper, h):
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0))).status_code == 303
    (rnd,) = rounds(client, keeper)
    before = _last_change(client, keeper)
    backwards = {p: list(reversed(cs)) for p, cs in h.piles(0).items()}
    form = _edit_form(client, keeper, rnd, h.round_form(backwards))
    r = client.post(f"/s/{keeper}/round/{rnd['id']}/edit", data=form, follow_redirects=True)
    assert "Nothing changed" in _text(r)
    assert _last_change(client, keeper) == before


def test_an_edit_of_the_details_alone_is_a_change(client, h):
    """A Koi-Koi round's details (who stopped) are part of it: the same cards with another stopper is an edit."""
    from web_helpers import session

    token = session(client, "koikoi", ["Aki", "Ben"])
    cards = ["cherry-curtain", "chrysanthemum-sake-cup"]
    saved = MultiDict({"action": "save", "nonce": h.signed("k1"), "stopped_by": "Ben"})
    for c in cards:
        saved.add("pile-1", c)
    assert client.post(f"/s/{token}/round/new", data=saved).status_code == 303
    (rnd,) = rounds(client, token)
    same = _edit_form(client, token, rnd, MultiDict([*saved.items(multi=True)]))
    assert "Nothing changed" in _text(client.post(f"/s/{token}/round/{rnd['id']}/edit", data=same,
                                                  follow_redirects=True))
    other = _edit_form(client, token, rnd, MultiDict([*saved.items(multi=True)]))
    other.setlist("call-0", ["Ben"])
    r = client.post(f"/s/{token}/round/{rnd['id']}/edit", data=other, follow_redirects=True)
    assert "Round 1 updated" in _text(r)
    assert _last_change(client, token)["summary"] == "edit round 1"


def test_the_api_answers_an_edit_that_changes_nothing_as_unchanged(client, keeper, h):
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0))).status_code == 303
    (rnd,) = rounds(client, keeper)
    before = _last_change(client, keeper)
    r = client.put(f"/api/v1/sessions/{keeper}/rounds/{rnd['id']}",
                   json={"version": rnd["version"], "piles": h.piles(0)})
    assert r.status_code == 200, r.get_json()
    assert (r.get_json()["changed"], r.get_json()["version"]) == (False, rnd["version"])
    assert _last_change(client, keeper) == before
    moved = h.piles(0)
    moved["Ben"].append(moved["Aki"].pop())
    r = client.put(f"/api/v1/sessions/{keeper}/rounds/{rnd['id']}", json={"version": rnd["version"], "piles": moved})
    assert r.get_json()["changed"] is True
    assert _last_change(client, keeper)["summary"] == "edit round 1"
