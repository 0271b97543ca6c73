"""The scoreboard at a real table: it fits a phone, its viewer link and QR code use the address the
page was opened with, and a Changara match marks each game won."""

from __future__ import annotations

import re


# Bug (web QA): the rounds table widened the page on a phone.
def test_the_rounds_table_scrolls_on_its_own(client, keeper, h):
    client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0)))
    assert '<div class="table-scroll">' in client.get(f"/s/{keeper}").get_data(as_text=True)


# Bug (web QA): long names widened the page on a phone.
def test_long_names_wrap_instead_of_widening_the_page(client):
    css = client.get("/static/app.css")
    assert "overflow-wrap: anywhere" in css.get_data(as_text=True)
    assert "text-overflow: ellipsis" in css.get_data(as_text=True)
    css.close()


# Bug (web QA): the viewer link and QR code named 127.0.0.1 to phones on the Wi-Fi.
def test_the_viewer_link_and_qr_use_the_address_the_page_was_opened_with(client, keeper, viewer):
    lan = "http://192.168.1.20:5000"
    body = client.get(f"/s/{keeper}", base_url=lan).get_data(as_text=True)
    assert f"{lan}/s/{viewer}" in body
    assert "127.0.0.1" not in body
    qr = client.get(f"/s/{keeper}/qr.svg", base_url=lan)
    assert qr.status_code == 200
    assert qr.mimetype == "image/svg+xml"


# Bug (web QA): a Changara match did not say which round won each game.
def test_a_changara_match_marks_each_won_game_and_tallies_them(client):
    from referee.cards import CARDS

    r = client.post(
        "/api/v1/sessions",
        json={"name": "Match", "ruleset": "changara", "players": ["Aki", "Ben"], "options": {"target": 100}},
    )
    token = r.get_json()["edit_token"]
    ids = [c.id for c in CARDS]
    for _ in range(2):  # each round puts Ben over 100: a game each, best of 3
        r = client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": {"Aki": ids[:24], "Ben": ids[24:]}})
        assert r.status_code == 201, r.get_json()  # (a response object alone is always true)
    body = client.get(f"/s/{token}").get_data(as_text=True)
    assert "Game 1 won by <strong>Ben</strong>: totals start again from 0 after this round" in body
    assert "Game 2 won by <strong>Ben</strong>" in body
    assert re.search(r"Games won</strong> \(first to 2\): Aki <strong>0</strong> · Ben <strong>2</strong>", body)
    assert client.get(f"/api/v1/sessions/{token}").get_json()["rounds"][0]["game_winner"] == "Ben"
