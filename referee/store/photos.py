"""Pile photos and drafts: the photos a round was entered from, and round forms kept between steps.

A photo is stored as a file under the data folder; its row holds the detections
(corrections included) and, once the round is saved, the round it belongs to.  A draft
keeps an unsaved round form between photo steps and between the Score steps, so every step
can answer with a 303 to a GET.  Both are pruned when unsaved and old.

Imports ``referee.store.database`` only; must not import Flask, the rules core or vision.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from referee.store.database import NotFoundError, _now, guarded, writing

# ---- pile photos (issue 6) --------------------------------------------------


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


# ---- photo review drafts (issue 9) -------------------------------------------
# A snap, a correction or a Yes/No on a suggestion is posted with the whole unsaved round
# form; the form as it stands afterwards is kept here so the answer can be a 303 to a GET
# (reloading it uploads nothing twice).  The round form's Score step keeps its form here the
# same way (``sessions._to_step``: Back and Reload never re-post it).  Drafts are pruned with
# unsaved photos.


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
