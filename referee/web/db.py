"""This request's database connection: opened on first use, kept on ``g`` and closed on teardown
(``create_app`` registers ``close_db``), or, with ``DB_KEEP_CONNECTIONS`` (``serve`` sets it),
kept by each server thread for its next request.

Every view and helper of the web app reads the database through ``get_db``; this module is below
all of them and imports none.
"""

from __future__ import annotations

import threading

from flask import current_app, g

from referee import store

#: With ``DB_KEEP_CONNECTIONS``, each server thread keeps its connection between requests.
_KEPT = threading.local()


def get_db():
    """This request's database connection (closed on teardown; with ``DB_KEEP_CONNECTIONS``,
    as ``serve`` sets, kept open for the thread's next request)."""
    if "db" not in g:
        path, timeout = current_app.config["DATABASE"], current_app.config["DB_TIMEOUT"]
        if not current_app.config.get("DB_KEEP_CONNECTIONS"):
            g.db = store.open_db(path, timeout, apply_migrations=False)
        else:
            kept = getattr(_KEPT, "db", None)
            if kept is None or getattr(_KEPT, "path", None) != path:
                if kept is not None:
                    kept.close()
                kept = _KEPT.db = store.open_db(path, timeout, apply_migrations=False)
                _KEPT.path = path
            g.db = kept
        g.db_kept = bool(current_app.config.get("DB_KEEP_CONNECTIONS"))
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    """Close this request's connection (or, when kept, end any transaction left open)."""
    db = g.pop("db", None)
    if db is None:
        return
    if g.pop("db_kept", False):
        if db.conn.in_transaction:
            db.conn.rollback()
    else:
        db.close()
