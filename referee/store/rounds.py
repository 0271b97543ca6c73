"""Rounds and the undo log: a session's rounds, and every change to a session as the steps that revert it.

A round stores only its *input* (the round JSON of the ``score`` CLI, without the
session-wide keys), so totals and every round's dealer (oya) are recomputed from the inputs
on every read and editing an early round is always correct.

Every change of a session bumps its ``rev`` first and is recorded through ``change()``: the
undo log keeps, once per change, only the steps that revert it (``ChangeLog``), and ``undo``
replays them.  Other modules that change a session (re-scoring after a rule correction,
``set_rules``...) use ``change()`` too, so Undo covers them.

Errors: ``ConflictError`` (a round changed since it was opened), ``RoundTakenError`` (another
save took the round's place), ``UndoMismatchError`` (an undo of a change already undone),
``ChangeTokenUsedError`` (an edit, delete or rules form sent again).

Imports ``referee.store.database``, ``sessions`` and ``form_tokens``; must not import Flask or
the rules core.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from referee.store.database import NotFoundError, StoreError, _now, guarded, writing
from referee.store.form_tokens import keep_change_token, keep_form_token, used_change_token, used_form_token
from referee.store.sessions import (
    SESSION_FIELDS,
    DeletedSessionError,
    Session,
    _session_column,
    _session_value,
    get_session,
)


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
class RoundRow:
    """A saved round: ``data`` is its input JSON; ``version`` grows with each edit."""

    id: int
    session_id: int
    position: int
    data: dict[str, Any]
    version: int
    created: str
    updated: str


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


def _bump(db: Database, session_id: int) -> int:
    """Bump the session's rev (and its ``updated`` time); returns the new rev.  Raises ``NotFoundError``, and
    ``DeletedSessionError`` for a deleted session: nothing changes a deleted session (a save racing its delete)
    but its restore."""
    sess = get_session(db, session_id)  # NotFoundError for no session at all
    if sess.deleted is not None:
        raise DeletedSessionError(sess)
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

    def update_round(self, round_id: int, data: Mapping[str, Any], expected_version: int | None = None,
                     same: Callable[[Mapping[str, Any], Mapping[str, Any]], bool] | None = None) -> RoundRow:
        """Replace a round's input; with ``expected_version``, only if nobody changed it since.  An input that
        is the same round as saved (``same(saved, data)``; default: equal as stored) is neither written nor
        logged.

        Returns the round as it was.  Raises ``ConflictError`` (``current`` None when it is gone).
        """
        try:
            current = get_round(self.db, self.session_id, round_id)
        except NotFoundError:
            raise ConflictError(None) from None
        if expected_version is not None and current.version != expected_version:
            raise ConflictError(current)
        if (same or _equal)(current.data, data):
            return current
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

    def delete_session(self) -> Session:
        """Delete the session (``sessions.deleted``: now); its rows stay, and the undo (its restore) clears
        the mark.  Returns the session as it was."""
        before = get_session(self.db, self.session_id)
        self.db.execute("UPDATE sessions SET deleted = ? WHERE id = ?", [_now(), self.session_id])
        self.steps.append(["undelete", None])
        return before


def _equal(saved: Mapping[str, Any], data: Mapping[str, Any]) -> bool:
    return json.loads(json.dumps(dict(data))) == saved


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
        elif kind == "undelete":
            db.execute("UPDATE sessions SET deleted = NULL WHERE id = ?", [session_id])
        else:
            raise ValueError(f"unknown undo step {kind!r}")


@contextmanager
def change(db: Database, session_id: int, kind: str, form_token: str | None = None,
           digest: str | None = None) -> Iterator[ChangeLog]:
    """Record one undoable change of a session, in one write transaction.

    ``with change(db, sid, "rules") as c: c.update_session(options=...); c.summary = "..."``:
    bumps the session's rev, runs the writes made through ``c`` (a ``ChangeLog``) and logs
    the steps that revert them, so ``undo`` can.  A change that wrote nothing keeps the rev and
    logs nothing.  An error inside rolls everything back.

    ``form_token``: the one-time token of the form that asks for the change, kept with it (and
    ``digest``, naming what the form sent); when it already made a change of this session (the
    form sent again), nothing runs and ``ChangeTokenUsedError`` says what it made.
    Raises ``NotFoundError`` for an unknown session, ``StoreUnavailableError`` when busy.
    """
    with writing(db):
        if form_token:
            used_change_token(db, session_id, form_token, digest)
        before = db.execute("SELECT rev, updated FROM sessions WHERE id = ?", [session_id]).fetchone()
        rev = _bump(db, session_id)
        log = ChangeLog(db, session_id, rev, kind)
        yield log
        if not log.steps:
            # Nothing changed (the same rules set again): no new rev, so no page reloads for it.
            db.execute("UPDATE sessions SET rev = ?, updated = ? WHERE id = ?", [*before, session_id])
        else:
            change_id = db["changes"].insert(
                {
                    "session_id": session_id,
                    "kind": kind,
                    "summary": log.summary,
                    "undo": json.dumps(log.steps, ensure_ascii=False, separators=(",", ":")),
                    "created": _now(),
                }
            ).last_pk
            if form_token:
                keep_change_token(db, session_id, form_token, change_id, digest)


class _AlreadySavedError(StoreError):
    def __init__(self, round_id: int) -> None:
        super().__init__(round_id)
        self.round_id = round_id


class UndoMismatchError(StoreError):
    """An undo named a change that is not the session's latest: it was already undone (e.g. by a
    double tap), or, with ``superseded``, it is still logged and newer changes came after it (an
    old scoreboard's Undo button).  ``latest`` is the change an undo would revert now (or None)."""

    def __init__(self, latest: Change | None, superseded: bool = False) -> None:
        super().__init__("newer changes came after that change" if superseded else "that change was already undone")
        self.latest = latest
        self.superseded = superseded


class UnknownChangeError(UndoMismatchError):
    """An undo named a change of another session: nothing is undone."""


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
                used = used_form_token(db, session_id, form_token, digest)
                if used is not None:
                    raise _AlreadySavedError(used)
            if expected_position is not None:
                _check_next_position(db, session_id, expected_position)
            rid = c.add_round(data)
            c.summary = f"add round {get_round(db, session_id, rid).position}"
            if form_token:
                keep_form_token(db, session_id, form_token, rid, digest)
    except _AlreadySavedError as e:
        return get_round(db, session_id, e.round_id), False
    return get_round(db, session_id, rid), True


def _check_next_position(db: Database, session_id: int, expected: int) -> None:
    """Raise ``RoundTakenError`` unless the next round of the session is round ``expected``."""
    (last,) = db.execute("SELECT coalesce(max(position), 0) FROM rounds WHERE session_id = ?", [session_id]).fetchone()
    if last + 1 == expected:
        return
    rows = list(db["rounds"].rows_where("session_id = ? AND position = ?", [session_id, expected], limit=1))
    raise RoundTakenError(expected, _round(rows[0]) if rows else None, last + 1)


@guarded
def saved_with_form_token(db: Database, session_id: int, form_token: str, digest: str | None = None) -> RoundRow | None:
    """The round a ``form_token`` already saved in this session (None if it saved none): a retry
    can be answered before the round is checked again against a game that has moved on.

    Raises ``SpentFormTokenError`` and ``FormTokenReusedError`` as ``add_round`` does."""
    used = used_form_token(db, session_id, form_token, digest)
    return None if used is None else get_round(db, session_id, used)


@guarded
def update_round(
    db: Database,
    session_id: int,
    round_id: int,
    data: Mapping[str, Any],
    expected_version: int,
    form_token: str | None = None,
    digest: str | None = None,
    same: Callable[[Mapping[str, Any], Mapping[str, Any]], bool] | None = None,
) -> RoundRow:
    """Replace a round's input if nobody changed it since ``expected_version``; returns the round as it is now.

    ``form_token``, ``digest``: the edit form's one-time token and what it sent (``change``).
    ``same(saved, data)``: whether ``data`` is the round as saved (default: equal as stored); then nothing is
    written or logged (no change to undo, the token not kept) and the round keeps its version.
    Raises ``ChangeTokenUsedError`` (the form sent again; checked first), ``ConflictError`` (with
    the saved round, or None if it was deleted).
    """
    with change(db, session_id, "edit", form_token, digest) as c:
        before = c.update_round(round_id, data, expected_version, same)
        c.summary = f"edit round {before.position}"
    return get_round(db, session_id, round_id)


@guarded
def delete_round(db: Database, session_id: int, round_id: int, form_token: str | None = None,
                 digest: str | None = None) -> RoundRow:
    """Delete a round; later rounds move up one place.  Returns the round deleted.

    ``form_token``, ``digest``: the delete form's one-time token (an API client's idempotency key) and
    what it sent (``change``).  Raises ``ChangeTokenUsedError`` (the form sent again; checked first),
    ``NotFoundError`` (also when a concurrent request deleted it first)."""
    with change(db, session_id, "delete", form_token, digest) as c:
        gone = c.delete_round(round_id)
        c.summary = f"delete round {gone.position}"
    return gone


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
def undo_discards(db: Database, session_id: int, change_id: int) -> list[RoundRow]:
    """The rounds, as they are now, whose entry undoing change ``change_id`` throws away: a round the
    change added (the undo deletes it) or edited (the undo puts its earlier entry back).  [] for a change
    that only brings data back (a delete, a rules change), or one that is not this session's."""
    row = db.execute("SELECT undo FROM changes WHERE id = ? AND session_id = ?", [change_id, session_id]).fetchone()
    if row is None:
        return []
    ids = [arg if kind == "delete" else arg["id"] for kind, arg in json.loads(row[0]) if kind in ("delete", "restore")]
    return [r for r in rounds_of(db, session_id) if r.id in ids]


@guarded
def undo(db: Database, session_id: int, change_id: int | None = None) -> str | None:
    """Revert the session's latest change; returns its summary, or None when there is none.

    ``change_id``: the change the user saw on the Undo button; when it is no longer the
    latest (a double tap already undid it, or newer changes came after it), nothing is undone and
    ``UndoMismatchError`` is raised (``UnknownChangeError`` when it is another session's).  Every round gets a new
    version, so a form opened before the undo conflicts.
    """
    with writing(db):
        rev = _bump(db, session_id)
        rows = list(db["changes"].rows_where("session_id = ?", [session_id], order_by="id desc", limit=1))
        latest = rows[0] if rows else None
        if change_id is not None and (latest is None or latest["id"] != change_id):
            theirs = db.execute("SELECT 1 FROM changes WHERE id = ? AND session_id != ?", [change_id, session_id])
            if theirs.fetchone():
                raise UnknownChangeError(None if latest is None else _change(latest))
            logged = db.execute("SELECT 1 FROM changes WHERE id = ? AND session_id = ?", [change_id, session_id])
            raise UndoMismatchError(None if latest is None else _change(latest), superseded=bool(logged.fetchone()))
        if latest is None:
            return None
        _revert(db, session_id, json.loads(latest["undo"]), rev)
        db.execute("UPDATE rounds SET version = ? WHERE session_id = ?", [rev, session_id])
        db["changes"].delete(latest["id"])
    return latest["summary"]


@guarded
def set_rules(db: Database, session_id: int, ruleset: str, options: Mapping[str, Any], summary: str,
              form_token: str | None = None, digest: str | None = None) -> Session:
    """Change a session's ruleset and options (dotted-key overrides), logged for undo with ``summary``.

    The caller checks that the rules load and fit the session's family (which stays).
    ``form_token``, ``digest``: the rules form's one-time token and what it sent (``change``).
    Raises ``ChangeTokenUsedError`` (the form sent again), ``NotFoundError``, ``StoreUnavailableError``.
    """
    with change(db, session_id, "rules", form_token, digest) as c:
        c.update_session(ruleset=ruleset, options=options)
        c.summary = summary
    return get_session(db, session_id)
