"""``GET /healthz``: whether the app can serve a table (for a process supervisor or a load balancer).

Answers 200 ``{"status": "ok", "database": "ok", "models": "loaded"}`` when the database can be
read and is migrated and the card detector's models are loaded; else 503 with the same keys,
``status`` ``"unavailable"`` and each failing part saying why.  Loads the models on first call
(at most ``HEALTH_MODEL_WAIT`` seconds, default 20).  Never cached.

``GET /ping``: 204 at once, touching nothing: the round form asks it before Score and Save, so
a phone that cannot reach the referee says so on the page with its taps kept (``app.js``).

A view module: imports no other view module.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from referee import store
from referee.web.db import get_db

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """The database and the models, each "ok"/"loaded" or why not."""
    try:
        store.check(get_db())
        database = "ok"
    except store.StoreUnavailableError as e:
        database = e.why
    runner = current_app.extensions.get("photo_runner")
    if runner is None:
        loaded, models = False, "card recognition is not set up in this app"
    else:
        loaded, models = runner.ready(float(current_app.config.get("HEALTH_MODEL_WAIT", 20)))
    ok = database == "ok" and loaded
    resp = jsonify({"status": "ok" if ok else "unavailable", "database": database, "models": models})
    resp.status_code = 200 if ok else 503
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/ping")
def ping():
    """204: the referee is reachable (no database, no models)."""
    return "", 204, {"Cache-Control": "no-store"}
