"""A finished Hachi-hachi game: the jackpot (the antes' sum, RULES.md "Hachi-hachi": "The winner takes
the jackpot") is named where the totals are shown, so the board's totals, the rounds table and the CSV
agree: the CSV's last row is the jackpot, and its totals are the board's."""

from __future__ import annotations

import csv
import io

from web_helpers import session, text

PLAYERS = ["Aki", "Ben", "Chiyo"]


def _half_game(client, api_rounds: int) -> str:
    token = session(client, "hachihachi", PLAYERS, rounds="6")
    for _ in range(api_rounds):  # Aki takes 1 kan from Chiyo each round
        r = client.post(f"/api/v1/sessions/{token}/rounds", json={"totals": {"Aki": 12, "Ben": 0, "Chiyo": -12}})
        assert r.status_code == 201, r.get_json()
    return token


def _rows(client, token: str) -> list[dict[str, str]]:
    body = client.get(f"/s/{token}/export.csv").get_data().decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(body)))


# Bug (phone walk): after the last round the board said Chiyo +54 kan (the jackpot taken) while the CSV's
# last row, and the rounds table, said +34 kan; nothing named the 20 kan between them.
def test_the_csv_of_a_finished_game_ends_with_the_jackpot_row_and_the_board_totals(client):
    token = _half_game(client, 6)
    board = client.get(f"/api/v1/sessions/{token}").get_json()
    assert board["winner"] == "Aki"
    rows = _rows(client, token)
    assert [r["round"] for r in rows] == ["1", "2", "3", "4", "5", "6", "jackpot"]
    last, jackpot = rows[-2], rows[-1]
    # ante 3 kan (36 mon) each in a half game: the jackpot is 108 mon, to the best total
    assert [int(jackpot[f"{p} (mon)"]) for p in PLAYERS] == [108, 0, 0]
    assert [int(last[f"{p} total"]) + int(jackpot[f"{p} (mon)"]) for p in PLAYERS] == \
        [int(jackpot[f"{p} total"]) for p in PLAYERS]
    final = {p: int(jackpot[f"{p} total"]) for p in PLAYERS}
    assert final == board["totals"] == {"Aki": 144, "Ben": -36, "Chiyo": -108}


def test_the_board_of_a_finished_game_says_who_took_the_jackpot(client):
    token = _half_game(client, 6)
    page = text(client.get(f"/s/{token}").get_data(as_text=True))
    assert "The jackpot (9 kan 0 mon) went to Aki after the last round: the totals above include it." in page
    assert "The jackpot holds" not in page


def test_a_game_in_play_has_no_jackpot_row_yet(client):
    token = _half_game(client, 2)
    assert [r["round"] for r in _rows(client, token)] == ["1", "2"]
    page = text(client.get(f"/s/{token}").get_data(as_text=True))
    assert "highest total after 6 rounds takes the jackpot" in page
    assert "The jackpot holds 9 kan 0 mon" in page
