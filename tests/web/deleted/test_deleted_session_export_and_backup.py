"""What a deleted session is to the data tools: left out of ``export --all`` (an archive holds the sessions in
play: imported elsewhere, a deleted one would come back to life), refused by ``export TOKEN`` and the Export
buttons saying why, and kept by a backup (the whole database: restored, it is still deleted, and Undo still
brings it back)."""

from __future__ import annotations

import json
import sqlite3

from test_deleted_session_pages import delete

from referee.cli import main


def test_export_all_leaves_out_a_deleted_session(client, h, tmp_path, capsys):
    gone = h.new_session(client, name="Practice")
    h.new_session(client, name="Kept")
    delete(client, gone)
    assert main(["export", "--all", "--data", str(tmp_path)]) == 0
    archive = json.loads(capsys.readouterr().out)
    assert [s["name"] for s in archive["sessions"]] == ["Kept"]


def test_export_of_a_deleted_session_says_it_is_deleted(client, keeper, tmp_path, capsys):
    delete(client, keeper)
    assert main(["export", keeper, "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "the session 'Friday'" in err
    assert "is deleted; bring it back first" in err
    assert client.get(f"/s/{keeper}/export.json").status_code == 404
    assert client.get(f"/s/{keeper}/export.csv").status_code == 404


def test_a_backup_keeps_a_deleted_session_still_deleted(client, keeper, tmp_path, capsys):
    delete(client, keeper)
    out = tmp_path / "copy.sqlite3"
    assert main(["backup", str(out), "--data", str(tmp_path)]) == 0
    with sqlite3.connect(out) as copy:
        [(name, deleted)] = copy.execute("SELECT name, deleted FROM sessions").fetchall()
    assert name == "Friday"
    assert deleted is not None
