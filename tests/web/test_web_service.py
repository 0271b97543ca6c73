"""Running as a service at the table (issue 10): headers with user text, form tokens per session,
405 with Allow, concurrent deletes, and Undo naming the change it undoes (issue 11, "Editing")."""

from __future__ import annotations

import html
import json
import re
import threading
from urllib.parse import unquote

import pytest
from web_helpers import undo_form

from referee import store


def rounds(client, token: str) -> list[dict]:
    return client.get(f"/api/v1/sessions/{token}").get_json()["rounds"]


def latin1(headers) -> None:
    """Every header a server must send as HTTP/1.1 bytes (latin-1), or the response is lost."""
    for key, value in headers.items():
        key.encode("latin-1")
        value.encode("latin-1")


# ---- 1. downloads named in any script (RFC 6266 / RFC 5987) ------------------------------

NAMES = [("花札の夜", "Japanese"), ("화투의 밤", "Korean"), ("🎴 Koi-Koi 🌸", "emoji"), ("Café Aki", "accents")]


@pytest.mark.parametrize(("name", "_script"), NAMES, ids=[n[1] for n in NAMES])
@pytest.mark.parametrize("ext", ["json", "csv"])
def test_a_download_keeps_its_name_in_any_script(client, h, name, _script, ext):
    token = h.new_session(client, name=name, players=["青", "홍", "🐗"])
    r = client.get(f"/s/{token}/export.{ext}")
    assert r.status_code == 200
    latin1(r.headers)
    disposition = r.headers["Content-Disposition"]
    assert disposition.startswith("attachment; ")
    fallback = re.search(r'filename="([^"]*)"', disposition).group(1)
    assert fallback.isascii()
    assert fallback.endswith(f".{ext}")
    encoded = re.search(r"filename\*=UTF-8''(\S+)", disposition).group(1)
    assert unquote(encoded) == f"{name}.{ext}"
    assert r.get_data()  # the body arrives


def test_a_plain_ascii_name_needs_no_extended_filename(client, h):
    token = h.new_session(client, name="Friday night")
    disposition = client.get(f"/s/{token}/export.csv").headers["Content-Disposition"]
    assert disposition == 'attachment; filename="Friday night.csv"'


def test_every_page_of_a_non_latin_session_sends_encodable_headers(client, h):
    """The whole kind: no response header carries user text HTTP/1.1 cannot encode."""
    token = h.new_session(client, name="花札の夜 🎴", players=["青木", "홍길동", "🐗"])
    piles = dict(zip(["青木", "홍길동", "🐗"], h.piles(0).values(), strict=True))
    rid = client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": piles}).get_json()["id"]
    view = client.get(f"/api/v1/sessions/{token}").get_json()["view_token"]
    paths = ["/", "/new", "/import", "/about", "/api/v1/sessions", "/api/v1/openapi.json"]
    for t in (token, view):
        paths += [
            f"/s/{t}",
            f"/s/{t}/poll?rev=0",
            f"/s/{t}/qr.svg",
            f"/s/{t}/export.json",
            f"/s/{t}/export.csv",
            f"/api/v1/sessions/{t}",
            f"/api/v1/sessions/{t}/export",
        ]
    paths += [f"/s/{token}/round/new", f"/s/{token}/round/{rid}/edit", f"/s/{token}/round/{rid}/delete"]
    for path in paths:
        r = client.get(path)
        assert r.status_code in (200, 204), path
        latin1(r.headers)
    r = client.post(f"/s/{token}/undo", data=undo_form(client, token))
    assert r.status_code == 303
    latin1(r.headers)


# ---- 2. form tokens belong to their session ----------------------------------------------------


@pytest.fixture
def two(client, h):
    return h.new_session(client, name="One"), h.new_session(client, name="Two")


def test_one_form_token_in_two_sessions_saves_in_each(client, h, two):
    for token in two:
        r = client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": h.piles(0), "form_token": "same-key"})
        assert r.status_code == 201, r.get_json()
        assert r.get_json()["created"] is True
    assert [len(rounds(client, t)) for t in two] == [1, 1]
    again = client.post(f"/api/v1/sessions/{two[1]}/rounds", json={"piles": h.piles(0), "form_token": "same-key"})
    assert again.status_code == 200  # a retry in the same session still saves once
    assert len(rounds(client, two[1])) == 1


