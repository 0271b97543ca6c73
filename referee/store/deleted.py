"""Deleted sessions: a session deleted (a practice game, one made by mistake) and brought back.

A delete is a soft one and an undoable change like any other (``referee.store.rounds.change``, kind
``delete-session``): the session's rows stay (rounds, photos, undo log), ``sessions.deleted`` says when,
and the session leaves every list and page (``find_session`` raises ``DeletedSessionError``).  Its
restore is the undo of that change: the session comes back as it was, its Undo button naming the change
before the delete again.  A delete form's one-time token (an API client's idempotency key) is kept with
the change, so the same form sent again deletes nothing more, and once restored it is spent.

Imports ``referee.store.database``, ``sessions`` and ``rounds``; must not import Flask or the rules core.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlite_utils import Database

from referee.store.database import NotFoundError, StoreError, guarded, writing
from referee.store.rounds import Change, UndoMismatchError, _bump, change, latest_change, rounds_of, undo
from referee.store.sessions import Session, _session, get_session

#: The ``changes.kind`` of a session's delete (what its restore undoes).
DELETE_SESSION = "delete-session"


class NotADeleteError(StoreError):
    """A restore named a change that is not a delete of this session (a change of it still logged, such as
    "add round 1", another session's, or an id never given out): nothing is restored.  ``latest`` is the
    delete a restore would undo now (or None)."""

    def __init__(self, latest: Change | None) -> None:
        super().__init__("that change is not a delete of this session")
        self.latest = latest


def _never_a_delete(db: Database, change_id: int, latest: Change | None) -> bool:
    """Whether ``change_id`` cannot be a delete of this session since undone: an id never given out (ids are
    ``AUTOINCREMENT``, never given twice), a change still logged (a delete of this session is logged until its
    restore, and a deleted session changes no more), or the latest when it is no delete."""
    if latest is not None and latest.id == change_id:
        return latest.kind != DELETE_SESSION
    if change_id < 1:
        return True
    given = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'changes'").fetchone()
    if given is None or change_id > given[0]:
        return True
    return db.execute("SELECT 1 FROM changes WHERE id = ?", [change_id]).fetchone() is not None


@dataclass(frozen=True)
class DeletedSession:
    """A deleted session: ``session`` (its ``deleted`` time set), ``rounds`` (how many it holds) and
    ``change``, the delete that a restore undoes (None for a delete no longer logged)."""

    session: Session
    rounds: int
    change: Change | None


@guarded
def delete_session(db: Database, session_id: int, form_token: str | None = None, digest: str | None = None) -> Session:
    """Delete a session (soft: ``restore_session`` brings it back whole).  Returns it, deleted.

    ``form_token``, ``digest``: the delete form's one-time token (an API client's idempotency key) and what
    it sent (``change``).  Raises ``ChangeTokenUsedError`` (the form sent again; checked first),
    ``DeletedSessionError`` (already deleted), ``NotFoundError``, ``StoreUnavailableError``."""
    with change(db, session_id, DELETE_SESSION, form_token, digest) as c:
        c.delete_session()
        c.summary = "delete session"
    return get_session(db, session_id)


@guarded
def deleted_session(db: Database, session_id: int) -> DeletedSession:
    """A deleted session with its round count and its delete.  Raises ``NotFoundError`` (also for a live one)."""
    sess = get_session(db, session_id)
    if sess.deleted is None:
        raise NotFoundError(session_id)
    latest = latest_change(db, session_id)
    return DeletedSession(
        sess, len(rounds_of(db, session_id)), latest if latest and latest.kind == DELETE_SESSION else None
    )


@guarded
def deleted_sessions(db: Database, edit_tokens: Sequence[str] | None = None) -> list[DeletedSession]:
    """The deleted sessions whose scorekeeper link is one of ``edit_tokens`` (None: every one, for the host),
    most recently deleted first.  Only a scorekeeper link lists one: a viewer cannot restore."""
    if edit_tokens is None:
        rows = db["sessions"].rows_where("deleted IS NOT NULL", order_by="deleted desc, id desc")
    else:
        tokens = list(dict.fromkeys(t for t in edit_tokens if isinstance(t, str)))[:400]
        if not tokens:
            return []
        marks = ", ".join("?" * len(tokens))
        rows = db["sessions"].rows_where(
            f"deleted IS NOT NULL AND edit_token IN ({marks})", tokens, order_by="deleted desc, id desc"
        )
    return [deleted_session(db, s.id) for s in map(_session, rows)]


@guarded
def restore_session(db: Database, session_id: int, change_id: int | None = None) -> Session | None:
    """Bring a deleted session back (the undo of its delete); returns it, or None when it is not deleted (a
    restore sent twice, or another phone's came first): nothing changes.

    ``change_id``: the delete the Restore button was shown for; when the session was restored and deleted
    again since (a stale form), nothing is restored and ``UndoMismatchError`` names the delete now; an id that
    is not a delete of this session (a change of it still logged, another session's, one never given out)
    restores nothing and raises ``NotADeleteError``.  Raises ``NotFoundError``, ``StoreUnavailableError``."""
    with writing(db):
        sess = get_session(db, session_id)
        if sess.deleted is None:
            return None
        latest = latest_change(db, session_id)
        if change_id is not None and _never_a_delete(db, change_id, latest):
            raise NotADeleteError(latest if latest and latest.kind == DELETE_SESSION else None)
        if change_id is not None and (latest is None or latest.id != change_id):
            raise UndoMismatchError(latest)
        db.execute("UPDATE sessions SET deleted = NULL WHERE id = ?", [session_id])
        if latest is not None and latest.kind == DELETE_SESSION:
            undo(db, session_id, latest.id)  # its token is spent with it; the rev moves on
        else:  # a delete no longer logged: the mark alone
            _bump(db, session_id)
    return get_session(db, session_id)
