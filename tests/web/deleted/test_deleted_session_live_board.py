"""A scoreboard left open on another phone when its session is deleted: its live poll answers 404 with what the
deleted session's 404 page says, in the board's place, and the same way back (Undo on the scorekeeper link,
Your sessions on the viewer's); it polls on, slowly, and once the delete is undone its poll brings the board back."""

from __future__ import annotations

import html
import re

import pytest
from test_deleted_session_pages import delete, form_of, save_round

HX = {"HX-Request": "true"}


# Bug (new-user try): a phone showing the board kept its stale board: every poll got a 404 and nothing changed.
@pytest.mark.parametrize(
    ("link", "said", "back"),
    [
        ("keeper", "“Friday” was deleted. Its rounds are kept: Undo brings it back as it was.", "/s/{keeper}/deleted"),
        ("viewer", "“Friday” was deleted by its scorekeeper, so this link shows nothing now.", "/"),
    ],
)
def test_the_poll_of_a_deleted_session_answers_the_notice_in_the_boards_place(client, h, keeper, viewer, link,
                                                                               said, back):
    save_round(client, h, keeper)
    token = {"keeper": keeper, "viewer": viewer}[link]
    rev = re.search(r'data-rev="(\d+)"', client.get(f"/s/{token}").get_data(as_text=True))[1]
    assert client.get(f"/s/{token}/poll?rev={rev}", headers=HX).status_code == 204
    assert delete(client, keeper).status_code == 303
    r = client.get(f"/s/{token}/poll?rev={rev}", headers=HX)
    assert r.status_code == 404
    body = html.unescape(r.get_data(as_text=True))
    board = re.search(r'<div id="board"[^>]*>(.*?)</div>', body, flags=re.S)
    assert board, body[:400]
    assert "data-session-deleted" in body
    assert said in board[1]
    assert f'href="{back.format(keeper=keeper)}"' in board[1]
    assert f'hx-get="/s/{token}/poll?rev=deleted"' in body  # it polls on, slowly
    assert "<html" not in body  # a fragment for the board's place, not a page


# Bug (tester): a phone showing the notice stopped polling, so when the scorekeeper pressed Undo it kept saying
# the session was deleted, for good.
@pytest.mark.parametrize("link", ["keeper", "viewer"])
def test_the_notice_polls_on_and_brings_the_board_back_once_the_delete_is_undone(client, h, keeper, viewer, link,
                                                                               app):
    save_round(client, h, keeper)
    token = {"keeper": keeper, "viewer": viewer}[link]
    assert delete(client, keeper).status_code == 303
    notice = client.get(f"/s/{token}/poll?rev=1", headers=HX).get_data(as_text=True)
    trigger = re.search(r'<div id="board"[^>]*hx-trigger="every (\d+)s"', notice)
    assert trigger, notice[:400]
    assert app.config["POLL_SECONDS"] < int(trigger[1]) <= 10 * app.config["POLL_SECONDS"]  # slower than the board
    assert client.get(f"/s/{token}/poll?rev=deleted", headers=HX).status_code == 204  # still deleted: keep it
    gone = client.get(f"/s/{keeper}/deleted").get_data(as_text=True)
    assert client.post(f"/s/{keeper}/restore", data=form_of(gone)).status_code == 303
    r = client.get(f"/s/{token}/poll?rev=deleted", headers=HX)
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert "data-session-deleted" not in body
    assert 'class="totals' in body or "totals" in body
    assert re.search(r'<div id="board" hx-get="[^"]*/poll\?rev=\d+"', body)  # the board, polling as before