@pytest.mark.parametrize("gone_by", ["delete", "undo"])
def test_a_form_token_whose_round_is_gone_is_a_clear_409(client, h, keeper, gone_by):
    body = {"piles": h.piles(0), "form_token": "k-1"}
    rid = client.post(f"/api/v1/sessions/{keeper}/rounds", json=body).get_json()["id"]
    if gone_by == "delete":
        assert client.delete(f"/api/v1/sessions/{keeper}/rounds/{rid}").status_code == 204
    else:
        assert client.post(f"/api/v1/sessions/{keeper}/undo", json={}).status_code == 200
    r = client.post(f"/api/v1/sessions/{keeper}/rounds", json=body)
    assert r.status_code == 409
    assert r.get_json()["error"] == "form-token-spent"
    assert "deleted or undone" in r.get_json()["message"]
    assert rounds(client, keeper) == []
    fresh = client.post(f"/api/v1/sessions/{keeper}/rounds", json={**body, "form_token": "k-2"})
    assert fresh.status_code == 201


def test_the_web_form_sent_again_after_undo_says_so_and_keeps_the_cards(client, h, keeper):
    form = h.round_form(h.piles(0), nonce="after-undo")
    assert client.post(f"/s/{keeper}/round/new", data=form).status_code == 303
    assert client.post(f"/s/{keeper}/undo", data=undo_form(client, keeper)).status_code == 303
    r = client.post(f"/s/{keeper}/round/new", data=form)  # the browser's Back, then Save again
    body = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 409
    assert "saved once already, and that round has since been undone or deleted" in body
    card = h.piles(0)["Aki"][0]
    assert re.search(rf'name="pile-0" value="{card}"[^>]*checked', body)
    assert rounds(client, keeper) == []
    form["nonce"] = re.search(r'name="nonce" value="([^"]+)"', body).group(1)  # the fresh token it gave back
    assert client.post(f"/s/{keeper}/round/new", data=form).status_code == 303
    assert len(rounds(client, keeper)) == 1


# ---- 5. 405 says what is allowed ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("patch", "/api/v1/sessions", {"GET", "POST"}),
        ("patch", "/api/v1/sessions/{edit}", {"GET", "DELETE"}),
        ("get", "/api/v1/sessions/{edit}/rounds", {"POST"}),
        ("get", "/s/{edit}/undo", {"POST"}),
        ("put", "/", {"GET"}),
    ],
    ids=["api-list", "api-session", "api-rounds", "page-undo", "home"],
)
def test_405_carries_allow(client, keeper, method, path, allowed):
    r = getattr(client, method)(path.format(edit=keeper))
    assert r.status_code == 405
    assert allowed <= {m.strip() for m in r.headers["Allow"].split(",")}
    if path.startswith("/api/"):
        assert r.get_json()["error"] == "method-not-allowed"


# ---- 4. two DELETEs of one round at once ------------------------------------------------------------


def test_two_concurrent_deletes_of_one_round_answer_204_and_404(app, client, h, keeper, monkeypatch):
    rid = client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(0)}).get_json()["id"]
    both_checked = threading.Barrier(2, timeout=10)
    real_delete = store.delete_round

    def delete_after_both_checked(*args, **kwargs):
        both_checked.wait()  # both requests found the round before either deletes it: the race, every time
        return real_delete(*args, **kwargs)

    monkeypatch.setattr(store, "delete_round", delete_after_both_checked)
    statuses, bodies = [], []

    def delete() -> None:
        r = app.test_client().delete(f"/api/v1/sessions/{keeper}/rounds/{rid}")
        statuses.append(r.status_code)
        bodies.append(r.get_json())

    threads = [threading.Thread(target=delete) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [204, 404]
    assert next(b for b in bodies if b is not None)["error"] == "not-found"
    assert rounds(client, keeper) == []


def test_a_page_delete_of_a_round_deleted_meanwhile_is_404(client, h, keeper, monkeypatch):
    rid = client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(0)}).get_json()["id"]
    real_delete = store.delete_round

    def deleted_first(db, sid, round_id, form_token=None):
        real_delete(db, sid, round_id)  # another phone got there first
        real_delete(db, sid, round_id, form_token)

    monkeypatch.setattr(store, "delete_round", deleted_first)
    r = client.post(f"/s/{keeper}/round/{rid}/delete")
    assert r.status_code == 404


# ---- issue 11, Editing: Undo names the change it undoes ------------------------------------------


