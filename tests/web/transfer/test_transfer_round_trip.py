"""Every export imports back unchanged: rounds an edit or a rules change left "not counted" are
stored data, not rounds being played (Import, ``hanafuda-referee import``, ``export --all``)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from web_helpers import web_app

PLAYERS = ["A", "B", "C"]


def _session(client, name: str = "Table") -> str:
    r = client.post("/api/v1/sessions", json={"name": name, "ruleset": "roppyakken", "options": {"target": 1000},
                                             "players": PLAYERS})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["edit_token"]


def _add(client, token: str, a: int) -> dict[str, Any]:
    r = client.post(f"/api/v1/sessions/{token}/rounds", json={"totals": {"A": a, "B": 0, "C": 0}})
    return r.get_json()


def _edit(client, token: str, rnd: dict[str, Any], a: int) -> None:
    r = client.put(f"/api/v1/sessions/{token}/rounds/{rnd['id']}",
                   json={"totals": {"A": a, "B": 0, "C": 0}, "version": rnd["version"]})
    assert r.status_code == 200, r.get_json()


def _over_after_edit(client, name: str = "Table") -> str:
    """The new user's session: 600, 100, 100 to a target of 1000, then round 2 made 500, so
    round 3 is kept as "not counted: the game is over"."""
    token = _session(client, name)
    _add(client, token, 600)
    second = _add(client, token, 100)
    _add(client, token, 100)
    _edit(client, token, second, 500)
    return token


def _export(client, token: str) -> dict[str, Any]:
    return client.get(f"/s/{token}/export.json").get_json()


def _same(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("game", "totals", "next_dealer", "winner", "name"):
        assert a[key] == b[key], key


def test_a_round_left_not_counted_by_an_edit_imports_back(client):
    # Found by a new user: the import played the rounds as new ones, refused round 3
    # ("the game is over: A won; start a new game"), so the export could not come back.
    export = _export(client, _over_after_edit(client))
    assert len(export["game"]["rounds"]) == 3
    r = client.post("/import", data={"text": json.dumps(export)})
    assert r.status_code == 303, r.get_data(as_text=True)
    token = r.headers["Location"].rsplit("/", 1)[1]
    board = client.get(f"/s/{token}").get_data(as_text=True)
    assert "Imported 3 rounds. Kept as not counted, as the scoreboard showed them: round 3: the game is over" in board
    _same(_export(client, token), export)


def test_export_all_of_a_database_imports_into_a_fresh_one(tmp_path, client):
    _over_after_edit(client, "Over")
    plain = _session(client, "Plain")
    _add(client, plain, 300)
    from referee.web.service import archive as service

    with client.application.app_context():
        from referee.web import get_db

        data = service.export_all(get_db())
    fresh = web_app(tmp_path / "fresh")
    batch = service.sessions_to_create(data)
    assert [m["name"] for m in batch.sessions] == ["Over", "Plain"]
    assert batch.refused == []
    with fresh.app_context():
        from referee.web import get_db

        service.create_all(get_db(), batch.sessions)
        again = service.export_all(get_db())
    for a, b in zip(data["sessions"], again["sessions"], strict=True):
        _same(a, b)


# No shrinking: each example builds a database, and shrinking one took minutes.
@settings(max_examples=10, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    adds=st.lists(st.integers(0, 500), min_size=1, max_size=6),
    edits=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 1200)), min_size=1, max_size=4),
    target=st.sampled_from([None, 200, 500]),
    undo=st.booleans(),
)
def test_any_history_of_edits_exports_and_imports_back_unchanged(tmp_path_factory, adds, edits, target, undo):
    """Rounds saved, then edits and What if's "Apply these rules" (a lower target) that leave
    later rounds not counted, maybe an undo: the export imports back unchanged."""
    app = web_app(tmp_path_factory.mktemp("db"))
    client = app.test_client()
    token = _session(client)
    saved = []
    for a in adds:
        body = _add(client, token, a)
        if "id" in body:  # refused once the game is over, as a round being played should be
            saved.append(body)
    for i, a in edits:
        if saved:
            rnd = saved[i % len(saved)]
            listed = client.get(f"/api/v1/sessions/{token}").get_json()["rounds"]
            fresh = next(x for x in listed if x["id"] == rnd["id"])
            r = client.put(f"/api/v1/sessions/{token}/rounds/{rnd['id']}",
                           json={"totals": {"A": a, "B": 0, "C": 0}, "version": fresh["version"]})
            assert r.status_code in (200, 409, 422), r.get_json()
    if target is not None:
        r = client.put(f"/api/v1/sessions/{token}/rules", json={"options": {"target": target}})
        assert r.status_code == 200, r.get_json()
    if undo:
        client.post(f"/api/v1/sessions/{token}/undo", json={})
    export = _export(client, token)
    r = client.post("/import", data={"text": json.dumps(export)})
    assert r.status_code == 303, r.get_data(as_text=True)
    _same(_export(client, r.headers["Location"].rsplit("/", 1)[1]), export)


def _archive_with_one_bad(client) -> dict[str, Any]:
    _over_after_edit(client, "Over")
    plain = _session(client, "Plain")
    _add(client, plain, 300)
    from referee.web import get_db
    from referee.web.service import archive as service

    with client.application.app_context():
        data = service.export_all(get_db())
    broken = json.loads(json.dumps(data["sessions"][1]))
    broken["name"] = "Broken"
    broken["game"]["players"] = ["A"]  # hand-edited: one player
    data["sessions"].insert(1, broken)
    return data


def test_an_archive_imports_every_session_it_can_and_names_the_one_it_cannot(tmp_path, client):
    # An archive was refused whole for one session it could not take.
    data = _archive_with_one_bad(client)
    fresh = web_app(tmp_path / "fresh").test_client()
    r = fresh.post("/import", data={"text": json.dumps(data)}, follow_redirects=True)
    page = r.get_data(as_text=True).replace("&#39;", "'")
    assert "Imported 2 sessions." in page
    assert "Not imported: session 2 ('Broken'): a session has 2 to" in page
    names = sorted(s["name"] for s in fresh.get("/api/v1/sessions").get_json()["sessions"])
    assert names == ["Over", "Plain"]


def test_the_cli_imports_every_session_it_can_and_exits_2_naming_the_rest(tmp_path, client, capsys):
    from referee.cli import main

    data = _archive_with_one_bad(client)
    path = tmp_path / "all.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["import", str(path), "--data", str(tmp_path / "fresh")]) == 2
    out, err = capsys.readouterr()
    assert out.count("imported ") == 2
    assert "not imported: session 2 ('Broken')" in err
