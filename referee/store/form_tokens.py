"""Form tokens: a round form's one-time token, which an API client sends as its idempotency key,
and the one-time token of a form that changes a saved game (an edit, a delete, a rules fix), which
an API client's idempotency key for such a change is too.

A round saved with a token keeps it (with a digest of the request, when given), so a form
submitted twice saves one round and a retry is answered with the round it saved
(``referee.store.rounds.add_round``).  A change made with a token keeps it with the change's id
(``referee.store.rounds.change``), so the same form sent again changes nothing more, also once
that change was undone or others came after it.  A token belongs to its session.

Imports ``referee.store.database`` only; must not import Flask or the rules core.
"""

from __future__ import annotations

from sqlite_utils import Database

from referee.store.database import StoreError, _now, guarded


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


def used_form_token(db: Database, session_id: int, form_token: str, digest: str | None) -> int | None:
    """The id of the round ``form_token`` saved in this session (None if it saved none).

    Raises ``SpentFormTokenError`` when that round was since deleted or undone,
    ``FormTokenReusedError`` when ``digest`` names another request than the one that used it
    (a token kept without a digest, or a call without one, is not compared).
    """
    used = db.execute(
        "SELECT t.digest, r.id, r.position FROM form_tokens t LEFT JOIN rounds r "
        "ON r.id = t.round_id AND r.session_id = t.session_id WHERE t.session_id = ? AND t.token = ?",
        [session_id, form_token],
    ).fetchone()
    if used is None:
        return None
    kept_digest, round_id, position = used
    if round_id is None:
        raise SpentFormTokenError()
    if digest is not None and kept_digest is not None and digest != kept_digest:
        raise FormTokenReusedError(position)
    return round_id


def keep_form_token(db: Database, session_id: int, form_token: str, round_id: int, digest: str | None) -> None:
    """Record that ``form_token`` saved ``round_id`` (inside the transaction that saved it)."""
    used = {"token": form_token, "session_id": session_id, "round_id": round_id, "digest": digest}
    db["form_tokens"].insert({**used, "created": _now()})


def _kept_form_token(db: Database, session_id: int, token: str) -> dict | None:
    """The row a round form's one-time token was kept in (``keep_form_token``), or None."""
    return next(db["form_tokens"].rows_where("token = ? AND session_id = ?", [token, session_id], limit=1), None)


def round_of_form_token(db: Database, session_id: int, token: str) -> int | None:
    """The round saved with a round form's one-time token, if any."""
    row = _kept_form_token(db, session_id, token)
    return row["round_id"] if row else None


def form_token_digest(db: Database, session_id: int, token: str) -> str | None:
    """The digest kept with the round a round form's one-time token saved (what names the round as that form
    saved it), or None: the token saved none, or was kept without a digest."""
    row = _kept_form_token(db, session_id, token)
    return row["digest"] if row else None


class ChangeTokenUsedError(StoreError):
    """A changing form's one-time token (an edit, a delete, a rules fix) already made a change of
    this session (a double tap, Back and Save, a retry): nothing is changed again.

    ``summary``: that change in words (``"edit round 3"``), or None when it was since undone;
    ``same``: whether the same request used it (False: another digest, a form changed since).
    """

    def __init__(self, summary: str | None, same: bool) -> None:
        done = "was since undone" if summary is None else f"made “{summary}”"
        super().__init__(f"this form already made a change of this session, which {done}; nothing was changed")
        self.summary = summary
        self.same = same


def used_change_token(db: Database, session_id: int, form_token: str, digest: str | None) -> None:
    """Raise ``ChangeTokenUsedError`` when ``form_token`` already made a change of this session
    (a token kept without a digest, or a call without one, counts as the same request)."""
    used = db.execute(
        "SELECT t.digest, c.id, c.summary FROM change_form_tokens t LEFT JOIN changes c "
        "ON c.id = t.change_id AND c.session_id = t.session_id WHERE t.session_id = ? AND t.token = ?",
        [session_id, form_token],
    ).fetchone()
    if used is None:
        return
    kept_digest, change_id, summary = used
    same = digest is None or kept_digest is None or digest == kept_digest
    raise ChangeTokenUsedError(summary if change_id is not None else None, same)


@guarded
def check_change_token(db: Database, session_id: int, form_token: str, digest: str | None) -> None:
    """``used_change_token`` before a change is checked and made: a retry of an API edit, delete or
    rules change (its idempotency key) is answered as the first time, even when the session has moved on
    since and the request would no longer pass its checks.  Raises ``ChangeTokenUsedError`` as
    ``used_change_token`` does (``change`` checks the token again inside its write, for a retry that
    comes while the first request is still being made), ``StoreUnavailableError`` when busy."""
    used_change_token(db, session_id, form_token, digest)


def keep_change_token(db: Database, session_id: int, form_token: str, change_id: int, digest: str | None) -> None:
    """Record that ``form_token`` made change ``change_id`` (inside the transaction that made it)."""
    used = {"session_id": session_id, "token": form_token, "change_id": change_id, "digest": digest}
    db["change_form_tokens"].insert({**used, "created": _now()})
