"""Operating the app (issue 10): privacy and the host key, security headers, /healthz, and the
data-safety commands (backup, restore, automatic backups, export --all, import)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from referee import backup as backups
from referee import store
from referee.cli import main
from referee.web import HTMX_CDN, HTMX_SRI, create_app

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def listed_on_home(client) -> str:
    return client.get("/").get_data(as_text=True)


def api_list(client, **headers) -> list[str]:
    return [s["name"] for s in client.get("/api/v1/sessions", headers=headers).get_json()["sessions"]]


# ---- 8. privacy: a browser lists only its own sessions; the host key lists all --------------


@pytest.fixture
def three(app, h):
    """Three sessions, each created by its own browser: (browser, edit token, view token)."""
    out = []
    for name in ("Mine", "Theirs", "Someone's"):
        browser = app.test_client()
        token = h.new_session(browser, name=name)
        out.append((browser, token, browser.get(f"/api/v1/sessions/{token}").get_json()["view_token"]))
    return out


def test_a_new_browser_lists_no_one_elses_session(app, three):
    stranger = app.test_client()
    body = listed_on_home(stranger)
    for _, edit, view in three:
        assert edit not in body
        assert view not in body
    assert api_list(stranger) == []


def test_a_browser_lists_what_it_created_and_opened(three):
    (mine, edit, _), (_, _, their_view), (_, _, other_view) = three
    assert api_list(mine) == ["Mine"]
    mine.get(f"/s/{their_view}")  # opened from a viewer link someone shared
    body = listed_on_home(mine)
    assert f"/s/{edit}" in body
    assert f"/s/{their_view}" in body
    assert other_view not in body
    assert sorted(api_list(mine)) == ["Mine", "Theirs"]


# Bug: a wrong host key answered 200 {"sessions": []}, as if there were no sessions, with no hint.
@pytest.mark.parametrize("auth", ["Bearer not-the-key", "Bearer ", "bearer"])
def test_a_wrong_host_key_is_refused_with_a_reason(app, three, auth):
    mine = three[0][0]
    r = mine.get("/api/v1/sessions", headers={"Authorization": auth})
    assert r.status_code == 401
    assert r.headers["WWW-Authenticate"] == "Bearer"
    body = r.get_json()
    assert body["error"] == "wrong-host-key"
    assert "not this server's host key" in body["message"]
    assert api_list(mine) == ["Mine"]  # no Authorization header: this client's sessions, as before
    doc = mine.get("/api/v1/openapi.json").get_json()
    assert "401" in doc["paths"]["/sessions"]["get"]["responses"]


def test_the_host_key_lists_every_session(app, three):
    host = app.test_client()
    key = app.config["HOST_KEY"]
    assert api_list(host, Authorization=f"Bearer {key}") == ["Someone's", "Theirs", "Mine"]
    assert api_list(host, Authorization=f"bearer  {key} ") == ["Someone's", "Theirs", "Mine"]
    wrong = host.post("/host", data={"key": "not-the-key"})
    assert wrong.status_code == 403
    assert "not this server's host key" in wrong.get_data(as_text=True)
    assert host.get(f"/host?key={key}").status_code == 303
    body = listed_on_home(host)
    assert all(f"/s/{view}" in body for _, _, view in three)
    assert not any(f"/s/{edit}" in body for _, edit, _ in three)  # the host sees viewer links only
    assert len(api_list(host)) == 3
    host.post("/host", data={"action": "leave"})
    assert api_list(host) == []


def test_player_pages_list_what_the_home_page_lists(app, three):
    """One rule for every list of sessions (privacy.visible_sessions): the player pages and the names
    offered on the new-session form follow the home page, host mode included."""
    (mine, _, _), (_, _, their_view), _ = three
    stranger = app.test_client()
    assert "No players yet" in stranger.get("/players").get_data(as_text=True)
    assert mine.get("/players/aki").status_code == 200
    host = app.test_client()
    assert host.get(f"/host?key={app.config['HOST_KEY']}").status_code == 303
    page = host.get("/players/aki").get_data(as_text=True)
    assert page.count('href="/s/') >= 3  # Aki played at all three tables
    assert all(f"/s/{view}" in page for _, _, view in three)  # viewer links only
    assert not any(f"/s/{edit}" in page for _, edit, _ in three)
    assert 'value="Aki"' in host.get("/new").get_data(as_text=True)
    host.post("/host", data={"action": "leave"})
    assert host.get("/players/aki").status_code == 404
    assert their_view not in stranger.get("/new").get_data(as_text=True)


def test_the_host_key_is_kept_in_the_data_folder(tmp_path):
    first = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "SECRET_KEY": "t"})
    again = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "SECRET_KEY": "t"})
    assert first.config["HOST_KEY"] == again.config["HOST_KEY"] == (tmp_path / "host_key").read_text().strip()
    assert len(first.config["HOST_KEY"]) >= 20


# ---- 8. security headers ---------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/new", "/api/v1/sessions", "/static/app.css", "/nope", "/healthz"])
def test_every_response_carries_the_security_headers(tmp_path, path):
    app = create_app(
        {
            "TESTING": True,
            "DATA_DIR": str(tmp_path),
            "SECRET_KEY": "t",
            "HTMX_LOCAL": False,
            "PHOTO_DETECTOR": lambda: lambda image: [],
        }
    )
    r = app.test_client().get(path)
    csp = dict(part.strip().split(" ", 1) for part in r.headers["Content-Security-Policy"].split(";"))
    assert csp["frame-ancestors"] == "'none'"
    assert csp["script-src"] == f"'self' {HTMX_CDN} '{HTMX_SRI}'"  # the pinned CDN file, by URL and hash
    assert "'unsafe-inline'" not in csp["script-src"]
    assert csp["style-src"] == "'self' 'unsafe-inline'"  # inline style= and inline SVG charts
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "no-referrer"
    assert r.headers["X-Frame-Options"] == "DENY"
    r.close()


def test_with_the_vendored_htmx_no_cdn_is_allowed(client):
    assert "unpkg" not in client.get("/").headers["Content-Security-Policy"]


@pytest.mark.parametrize("template", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: p.name)
def test_templates_have_no_script_the_policy_would_block(template):
    """Cross-team agreement: no inline <script>, no on*= handlers, no javascript: URLs."""
    text = template.read_text(encoding="utf-8")
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), "inline <script>"
    assert not re.search(r"\son[a-z]+\s*=", text, re.IGNORECASE), "an on*= event handler"
    assert "javascript:" not in text.lower()


# ---- 11. /healthz ---------------------------------------------------------------------------------


def health_app(tmp_path, detector):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "SECRET_KEY": "t", "PHOTO_DETECTOR": detector})


def test_healthz_when_all_is_well(tmp_path):
    r = health_app(tmp_path, lambda: lambda image: []).test_client().get("/healthz")
    assert r.status_code == 200
    assert r.get_json() == {"status": "ok", "database": "ok", "models": "loaded"}
    assert r.headers["Cache-Control"] == "no-store"


def test_healthz_names_missing_models(tmp_path):
    from vision.errors import ModelError

    def missing():
        raise ModelError("model file vision/models/localiser.onnx is missing")

    r = health_app(tmp_path, missing).test_client().get("/healthz")
    assert r.status_code == 503
    assert r.get_json()["status"] == "unavailable"
    assert r.get_json()["database"] == "ok"
    assert "localiser.onnx is missing" in r.get_json()["models"]


def test_healthz_names_an_unreadable_database(tmp_path):
    app = health_app(tmp_path / "data", lambda: lambda image: [])
    Path(app.config["DATABASE"]).unlink()
    (tmp_path / "data" / "referee.sqlite3").mkdir()  # a folder where the database file should be
    r = app.test_client().get("/healthz")
    assert r.status_code == 503
    assert r.get_json()["database"] != "ok"
    assert r.get_json()["models"] == "loaded"


def test_healthz_with_the_shipped_models(tmp_path):
    pytest.importorskip("onnxruntime", reason="needs onnxruntime")
    r = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "SECRET_KEY": "t"}).test_client().get("/healthz")
    assert r.get_json()["models"] == "loaded", r.get_json()
    assert r.status_code == 200


# ---- 9. backup, restore, automatic backups -------------------------------------------------------


@pytest.fixture
def data(tmp_path, h):
    """A data folder with one session of two rounds; returns (folder, app)."""
    folder = tmp_path / "data"
    app = create_app({"TESTING": True, "DATA_DIR": str(folder), "SECRET_KEY": "t", "HTMX_LOCAL": True})
    client = app.test_client()
    token = h.new_session(client, name="花札の夜")
    for offset in (0, 2):
        client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": h.piles(offset)})
    app.config["TEST_TOKEN"] = token
    return folder, app


def totals(app) -> dict:
    client = app.test_client()
    host = {"Authorization": f"Bearer {app.config['HOST_KEY']}"}
    out = {}
    for s in client.get("/api/v1/sessions", headers=host).get_json()["sessions"]:
        out[s["name"]] = client.get(f"/api/v1/sessions/{s['view_token']}").get_json()["totals"]
    return out


def test_backup_then_restore_brings_the_data_back(data, h, capsys, tmp_path):
    folder, app = data
    before = totals(app)
    assert main(["backup", str(tmp_path / "b.sqlite3"), "--data", str(folder)]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "b.sqlite3")
    assert backups.check_backup(tmp_path / "b.sqlite3") == {"sessions": 1, "rounds": 2}
    # Later: a round is added and a session created; then the backup is restored.
    client = app.test_client()
    h.new_session(client, name="After the backup")
    token = app.config["TEST_TOKEN"]
    client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": h.piles(0)})
    view = client.get(f"/api/v1/sessions/{token}").get_json()["view_token"]
    rev_seen = client.get(f"/api/v1/sessions/{view}").get_json()["rev"]  # an open scoreboard saw 3 rounds
    assert main(["restore", str(tmp_path / "b.sqlite3"), "--data", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "restored 1 sessions and 2 rounds" in out
    kept = Path(re.search(r"kept in (\S+)", out).group(1))
    assert kept.parent == folder / "backups"
    assert backups.check_backup(kept)["sessions"] == 2  # the database as it was is kept
    assert totals(app) == before  # the running app reads the restored data
    # The open scoreboard's rev moved past what it saw, so it reloads rather than trusting a cache.
    after = app.test_client().get(f"/api/v1/sessions/{view}").get_json()
    assert len(after["rounds"]) == 2
    assert after["rev"] > rev_seen
    db = store.open_db(app.config["DATABASE"])
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()


def test_a_backup_is_consistent_while_the_app_writes(data, h, tmp_path):
    _, app = data
    db = sqlite3.connect(app.config["DATABASE"])
    db.execute("BEGIN IMMEDIATE")  # a writer holds the database mid-save
    db.execute("UPDATE sessions SET name = 'half-saved'")
    try:
        out = backups.backup(app.config["DATABASE"], tmp_path / "during.sqlite3")
    finally:
        db.rollback()
        db.close()
    copy = sqlite3.connect(out)
    assert copy.execute("SELECT name FROM sessions").fetchall() == [("花札の夜",)]
    assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
    copy.close()


@pytest.mark.parametrize(
    ("content", "says"),
    [(b"not a database at all" * 100, "not a readable SQLite database"), (None, "not a hanafuda-referee database")],
    ids=["garbage", "other-sqlite"],
)
def test_restore_refuses_what_is_not_a_backup_and_changes_nothing(data, tmp_path, capsys, content, says):
    folder, app = data
    bad = tmp_path / "bad.sqlite3"
    if content is None:
        other = sqlite3.connect(bad)
        other.execute("CREATE TABLE notes (text)")
        other.commit()
        other.close()
    else:
        bad.write_bytes(content)
    before = totals(app)
    assert main(["restore", str(bad), "--data", str(folder)]) == 2
    assert says in capsys.readouterr().err
    assert totals(app) == before
    assert not (folder / "backups").exists() or not list((folder / "backups").glob("before-restore-*"))


def test_backup_refuses_to_overwrite(data, tmp_path, capsys):
    folder, _ = data
    target = tmp_path / "exists.sqlite3"
    target.write_text("keep me")
    assert main(["backup", str(target), "--data", str(folder)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert target.read_text() == "keep me"


# Bug: a backup path through a file (notes.txt/b.sqlite3) ended in a FileExistsError traceback.
def test_a_backup_path_through_a_file_is_one_error_line(data, tmp_path, capsys):
    folder, _ = data
    (tmp_path / "notes.txt").write_text("keep me")
    assert main(["backup", str(tmp_path / "notes.txt" / "b.sqlite3"), "--data", str(folder)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"hanafuda-referee: error: cannot make the folder {tmp_path / 'notes.txt'}")
    assert err.count("\n") == 1
    assert (tmp_path / "notes.txt").read_text() == "keep me"


def test_automatic_backups_rotate(data, monkeypatch):
    folder, app = data
    stamps = iter(f"2026010{i}T000000Z" for i in range(1, 10))
    monkeypatch.setattr(backups, "stamp", lambda: next(stamps))
    for _ in range(5):
        backups.auto_backup(app.config["DATABASE"], folder / "backups", keep=3)
    assert [p.name for p in backups.auto_backups(folder / "backups")] == [
        f"auto-2026010{i}T000000Z.sqlite3" for i in (3, 4, 5)
    ]
    manual = folder / "backups" / "manual-1.sqlite3"
    manual.write_bytes(b"")
    backups.auto_backup(app.config["DATABASE"], folder / "backups", keep=3)
    assert manual.exists()  # only automatic backups rotate


def test_the_automatic_backup_thread_backs_up_at_start(data):
    folder, app = data
    messages = []
    backups.AutoBackups(app.config["DATABASE"], folder / "backups", every=3600, log=messages.append).start().stop()
    (made,) = backups.auto_backups(folder / "backups")
    assert backups.check_backup(made) == {"sessions": 1, "rounds": 2}
    assert messages == [f"backup: {made}"]


# ---- 9. export --all and import ---------------------------------------------------------------------


def test_export_all_then_import_into_a_new_server(data, h, tmp_path, capsys):
    folder, app = data
    h.new_session(app.test_client(), name="🎴 second")
    archive = tmp_path / "all.json"
    assert main(["export", "--all", "-o", str(archive), "--data", str(folder)]) == 0
    assert "exported 2 sessions" in capsys.readouterr().err
    data_out = json.loads(archive.read_text(encoding="utf-8"))
    assert data_out["format"] == "hanafuda-referee/sessions-v1"
    assert [s["name"] for s in data_out["sessions"]] == ["花札の夜", "🎴 second"]
    fresh = tmp_path / "fresh"
    assert main(["import", str(archive), "--data", str(fresh)]) == 0
    assert capsys.readouterr().out.count("imported ") == 2
    other = create_app({"TESTING": True, "DATA_DIR": str(fresh), "SECRET_KEY": "t", "HTMX_LOCAL": True})
    assert totals(other) == totals(app)


# Bug: an unwritable export -o (a missing folder, a folder) ended in a traceback after the export was built.
@pytest.mark.parametrize(
    ("name", "why"),
    [("missing/all.json", "does not exist"), ("notes.txt/all.json", "is not a folder"), ("folder", "it is a folder")],
    ids=["missing-folder", "folder-is-a-file", "a-folder"],
)
def test_an_unwritable_export_file_is_refused_before_exporting(data, tmp_path, capsys, monkeypatch, name, why):
    from referee.web.service import archive

    folder, _ = data
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "folder").mkdir()
    monkeypatch.setattr(archive, "export_all", lambda db: pytest.fail("exported before checking -o"))
    assert main(["export", "--all", "-o", str(tmp_path / name), "--data", str(folder)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"hanafuda-referee: error: -o {tmp_path / name}: cannot write the export: ")
    assert err.rstrip("\n").endswith(why)
    assert err.count("\n") == 1


def test_the_web_import_takes_an_archive(data, tmp_path, capsys, client):
    folder, _ = data
    assert main(["export", "--all", "--data", str(folder)]) == 0
    text = capsys.readouterr().out
    r = client.post("/import", data={"text": text}, follow_redirects=True)
    assert "Imported 2 rounds." in r.get_data(as_text=True)  # an archive of one session opens it
    assert [s["name"] for s in client.get("/api/v1/sessions").get_json()["sessions"]] == ["花札の夜"]


def test_an_archive_with_a_bad_session_imports_the_others_and_names_it(client, h):
    # an archive is not all or nothing (README, "export --all"): one bad session no longer blocks the rest
    good = {"name": "Good", "game": {"players": h.players, "rounds": []}}
    bad = {"name": "Bad", "game": {"players": ["Only one"], "rounds": []}}
    text = json.dumps({"format": "hanafuda-referee/sessions-v1", "sessions": [good, bad]})
    r = client.post("/import", data={"text": text}, follow_redirects=True)
    assert r.status_code == 200
    assert "Imported 1 session. Not imported: session 2 ('Bad')" in r.get_data(as_text=True).replace("&#39;", "'")
    assert [s["name"] for s in client.get("/api/v1/sessions", headers={}).get_json()["sessions"]] == ["Good"]


def test_export_needs_all_or_a_token(capsys, tmp_path):
    assert main(["export", "--data", str(tmp_path)]) == 2
    assert "either --all or one session's token" in capsys.readouterr().err


# ---- 6. serve keeps one connection per server thread -------------------------------------------


def test_kept_connections_are_reused_and_never_left_in_a_transaction(tmp_path, h):
    from flask import g

    app = create_app(
        {"TESTING": True, "DATA_DIR": str(tmp_path), "SECRET_KEY": "t", "HTMX_LOCAL": True, "DB_KEEP_CONNECTIONS": True}
    )
    seen = []

    @app.after_request
    def note(resp):
        if "db" in g:
            seen.append(g.db)
        return resp

    client = app.test_client()
    token = h.new_session(client)
    client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": h.piles(0)})
    client.get(f"/s/{token}")
    assert len({id(db) for db in seen}) == 1  # one connection for this thread's requests
    assert not seen[-1].conn.in_transaction
    assert len(client.get(f"/api/v1/sessions/{token}").get_json()["rounds"]) == 1


# Bug: export -o naming the database wrote JSON over it; every command, restore included, then crashed.
@pytest.mark.parametrize("which", ["referee.sqlite3", "referee.sqlite3-wal"], ids=["database", "its-wal"])
def test_export_onto_the_database_is_refused_and_the_database_kept(data, capsys, which):
    folder, app = data
    db = Path(app.config["DATABASE"])
    target = db.with_name(db.name + which.removeprefix("referee.sqlite3"))
    target.touch()
    before = db.read_bytes()
    assert main(["export", "--all", "-o", str(target), "--data", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err == f"hanafuda-referee: error: -o {target}: that is the database itself; choose another file name\n"
    assert db.read_bytes() == before
    assert main(["backup", str(folder / "after.sqlite3"), "--data", str(folder)]) == 0


# Bug: a failure part way (a full disk) left the earlier export truncated.
def test_an_export_that_cannot_be_finished_leaves_the_earlier_one(data, tmp_path, capsys, monkeypatch):
    from referee import paths

    folder, _ = data
    earlier = tmp_path / "all.json"
    earlier.write_text('{"earlier": true}\n')
    monkeypatch.setattr(paths.os, "replace", lambda a, b: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    assert main(["export", "--all", "-o", str(earlier), "--data", str(folder)]) == 2
    assert capsys.readouterr().err.endswith("cannot write the export: No space left on device\n")
    assert earlier.read_text() == '{"earlier": true}\n'
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


# Bug: backup OUT used OUT.part for its copy, deleting or taking over a file of that name.
def test_a_backup_leaves_a_file_named_like_its_part_alone(data, tmp_path):
    folder, _ = data
    mine = tmp_path / "b.sqlite3.part"
    mine.write_text("my notes")
    assert main(["backup", str(tmp_path / "b.sqlite3"), "--data", str(folder)]) == 0
    assert mine.read_text() == "my notes"
    assert backups.check_backup(tmp_path / "b.sqlite3") == {"sessions": 1, "rounds": 2}


# Bug: "backup newfolder/" (a folder, as --help allows) made a file named newfolder.
def test_a_backup_into_a_new_folder_named_with_a_slash(data, tmp_path, capsys):
    folder, _ = data
    assert main(["backup", f"{tmp_path / 'new'}/", "--data", str(folder)]) == 0
    (made,) = (tmp_path / "new").iterdir()
    assert capsys.readouterr().out.strip() == str(made)
    assert backups.check_backup(made) == {"sessions": 1, "rounds": 2}
