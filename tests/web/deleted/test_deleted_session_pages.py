"""Deleting a session from its scoreboard, and bringing it back: the confirm page, the page after (with Undo),
the deleted session's 404 with its way back, the Deleted sessions list and the restore."""

from __future__ import annotations

import html
import re

from web_helpers import words


def form_of(page: str) -> dict[str, str]:
    """The hidden fields of the page's first POST form (the confirm page's nonce and rev, an Undo's change)."""
    form = re.search(r'<form method="post"(.*?)</form>', page, flags=re.S)[1]
    return {k: html.unescape(v) for k, v in re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', form)}


def confirm(client, token: str) -> dict[str, str]:
    r = client.get(f"/s/{token}/delete")
    assert r.status_code == 200
    return form_of(r.get_data(as_text=True))


def delete(client, token: str):
    return client.post(f"/s/{token}/delete", data=confirm(client, token))


def save_round(client, h, token: str, nonce: str = "r1") -> None:
    r = client.post(f"/s/{token}/round/new", data=h.round_form(h.piles(0), nonce=nonce))
    assert r.status_code == 303, r.get_data(as_text=True)[:500]


def test_the_scorekeepers_scoreboard_offers_delete_and_the_viewers_does_not(client, keeper, viewer):
    assert "Delete this session" in words(client.get(f"/s/{keeper}"))
    assert "Delete this session" not in words(client.get(f"/s/{viewer}"))


def test_the_confirm_page_names_the_session_its_players_and_rounds(client, h, keeper):
    save_round(client, h, keeper)
    page = words(client.get(f"/s/{keeper}/delete"))
    assert "Delete “Friday”?" in page
    assert "Aki · Ben · Chiyo" in page
    assert "1 round saved" in page
    assert set(confirm(client, keeper)) == {"nonce", "rev"}


def test_a_delete_leaves_the_lists_and_the_next_page_offers_undo(client, keeper):
    r = delete(client, keeper)
    assert r.status_code == 303
    assert r.headers["Location"].endswith(f"/s/{keeper}/deleted")
    after = client.get(r.headers["Location"])
    assert "“Friday” deleted. “Undo” brings it back with every round." in words(after)
    assert "Undo: bring back “Friday”" in words(after)
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []
    assert "Friday" not in words(client.get("/")).split("Deleted sessions")[0]


def test_a_deleted_sessions_pages_answer_404_with_the_way_back(client, keeper, viewer):
    delete(client, keeper)
    for path in (f"/s/{keeper}", f"/s/{keeper}/round/new", f"/s/{keeper}/what-if", f"/s/{keeper}/export.json"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert "“Friday” was deleted." in words(r), path
        assert f'href="/s/{keeper}/deleted"' in r.get_data(as_text=True), path  # to its Undo
    r = client.get(f"/s/{viewer}")
    assert r.status_code == 404
    assert "“Friday” was deleted by its scorekeeper" in words(r)
    assert "/deleted" not in r.get_data(as_text=True)  # a viewer cannot bring it back
    assert "Your sessions" in words(r)


def test_home_leads_to_deleted_sessions_and_each_has_its_undo(client, keeper):
    assert "Deleted sessions" not in words(client.get("/"))
    delete(client, keeper)
    assert "Deleted sessions (1)" in words(client.get("/"))
    page = client.get("/deleted").get_data(as_text=True)
    assert "Friday" in page
    assert "Aki · Ben · Chiyo" in words(client.get("/deleted"))
    assert f'action="/s/{keeper}/restore"' in page


def test_undo_brings_the_session_back_with_every_round(client, h, keeper):
    save_round(client, h, keeper)
    before = client.get(f"/api/v1/sessions/{keeper}").get_json()
    delete(client, keeper)
    undo = form_of(client.get(f"/s/{keeper}/deleted").get_data(as_text=True))
    r = client.post(f"/s/{keeper}/restore", data=undo)
    assert r.status_code == 303
    assert r.headers["Location"].endswith(f"/s/{keeper}")
    assert "“Friday” is back, with every round as it was." in words(client.get(r.headers["Location"]))
    now = client.get(f"/api/v1/sessions/{keeper}").get_json()
    assert now["totals"] == before["totals"]
    assert now["last_change"] == before["last_change"]  # its Undo names the change before the delete again
    assert [s["name"] for s in client.get("/api/v1/sessions").get_json()["sessions"]] == ["Friday"]
