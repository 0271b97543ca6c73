"""The Undo button's form undoes only the change it names: a missing, malformed or unknown change id
undoes nothing, and the same valid undo sent twice undoes once."""

from __future__ import annotations

import pytest
from conftest import new_session


def _rounds(client, token: str) -> int:
    return len(client.get(f"/api/v1/sessions/{token}").get_json()["rounds"])


def _add(client, token: str, a: int) -> None:
    r = client.post(f"/api/v1/sessions/{token}/rounds", json={"totals": {"Aki": a, "Ben": 0, "Chiyo": 0}})
    assert r.status_code == 201, r.get_json()


def _latest(client, token: str) -> int:
    return client.get(f"/api/v1/sessions/{token}").get_json()["last_change"]["id"]


def _flash(client, token: str) -> str:
    return client.get(f"/s/{token}").get_data(as_text=True).replace("&#39;", "'").replace("&#34;", '"')


@pytest.mark.parametrize(
    "change",
    [None, "", "abc", "-3", "1.5", "1" * 40, " 1", "²", "999999"],
    ids=["missing", "empty", "text", "negative", "not-whole", "40-digits", "space", "superscript", "unknown"],
)
def test_an_undo_form_without_a_change_it_can_name_undoes_nothing(client, keeper, change):
    # Found by a new user: the form undid the latest change whatever it was sent, and four
    # such posts erased every round.
    for a in (100, 200, 300):
        _add(client, keeper, a)
    for _ in range(4):
        r = client.post(f"/s/{keeper}/undo", data={} if change is None else {"change": change})
        assert r.status_code == 303
    assert _rounds(client, keeper) == 3
    page = _flash(client, keeper)
    assert "nothing was undone" in page or "already undone; nothing else was undone" in page
    assert "Undone:" not in page


def test_the_same_undo_sent_twice_undoes_once_and_says_already_undone(client, keeper):
    _add(client, keeper, 100)
    _add(client, keeper, 200)
    change = _latest(client, keeper)
    client.post(f"/s/{keeper}/undo", data={"change": str(change)})
    assert _rounds(client, keeper) == 1
    client.post(f"/s/{keeper}/undo", data={"change": str(change)})
    assert _rounds(client, keeper) == 1
    assert "already undone" in _flash(client, keeper)


def test_an_undo_of_another_sessions_change_undoes_nothing(client, keeper):

    other = new_session(client)
    _add(client, other, 100)
    _add(client, keeper, 100)
    client.post(f"/s/{keeper}/undo", data={"change": str(_latest(client, other))})
    assert _rounds(client, keeper) == 1
    assert _rounds(client, other) == 1
    assert "another session's change, so nothing was undone" in _flash(client, keeper)


def test_an_old_pages_undo_after_newer_changes_says_so_not_already_undone(client, keeper):
    # Bug: an Undo button of a page loaded before a newer change said "That change was already
    # undone", though it had not been: undo only goes back newest first
    _add(client, keeper, 100)
    old = _latest(client, keeper)
    _add(client, keeper, 200)
    client.post(f"/s/{keeper}/undo", data={"change": str(old)})
    assert _rounds(client, keeper) == 2
    page = _flash(client, keeper)
    assert "already undone" not in page
    assert "other changes were made after that one" in page
