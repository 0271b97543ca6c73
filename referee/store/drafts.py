"""Drafts: an unsaved round form kept between its steps, one store for every step.

Each step of the round form that answers with a 303 to a GET keeps the form here first, so Back
and Reload never re-post a form or upload a photo twice: a photo step (a snap, a correction, a
Yes or No on a suggestion), the Score step and the other steps that only redraw the form, a
refused Save, and the live preview, which keeps every tap in the page's own draft (its id given:
``keep_draft(..., draft_id=...)``).  A draft holds the form as ``[(name, value), ...]`` pairs
and the photo steps' errors, and whether the player dismissed its offer ("Start again" on the
round a page left half entered: ``dismiss_draft``).  Drafts are pruned with unsaved photos.

The table is still called ``photo_drafts`` (migration m003), after the photo steps that were the
first to keep drafts; renaming it would be a migration for a name only.

Imports ``referee.store.database`` only; must not import Flask, the rules core or vision.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlite_utils import Database

from referee.store.database import NotFoundError, _now, guarded, writing


@dataclass(frozen=True)
class Draft:
    """A round form between steps: ``form`` as ``[(name, value), ...]`` pairs and ``errors`` as
    ``{slot: message}`` for the photos that failed; ``dismissed``: the player chose "Start again"
    on its offer (``dismiss_draft``) and it was not kept again since."""

    id: str
    session_id: int
    form: list[tuple[str, str]]
    errors: dict[str, str]
    created: str
    dismissed: bool = False


@guarded
def keep_draft(
    db: Database,
    session_id: int,
    form: Sequence[tuple[str, str]],
    errors: Mapping[str, str] | None = None,
    *,
    draft_id: str | None = None,
) -> Draft:
    """Keep a round form: as a new draft, or, with ``draft_id``, in place of what that draft held
    (the page's own draft, which the live preview replaces at every tap; kept again, it is no longer
    dismissed).  An id another session holds is not touched: a new id is used.  Returns the draft kept."""
    if draft_id is None:
        draft_id = secrets.token_urlsafe(9)
    with writing(db):
        row = db.execute("SELECT session_id FROM photo_drafts WHERE id = ?", [draft_id]).fetchone()
        if row is not None and row[0] != session_id:
            draft_id = secrets.token_urlsafe(9)
        # Replaced, not updated in place: the draft kept last is the latest row (``drafts_since``).
        db["photo_drafts"].insert(
            {
                "id": draft_id,
                "session_id": session_id,
                "form": json.dumps([list(kv) for kv in form]),
                "errors": json.dumps(dict(errors or {})),
                "created": _now(),
                "dismissed": 0,
            },
            pk="id",
            replace=True,
        )
    return get_draft(db, session_id, draft_id)


@guarded
def dismiss_draft(db: Database, session_id: int, draft_id: str) -> bool:
    """Mark a session's draft dismissed: the player chose "Start again" on its offer, so it is not
    offered again until a new tap keeps it again (``keep_draft``).  The draft stays readable (its
    ``?step=`` page).  Returns False where the session has no such draft (unknown, another
    session's, or pruned)."""
    with writing(db):
        cur = db.execute("UPDATE photo_drafts SET dismissed = 1 WHERE id = ? AND session_id = ?",
                         [draft_id, session_id])
    return cur.rowcount > 0


def get_draft(db: Database, session_id: int, draft_id: str) -> Draft:
    """A session's draft; raises ``NotFoundError`` (unknown, another session's, or pruned)."""
    rows = list(db["photo_drafts"].rows_where("id = ? AND session_id = ?", [draft_id, session_id], limit=1))
    if not rows:
        raise NotFoundError(f"no draft {draft_id!r} in session {session_id}")
    return _draft(rows[0])


def drafts_since(db: Database, session_id: int, since: str, limit: int = 50) -> list[Draft]:
    """A session's drafts kept (or, for the page's own draft, last replaced) at or after ``since``
    (ISO time), the latest first, at most ``limit``."""
    rows = db["photo_drafts"].rows_where("session_id = ? AND created >= ?", [session_id, since],
                                         order_by="created DESC, rowid DESC", limit=limit)
    return [_draft(r) for r in rows]


def _draft(r: Mapping) -> Draft:
    return Draft(
        id=r["id"],
        session_id=r["session_id"],
        form=[(str(k), str(v)) for k, v in json.loads(r["form"])],
        errors=json.loads(r["errors"] or "{}"),
        created=r["created"],
        dismissed=bool(r.get("dismissed")),
    )


@guarded
def prune_drafts(db: Database, older_than: str) -> int:
    """Forget drafts created before ``older_than`` (ISO time); returns how many."""
    with writing(db):
        cur = db.execute("DELETE FROM photo_drafts WHERE created < ?", [older_than])
    return cur.rowcount


# The names drafts had while only the photo steps were said to keep them (``referee/store.py``
# before the package): still importable, no caller left in this repository.
PhotoDraft = Draft
get_photo_draft = get_draft
prune_photo_drafts = prune_drafts


def add_photo_draft(db: Database, session_id: int, form: Sequence[tuple[str, str]],
                    errors: Mapping[str, str]) -> Draft:
    """``keep_draft`` as a new draft (its name before drafts were one store)."""
    return keep_draft(db, session_id, form, errors)
