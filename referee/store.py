"""The web app's storage: sessions, their rounds, the undo log, in SQLite via sqlite-utils.

This is the one module that writes to the database; views call its functions
and write no SQL.  A session stores its players, ruleset and options; a round
stores only its *input* (the round JSON of the ``score`` CLI, without the
session-wide keys), so totals and every round's dealer (oya) are recomputed
from the inputs on every read and editing an early round is always correct.

Every write is one short ``BEGIN IMMEDIATE`` transaction (``writing``), taken in turn
through a per-file writer queue.  Every change of a session bumps its ``rev`` first and is
recorded through ``change()``: the undo log keeps, once per change, only the steps that
revert it (``ChangeLog``), and ``undo`` replays them.  Other modules that change a session
(re-scoring after a rule correction...) use ``change()`` too, so Undo covers them.

Must not import Flask or the rules core: it stores JSON, it does not score.
Errors: ``NotFoundError``, ``ConflictError`` (a round changed since it was opened),
``SpentFormTokenError`` (a form token whose round is gone), ``UndoMismatchError`` (an undo
of a change already undone) and ``StoreUnavailableError`` (the database file is locked or
read-only).
"""

from __future__ import annotations

import functools
import json
import secrets
import sqlite3
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from sqlite_utils import Database, Migrations

__all__ = [
    "Change",
    "ChangeLog",
    "ConflictError",
    "FormTokenReusedError",
    "NotFoundError",
    "RoundRow",
    "Session",
    "SpentFormTokenError",
    "StoreUnavailableError",
    "UndoMismatchError",
    "add_round",
    "change",
    "check",
    "create_session",
    "delete_round",
    "find_session",
    "get_round",
    "last_change",
    "latest_change",
    "list_sessions",
    "migrate",
    "open_db",
    "rounds_of",
    "saved_with_form_token",
    "sessions_by_tokens",
    "set_rules",
    "undo",
    "update_round",
    "writing",
]

migrations = Migrations("hanafuda-referee")
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


class ConflictError(StoreError):
    """A round was changed (or deleted) by someone else since it was opened.

    ``current`` is the saved round now (None when it was deleted).
    """

    def __init__(self, current: RoundRow | None) -> None:
        super().__init__("this round changed since you opened it")
        self.current = current


class RoundTakenError(StoreError):
    """A new round was saved as round ``position``, but another save took that place first
    (two phones entering the same round).  ``current`` is the round saved there; nothing was
    written, and the round can be saved again as round ``next_position``."""

    def __init__(self, position: int, current: RoundRow | None, next_position: int) -> None:
        super().__init__(f"round {position} was saved by another request; nothing was saved")
        self.position = position
        self.current = current
        self.next_position = next_position


@dataclass(frozen=True)
class Session:
    """A game at one table.

    ``view_token`` opens the read-only scoreboard; ``edit_token`` the scorekeeper's
    pages.  ``options`` are the dotted-key ruleset overrides; ``players`` in play
    order; ``dealer`` the first oya; ``rev`` grows by one with every change.
    """

    id: int
    name: str
    ruleset: str
    family: str
    options: dict[str, Any]
    players: tuple[str, ...]
    dealer: str
    view_token: str
    edit_token: str
    created: str
    updated: str
    rev: int


@dataclass(frozen=True)
class RoundRow:
    """A saved round: ``data`` is its input JSON; ``version`` grows with each edit."""

    id: int
    session_id: int
    position: int
    data: dict[str, Any]
    version: int
    created: str
    updated: str


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


# ---- schema -----------------------------------------------------------------


