"""Sessions: a game at one table, its players, its rules and the links that open it.

A session stores its players (in play order, as JSON in the ``players`` column: a player is a
name within a session, the web app's player pages gather them by ``referee.names.name_key``),
its ruleset and dotted-key options, the first dealer (oya), and two tokens: ``view_token``
opens the read-only scoreboard, ``edit_token`` the scorekeeper's pages.  ``rev`` grows by one
with every change (``referee.store.rounds.change``).  A deleted session (``deleted``: when) keeps its
rows but leaves every list, and a link to it raises ``DeletedSessionError`` (``referee.store.deleted``
deletes and restores).

Imports ``referee.store.database`` only; must not import Flask or the rules core.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from referee.store.database import NotFoundError, StoreError, _now, guarded, writing


@dataclass(frozen=True)
class Session:
    """A game at one table.

    ``view_token`` opens the read-only scoreboard; ``edit_token`` the scorekeeper's
    pages.  ``options`` are the dotted-key ruleset overrides; ``players`` in play
    order; ``dealer`` the first oya; ``rev`` grows by one with every change; ``deleted``:
    when it was deleted (ISO time), None while it is live.
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
    deleted: str | None = None


class DeletedSessionError(NotFoundError):
    """A link opens a session that was deleted (``referee.store.deleted``): not found as far as its pages
    go, but ``session`` (and the link's ``role``, ``"edit"`` or ``"view"``) say which, for the way back."""

    def __init__(self, session: Session, role: str = "edit") -> None:
        super().__init__(session.view_token)
        self.session = session
        self.role = role


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
        deleted=row.get("deleted"),
    )


@guarded
def list_sessions(db: Database) -> list[Session]:
    """All sessions but the deleted ones, most recently changed first."""
    return [_session(r) for r in db["sessions"].rows_where("deleted IS NULL", order_by="updated desc, id desc")]


@guarded
def find_session(db: Database, token: str) -> tuple[Session, str]:
    """The session a token opens, and the token's role: ``"edit"`` or ``"view"``.

    One indexed query: every open scoreboard calls this every few seconds.
    Raises ``NotFoundError``; ``DeletedSessionError`` (one) for a deleted session.
    """
    cur = db.execute("SELECT * FROM sessions WHERE edit_token = ? OR view_token = ? LIMIT 1", [token, token])
    row = cur.fetchone()
    if row is None:
        raise NotFoundError(token)
    sess = _session(dict(zip([d[0] for d in cur.description], row, strict=True)))
    role = "edit" if sess.edit_token == token else "view"
    if sess.deleted is not None:
        raise DeletedSessionError(sess, role)
    return sess, role


@guarded
def sessions_by_tokens(db: Database, tokens: Sequence[str]) -> list[Session]:
    """The sessions that any of ``tokens`` (viewer or scorekeeper links) opens, most recently
    changed first; unknown tokens and deleted sessions are skipped.  For the pages that show only what a
    browser knows."""
    tokens = list(dict.fromkeys(t for t in tokens if isinstance(t, str)))[:400]
    if not tokens:
        return []
    marks = ", ".join("?" * len(tokens))
    rows = db["sessions"].rows_where(
        f"(view_token IN ({marks}) OR edit_token IN ({marks})) AND deleted IS NULL",
        [*tokens, *tokens],
        order_by="updated desc, id desc",
    )
    return [_session(r) for r in rows]


@guarded
def get_session(db: Database, session_id: int) -> Session:
    """A session by id, deleted or not (``deleted`` says). Raises ``NotFoundError``."""
    rows = list(db["sessions"].rows_where("id = ?", [session_id], limit=1))
    if not rows:
        raise NotFoundError(session_id)
    return _session(rows[0])


def _token() -> str:
    return secrets.token_urlsafe(16)


#: Columns of ``sessions`` that a change may set (and its undo put back).
SESSION_FIELDS = ("name", "ruleset", "options", "players", "dealer")


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
def create_rematch(db: Database, of: Session, **fields: Any) -> tuple[Session, bool]:
    """The rematch of the finished session ``of``: created with ``fields`` (as
    :func:`create_session`) the first time, in one transaction with its ``rematches`` row;
    every later call (a double tap, a second phone) gets that same session back.  Returns
    ``(session, created)``.  Raises ``StoreUnavailableError`` when the database stays busy.
    (A session's rows are never removed, so the rematch row always names one; it may be a deleted one,
    whose link then offers to restore it.)"""
    with writing(db):
        row = next(db["rematches"].rows_where("of_session = ?", [of.id], limit=1), None)
        if row is not None:
            return get_session(db, row["session_id"]), False
        new = create_session(db, **fields)
        db["rematches"].insert({"of_session": of.id, "session_id": new.id, "created": _now()})
    return new, True


class SessionKeyReusedError(StoreError):
    """An API ``form_token`` (idempotency key) already created a session from a different
    request: nothing is created (a key names one request)."""

    def __init__(self) -> None:
        super().__init__(
            "this form_token already created a session from a different request; nothing was created (send a new "
            "form_token for a new session, or the same request to retry it)"
        )


@guarded
def create_sessions_once(db: Database, form_token: str | None,
                         created: Sequence[Mapping[str, Any]],
                         digest: str | None = None) -> tuple[list[Session], bool]:
    """Create the sessions ``created`` (each as :func:`create_session`) in one transaction,
    recording them under ``form_token`` (a new-session or import form's one-time token, or an
    API client's idempotency key); a later call with the same token (a double tap, a form posted
    again, a retry) creates nothing and gets those sessions back.  Returns ``(sessions,
    created)``.  Without a token, always creates.

    ``digest`` (64 hex characters naming the request, or None) is kept beside the token (the
    ``session_form_tokens`` row: ``token``, ``digest``, ``session_id``); a later call with the
    same token and another digest (a token kept without one included) raises
    :class:`SessionKeyReusedError` and creates nothing.  Any token string matches itself
    (``#``, NUL, any Unicode).  Raises ``ValueError`` for a digest not 64 characters long and
    ``StoreUnavailableError`` when the database stays busy."""
    if digest is not None and len(digest) != 64:
        raise ValueError(f"digest: expected 64 hex characters, got {len(digest)}")
    with writing(db):
        if form_token:
            rows = list(db["session_form_tokens"].rows_where("token = ?", [form_token], order_by="rowid"))
            if rows:
                if rows[0]["digest"] != digest:
                    raise SessionKeyReusedError()
                return [get_session(db, r["session_id"]) for r in rows], False
        made = [create_session(db, **c) for c in created]
        if form_token:
            now = _now()
            for sess in made:
                db["session_form_tokens"].insert(
                    {"token": form_token, "digest": digest, "session_id": sess.id, "created": now}
                )
    return made, True


def move_revs_past(db: Database, revs: Mapping[str, int]) -> None:
    """After a restore: give each session (by viewer token) a ``rev`` above the one it had
    before (``revs``), so no page or cache takes the restored data for what it showed."""
    with writing(db):
        for token, rev in revs.items():
            db.execute("UPDATE sessions SET rev = max(rev, ?) + 1 WHERE view_token = ?", [rev, token])