def test_a_double_tap_on_undo_undoes_one_change(client, h, keeper):
    for offset in (0, 2):
        client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(offset)})
    board = client.get(f"/s/{keeper}").get_data(as_text=True)
    change = re.search(r'name="change" value="(\d+)"', board).group(1)
    assert "Undo add round 2" in board
    first = client.post(f"/s/{keeper}/undo", data={"change": change}, follow_redirects=True)
    second = client.post(f"/s/{keeper}/undo", data={"change": change}, follow_redirects=True)
    assert "Undone: add round 2." in first.get_data(as_text=True)
    text = html.unescape(second.get_data(as_text=True))
    assert "That change was already undone; nothing else was undone." in text
    assert "The latest change now is “add round 1”." in text
    assert len(rounds(client, keeper)) == 1


def test_the_api_undo_names_its_change(client, h, keeper):
    for offset in (0, 2):
        client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(offset)})
    last = client.get(f"/api/v1/sessions/{keeper}").get_json()["last_change"]
    assert last["summary"] == "add round 2"
    first = client.post(f"/api/v1/sessions/{keeper}/undo", json={"change": last["id"]})
    again = client.post(f"/api/v1/sessions/{keeper}/undo", json={"change": last["id"]})
    assert first.status_code == 200
    assert first.get_json()["undone"] == "add round 2"
    assert again.status_code == 409
    assert again.get_json()["error"] == "already-undone"
    assert again.get_json()["last_change"]["summary"] == "add round 1"
    assert len(rounds(client, keeper)) == 1


def test_the_api_undo_of_an_older_change_says_newer_ones_came_after(client, h, keeper):
    client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(0)})
    old = client.get(f"/api/v1/sessions/{keeper}").get_json()["last_change"]
    client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(2)})
    r = client.post(f"/api/v1/sessions/{keeper}/undo", json={"change": old["id"]})
    assert r.status_code == 409
    assert "newer changes came after" in r.get_json()["message"]
    assert len(rounds(client, keeper)) == 2


def test_the_viewer_link_cannot_undo(client, h, keeper, viewer):
    client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(0)})
    assert client.post(f"/api/v1/sessions/{viewer}/undo", json={}).status_code == 403
    assert "last_change" not in client.get(f"/api/v1/sessions/{viewer}").get_json()
    assert len(rounds(client, keeper)) == 1


# ---- QA on main (issue 10 follow-up): a reused key, a round of nothing, numbers past any table ---------------


def test_a_form_token_reused_for_a_different_round_is_a_clear_422(client, h, keeper):
    """An idempotency key names one request (draft-ietf-httpapi-idempotency-key-header §2.7: a
    key reused with another payload gets 422); found in QA, it answered 200 with the first round."""
    first = client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(0), "form_token": "k"})
    assert first.status_code == 201
    r = client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(1), "form_token": "k"})
    assert r.status_code == 422
    body = r.get_json()
    assert body["error"] == "form-token-reused"
    assert "already saved round 1" in body["message"]
    assert "new form_token" in body["message"]
    assert len(rounds(client, keeper)) == 1  # nothing saved
    same = {"form_token": "k", "piles": dict(reversed(list(h.piles(0).items())))}  # key order does not count
    assert client.post(f"/api/v1/sessions/{keeper}/rounds", json=same).status_code == 200


def test_the_store_refuses_a_reused_form_token_with_another_digest(app):
    """The same check inside the write transaction, for two requests racing past the view's."""
    with app.app_context():
        from referee.web import get_db

        db = get_db()
        sid = store.create_session(db, name="T", ruleset="roppyakken", family="roppyakken", options={},
                                   players=["A", "B"], dealer="A").id
        store.add_round(db, sid, {"totals": {"A": 1, "B": 0}}, "k", digest="one")
        with pytest.raises(store.FormTokenReusedError):
            store.add_round(db, sid, {"totals": {"A": 2, "B": 0}}, "k", digest="two")
        assert store.add_round(db, sid, {"totals": {"A": 1, "B": 0}}, "k", digest="one")[1] is False
        assert store.add_round(db, sid, {"totals": {"A": 1, "B": 0}}, "k")[1] is False  # no digest: a form's retry


def test_a_retry_after_the_round_that_ended_the_game_still_gets_its_round(client):
    """The retry is answered before the round is checked against the game it has since ended."""
    token = client.post(
        "/api/v1/sessions", json={"name": "Short", "players": ["A", "B"], "options": {"target": 10}}
    ).get_json()["edit_token"]
    body = {"totals": {"A": 20, "B": 0}, "form_token": "last"}
    first = client.post(f"/api/v1/sessions/{token}/rounds", json=body)
    assert first.status_code == 201
    assert first.get_json()["session"]["winner"] == "A"
    again = client.post(f"/api/v1/sessions/{token}/rounds", json=body)
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["id"] == first.get_json()["id"]


