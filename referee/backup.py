"""Backups of the web app's database: SQLite's online backup API, checked restores, rotation.

- ``backup(db_path, out)`` copies a live database (while the app serves and saves) into one
  self-contained file, consistent as of one moment.
- ``restore(db_path, backup_file, keep_dir)`` checks the file is a referee database, keeps a
  copy of the current database in ``keep_dir`` first, copies the backup in through the same
  API (the running app sees the restored data at its next request), migrates it, and moves
  every session's ``rev`` past any value served before, so open scoreboards reload.
- ``auto_backup`` and ``AutoBackups``: ``DATA_DIR/backups/auto-<UTC time>.sqlite3`` at start
  and then daily, keeping the newest ``keep`` (manual and pre-restore copies are never rotated).

An app layer (README "Where things live"); errors are ``BackupError`` with words for the user.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import threading
from contextlib import closing, suppress
from datetime import UTC, datetime
from pathlib import Path

from referee import store

#: The rotated automatic backups' file names: ``auto-20261130T101500Z.sqlite3``.
AUTO_PREFIX = "auto-"
SUFFIX = ".sqlite3"


class BackupError(ValueError):
    """A backup or restore that cannot be done; the message says why in words."""


def stamp() -> str:
    """The current UTC time for a file name: ``20261130T101500Z``."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")[:-7] + "Z"


def backup(db_path: str | Path, out: str | Path) -> Path:
    """Copy the database at ``db_path`` into ``out`` (a new file; its folder is made) with SQLite's
    online backup API, safe while the app is writing.  Returns ``out``.  Raises ``BackupError``."""
    src_path, out = Path(db_path), Path(out)
    if not src_path.is_file():
        raise BackupError(f"there is no database at {src_path} to back up")
    try:
        if out.exists() or out.is_symlink():
            raise BackupError(f"{out} already exists; choose a new file name")
        out.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file where a folder should be
        raise BackupError(f"cannot make the folder {out.parent} for {out}: a file is in the way") from None
    except OSError as e:  # a read-only place, a folder that cannot be entered
        raise BackupError(f"cannot write the backup {out}: {e.strerror or e}") from None
    try:  # a new file of its own beside ``out`` (never a user's ``out.part``), renamed into place when whole
        fd, name = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".part")
        os.close(fd)
    except OSError as e:  # a read-only place, a folder that cannot be entered
        raise BackupError(f"cannot write the backup {out}: {e.strerror or e}") from None
    part = Path(name)
    try:
        with _connect(src_path) as src, _connect(part) as dst:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        part.replace(out)
    except sqlite3.Error as e:
        _remove(part)
        raise BackupError(f"the backup to {out} failed: {e}") from None
    except OSError as e:  # the finished copy could not be renamed into place
        _remove(part)
        raise BackupError(f"the backup to {out} failed: {e.strerror or e}") from None
    return out


def _remove(path: Path) -> None:
    """Remove a half-made file, quietly where it cannot be (the error that stopped it is what the user needs)."""
    with suppress(OSError):
        path.unlink(missing_ok=True)


def _connect(path: Path) -> closing[sqlite3.Connection]:
    """A connection closed on exit (sqlite3's own context manager only commits)."""
    return closing(sqlite3.connect(str(path), timeout=30))


def check_backup(path: str | Path) -> dict[str, int]:
    """Check that ``path`` is a sound referee database; returns ``{"sessions": n, "rounds": n}``.

    Raises ``BackupError`` naming what is wrong (missing, not SQLite, damaged, another app's).
    """
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"there is no file {path}")
    try:
        conn = sqlite3.connect(f"file:{path.resolve().as_posix()}?mode=ro", uri=True)
        try:
            result = conn.execute("PRAGMA integrity_check").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if result != "ok":
                raise BackupError(f"{path} is damaged (SQLite integrity check: {result})")
            if not {"sessions", "rounds", "_sqlite_migrations"} <= tables:
                raise BackupError(f"{path} is an SQLite file, but not a hanafuda-referee database")
            return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("sessions", "rounds")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{path} is not a readable SQLite database ({e})") from e


def restore(db_path: str | Path, backup_file: str | Path, keep_dir: str | Path) -> Path:
    """Replace the database at ``db_path`` with ``backup_file``; returns the copy of the database
    as it was, kept in ``keep_dir`` (``before-restore-<time>.sqlite3``).

    Safe while the app runs: the copy goes in through SQLite's backup API under the database's
    own locks.  Raises ``BackupError`` (nothing changed) when the file is not a sound backup.
    """
    db_path = Path(db_path)
    check_backup(backup_file)
    kept = None
    revs: dict[str, int] = {}
    if db_path.is_file():
        kept = backup(db_path, Path(keep_dir) / f"before-restore-{stamp()}{SUFFIX}")
        with _connect(db_path) as live:
            revs = dict(live.execute("SELECT view_token, rev FROM sessions").fetchall())
    try:
        with _connect(Path(backup_file)) as src, _connect(db_path) as dst:
            src.backup(dst)
    except sqlite3.Error as e:
        raise BackupError(f"the restore failed ({e}); the database as it was is kept in {kept}") from e
    db = store.open_db(db_path, timeout=30)  # migrates a backup made by an older version
    try:
        db.execute("PRAGMA journal_mode=WAL")
        store.move_revs_past(db, revs)
    finally:
        db.close()
    return kept or Path(keep_dir)


def auto_backups(folder: str | Path) -> list[Path]:
    """The automatic backups in ``folder``, oldest first."""
    return sorted(Path(folder).glob(f"{AUTO_PREFIX}*{SUFFIX}"))


def auto_backup(db_path: str | Path, folder: str | Path, keep: int = 7) -> Path:
    """Make an automatic backup in ``folder`` and delete all but the newest ``keep``."""
    made = backup(db_path, Path(folder) / f"{AUTO_PREFIX}{stamp()}{SUFFIX}")
    for old in auto_backups(folder)[: -max(1, keep)]:
        old.unlink(missing_ok=True)
    return made


class AutoBackups:
    """A daemon thread that makes an automatic backup now and then every ``every`` seconds
    (a day).  ``log(message)`` hears of each backup or failure; ``stop()`` ends it."""

    def __init__(self, db_path: str | Path, folder: str | Path, *, keep: int = 7, every: float = 86400,
                 log=print) -> None:
        self.db_path, self.folder, self.keep, self.every, self.log = Path(db_path), Path(folder), keep, every, log
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="auto-backup", daemon=True)

    def start(self) -> AutoBackups:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            try:
                self.log(f"backup: {auto_backup(self.db_path, self.folder, self.keep)}")
            except BackupError as e:
                self.log(f"backup failed: {e}")
            if self._stop.wait(self.every):
                return
