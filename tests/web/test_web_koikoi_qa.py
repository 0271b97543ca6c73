"""Koi-Koi QA cases in the web app (issue 13 QA): each once misled a player, and each test failed
before its fix.  Rule source: ../shared/KOIKOI-RULES.md; decisions where it is silent: docs/KOIKOI.md."""

from __future__ import annotations

import csv
import io
import re

import pytest
from werkzeug.datastructures import MultiDict

PLAYERS = ("Aki", "Ben")
HANAMI = ["cherry-curtain", "chrysanthemum-sake-cup"]  # Hanami-zake (花見酒), 5 points
TESHI = ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1", "pine-chaff-2",
         "plum-chaff-1", "plum-chaff-2", "iris-chaff-1", "iris-chaff-2"]  # Teshi (手四), 6 points


def create(client, **options: str) -> str:
    form = {"name": "Koi-Koi QA", "ruleset": "koikoi", "dealer": "0", "player-0": "Aki", "player-1": "Ben",
            **{f"opt.{k}": v for k, v in options.items()}}
    r = client.post("/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:1000]
    return r.headers["Location"].rsplit("/", 1)[-1]


def totals_form(h, aki: int, ben: int, nonce: str, action: str = "save") -> dict:
    return {"entry": "totals", "action": action, "nonce": h.signed(nonce), "total-0": str(aki), "total-1": str(ben)}


def calls_form(h, nonce: str, action: str = "save", piles=None, hands=None, stopped_by="Aki", calls=()) -> MultiDict:
    form = MultiDict({"action": action, "nonce": h.signed(nonce), "stopped_by": stopped_by or ""})
    for i, p in enumerate(PLAYERS):
        for c in (piles or {}).get(p, []):
            form.add(f"pile-{i}", c)
        for c in (hands or {}).get(p, []):
            form.add(f"hand-{i}", c)
    for k, who in enumerate(calls):
        form.add(f"call-{k}", who)
    return form


def text(page: str) -> str:
    """The page's words without tags, whitespace runs as one space (none before a colon or comma)."""
    return re.sub(r" ([:,])", r"\1", re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


# ---- 1. extra rounds are named as players name them -----------------------------------------------


# KOIKOI-RULES.md "The game": option `rounds`; option `tie = extra-round` plays "one more round at a
# time until the totals differ"; docs/KOIKOI.md: extra rounds go on through the months.
@pytest.mark.parametrize(
    ("rounds", "board_says", "entry_says"),
    [
        ([], "2 rounds to play", "Round 1"),
        ([(5, 0)], "round 2 of 2 next", "Round 2"),
        ([(5, 0), (0, 5)], "extra round 1 next, after 2 rounds", "Round 3 · extra round 1"),
        ([(5, 0), (0, 5), (0, 0)], "extra round 2 next, after 2 rounds", "Round 4 · extra round 2"),
        ([(5, 0), (0, 5), (0, 0), (0, 0)], "extra round 3 next, after 2 rounds", "Round 5 · extra round 3"),
    ],
    ids=["before-any-round", "round-2-of-2-next", "level-after-the-last-round", "extra-round-1-played",
         "extra-round-2-played"],
)
def test_extra_rounds_are_counted_as_extra_rounds(client, h, rounds, board_says, entry_says):
    token = create(client, rounds="2", tie="extra-round")
    for k, (a, b) in enumerate(rounds):
        assert client.post(f"/s/{token}/round/new", data=totals_form(h, a, b, f"t{k}")).status_code == 303
    board = text(client.get(f"/s/{token}").get_data(as_text=True))
    assert board_says in board
    assert not re.search(r"round (\d+) of (\d+)", board) or all(
        int(n) <= int(m) for n, m in re.findall(r"round (\d+) of (\d+)", board))  # never "round 3 of 2"
    entry = text(client.get(f"/s/{token}/round/new").get_data(as_text=True))
    assert entry_says in entry


# ---- 2. a round's error is said once -----------------------------------------------------------------


def _new(client, ruleset: str, players) -> str:
    form = {"name": "Errors", "ruleset": ruleset, "dealer": "0", **{f"player-{i}": p for i, p in enumerate(players)}}
    r = client.post("/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:1000]
    return r.headers["Location"].rsplit("/", 1)[-1]


# Every entry page (README "Round entry": the Roppyakken family's picker, Hachi-hachi's, Koi-Koi's calls
# form, its JSON box, and "Enter totals only") says what is wrong once, not again in the entry bar.
@pytest.mark.parametrize(
    ("ruleset", "players", "form", "says"),
    [
        ("roppyakken", ("Aki", "Ben", "Chiyo"), {"pile-0": "nonsense"}, "unknown card"),
        ("roppyakken", ("Aki", "Ben", "Chiyo"), {"round_json": '{"piles": {"Aki": ["nonsense"]}}'}, "unknown card"),
        ("hachihachi", ("Aki", "Ben", "Chiyo"), {"pile-0": "nonsense"}, "unknown card"),
        ("koikoi", PLAYERS, {"pile-0": "nonsense", "stopped_by": "Aki"}, "unknown card"),
        ("koikoi", PLAYERS, {"pile-0": "cherry-curtain", "stopped_by": "Aki"}, "holds no yaku"),
        ("koikoi", PLAYERS, {"entry": "totals", "total-0": "3", "total-1": "12"}, "only one player scores"),
        ("roppyakken", ("Aki", "Ben", "Chiyo"), {"entry": "totals", "total-0": "x"}, "total"),
    ],
    ids=["roppyakken-picker", "json-box", "hachihachi-picker", "koikoi-calls", "koikoi-no-yaku", "koikoi-totals",
         "roppyakken-totals"],
)
@pytest.mark.parametrize("action", ["score", "save"])
def test_a_round_error_is_shown_once(client, h, ruleset, players, form, says, action):
    token = _new(client, ruleset, players)
    r = client.post(f"/s/{token}/round/new", data={"action": action, "nonce": h.signed("e1"), **form},
                    follow_redirects=True)
    assert r.status_code == (422 if action == "save" else 200)  # Score shows the problem; Save refuses
    errors = re.findall(r'<p class="error"[^>]*>(.*?)</p>', r.get_data(as_text=True), re.S)
    assert len(errors) == 1, errors
    assert says in errors[0]


# ---- 3. no "×1" where nothing multiplied the round ----------------------------------------------------


def result_section(page: str) -> str:
    """The scored result (``#result``) as words, without the card chips ("Brights 光 ×1" counts cards)."""
    start = page.index('id="result"')
    section = page[start:page.index("</section>", start)]
    return text(re.sub(r'<span class="chip[^>]*>(?:(?!</span>).)*</span>[^<]*</span>', "", section))


# KOIKOI-RULES.md "Lucky hands": a lucky hand wins at the deal and is never doubled; README "Totals
# only": a round entered as totals knows no yaku and no multiplier.  A plain stop with no factor
# ("The round": 7 points or more, koi-koi calls) is not multiplied either.  A multiplier is a line of
# its own (issue 13), so the table shows "×N" only where a factor applied, and the lines sum to the score.
@pytest.mark.parametrize(
    ("form", "score", "times"),
    [
        ({"hand-1": TESHI, "stopped_by": ""}, 6, ""),
        ({"entry": "totals", "total-0": "0", "total-1": "12"}, 12, ""),
        ({"pile-1": HANAMI, "stopped_by": "Ben"}, 5, ""),
        ({"pile-1": HANAMI, "stopped_by": "Ben", "call-0": "Aki"}, 10, "×2"),
    ],
    ids=["teshi-at-the-deal", "entered-totals", "plain-stop", "opponent-koikoi-x2"],
)
def test_the_result_shows_a_multiplier_only_where_one_applied(client, h, form, score, times):
    token = create(client)
    r = client.post(f"/s/{token}/round/new", data=MultiDict({"action": "score", "nonce": h.signed("m1"), **form}),
                    follow_redirects=True)
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    section = result_section(page)
    assert "×1" not in section
    row = re.search(r"<tr><th>Ben</th>(.*?)</tr>", page, re.S).group(1)
    assert re.findall(r"<td>(.*?)</td>", row)[1] == times
    assert re.search(rf"<strong>{score}</strong>", row)
    lines = re.search(r"<h4>Ben</h4>(.*?)</ul>", page, re.S).group(1)
    assert sum(int(n) for n in re.findall(r'<span class="pts">([+-]?\d+)</span>', lines)) == score


def test_a_round_of_totals_shows_no_yaku_it_does_not_know(client, h):
    # README "Totals only": the cards (so the yaku) of a round entered as totals are not known.
    token = create(client)
    form = {"action": "score", "nonce": h.signed("m2"), "entry": "totals", "total-0": "0", "total-1": "12"}
    page = client.post(f"/s/{token}/round/new", data=form, follow_redirects=True).get_data(as_text=True)
    row = re.search(r"<tr><th>Ben</th>(.*?)</tr>", page, re.S).group(1)
    assert re.findall(r"<td>(.*?)</td>", row)[0] == "–"


# Hachi-hachi rounds entered as totals: the field was not entered, so no "field ×1" is claimed for
# it (a multiplier carried into the round is still shown: RULES.md, big and grand fields carry over).
def test_a_hachihachi_round_of_totals_claims_no_field_multiplier(client, h):
    token = _new(client, "hachihachi", ("Aki", "Ben", "Chiyo"))
    form = {"entry": "totals", "nonce": h.signed("m3"), "winner": "Aki",
            "sign-0": "+", "kan-0": "2", "mon-0": "0", "sign-1": "-", "kan-1": "2", "mon-1": "0",
            "sign-2": "+", "kan-2": "0", "mon-2": "0"}
    scored = client.post(f"/s/{token}/round/new", data={**form, "action": "score"},
                         follow_redirects=True).get_data(as_text=True)
    assert "×1" not in result_section(scored)
    assert client.post(f"/s/{token}/round/new", data={**form, "action": "save"}).status_code == 303
    assert "field ×1" not in client.get(f"/s/{token}").get_data(as_text=True)


# ---- 5. the delete (and conflict) page shows what the round holds -----------------------------------


def _round_id(client, token: str, k: int = 0) -> int:
    return client.get(f"/api/v1/sessions/{token}").get_json()["rounds"][k]["id"]


# Issue 13 "Web": a Koi-Koi round is entered as who stopped (or the hands ran out) and the koi-koi
# calls in order, beside the piles; asked "Delete round N?", the scorekeeper sees all of it, as the
# page shows the piles and dealt hands of every family.
@pytest.mark.parametrize(
    ("form", "shows"),
    [
        ({"pile-1": HANAMI, "stopped_by": "Ben", "call-0": "Aki", "call-1": "Ben"},
         ["Who stopped (勝負): Ben", "Koi-koi calls, in order: 1. Aki, 2. Ben", "Ben (2 cards): Cherry"]),
        ({"stopped_by": ""}, ["Who stopped (勝負): nobody, the hands ran out", "Koi-koi calls, in order: none"]),
    ],
    ids=["stopped-after-two-calls", "hands-ran-out"],
)
def test_the_delete_page_shows_the_koikoi_calls(client, h, form, shows):
    token = create(client)
    assert client.post(f"/s/{token}/round/new", data=MultiDict({"action": "save", "nonce": h.signed("d1"),
                                                               **form})).status_code == 303
    page = text(client.get(f"/s/{token}/round/{_round_id(client, token)}/delete").get_data(as_text=True))
    for words in shows:
        assert words in page


def test_the_delete_page_shows_entered_totals_not_empty_piles(client, h):
    # README "Totals only": such a round holds each player's points, not cards.
    token = create(client)
    assert client.post(f"/s/{token}/round/new", data=totals_form(h, 0, 12, "d2")).status_code == 303
    page = text(client.get(f"/s/{token}/round/{_round_id(client, token)}/delete").get_data(as_text=True))
    assert "Entered totals: Aki 0 · Ben 12" in page
    assert "(0 cards)" not in page


def test_the_delete_page_shows_hachihachi_calls(client, h):
    # RULES.md / seed 003: a Hachi-hachi round holds the field (or its multiplier), the dekiyaku calls with
    # stop or continue, and hatto, beside the piles.
    token = _new(client, "hachihachi", ("Aki", "Ben", "Chiyo"))
    rnd = {"multiplier": 2, "dekiyaku": [{"player": "Aki", "yaku": "akatan", "decision": "stop"}], "hatto": ["Ben"],
           "piles": {"Aki": ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon"]}}
    r = client.post(f"/api/v1/sessions/{token}/rounds", json=rnd)
    assert r.status_code == 201, r.get_json()
    page = text(client.get(f"/s/{token}/round/{_round_id(client, token)}/delete").get_data(as_text=True))
    assert "Field multiplier: ×2" in page
    assert "Dekiyaku: Aki Poetry Ribbons" in page
    assert "Hatto: Ben" in page


def test_the_conflict_page_shows_both_versions_calls(client, h):
    # The same partial answers "Someone else saved a different version": each side's calls are shown.
    token = create(client)
    first = {"pile-1": HANAMI, "stopped_by": "Ben", "call-0": "Aki"}
    assert client.post(f"/s/{token}/round/new", data=MultiDict({"action": "save", "nonce": h.signed("c1"),
                                                               **first})).status_code == 303
    rnd = client.get(f"/api/v1/sessions/{token}").get_json()["rounds"][0]
    url = f"/s/{token}/round/{rnd['id']}/edit"
    v = str(rnd["version"])
    theirs = MultiDict({"action": "save", "version": v, "pile-1": HANAMI, "stopped_by": "Ben"})
    assert client.post(url, data=theirs).status_code == 303
    mine = MultiDict({"action": "save", "version": v, "pile-0": HANAMI, "stopped_by": "Aki", "call-0": "Ben"})
    r = client.post(url, data=mine)
    assert r.status_code == 409
    page = text(r.get_data(as_text=True))
    assert "Who stopped (勝負): Aki Koi-koi calls, in order: 1. Ben" in page  # yours
    assert "Who stopped (勝負): Ben Koi-koi calls, in order: none" in page  # saved


# ---- 6. the CSV export names each Koi-Koi round's month ---------------------------------------------


def export_rows(client, token: str) -> list[dict[str, str]]:
    r = client.get(f"/s/{token}/export.csv")
    assert r.status_code == 200
    return list(csv.DictReader(io.StringIO(r.get_data().decode("utf-8-sig"))))


# KOIKOI-RULES.md "The game": round n is month n (tsukifuda uses it); docs/KOIKOI.md: extra rounds go on
# from month 1.  The month is named by its plant, as everywhere a month is named to a player (issue 12).
def test_the_csv_export_has_the_month_of_each_koikoi_round(client, h):
    token = create(client, rounds="2", tie="extra-round")
    for k, (a, b) in enumerate([(5, 0), (0, 5), (0, 0)]):
        assert client.post(f"/s/{token}/round/new", data=totals_form(h, a, b, f"x{k}")).status_code == 303
    rows = export_rows(client, token)
    assert [(r["round"], r["month"]) for r in rows] == [
        ("1", "Pine (松, month 1)"), ("2", "Plum (梅, month 2)"), ("3", "Cherry (桜, month 3)")]


def test_the_csv_export_of_an_empty_koikoi_session_still_has_the_column(client):
    r = client.get(f"/s/{create(client)}/export.csv")
    assert next(csv.reader(io.StringIO(r.get_data().decode("utf-8-sig"))))[:2] == ["round", "month"]


def test_games_without_months_get_no_month_column(client, h):
    # RULES.md: Roppyakken rounds are not played by month.
    token = _new(client, "roppyakken", ("Aki", "Ben", "Chiyo"))
    header = next(csv.reader(io.StringIO(client.get(f"/s/{token}/export.csv").get_data(as_text=True))))
    assert "month" not in header
