"""Pile photos: the photos a round was entered from.

A photo is stored as a file under the data folder; its row holds the detections
(corrections included) and, once the round is saved, the round it belongs to.  Unsaved
photos are pruned when old, with the drafts that name them (``referee.store.drafts``).

Imports ``referee.store.database`` only; must not import Flask, the rules core or vision.
"""

from __future__ import annotations

import json
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
