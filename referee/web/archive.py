"""Every session at once: ``hanafuda-referee export --all`` and importing what it wrote.

The archive is ``{"format": "hanafuda-referee/sessions-v1", "exported": time, "sessions":
[session export, ...]}``, each entry exactly what the scoreboard's Export JSON gives
(``referee.web.sessions.export_data``), so the home page's Import and
``hanafuda-referee import`` take an archive or a single export alike.  Runs in an app context.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from referee import store
from referee.errors import RefereeError
from referee.web import get_db
from referee.web.sessions import export_data, session_from_export

ARCHIVE_FORMAT = "hanafuda-referee/sessions-v1"


def export_all() -> dict[str, Any]:
    """Every session of the database, oldest first, as one importable archive."""
    sessions = sorted(store.list_sessions(get_db()), key=lambda s: s.id)
    return {
        "format": ARCHIVE_FORMAT,
        "exported": datetime.now(UTC).isoformat(timespec="seconds"),
        "sessions": [export_data(s) for s in sessions],
    }


def sessions_to_create(data: Any) -> list[dict[str, Any]]:
    """The sessions to create from an archive or from one session export, all checked first.

    Raises ``RefereeError`` naming the session (number and name) that is wrong.
    """
    if not (isinstance(data, dict) and data.get("format") == ARCHIVE_FORMAT):
        return [session_from_export(data)]
    entries = data.get("sessions")
    if not isinstance(entries, list):
        raise RefereeError("bad-round", 'an archive needs "sessions": [session export, ...]')
    out = []
    for i, entry in enumerate(entries, 1):
        try:
            out.append(session_from_export(entry))
        except RefereeError as e:
            name = entry.get("name") if isinstance(entry, dict) else None
            label = f"session {i}" + (f" ({str(name)[:40]!r})" if isinstance(name, str) else "")
            raise RefereeError(e.code, f"{label}: {e.message}") from None
    return out


def create_all(created: list[dict[str, Any]]) -> list[store.Session]:
    """Create the sessions in one transaction (all or none)."""
    db = get_db()
    with store.writing(db):
        return [store.create_session(db, **c) for c in created]