@migrations()
def m001_initial(db: Database) -> None:
    db["sessions"].create(
        {
            "id": int,
            "name": str,
            "ruleset": str,
            "family": str,
            "options": str,
            "players": str,
            "dealer": str,
            "view_token": str,
            "edit_token": str,
            "created": str,
            "updated": str,
            "rev": int,
        },
        pk="id",
        not_null={"name", "ruleset", "family", "players", "dealer", "view_token", "edit_token"},
        defaults={"rev": 0, "options": "{}"},
    )
    db["sessions"].create_index(["view_token"], unique=True)
    db["sessions"].create_index(["edit_token"], unique=True)
    db["rounds"].create(
        {
            "id": int,
            "session_id": int,
            "position": int,
            "data": str,
            "version": int,
            "created": str,
            "updated": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
        defaults={"version": 1},
    )
    db["rounds"].create_index(["session_id", "position"])
    # The undo log: each change keeps the session's rounds as they were before it.
    db["changes"].create(
        {"id": int, "session_id": int, "kind": str, "summary": str, "before": str, "created": str},
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
    )
    db["changes"].create_index(["session_id"])
    # One-time form tokens: a round form submitted twice saves one round.
    db["form_tokens"].create(
        {"token": str, "session_id": int, "round_id": int, "created": str},
        pk="token",
    )


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


# ---- reading ----------------------------------------------------------------


@guarded
def check(db: Database) -> None:
    """Raise ``StoreUnavailableError`` unless the database can be read and is migrated (for /healthz)."""
    db.execute("SELECT count(*) FROM sessions").fetchone()
    pending = migrations.pending(db)
    if pending:
        why = f"the database needs migrating ({', '.join(m.name for m in pending)})"
        raise StoreUnavailableError(why, why)


def _session(row: Mapping[str, Any]) -> Session:
    return Session(
        id=row["id"],
        name=row["name"],
        ruleset=row["ruleset"],
        family=row["family"],
        options=json.loads(row["options"] or "{}"),
        players=tuple(json.loads(row["players"])),
        dealer=row["dealer"],
        view_token=row["view_token"],
        edit_token=row["edit_token"],
        created=row["created"],
        updated=row["updated"],
        rev=row["rev"],
    )


def _round(row: Mapping[str, Any]) -> RoundRow:
    return RoundRow(
        row["id"],
        row["session_id"],
        row["position"],
        json.loads(row["data"]),
        row["version"],
        row["created"],
        row["updated"],
    )


@guarded
def list_sessions(db: Database) -> list[Session]:
    """All sessions, most recently changed first."""
    return [_session(r) for r in db["sessions"].rows_where(order_by="updated desc, id desc")]


@guarded
def find_session(db: Database, token: str) -> tuple[Session, str]:
    """The session a token opens, and the token's role: ``"edit"`` or ``"view"``.

    One indexed query: every open scoreboard calls this every few seconds.
    Raises ``NotFoundError``.
    """
    cur = db.execute("SELECT * FROM sessions WHERE edit_token = ? OR view_token = ? LIMIT 1", [token, token])
    row = cur.fetchone()
    if row is None:
        raise NotFoundError(token)
    sess = _session(dict(zip([d[0] for d in cur.description], row, strict=True)))
    return sess, "edit" if sess.edit_token == token else "view"


@guarded
def sessions_by_tokens(db: Database, tokens: Sequence[str]) -> list[Session]:
    """The sessions that any of ``tokens`` (viewer or scorekeeper links) opens, most recently
    changed first; unknown tokens are skipped.  For the pages that show only what a browser knows."""
    tokens = list(dict.fromkeys(t for t in tokens if isinstance(t, str)))[:400]
    if not tokens:
        return []
    marks = ", ".join("?" * len(tokens))
    rows = db["sessions"].rows_where(
        f"view_token IN ({marks}) OR edit_token IN ({marks})", [*tokens, *tokens], order_by="updated desc, id desc"
    )
    return [_session(r) for r in rows]


@guarded
def get_session(db: Database, session_id: int) -> Session:
    """A session by id. Raises ``NotFoundError``."""
    rows = list(db["sessions"].rows_where("id = ?", [session_id], limit=1))
    if not rows:
        raise NotFoundError(session_id)
    return _session(rows[0])


@guarded
def rounds_of(db: Database, session_id: int) -> list[RoundRow]:
    """A session's rounds in play order."""
    return [_round(r) for r in db["rounds"].rows_where("session_id = ?", [session_id], order_by="position")]


@guarded
def get_round(db: Database, session_id: int, round_id: int) -> RoundRow:
    """One round of a session. Raises ``NotFoundError``."""
    rows = list(db["rounds"].rows_where("session_id = ? and id = ?", [session_id, round_id], limit=1))
    if not rows:
        raise NotFoundError(round_id)
    return _round(rows[0])


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


def _token() -> str:
    return secrets.token_urlsafe(16)


def _bump(db: Database, session_id: int) -> int:
    """Bump the session's rev (and its ``updated`` time); returns the new rev."""
    cur = db.execute("UPDATE sessions SET rev = rev + 1, updated = ? WHERE id = ?", [_now(), session_id])
    if cur.rowcount != 1:
        raise NotFoundError(session_id)
    return db.execute("SELECT rev FROM sessions WHERE id = ?", [session_id]).fetchone()[0]


@dataclass(frozen=True)
class Change:
    """An undoable change of a session: ``id`` (what an Undo button names), ``kind``
    (``add``, ``edit``, ``delete``, or another module's word), ``summary`` in words."""

    id: int
    session_id: int
    kind: str
    summary: str
    created: str


def _round_record(r: RoundRow) -> dict[str, Any]:
    return {"id": r.id, "position": r.position, "data": r.data, "created": r.created, "updated": r.updated}


#: Columns of ``sessions`` that a change may set (and its undo put back).
SESSION_FIELDS = ("name", "ruleset", "options", "players", "dealer")


class ChangeLog:
    """What one change does, and how to undo it: the store's writes within ``change()``.

    Each method writes and records the step that reverts it (the undo log keeps only
    those steps: a round added is undone by its id, an edit or delete by that one round
    as it was; never a copy of the whole session).  ``rev`` is the session's new rev;
    ``summary`` the words an Undo button shows (``"edit round 3"``).
    """

    def __init__(self, db: Database, session_id: int, rev: int, summary: str) -> None:
        self.db = db
        self.session_id = session_id
        self.rev = rev
        self.summary = summary
        self.steps: list[list[Any]] = []

    def add_round(self, data: Mapping[str, Any]) -> int:
        """Append a round; returns its id."""
        position = self.db.execute(
            "SELECT coalesce(max(position), 0) + 1 FROM rounds WHERE session_id = ?", [self.session_id]
        ).fetchone()[0]
        now = _now()
        rid = (
            self.db["rounds"]
            .insert(
                {
                    "session_id": self.session_id,
                    "position": position,
                    "data": json.dumps(dict(data)),
                    "version": self.rev,
                    "created": now,
                    "updated": now,
                }
            )
            .last_pk
        )
        self.steps.append(["delete", rid])
        return rid

    def update_round(self, round_id: int, data: Mapping[str, Any], expected_version: int | None = None) -> RoundRow:
        """Replace a round's input; with ``expected_version``, only if nobody changed it since.

        Returns the round as it was.  Raises ``ConflictError`` (``current`` None when it is gone).
        """
        try:
            current = get_round(self.db, self.session_id, round_id)
        except NotFoundError:
            raise ConflictError(None) from None
        if expected_version is not None and current.version != expected_version:
            raise ConflictError(current)
        self.db["rounds"].update(round_id, {"data": json.dumps(dict(data)), "version": self.rev, "updated": _now()})
        self.steps.append(["restore", _round_record(current)])
        return current

    def delete_round(self, round_id: int) -> RoundRow:
        """Delete a round (later rounds move up one place); returns it.  Raises ``NotFoundError``."""
        current = get_round(self.db, self.session_id, round_id)
        _remove_round(self.db, self.session_id, round_id, current.position)
        self.steps.append(["insert", _round_record(current)])
        return current

    def update_session(self, **fields: Any) -> Session:
        """Set session fields (``SESSION_FIELDS``: ``name``, ``ruleset``, ``options``,
        ``players``, ``dealer``); returns the session as it was.  Raises ``ValueError`` for
        another field (the family, the tokens).  Fields that already hold their new value are
        neither written nor logged: setting the same rules twice leaves nothing to undo."""
        unknown = set(fields) - set(SESSION_FIELDS)
        if unknown:
            raise ValueError(f"a change cannot set {sorted(unknown)}; only {SESSION_FIELDS}")
        before = get_session(self.db, self.session_id)
        old = {k: _session_column(k, getattr(before, k)) for k in fields}
        new = {k: _session_column(k, v) for k, v in fields.items() if _session_value(k, v) != _session_value(k, old[k])}
        if new:
            self.db["sessions"].update(self.session_id, new)
            self.steps.append(["session", {k: old[k] for k in new}])
        return before


def _session_value(key: str, value: Any) -> Any:
    """A session field as Python compares it (``{"a": 1, "b": 2}`` and its JSON in any key order are one value)."""
    if key in ("options", "players") and isinstance(value, str):
        return json.loads(value)
    return dict(value) if key == "options" else list(value) if key == "players" else value


def _session_column(key: str, value: Any) -> Any:
    """A session field as its column stores it (JSON for options and players)."""
    if key == "options":
        return json.dumps(dict(value))
    if key == "players":
        return json.dumps(list(value))
    return value


def _remove_round(db: Database, session_id: int, round_id: int, position: int) -> None:
    db["rounds"].delete(round_id)
    db.execute(
        "UPDATE rounds SET position = position - 1 WHERE session_id = ? AND position > ?", [session_id, position]
    )


def _revert(db: Database, session_id: int, steps: Sequence[list[Any]], rev: int) -> None:
    """Apply a change's undo steps, last step first."""
    for kind, arg in reversed(steps):
        if kind == "delete":
            row = db.execute(
                "SELECT position FROM rounds WHERE id = ? AND session_id = ?", [arg, session_id]
            ).fetchone()
            if row is not None:
                _remove_round(db, session_id, arg, row[0])
        elif kind == "insert":
            db.execute(
                "UPDATE rounds SET position = position + 1 WHERE session_id = ? AND position >= ?",
                [session_id, arg["position"]],
            )
            db["rounds"].insert({**arg, "session_id": session_id, "data": json.dumps(arg["data"]), "version": rev})
        elif kind == "restore":
            db["rounds"].update(arg["id"], {"data": json.dumps(arg["data"]), "updated": arg["updated"]})
        elif kind == "session":
            db["sessions"].update(session_id, arg)
        else:
            raise ValueError(f"unknown undo step {kind!r}")


@contextmanager
def change(db: Database, session_id: int, kind: str) -> Iterator[ChangeLog]:
    """Record one undoable change of a session, in one write transaction.

    ``with change(db, sid, "rules") as c: c.update_session(options=...); c.summary = "..."``:
    bumps the session's rev, runs the writes made through ``c`` (a ``ChangeLog``) and logs
    the steps that revert them, so ``undo`` can.  A change that wrote nothing keeps the rev and
    logs nothing.  An error inside rolls everything back.
    Raises ``NotFoundError`` for an unknown session, ``StoreUnavailableError`` when busy.
    """
    with writing(db):
        before = db.execute("SELECT rev, updated FROM sessions WHERE id = ?", [session_id]).fetchone()
        rev = _bump(db, session_id)
        log = ChangeLog(db, session_id, rev, kind)
        yield log
        if not log.steps:
            # Nothing changed (the same rules set again): no new rev, so no page reloads for it.
            db.execute("UPDATE sessions SET rev = ?, updated = ? WHERE id = ?", [*before, session_id])
        else:
            db["changes"].insert(
                {
                    "session_id": session_id,
                    "kind": kind,
                    "summary": log.summary,
                    "undo": json.dumps(log.steps, ensure_ascii=False, separators=(",", ":")),
                    "created": _now(),
                }
            )


class _AlreadySavedError(StoreError):
    def __init__(self, round_id: int) -> None:
        super().__init__(round_id)
        self.round_id = round_id


class SpentFormTokenError(StoreError):
    """A ``form_token`` (one-time form token, idempotency key) already saved a round of this
    session, and that round has since been deleted or undone: nothing is saved again."""

    def __init__(self) -> None:
        super().__init__(
            "this form_token already saved a round of this session, and that round has since been deleted or undone; "
            "nothing was saved (send a new form_token to save it again)"
        )


class FormTokenReusedError(StoreError):
    """A ``form_token`` (idempotency key) already saved round ``position`` of this session
    from a different request: nothing is saved (a key names one request, not a slot)."""

    def __init__(self, position: int) -> None:
        super().__init__(
            f"this form_token already saved round {position} of this session from a different request; nothing was "
            "saved (send a new form_token for a new round, or the same request to retry it)"
        )
        self.position = position


class UndoMismatchError(StoreError):
    """An undo named a change that is not the session's latest (it was already undone, e.g.
    by a double tap).  ``latest`` is the change an undo would revert now (or None)."""

    def __init__(self, latest: Change | None) -> None:
        super().__init__("that change was already undone")
        self.latest = latest


@guarded
def create_session(
    db: Database,
    *,
    name: str,
    ruleset: str,
    family: str,
    options: Mapping[str, Any],
    players: Sequence[str],
    dealer: str,
    rounds: Sequence[Mapping[str, Any]] = (),
) -> Session:
    """Create a session (with imported ``rounds``, if any) in one transaction."""
    now = _now()
    with writing(db):
        sid = (
            db["sessions"]
            .insert(
                {
                    "name": name,
                    "ruleset": ruleset,
                    "family": family,
                    "options": json.dumps(dict(options)),
                    "players": json.dumps(list(players)),
                    "dealer": dealer,
                    "view_token": _token(),
                    "edit_token": _token(),
                    "created": now,
                    "updated": now,
                    "rev": 0,
                }
            )
            .last_pk
        )
        for i, data in enumerate(rounds, 1):
            db["rounds"].insert(
                {
                    "session_id": sid,
                    "position": i,
                    "data": json.dumps(dict(data)),
                    "version": 0,
                    "created": now,
                    "updated": now,
                }
            )
    return get_session(db, sid)


@guarded
def add_round(
    db: Database,
    session_id: int,
    data: Mapping[str, Any],
    form_token: str | None = None,
    digest: str | None = None,
    expected_position: int | None = None,
) -> tuple[RoundRow, bool]:
    """Append a round.  Returns (round, created).

    ``expected_position``: the round number the form was opened for; when another save
    already took it, nothing is written and ``RoundTakenError`` names the round saved there
    (checked after the form token, so a double submit is still answered "already saved").

    ``form_token`` (a round form's one-time token, an API client's idempotency key) is
    scoped to the session: used again in this session, nothing is written and the round
    saved with it is returned with ``created`` False (a double submit); used in another
    session, it is a new key there.  ``digest`` (any string naming the request, e.g. a hash
    of its body) is kept with the token, and a reuse with another digest is refused.
    Raises ``SpentFormTokenError`` when the round it saved was since deleted or undone,
    ``FormTokenReusedError`` for another request under a used token, ``NotFoundError`` for
    an unknown session.
    """
    try:
        with change(db, session_id, "add") as c:
            if form_token:
                used = _saved_with(db, session_id, form_token, digest)
                if used is not None:
                    raise _AlreadySavedError(used.id)
            if expected_position is not None:
                _check_next_position(db, session_id, expected_position)
            rid = c.add_round(data)
            c.summary = f"add round {get_round(db, session_id, rid).position}"
            if form_token:
                used = {"token": form_token, "session_id": session_id, "round_id": rid, "digest": digest}
                db["form_tokens"].insert({**used, "created": _now()})
    except _AlreadySavedError as e:
        return get_round(db, session_id, e.round_id), False
    return get_round(db, session_id, rid), True


def _check_next_position(db: Database, session_id: int, expected: int) -> None:
    """Raise ``RoundTakenError`` unless the next round of the session is round ``expected``."""
    (last,) = db.execute(
        "SELECT coalesce(max(position), 0) FROM rounds WHERE session_id = ?", [session_id]
    ).fetchone()
    if last + 1 == expected:
        return
    rows = list(db["rounds"].rows_where("session_id = ? AND position = ?", [session_id, expected], limit=1))
    raise RoundTakenError(expected, _round(rows[0]) if rows else None, last + 1)


def _saved_with(db: Database, session_id: int, form_token: str, digest: str | None) -> RoundRow | None:
    used = db.execute(
        "SELECT round_id, digest FROM form_tokens WHERE session_id = ? AND token = ?", [session_id, form_token]
    ).fetchone()
    if used is None:
        return None
    try:
        row = get_round(db, session_id, used[0])
    except NotFoundError:
        raise SpentFormTokenError() from None
    if digest is not None and used[1] is not None and digest != used[1]:
        raise FormTokenReusedError(row.position)
    return row


@guarded
def saved_with_form_token(db: Database, session_id: int, form_token: str, digest: str | None = None) -> RoundRow | None:
    """The round a ``form_token`` already saved in this session (None if it saved none): a retry
    can be answered before the round is checked again against a game that has moved on.

    Raises ``SpentFormTokenError`` and ``FormTokenReusedError`` as ``add_round`` does."""
    return _saved_with(db, session_id, form_token, digest)


@guarded
def update_round(
    db: Database,
    session_id: int,
    round_id: int,
    data: Mapping[str, Any],
    expected_version: int,
) -> RoundRow:
    """Replace a round's input if nobody changed it since ``expected_version``.

    Raises ``ConflictError`` (with the saved round, or None if it was deleted).
    """
    with change(db, session_id, "edit") as c:
        before = c.update_round(round_id, data, expected_version)
        c.summary = f"edit round {before.position}"
    return get_round(db, session_id, round_id)


@guarded
def delete_round(db: Database, session_id: int, round_id: int) -> None:
    """Delete a round; later rounds move up one place.  Raises ``NotFoundError`` (also when a
    concurrent request deleted it first)."""
    with change(db, session_id, "delete") as c:
        gone = c.delete_round(round_id)
        c.summary = f"delete round {gone.position}"


@guarded
def move_revs_past(db: Database, revs: Mapping[str, int]) -> None:
    """After a restore: give each session (by viewer token) a ``rev`` above the one it had
    before (``revs``), so no page or cache takes the restored data for what it showed."""
    with writing(db):
        for token, rev in revs.items():
            db.execute("UPDATE sessions SET rev = max(rev, ?) + 1 WHERE view_token = ?", [rev, token])


def _change(row: Mapping[str, Any]) -> Change:
    return Change(row["id"], row["session_id"], row["kind"], row["summary"], row["created"])


@guarded
def latest_change(db: Database, session_id: int) -> Change | None:
    """The change that ``undo`` would revert, or None."""
    rows = list(db["changes"].rows_where("session_id = ?", [session_id], order_by="id desc", limit=1))
    return _change(rows[0]) if rows else None


def last_change(db: Database, session_id: int) -> str | None:
    """The summary of the change that ``undo`` would revert, or None."""
    latest = latest_change(db, session_id)
    return latest.summary if latest else None


@guarded
def undo(db: Database, session_id: int, change_id: int | None = None) -> str | None:
    """Revert the session's latest change; returns its summary, or None when there is none.

    ``change_id``: the change the user saw on the Undo button; when it is no longer the
    latest (a double tap already undid it), nothing is undone and ``UndoMismatchError`` is
    raised.  Every round gets a new version, so a form opened before the undo conflicts.
    """
    with writing(db):
        rev = _bump(db, session_id)
        rows = list(db["changes"].rows_where("session_id = ?", [session_id], order_by="id desc", limit=1))
        latest = rows[0] if rows else None
        if change_id is not None and (latest is None or latest["id"] != change_id):
            raise UndoMismatchError(None if latest is None else _change(latest))
        if latest is None:
            return None
        _revert(db, session_id, json.loads(latest["undo"]), rev)
        db.execute("UPDATE rounds SET version = ? WHERE session_id = ?", [rev, session_id])
        db["changes"].delete(latest["id"])
    return latest["summary"]


# ---- pile photos (issue 6) --------------------------------------------------
# A photo is stored as a file under the data folder; its row holds the detections
# (corrections included) and, once the round is saved, the round it belongs to.


@migrations()
def m002_photos(db: Database) -> None:
    db["photos"].create(
        {
            "id": str,
            "session_id": int,
            "round_id": int,
            "slot": str,
            "file": str,
            "width": int,
            "height": int,
            "detections": str,
            "error": str,
            "created": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
    )
    db["photos"].create_index(["session_id", "round_id"])


@dataclass(frozen=True)
class PhotoRow:
    """A pile photo: ``slot`` is the picker it fills (``pile-0``, ``hand-1``, ``hand-f``);
    ``file`` is relative to the data folder; ``detections`` are dicts of
    ``Detection.to_dict()`` plus ``fixed`` (the corrected card id, or None when removed);
    ``round_id`` is None until the round is saved."""

    id: str
    session_id: int
    round_id: int | None
    slot: str
    file: str
    width: int
    height: int
    detections: list[dict[str, Any]]
    error: str | None
    created: str


def _photo(row: Mapping[str, Any]) -> PhotoRow:
    return PhotoRow(
        id=row["id"],
        session_id=row["session_id"],
        round_id=row["round_id"],
        slot=row["slot"],
        file=row["file"],
        width=row["width"],
        height=row["height"],
        detections=json.loads(row["detections"] or "[]"),
        error=row["error"],
        created=row["created"],
    )


@guarded
def add_photo(
    db: Database,
    session_id: int,
    *,
    photo_id: str,
    slot: str,
    file: str,
    size: tuple[int, int],
    detections: list[dict[str, Any]],
    error: str | None = None,
) -> PhotoRow:
    """Record a pile photo not yet attached to a round."""
    with writing(db):
        db["photos"].insert(
            {
                "id": photo_id,
                "session_id": session_id,
                "round_id": None,
                "slot": slot,
                "file": file,
                "width": size[0],
                "height": size[1],
                "detections": json.dumps(detections),
                "error": error,
                "created": _now(),
            }
        )
    return get_photo(db, session_id, photo_id)


def get_photo(db: Database, session_id: int, photo_id: str) -> PhotoRow:
    """One photo of a session; raises ``NotFoundError``."""
    rows = list(db["photos"].rows_where("id = ? AND session_id = ?", [photo_id, session_id], limit=1))
    if not rows:
        raise NotFoundError(f"no photo {photo_id!r} in session {session_id}")
    return _photo(rows[0])


def photos_by_ids(db: Database, session_id: int, ids: Sequence[str]) -> list[PhotoRow]:
    """The session's photos among ``ids``, in the order given; unknown ids are skipped."""
    out = []
    for pid in dict.fromkeys(ids):
        try:
            out.append(get_photo(db, session_id, pid))
        except NotFoundError:
            continue
    return out


def photos_of_round(db: Database, session_id: int, round_id: int) -> list[PhotoRow]:
    """The photos saved with a round, oldest first."""
    rows = db["photos"].rows_where("session_id = ? AND round_id = ?", [session_id, round_id], order_by="created, id")
    return [_photo(r) for r in rows]


@guarded
def set_photo_detections(db: Database, session_id: int, photo_id: str, detections: list[dict[str, Any]]) -> None:
    """Replace a photo's detections (after a correction)."""
    with writing(db):
        db.execute(
            "UPDATE photos SET detections = ? WHERE id = ? AND session_id = ?",
            [json.dumps(detections), photo_id, session_id],
        )


@guarded
def set_photo_slot(db: Database, session_id: int, photo_id: str, slot: str) -> None:
    """Move a photo not yet saved with a round to another picker slot (snapped on the wrong tab)."""
    with writing(db):
        db.execute(
            "UPDATE photos SET slot = ? WHERE id = ? AND session_id = ? AND round_id IS NULL",
            [slot, photo_id, session_id],
        )


@guarded
def attach_photos(db: Database, session_id: int, round_id: int, ids: Sequence[str]) -> None:
    """Keep ``ids`` as the round's photos; its other photos are detached (then pruned)."""
    with writing(db):
        db.execute("UPDATE photos SET round_id = NULL WHERE session_id = ? AND round_id = ?", [session_id, round_id])
        for pid in ids:
            db.execute(
                "UPDATE photos SET round_id = ? WHERE id = ? AND session_id = ? AND round_id IS NULL",
                [round_id, pid, session_id],
            )


@guarded
def prune_photos(db: Database, older_than: str) -> list[str]:
    """Forget photos whose round is gone, and unsaved ones created before ``older_than``
    (ISO time).  Returns their files (relative to the data folder) for the caller to delete."""
    with writing(db):
        rows = list(
            db.query(
                "SELECT id, file FROM photos WHERE (round_id IS NOT NULL AND round_id NOT IN "
                "(SELECT id FROM rounds)) OR (round_id IS NULL AND created < ?)",
                [older_than],
            )
        )
        for r in rows:
            db.execute("DELETE FROM photos WHERE id = ?", [r["id"]])
    return [r["file"] for r in rows]


def round_of_form_token(db: Database, session_id: int, token: str) -> int | None:
    """The round saved with a round form's one-time token, if any."""
    rows = list(db["form_tokens"].rows_where("token = ? AND session_id = ?", [token, session_id], limit=1))
    return rows[0]["round_id"] if rows else None


# ---- photo review drafts (issue 9) -------------------------------------------
# A snap, a correction or a Yes/No on a suggestion is posted with the whole unsaved round
# form; the form as it stands afterwards is kept here so the answer can be a 303 to a GET
# (reloading it uploads nothing twice).  The round form's Score step keeps its form here the
# same way (``sessions._to_step``: Back and Reload never re-post it).  Drafts are pruned with
# unsaved photos.


@migrations()
def m003_photo_drafts(db: Database) -> None:
    db["photo_drafts"].create(
        {"id": str, "session_id": int, "form": str, "errors": str, "created": str},
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
    )
    db["photo_drafts"].create_index(["created"])


@dataclass(frozen=True)
class PhotoDraft:
    """A round form between photo steps: ``form`` as ``[(name, value), ...]`` pairs and
    ``errors`` as ``{slot: message}`` for the photos that failed."""

    id: str
    session_id: int
    form: list[tuple[str, str]]
    errors: dict[str, str]
    created: str


@guarded
def add_photo_draft(
    db: Database, session_id: int, form: Sequence[tuple[str, str]], errors: Mapping[str, str]
) -> PhotoDraft:
    """Keep a round form between photo steps; returns it with its new id."""
    draft_id = secrets.token_urlsafe(9)
    with writing(db):
        db["photo_drafts"].insert(
            {
                "id": draft_id,
                "session_id": session_id,
                "form": json.dumps([list(kv) for kv in form]),
                "errors": json.dumps(dict(errors)),
                "created": _now(),
            }
        )
    return get_photo_draft(db, session_id, draft_id)


@guarded
def keep_draft(db: Database, session_id: int, draft_id: str, form: Sequence[tuple[str, str]]) -> PhotoDraft:
    """Keep the round form as typed under ``draft_id``, replacing what that draft held (the live
    preview keeps every tap this way, so Reload, Back and a tab the phone reloaded after the
    camera lose nothing).  An id another session holds is not touched: a new id is used."""
    with writing(db):
        row = db.execute("SELECT session_id FROM photo_drafts WHERE id = ?", [draft_id]).fetchone()
        if row is not None and row[0] != session_id:
            draft_id = secrets.token_urlsafe(9)
        db["photo_drafts"].upsert(
            {
                "id": draft_id,
                "session_id": session_id,
                "form": json.dumps([list(kv) for kv in form]),
                "errors": "{}",
                "created": _now(),
            },
            pk="id",
        )
    return get_photo_draft(db, session_id, draft_id)


def get_photo_draft(db: Database, session_id: int, draft_id: str) -> PhotoDraft:
    """A session's draft; raises ``NotFoundError`` (unknown, another session's, or pruned)."""
    rows = list(db["photo_drafts"].rows_where("id = ? AND session_id = ?", [draft_id, session_id], limit=1))
    if not rows:
        raise NotFoundError(f"no photo draft {draft_id!r} in session {session_id}")
    r = rows[0]
    return PhotoDraft(
        id=r["id"],
        session_id=r["session_id"],
        form=[(str(k), str(v)) for k, v in json.loads(r["form"])],
        errors=json.loads(r["errors"] or "{}"),
        created=r["created"],
    )


@guarded
def prune_photo_drafts(db: Database, older_than: str) -> int:
    """Forget drafts created before ``older_than`` (ISO time); returns how many."""
    with writing(db):
        cur = db.execute("DELETE FROM photo_drafts WHERE created < ?", [older_than])
    return cur.rowcount


# ---- the service's migrations (issue 10) --------------------------------------


def _steps_between(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    """The undo steps (in recording order) that turn the rounds ``after`` back into ``before``."""
    old = {r["id"]: r for r in before}
    new = {r["id"]: r for r in after}
    keys = ("id", "position", "data", "created", "updated")
    apply = [["delete", rid] for rid in new if rid not in old]
    apply += [
        ["insert", {k: r[k] for k in keys}] for r in sorted(before, key=lambda r: r["position"]) if r["id"] not in new
    ]
    apply += [
        ["restore", {k: old[rid][k] for k in keys}]
        for rid in new
        if rid in old and new[rid]["data"] != old[rid]["data"]
    ]
    return apply[::-1]


@migrations()
def m004_service_undo_steps(db: Database) -> None:
    """The undo log keeps each change once: the steps that revert it, not a copy of every
    round before it (which grew with the square of the rounds: 15.9 MB for 400).

    A database that already ran ``m010_rules_change_log`` (issue 12, before this step
    existed) also kept a rule change's ruleset and options in ``rules_before``: that becomes
    the change's ``session`` step, and the column goes with ``before``.
    """
    db["changes"].add_column("undo", str)
    with_rules = "rules_before" in db["changes"].columns_dict
    for (sid,) in db.execute("SELECT DISTINCT session_id FROM changes").fetchall():
        rows = list(db["changes"].rows_where("session_id = ?", [sid], order_by="id"))
        current = [_round_record(r) for r in rounds_of(db, sid)]
        snapshots = [json.loads(r["before"] or "[]") for r in rows] + [current]
        for i, row in enumerate(rows):
            steps = _steps_between(snapshots[i], snapshots[i + 1])
            if with_rules and row["rules_before"]:
                rules = json.loads(row["rules_before"])
                old = {"ruleset": rules["ruleset"], "options": rules["options"]}
                steps.insert(0, ["session", {k: _session_column(k, v) for k, v in old.items()}])
            db["changes"].update(row["id"], {"undo": json.dumps(steps, ensure_ascii=False, separators=(",", ":"))})
    db["changes"].transform(drop={"before", "rules_before"} if with_rules else {"before"})


@migrations()
def m005_service_form_tokens_per_session(db: Database) -> None:
    """A round form's one-time token (the API's idempotency key) belongs to its session."""
    db["form_tokens"].transform(pk=("session_id", "token"))


@migrations()
def m006_service_form_token_digest(db: Database) -> None:
    """A form token keeps a digest of the request that used it, so a reuse by another request is
    refused (tokens saved before have none and are not compared)."""
    db["form_tokens"].add_column("digest", str)


# ---- fixing a rule afterwards (issue 12) -------------------------------------
# A rule change is a change like any other: its undo step puts the session's ruleset and
# options back (rounds are untouched).  The scoreboard replays every round from its input, so
# the history is re-scored under the rules in force on the next read, after the change and
# after its undo alike.


@migrations()
def m010_rules_change_log(db: Database) -> None:
    """Nothing to do since the undo log holds steps: a rule change logs a ``session`` step.

    Kept by name: databases made before the undo steps (issue 10) ran it to add a
    ``rules_before`` column, which ``m004_service_undo_steps`` folds into their undo steps.
    """


# ---- explicit round endings (issue 20 QA) -----------------------------------
# A Go-Stop or Koi-Koi round must say how it ended (``stopped_by``: a player, or null), or a
# forgotten stopper is scored as a nagari.  Rounds stored before dropped a null ``stopped_by``:
# their family's ``explicit_ending`` gives them back the meaning they had (nobody stopped).


def _explicit(family: str, data: Any) -> Any:
    """A stored round (its object) with its ending said; unchanged where nothing is missing."""
    from referee import families  # read here only, by this migration
    from referee.errors import RefereeError

    try:
        upgrade = families.get(family).explicit_ending
    except RefereeError:  # a family this install does not know: its rounds stay as they are
        return data
    return upgrade(data) if upgrade is not None and isinstance(data, dict) else data


@migrations()
def m011_explicit_round_endings(db: Database) -> None:
    """Stored Go-Stop and Koi-Koi rounds with no ``stopped_by`` get ``stopped_by: null`` (what they
    meant), in the rounds and in the undo log's steps, so they still score as before."""
    family = {r["id"]: r["family"] for r in db["sessions"].rows}
    for row in list(db["rounds"].rows):
        old = json.loads(row["data"])
        new = _explicit(family.get(row["session_id"], ""), old)
        if new != old:
            db["rounds"].update(row["id"], {"data": json.dumps(new)})
    for row in list(db["changes"].rows):
        steps = json.loads(row["undo"] or "[]")
        changed = False
        for step in steps:
            if step[0] in ("insert", "restore") and isinstance(step[1], dict) and "data" in step[1]:
                new = _explicit(family.get(row["session_id"], ""), step[1]["data"])
                changed = changed or new != step[1]["data"]
                step[1]["data"] = new
        if changed:
            db["changes"].update(row["id"], {"undo": json.dumps(steps, ensure_ascii=False, separators=(",", ":"))})


@guarded
def set_rules(db: Database, session_id: int, ruleset: str, options: Mapping[str, Any], summary: str) -> Session:
    """Change a session's ruleset and options (dotted-key overrides), logged for undo with ``summary``.

    The caller checks that the rules load and fit the session's family (which stays).
    Raises ``NotFoundError``, ``StoreUnavailableError``.
    """
    with change(db, session_id, "rules") as c:
        c.update_session(ruleset=ruleset, options=options)
        c.summary = summary
    return get_session(db, session_id)
