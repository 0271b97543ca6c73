"""Cases from the QA break-test of the web app (each once lost data, crashed or misled)."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import shutil
import sqlite3

import pytest


@pytest.fixture
def hh(client) -> str:
    """A 3-player Hachi-hachi session: its scorekeeper token."""
    pytest.importorskip("referee.hachihachi", reason="the Hachi-hachi module is not installed")
    form = {"name": "Eighty-eight", "ruleset": "hachihachi", "dealer": "0"}
    for i, p in enumerate(["Aki", "Ben", "Chiyo"]):
        form[f"player-{i}"] = p
    r = client.post("/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    return r.headers["Location"].rsplit("/", 1)[-1]


def rounds(client, token: str) -> list[dict]:
    return client.get(f"/api/v1/sessions/{token}").get_json()["rounds"]


# ---- 1. invalid round JSON is refused and kept -------------------------------


@pytest.mark.parametrize(
    ("text", "says"),
    [("{not json", "not valid JSON"), ("[1,2]", "not an array"), ("7", "not a number"), ("[" * 5000, "nested")],
    ids=["broken", "array", "number", "deep"],
)
def test_bad_round_json_is_refused_and_kept(client, hh, h, text, says):
    r = client.post(f"/s/{hh}/round/new", data=h.round_form({}, nonce="j1", round_json=text))
    body = r.get_data(as_text=True)
    assert r.status_code == 422
    assert says in body
    assert html.escape(text, quote=False)[:200] in body  # the textarea gives the text back
    assert rounds(client, hh) == []


# ---- 2. one save per form ------------------------------------------------------


@pytest.mark.parametrize("nonce", [None, "", "made-up"], ids=["missing", "empty", "forged"])
def test_a_web_save_needs_the_forms_one_time_token(client, keeper, h, nonce):
    form = h.round_form(h.piles(0))
    del form["nonce"]
    if nonce is not None:
        form["nonce"] = nonce
    r = client.post(f"/s/{keeper}/round/new", data=form)
    body = r.get_data(as_text=True)
    assert r.status_code == 400
    assert "one-time token" in body
    card = h.piles(0)["Aki"][0]
    assert re.search(rf'name="pile-0" value="{card}"[^>]*checked', body)  # the taps are kept
    assert rounds(client, keeper) == []
    fresh = client.post(f"/s/{keeper}/round/new", data=form)
    assert fresh.status_code == 400  # a retry of the same tokenless form still saves nothing
    assert rounds(client, keeper) == []


def test_the_token_given_back_with_the_error_then_saves_once(client, keeper, h):
    form = h.round_form(h.piles(0))
    del form["nonce"]
    body = client.post(f"/s/{keeper}/round/new", data=form).get_data(as_text=True)
    form["nonce"] = re.search(r'name="nonce" value="([^"]+)"', body).group(1)
    assert client.post(f"/s/{keeper}/round/new", data=form).status_code == 303
    assert client.post(f"/s/{keeper}/round/new", data=form).status_code == 303
    assert len(rounds(client, keeper)) == 1


@pytest.mark.parametrize("token", [["x"], 5, {"a": 1}, "", "x" * 201], ids=["list", "int", "object", "empty", "long"])
def test_api_form_token_of_a_wrong_type_is_refused(client, keeper, h, token):
    r = client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(0), "form_token": token})
    assert r.status_code == 422  # the request schema's answer (issue 10, item 5)
    assert "form_token" in r.get_json()["message"]
    assert rounds(client, keeper) == []


def test_api_form_token_is_documented_as_the_idempotency_key(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert "idempotency key" in doc["paths"]["/sessions/{token}/rounds"]["post"]["description"]


# ---- 3. input that once crashed the server -------------------------------------

HUGE = "9" * 30


def test_huge_round_ids_are_404(client, keeper):
    assert client.get(f"/s/{keeper}/round/{HUGE}/edit").status_code == 404
    assert client.get(f"/s/{keeper}/round/{HUGE}/delete").status_code == 404
    assert client.put(f"/api/v1/sessions/{keeper}/rounds/{HUGE}", json={"version": 1}).status_code == 404
    assert client.delete(f"/api/v1/sessions/{keeper}/rounds/{HUGE}").status_code == 404


def test_deeply_nested_json_is_refused(client, keeper):
    deep = "[" * 100_000 + "]" * 100_000
    r = client.post(f"/api/v1/sessions/{keeper}/rounds", data=deep, content_type="application/json")
    assert r.status_code == 400
    assert "nested too deeply" in r.get_json()["message"]
    r = client.post("/import", data={"text": deep})
    assert r.status_code == 422
    assert "nested too deeply" in r.get_data(as_text=True)
    assert rounds(client, keeper) == []


def test_options_that_are_not_an_object(client):
    r = client.post("/api/v1/sessions", json={"name": "n", "players": ["A", "B", "C"], "options": [1]})
    assert r.status_code == 422
    assert '"options" must be an object' in r.get_json()["message"]
    r = client.post("/import", data={"text": '{"game": {"players": ["A", "B", "C"], "options": [1]}}'})
    assert r.status_code == 422
    assert "must be an object" in html.unescape(r.get_data(as_text=True))
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []


def test_an_option_value_of_5000_digits(client):
    text = '{"game": {"players": ["A", "B", "C"], "options": {"target": ' + "1" * 5000 + "}}}"
    r = client.post("/import", data={"text": text})
    assert r.status_code == 422
    assert "cannot be read" in r.get_data(as_text=True)
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []


def test_the_generic_guard_answers_a_clear_500_outside_tests(app, client, keeper, monkeypatch):
    from referee.web.views import scoreboard

    def broken(*_args, **_kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(scoreboard, "board_html", broken)
    with pytest.raises(KeyError):  # under test, a bug is raised, not hidden
        client.get(f"/s/{keeper}")
    app.testing = False
    r = client.get(f"/s/{keeper}")
    assert r.status_code == 500
    assert "Something went wrong on the server" in r.get_data(as_text=True)
    r = client.get(f"/api/v1/sessions/{keeper}")
    assert r.status_code == 200  # the API does not use the broken fragment


# ---- 4. a busy database gives the form back as typed -------------------------------


@pytest.fixture
def locked(app):
    other = sqlite3.connect(app.config["DATABASE"])
    other.execute("BEGIN EXCLUSIVE")
    yield
    other.rollback()
    other.close()


def test_new_session_on_a_busy_database_keeps_what_was_typed(client, locked):
    form = {"name": "Friday at Aki's", "ruleset": "roppyakken", "dealer": "1", "opt.target": "1200"}
    form |= {"player-0": "Aki", "player-1": "Ben", "player-2": "Chiyo"}
    r = client.post("/new", data=form)
    body = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 503
    assert "Nothing was saved" in body
    assert 'value="Friday at Aki\'s"' in body
    assert all(f'value="{p}"' in body for p in ("Aki", "Ben", "Chiyo"))
    assert 'value="1200"' in body


def test_import_on_a_busy_database_keeps_the_pasted_json(client, locked):
    text = '{"game": {"players": ["Aki", "Ben", "Chiyo"], "rounds": []}, "name": "Pasted"}'
    r = client.post("/import", data={"text": text})
    assert r.status_code == 503
    assert "Nothing was saved" in r.get_data(as_text=True)
    assert text in html.unescape(r.get_data(as_text=True))


# ---- 10. messages ---------------------------------------------------------------


def test_a_missing_data_folder_is_named_on_a_page_that_only_reads(tmp_path):
    from referee.web import create_app

    folder = tmp_path / "data"
    app = create_app({"TESTING": True, "DATA_DIR": str(folder), "SECRET_KEY": "t", "HTMX_LOCAL": True})
    shutil.rmtree(folder)
    r = app.test_client().get("/")
    body = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 503
    assert str(folder) in body
    assert "is missing" in body
    assert "Nothing was saved" not in body


def test_one_round_is_singular(client, h):
    text = json.dumps({"game": {"players": h.players, "rounds": [{"piles": h.piles(0)}]}, "name": "One"})
    r = client.post("/import", data={"text": text}, follow_redirects=True)
    body = r.get_data(as_text=True)
    assert "Imported 1 round." in body
    assert "1 rounds" not in body
    assert "1 rounds" not in client.get("/").get_data(as_text=True)


# ---- 5. offline tables and /new without JavaScript -----------------------------------


def test_the_cdn_htmx_falls_back_to_the_vendored_copy(tmp_path):
    from referee.web import HTMX_SRI, HTMX_VERSION, create_app

    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "SECRET_KEY": "t", "HTMX_LOCAL": False})
    body = app.test_client().get("/new").get_data(as_text=True)
    assert f'integrity="{HTMX_SRI}"' in body
    assert "onerror=" not in body  # an inline handler: the Content-Security-Policy blocks it (issue 10, item 7)
    assert f'src="/static/htmx-fallback.js" data-local="/static/vendor/htmx-{HTMX_VERSION}.min.js"' in body
    with app.test_client().get(f"/static/vendor/htmx-{HTMX_VERSION}.min.js") as js:
        assert js.status_code == 200


def test_a_preset_change_without_javascript_reloads_the_options(client):
    pytest.importorskip("referee.hachihachi", reason="the Hachi-hachi module is not installed")
    form = {"name": "Friday", "ruleset": "hachihachi", "options_shown": "roppyakken", "dealer": "0"}
    form |= {"player-0": "Aki", "player-1": "Ben", "player-2": "Chiyo", "opt.target": "600", "action": "create"}
    r = client.post("/new", data=form)
    body = r.get_data(as_text=True)
    assert r.status_code == 409
    assert "house rules are shown now" in body
    assert 'name="options_shown" value="hachihachi"' in body
    assert 'value="Aki"' in body
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []
    form["options_shown"] = "hachihachi"
    del form["opt.target"]
    assert client.post("/new", data=form).status_code == 303


# ---- 7. fields that were silently ignored or replaced --------------------------------


def test_a_pile_for_a_seat_that_does_not_exist_is_refused(client, keeper, h):
    form = h.round_form(h.piles(0))
    form.add("pile-9", "pine-crane")
    r = client.post(f"/s/{keeper}/round/new", data=form)
    assert r.status_code == 422
    assert "'pile-9' for seat 10" in html.unescape(r.get_data(as_text=True))
    assert rounds(client, keeper) == []


@pytest.mark.parametrize(
    ("dealer", "says"), [("Nobody", "is not a player"), ("Ben", "oya is Aki, not Ben")], ids=["stranger", "not-oya"]
)
def test_a_posted_dealer_that_is_not_the_oya_is_refused(client, keeper, h, dealer, says):
    r = client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0), dealer=dealer))
    assert r.status_code == 422
    assert says in html.unescape(r.get_data(as_text=True))
    assert rounds(client, keeper) == []
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0), dealer="Aki")).status_code == 303


@pytest.mark.parametrize("dealer", [{"a": 1}, "Nobody", "Ben"], ids=["object", "stranger", "not-oya"])
def test_api_dealer_must_be_the_oya(client, keeper, h, dealer):
    r = client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(0), "dealer": dealer})
    assert r.status_code == 422
    says = "\"dealer\" must be this round's oya" + ("" if isinstance(dealer, dict) else ", 'Aki'")
    assert says in r.get_json()["message"]
    assert rounds(client, keeper) == []


@pytest.mark.parametrize("dealer", ["7", "abc", "5", "-1"])
def test_new_session_with_a_dealer_that_is_no_named_player(client, dealer):
    form = {"name": "Friday", "ruleset": "roppyakken", "dealer": dealer}
    form |= {"player-0": "Aki", "player-1": "Ben", "player-2": "Chiyo"}
    r = client.post("/new", data=form)
    assert r.status_code == 422
    assert "first dealer" in r.get_data(as_text=True)
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []


def test_an_empty_round_warns_before_saving_but_may_be_saved(client, keeper, h):
    r = client.post(f"/s/{keeper}/round/new", data=h.round_form({}, action="score"), follow_redirects=True)
    assert "No cards entered yet" in r.get_data(as_text=True)
    r = client.post(f"/s/{keeper}/round/preview", data=h.round_form({}), headers={"HX-Request": "true"})
    assert "No cards entered yet" in r.get_data(as_text=True)
    r = client.post(f"/s/{keeper}/round/preview", data=h.round_form(h.piles(0)), headers={"HX-Request": "true"})
    assert "No cards entered yet" not in r.get_data(as_text=True)


# ---- 8. CSV formula injection ----------------------------------------------------


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


# ---- 6. the same limits everywhere -----------------------------------------------

LONG = "長" * 41


@pytest.mark.parametrize(
    ("game", "says"),
    [
        ({"players": [LONG, "Ben", "Chiyo"]}, "40 characters"),
        ({"players": ["Aki", "Ben", "Chiyo"], "name": "n" * 101}, "100 characters"),
        ({"players": [f"P{i}" for i in range(40)]}, "2 to 6 players"),
        ({"players": ["Aki", 5, "Chiyo"]}, "non-empty strings"),
        ({"players": ["Aki", "  ", "Chiyo"]}, "non-empty strings"),
        ({"players": ["Aki", "Ben", "Chiyo"], "dealer": {"a": 1}}, '"dealer" must be one of the players'),
        ({"players": ["Aki", "Ben", "Chiyo"], "rounds": [{}] * 1001}, "at most 1000 rounds"),
    ],
    ids=["long-player", "long-name", "many-players", "not-a-name", "blank-name", "odd-dealer", "many-rounds"],
)
def test_api_and_import_enforce_the_forms_limits(client, game, says):
    body = {"name": "Friday", **game}
    r = client.post("/api/v1/sessions", json=body)
    assert r.status_code == 422
    assert says in r.get_json()["message"]
    r = client.post("/import", data={"text": json.dumps({"name": body.pop("name"), "game": body})})
    assert r.status_code == 422
    assert says in html.unescape(r.get_data(as_text=True))
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []


def test_long_names_wrap_instead_of_widening_the_page(client):
    css = client.get("/static/app.css")
    assert "overflow-wrap: anywhere" in css.get_data(as_text=True)
    assert "text-overflow: ellipsis" in css.get_data(as_text=True)
    css.close()


def test_form_errors_use_the_forms_words_not_json():
    # The core words drop-out errors so that they read right in a form and in JSON alike.
    from referee.errors import RefereeError
    from referee.hachihachi import settle_round_json

    hand = ["pine-chaff-1", "plum-chaff-1", "cherry-chaff-1", "wisteria-chaff-1", "iris-chaff-1",
            "peony-chaff-1", "maple-chaff-1"]
    data = {"ruleset": "hachihachi", "players": ["A", "B", "C", "D"], "dealer": "A", "multiplier": 1,
            "dropped": {"B": {"order": 1, "forced": True, "hand": hand}}, "piles": {}}
    with pytest.raises(RefereeError) as e:
        settle_round_json(data)
    assert "set forced" not in e.value.message
    assert "forced: " not in e.value.message
    assert "mark them as dropping out" in e.value.message


def test_the_round_page_says_where_save_is(client, keeper, h):
    body = client.get(f"/s/{keeper}/round/new").get_data(as_text=True)
    assert "the result shows here, with Save beside Score" in body
    scored = client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0), action="score"), follow_redirects=True)
    assert "Save round 1" in scored.get_data(as_text=True)
    assert "the Save button appears" not in scored.get_data(as_text=True)


# ---- 13. phones on the same Wi-Fi --------------------------------------------------


def test_the_viewer_link_and_qr_use_the_address_the_page_was_opened_with(client, keeper, viewer):
    lan = "http://192.168.1.20:5000"
    body = client.get(f"/s/{keeper}", base_url=lan).get_data(as_text=True)
    assert f"{lan}/s/{viewer}" in body
    assert "127.0.0.1" not in body
    qr = client.get(f"/s/{keeper}/qr.svg", base_url=lan)
    assert qr.status_code == 200
    assert qr.mimetype == "image/svg+xml"


def test_the_readme_says_how_phones_reach_the_app():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "--host 0.0.0.0" in readme


# ---- 11. Changara: which round won a game ------------------------------------------


def test_a_changara_match_marks_each_won_game_and_tallies_them(client):
    from referee.cards import CARDS

    r = client.post(
        "/api/v1/sessions",
        json={"name": "Match", "ruleset": "changara", "players": ["Aki", "Ben"], "options": {"target": 100}},
    )
    token = r.get_json()["edit_token"]
    ids = [c.id for c in CARDS]
    for _ in range(2):  # each round puts Ben over 100: a game each, best of 3
        assert client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": {"Aki": ids[:24], "Ben": ids[24:]}})
    body = client.get(f"/s/{token}").get_data(as_text=True)
    assert "Game 1 won by <strong>Ben</strong>: totals start again from 0 after this round" in body
    assert "Game 2 won by <strong>Ben</strong>" in body
    assert re.search(r"Games won</strong> \(first to 2\): Aki <strong>0</strong> · Ben <strong>2</strong>", body)
    assert client.get(f"/api/v1/sessions/{token}").get_json()["rounds"][0]["game_winner"] == "Ben"


# ---- 12. the conflict page shows what differs -------------------------------------


def test_the_conflict_page_highlights_the_cards_that_differ(client, keeper, h):
    from referee.cards import BY_ID

    client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0)))
    (rnd,) = rounds(client, keeper)
    url, v = f"/s/{keeper}/round/{rnd['id']}/edit", str(rnd["version"])
    theirs = h.piles(0)
    theirs["Aki"] = theirs["Aki"][1:]  # someone removed one card from Aki's pile
    assert client.post(url, data=h.round_form(theirs, version=v)).status_code == 303
    r = client.post(url, data=h.round_form(h.piles(0), version=v))  # my edit still has it
    body = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 409
    assert "What differs" in body
    removed = BY_ID[h.piles(0)["Aki"][0]].name
    assert re.search(
        rf"<strong>Aki's pile</strong>:\s*<span class=\"added\">only in yours: {re.escape(removed)}</span>", body
    )
    assert "<strong>Ben's pile</strong>" not in body  # unchanged piles are not listed
    assert "<strong>Chiyo's pile</strong>" not in body


# ---- 9. phone layout (the browser test measures it at 360 px) ------------------------------


def test_the_rounds_table_scrolls_on_its_own(client, keeper, h):
    client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0)))
    assert '<div class="table-scroll">' in client.get(f"/s/{keeper}").get_data(as_text=True)


def test_long_card_names_carry_soft_hyphens(client, keeper):
    body = client.get(f"/s/{keeper}/round/new").get_data(as_text=True)
    assert "But\u00adter\u00adflies" in body  # tiles name what sets a card apart in its month


@pytest.mark.parametrize("text", ["{not json", "[1,2]"], ids=["broken", "array"])
def test_bad_round_json_on_a_card_picker_session_is_refused_and_kept(client, keeper, h, text):
    r = client.post(f"/s/{keeper}/round/new", data=h.round_form({}, round_json=text))
    assert r.status_code == 422
    assert "Nothing was saved" in r.get_data(as_text=True)
    assert 'class="mono" placeholder=' in r.get_data(as_text=True)
    assert f">{text}</textarea>" in html.unescape(r.get_data(as_text=True))
    assert rounds(client, keeper) == []


def test_round_json_on_a_card_picker_session_saves_its_cards(client, keeper, h):
    r = client.post(f"/s/{keeper}/round/new", data=h.round_form({}, round_json=json.dumps({"piles": h.piles(0)})))
    assert r.status_code == 303
    assert rounds(client, keeper)[0]["scores"] == {"Aki": 70, "Ben": 50, "Chiyo": 220}


@pytest.mark.parametrize(
    ("body", "says"),
    [
        # (table-fixes: a number over Python's digit limit is said to be too big, not "not valid JSON")
        ('{"name": "n", "players": ["A", "B"], "options": {"target": ' + "1" * 5000 + "}}",
         "the body holds a number too big to read (over 4300 digits)"),
        ("{oops", "the body is not valid JSON"),
    ],
    ids=["5000-digits", "broken"],
)
def test_api_names_what_is_wrong_with_a_body(client, body, says):
    r = client.post("/api/v1/sessions", data=body, content_type="application/json")
    assert r.status_code == 400
    assert says in r.get_json()["message"]
    assert "set_int_max_str_digits" not in r.get_json()["message"]
