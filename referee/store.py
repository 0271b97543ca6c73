"""The web app's storage: sessions, their rounds, the undo log, in SQLite via sqlite-utils.

This is the one module that writes to the database; views call its functions
and write no SQL.  A session stores its players, ruleset and options; a round
stores only its *input* (the round JSON of the ``score`` CLI, without the
session-wide keys), so totals and every round's dealer (oya) are recomputed
from the inputs on every read and editing an early round is always correct.

Every change bumps the session's ``rev`` first, inside ``db.atomic()``: the
first statement is a write, so the transaction holds SQLite's write lock
before it reads anything it checks (round versions, one-time form tokens).

Must not import Flask or the rules core: it stores JSON, it does not score.
Errors: ``NotFoundError``, ``ConflictError`` (a round changed since it was opened) and
``StoreUnavailableError`` (the database file is locked or read-only).
"""

from __future__ import annotations

import functools
import json
import secrets
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from sqlite_utils import Database, Migrations

__all__ = [
    "ConflictError",
    "NotFoundError",
    "RoundRow",
    "Session",
    "StoreUnavailableError",
    "add_round",
    "create_session",
    "delete_round",
    "find_session",
    "get_round",
    "last_change",
    "list_sessions",
    "migrate",
    "open_db",
    "rounds_of",
    "sessions_by_tokens",
    "set_rules",
    "undo",
    "update_round",
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


@guarded
def last_change(db: Database, session_id: int) -> str | None:
    """The summary of the change that ``undo`` would revert, or None."""
    rows = list(db["changes"].rows_where("session_id = ?", [session_id], order_by="id desc", limit=1))
    return rows[0]["summary"] if rows else None


# ---- writing ----------------------------------------------------------------


def _token() -> str:
    return secrets.token_urlsafe(16)


def _bump(db: Database, session_id: int) -> int:
    """Take the write lock by bumping the session's rev; returns the new rev."""
    cur = db.execute("UPDATE sessions SET rev = rev + 1, updated = ? WHERE id = ?", [_now(), session_id])
    if cur.rowcount != 1:
        raise NotFoundError(session_id)
    return db.execute("SELECT rev FROM sessions WHERE id = ?", [session_id]).fetchone()[0]


@contextmanager
def _change(db: Database, session_id: int, kind: str) -> Iterator[tuple[int, Callable[[str], None]]]:
    """A transaction that bumps the session's rev and logs the rounds as they were before.

    Yields (new rev, a function that sets the change's summary).  Round
    versions are taken from the rev, so they never repeat within a session.
    """
    with db.atomic():
        rev = _bump(db, session_id)
        before = [
            {
                "id": r.id,
                "position": r.position,
                "data": r.data,
                "version": r.version,
                "created": r.created,
                "updated": r.updated,
            }
            for r in rounds_of(db, session_id)
        ]
        change_id = (
            db["changes"]
            .insert(
                {
                    "session_id": session_id,
                    "kind": kind,
                    "summary": kind,
                    "before": json.dumps(before),
                    "created": _now(),
                }
            )
            .last_pk
        )

        def summary(text: str) -> None:
            db["changes"].update(change_id, {"summary": text})

        yield rev, summary


class _AlreadySavedError(StoreError):
    def __init__(self, round_id: int) -> None:
        super().__init__(round_id)
        self.round_id = round_id


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
    with db.atomic():
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
) -> tuple[RoundRow, bool]:
    """Append a round.  Returns (round, created).

    With a ``form_token`` already used, nothing is written and the round saved
    with it is returned with ``created`` False (a double submit).
    Raises ``NotFoundError`` for an unknown session.
    """
    try:
        with _change(db, session_id, "add") as (rev, summary):
            if form_token:
                used = list(db["form_tokens"].rows_where("token = ?", [form_token], limit=1))
                if used:
                    raise _AlreadySavedError(used[0]["round_id"])
            position = db.execute(
                "SELECT coalesce(max(position), 0) + 1 FROM rounds WHERE session_id = ?",
                [session_id],
            ).fetchone()[0]
            now = _now()
            rid = (
                db["rounds"]
                .insert(
                    {
                        "session_id": session_id,
                        "position": position,
                        "data": json.dumps(dict(data)),
                        "version": rev,
                        "created": now,
                        "updated": now,
                    }
                )
                .last_pk
            )
            summary(f"add round {position}")
            if form_token:
                db["form_tokens"].insert(
                    {"token": form_token, "session_id": session_id, "round_id": rid, "created": now}
                )
    except _AlreadySavedError as e:
        return get_round(db, session_id, e.round_id), False
    return get_round(db, session_id, rid), True


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
    with _change(db, session_id, "edit") as (rev, summary):
        try:
            current = get_round(db, session_id, round_id)
        except NotFoundError:
            raise ConflictError(None) from None
        if current.version != expected_version:
            raise ConflictError(current)
        db["rounds"].update(round_id, {"data": json.dumps(dict(data)), "version": rev, "updated": _now()})
        summary(f"edit round {current.position}")
    return get_round(db, session_id, round_id)


