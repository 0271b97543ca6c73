"""The CSV export: no cell a spreadsheet would run as a formula, and the month of each round in a
game played by months (KOIKOI-RULES.md "The game")."""

from __future__ import annotations

import csv
import io

from web_helpers import session, totals


# Bug (web QA): CSV cells starting with = + - @ ran as formulas.
def test_csv_cells_that_look_like_formulas_are_escaped(client, h):
    players = ["=HYPERLINK(1)", "+Ben", "@Chiyo"]
    token = h.new_session(client, name="-cmd", players=players)
    piles = dict(zip(players, h.piles(0).values(), strict=True))
    r = client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": piles})
    assert r.status_code == 201
    rows = list(csv.reader(io.StringIO(client.get(f"/s/{token}/export.csv").get_data(as_text=True))))
    assert rows[0][3:6] == ["'=HYPERLINK(1) (points)", "'+Ben (points)", "'@Chiyo (points)"]
    assert rows[1][1] == "'=HYPERLINK(1)"  # the dealer's name
    cells = [c for row in rows for c in row]
    assert not any(c[:1] in "=+-@\t\r" and c[:1] for c in cells if not c.lstrip("-").isdigit())


def export_rows(client, token: str) -> list[dict[str, str]]:
    r = client.get(f"/s/{token}/export.csv")
    assert r.status_code == 200
    return list(csv.DictReader(io.StringIO(r.get_data().decode("utf-8-sig"))))


# Bug (Koi-Koi QA): the CSV export did not name each round's month.
# KOIKOI-RULES.md "The game": round n is month n (tsukifuda uses it); docs/KOIKOI.md: extra rounds go on
# from month 1.  The month is named by its plant, as everywhere a month is named to a player (issue 12).
def test_the_csv_export_has_the_month_of_each_koikoi_round(client, h):
    token = session(client, "koikoi", ["Aki", "Ben"], rounds="2", tie="extra-round")
    for k, (a, b) in enumerate([(5, 0), (0, 5), (0, 0)]):
        assert client.post(f"/s/{token}/round/new", data=totals(h, f"x{k}", a, b)).status_code == 303
    rows = export_rows(client, token)
    assert [(r["round"], r["month"]) for r in rows] == [
        ("1", "Pine (松, month 1)"), ("2", "Plum (梅, month 2)"), ("3", "Cherry (桜, month 3)")]


# Bug (Koi-Koi QA): the month column was missing before the first round.
def test_the_csv_export_of_an_empty_koikoi_session_still_has_the_column(client):
    token = session(client, "koikoi", ["Aki", "Ben"])
    r = client.get(f"/s/{token}/export.csv")
    assert next(csv.reader(io.StringIO(r.get_data().decode("utf-8-sig"))))[:2] == ["round", "month"]


# Bug (Koi-Koi QA): games without months must not get a month column.
def test_games_without_months_get_no_month_column(client, h):
    # RULES.md: Roppyakken rounds are not played by month.
    token = session(client, "roppyakken", ("Aki", "Ben", "Chiyo"))
    header = next(csv.reader(io.StringIO(client.get(f"/s/{token}/export.csv").get_data(as_text=True))))
    assert "month" not in header