EMPTY_ROUNDS = [({}, "empty"), ({"piles": {}}, "no-piles"), ({"piles": {}, "totals": {}}, "both-empty"),
                ({"hands": {}, "void": True}, "empty-hands")]


@pytest.mark.parametrize("body", [b for b, _ in EMPTY_ROUNDS], ids=[i for _, i in EMPTY_ROUNDS])
def test_a_round_of_nothing_is_a_422_naming_piles_and_totals(client, h, keeper, body):
    """README "Round input": a round is its captured piles, or totals entered on paper.  Found in QA:
    ``POST .../rounds`` with ``{}`` saved an empty round that the scoreboard then could not replay."""
    rid = client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(0)}).get_json()["id"]
    for method, path in (("post", "rounds"), ("post", "preview"), ("put", f"rounds/{rid}")):
        extra = {"version": 1} if method == "put" else {}
        r = getattr(client, method)(f"/api/v1/sessions/{keeper}/{path}", json={**body, **extra})
        assert r.status_code == 422, (path, r.get_json())
        assert r.get_json()["error"] == "bad-round"
        assert '"piles"' in r.get_json()["message"]
        assert '"totals"' in r.get_json()["message"]
        assert '"hands"' in r.get_json()["message"]
    assert [r["input"] for r in rounds(client, keeper)] == [{"piles": h.piles(0)}]


HUGE = [
    # the new session and the rules' routes name the field as the rules name one (``field 'options.target' is
    # ...``): every refused option is said at once (test_api_refused_keys_and_numbers.py,
    # test_api_new_session_every_refused_option.py)
    ("post", "/api/v1/sessions", {"name": "x", "players": ["A", "B"], "options": {"target": 10**30}}, "target'"),
    ("post", "/api/v1/sessions", {"name": "x", "players": ["A", "B"], "options": {"yaku.oozan.points": -(10**7)}},
     "yaku.oozan.points'"),
    ("post", "{edit}/rescore", {"options": {"fuke.threshold": 10**30}}, "fuke.threshold'"),
    ("put", "{edit}/rules", {"options": {"target": 1e300}}, "target'"),
    ("put", "{edit}/rules", {"options": {"fuke.excluded_months": [1, 10**30]}}, "fuke.excluded_months[1]'"),
]


@pytest.mark.parametrize(("method", "path", "body", "where"), HUGE,
                         ids=["new-session", "negative-yaku", "rescore", "rules-float", "in-a-list"])
def test_an_option_number_past_any_table_is_a_clear_422(client, keeper, method, path, body, where):
    """Found in QA: ``{"target": 10**30}`` was accepted; forms.MAX_OPTION_NUMBER bounds every number
    in the rules (the presets' largest is 1200), for the API, the forms and import alike."""
    url = path.format(edit=f"/api/v1/sessions/{keeper}")
    r = getattr(client, method)(url, json=body)
    assert r.status_code == 422, r.get_json()
    message = r.get_json()["message"]
    assert f"{where} is " in message
    assert "between -1000000 and 1000000" in message
    assert client.get(f"/api/v1/sessions/{keeper}").get_json()["options"] == {}  # nothing changed


def test_the_forms_refuse_an_option_number_past_any_table(client, h, keeper):
    r = client.post("/new", data={"name": "Big", "ruleset": "roppyakken", "player-0": "Aki", "player-1": "Ben",
                                  "dealer": "0", "opt.target": "1" + "0" * 30})
    assert r.status_code == 422
    assert "“Target score” must be a whole number from 1 to 1000000" in html.unescape(r.get_data(as_text=True))
    r = client.post(f"/s/{keeper}/what-if", data={"ruleset": "roppyakken", "extra": f"target={10**30}"})
    assert r.status_code == 422
    assert "between -1000000 and 1000000" in html.unescape(r.get_data(as_text=True))
    assert client.get(f"/api/v1/sessions/{keeper}").get_json()["options"] == {}
    export = client.get(f"/api/v1/sessions/{keeper}/export").get_json()
    export["game"]["options"] = {"target": 10**30}
    r = client.post("/import", data={"text": json.dumps(export)})
    assert r.status_code == 422
    assert "between -1000000 and 1000000" in html.unescape(r.get_data(as_text=True))