@guarded
def delete_round(db: Database, session_id: int, round_id: int) -> None:
    """Delete a round; later rounds move up one place.  Raises ``NotFoundError``."""
    with _change(db, session_id, "delete") as (_, summary):
        current = get_round(db, session_id, round_id)
        db["rounds"].delete(round_id)
        db.execute(
            "UPDATE rounds SET position = position - 1 WHERE session_id = ? AND position > ?",
            [session_id, current.position],
        )
        summary(f"delete round {current.position}")


@guarded
def undo(db: Database, session_id: int) -> str | None:
    """Revert the session's last change; returns its summary, or None when there is none.

    A rule change (``set_rules``) gets its ruleset and options back; every change gets its rounds back.
    """
    with db.atomic():
        rev = _bump(db, session_id)
        rows = list(db["changes"].rows_where("session_id = ?", [session_id], order_by="id desc", limit=1))
        if not rows:
            return None
        change = rows[0]
        if change.get("rules_before"):
            rules = json.loads(change["rules_before"])
            db["sessions"].update(session_id, {"ruleset": rules["ruleset"], "options": json.dumps(rules["options"])})
        db.execute("DELETE FROM rounds WHERE session_id = ?", [session_id])
        for r in json.loads(change["before"]):
            # A new version: a form opened before the undo then conflicts.
            db["rounds"].insert({**r, "session_id": session_id, "data": json.dumps(r["data"]), "version": rev})
        db["changes"].delete(change["id"])
    return change["summary"]


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
    with db.atomic():
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
    with db.atomic():
        db.execute(
            "UPDATE photos SET detections = ? WHERE id = ? AND session_id = ?",
            [json.dumps(detections), photo_id, session_id],
        )


@guarded
def attach_photos(db: Database, session_id: int, round_id: int, ids: Sequence[str]) -> None:
    """Keep ``ids`` as the round's photos; its other photos are detached (then pruned)."""
    with db.atomic():
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
    with db.atomic():
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
# (reloading it uploads nothing twice).  Drafts are pruned with unsaved photos.


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
    with db.atomic():
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
    with db.atomic():
        cur = db.execute("DELETE FROM photo_drafts WHERE created < ?", [older_than])
    return cur.rowcount


# ---- fixing a rule afterwards (issue 12) -------------------------------------
# A rule change is a change like any other: logged with the rounds as they were (which it does not
# touch) and the session's ruleset and options before it, so undo restores them.  The scoreboard
# replays every round from its input, so the history is re-scored under the new rules on the next read.


@migrations()
def m010_rules_change_log(db: Database) -> None:
    db["changes"].add_column("rules_before", str)


@guarded
def set_rules(db: Database, session_id: int, ruleset: str, options: Mapping[str, Any], summary: str) -> Session:
    """Change a session's ruleset and options (dotted-key overrides), logged for undo with ``summary``.

    The caller checks that the rules load and fit the session's family.  Raises ``NotFoundError``.
    """
    with _change(db, session_id, "rules") as (_, set_summary):
        old = get_session(db, session_id)
        db["changes"].update(
            db.execute("SELECT max(id) FROM changes WHERE session_id = ?", [session_id]).fetchone()[0],
            {"rules_before": json.dumps({"ruleset": old.ruleset, "options": old.options})},
        )
        db["sessions"].update(session_id, {"ruleset": ruleset, "options": json.dumps(dict(options))})
        set_summary(summary)
    return get_session(db, session_id)
