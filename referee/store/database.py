"""The database itself: opening a connection, applying migrations, and the writers' queue.

``open_db`` opens a file (or memory) database and migrates it (the steps are in
``referee.store.schema``); ``writing`` is the one write transaction every other store module
uses: a short ``BEGIN IMMEDIATE`` taken in turn through a per-file writer queue.  ``guarded``
turns SQLite's operational errors into ``StoreUnavailableError``.  Also the store's base
errors: ``StoreError``, ``NotFoundError``, ``StoreUnavailableError``.

Imports only ``referee.store.schema`` of the store; must not import Flask or the rules core.
"""

from __future__ import annotations

import functools
import sqlite3
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import ParamSpec, TypeVar

from sqlite_utils import Database

from referee.store.schema import migrations

P = ParamSpec("P")
T = TypeVar("T")


class StoreError(Exception):
    """Base class of the store's errors."""


class NotFoundError(StoreError):
    """No such session or round."""


class StoreUnavailableError(StoreError):
    """The database cannot be written now (locked by another writer, read-only file...).

    ``message`` says so in words a player understands; nothing was saved.  ``why`` is the
    reason alone (for a page that only reads).
    """

    def __init__(self, message: str, why: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.why = why or message


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _unavailable(e: sqlite3.OperationalError, path: str | Path | None = None) -> StoreUnavailableError:
    text = str(e)
    if "locked" in text or "busy" in text:
        why = "the database is busy (locked by another program or a long write)"
        return StoreUnavailableError(f"Nothing was saved: {why}. Wait a moment and try again.", why)
    if "readonly" in text or "read-only" in text:
        why = "the database file is read-only"
    elif "unable to open" in text and path is not None:
        folder = Path(path).parent
        why = (
            f"the database file {path} cannot be opened"
            + ("" if folder.is_dir() else f" because its data folder {folder} is missing")
            + " (check the folder exists and is writable, then restart the app)"
        )
    else:
        why = f"the database cannot be used ({text})"
    return StoreUnavailableError(f"Nothing was saved: {why}.", why)


def guarded(fn: Callable[P, T]) -> Callable[P, T]:
    """Turn SQLite's operational errors into ``StoreUnavailableError``."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return fn(*args, **kwargs)
        except sqlite3.OperationalError as e:
            raise _unavailable(e) from e

    return wrapper


def open_db(path: str | Path | None, timeout: float = 5.0, *, apply_migrations: bool = True) -> Database:
    """A connection to the database file (``None``: in memory).

    ``timeout``: seconds a write waits for a lock before ``StoreUnavailableError``;
    ``apply_migrations``: apply pending migrations first.
    """
    try:
        conn = sqlite3.connect(":memory:" if path is None else str(path), timeout=timeout, check_same_thread=False)
    except sqlite3.OperationalError as e:
        raise _unavailable(e, path) from e
    db = Database(conn)
    db._referee_timeout = timeout  # how long ``writing`` waits for the writer queue
    if apply_migrations:
        migrate(db)
    return db


@guarded
def migrate(db: Database) -> None:
    """Apply pending migrations and switch a file database to WAL, so pollers never block a save."""
    if migrations.pending(db):
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "memory":
            db.execute("PRAGMA journal_mode=WAL")
        migrations.apply(db)


# ---- health ------------------------------------------------------------------


@guarded
def check(db: Database) -> None:
    """Raise ``StoreUnavailableError`` unless the database can be read and is migrated (for /healthz)."""
    db.execute("SELECT count(*) FROM sessions").fetchone()
    pending = migrations.pending(db)
    if pending:
        why = f"the database needs migrating ({', '.join(m.name for m in pending)})"
        raise StoreUnavailableError(why, why)


# ---- writing ----------------------------------------------------------------
# Every write is one short ``BEGIN IMMEDIATE`` transaction taken in turn: a process-wide
# writer queue (first come, first served) per database file hands the write lock to one
# writer at a time, so twenty phones saving at once wait in line for a few milliseconds
# each instead of polling SQLite's busy handler (which is unfair and gave up after
# ``timeout``).  Another process (a backup, a second server) still waits on SQLite's own
# lock, up to the connection's ``timeout``.


class _WriterQueue:
    """A FIFO lock: writers get the database in the order they asked for it (re-entrant)."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._waiting: deque[int] = deque()
        self._owner: int | None = None
        self._depth = 0

    def acquire(self, timeout: float) -> bool:
        me = threading.get_ident()
        with self._cond:
            if self._owner == me:
                self._depth += 1
                return True
            self._waiting.append(me)
            ok = self._cond.wait_for(lambda: self._owner is None and self._waiting[0] == me, timeout)
            self._waiting.remove(me)
            if ok:
                self._owner, self._depth = me, 1
            self._cond.notify_all()
            return ok

    def release(self) -> None:
        with self._cond:
            self._depth -= 1
            if self._depth == 0:
                self._owner = None
                self._cond.notify_all()


_QUEUES: dict[str, _WriterQueue] = {}
_QUEUES_GUARD = threading.Lock()


def _queue(db: Database) -> _WriterQueue:
    key = getattr(db, "_referee_file", None)
    if key is None:
        file = db.execute("PRAGMA database_list").fetchone()[2]
        key = db._referee_file = str(Path(file).resolve()) if file else f"memory:{id(db.conn)}"
    with _QUEUES_GUARD:
        return _QUEUES.setdefault(key, _WriterQueue())


def _busy() -> StoreUnavailableError:
    why = "the database is busy (locked by another program or a long write)"
    return StoreUnavailableError(f"Nothing was saved: {why}. Wait a moment and try again.", why)


@contextmanager
def writing(db: Database) -> Iterator[Database]:
    """One write transaction: wait for this database's writer queue, then ``BEGIN IMMEDIATE``.

    Commits on exit, rolls back on an error.  Nested use runs as a savepoint of the outer
    transaction.  Raises ``StoreUnavailableError`` when the queue or another process holds
    the database longer than the connection's ``timeout`` (seconds).
    """
    if db.conn.in_transaction:
        with db.atomic():
            yield db
        return
    queue = _queue(db)
    if not queue.acquire(getattr(db, "_referee_timeout", 5.0)):
        raise _busy()
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.rollback()
            raise
        db.execute("COMMIT")
    except sqlite3.OperationalError as e:
        raise _unavailable(e) from e
    finally:
        queue.release()
