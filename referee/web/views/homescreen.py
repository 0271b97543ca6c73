"""Add to Home Screen: web app manifests and the icons they name.

``/manifest.webmanifest`` opens the app's home page; ``/s/<token>/manifest.webmanifest``
opens that session's scoreboard (the link the page was opened with, so a scorekeeper's
icon keeps the scorekeeper's link), named after the session.  The scoreboard page links
its own; every other page links the app's.  Icons are ``templates/static/icon*``, drawn
by ``scripts/make_icons.py`` (not card art).  Views only read.  A view module: imports no other
view module.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Flask, Response, url_for

from referee.web.access import load
from referee.web.forms.limits import shortened

bp = Blueprint("homescreen", __name__)
THEME = "#8c1c13"
BACKGROUND = "#faf7f2"
#: Icon file -> (size in pixels, purpose).
ICONS = {
    "icon-192.png": ("192x192", "any"),
    "icon-512.png": ("512x512", "any"),
    "icon-maskable-512.png": ("512x512", "maskable"),
}


def manifest_json(name: str, short_name: str, start_url: str) -> dict[str, Any]:
    """A web app manifest (W3C "Web Application Manifest") that opens ``start_url``."""
    return {
        "id": start_url,
        "name": name,
        "short_name": short_name,
        "description": "Scores and explains hanafuda rounds and keeps the totals, live at the table.",
        "start_url": start_url,
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "lang": "en",
        "icons": [
            {"src": url_for("static", filename=f), "sizes": size, "type": "image/png", "purpose": purpose}
            for f, (size, purpose) in ICONS.items()
        ]
        + [{"src": url_for("static", filename="icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }


def _response(data: dict[str, Any]) -> Response:
    return Response(json.dumps(data, ensure_ascii=False), mimetype="application/manifest+json")


@bp.get("/manifest.webmanifest")
def manifest():
    """The app's manifest: the icon opens the home page."""
    return _response(manifest_json("Hanafuda referee", "花 Referee", url_for("home.home")))


@bp.get("/s/<token>/manifest.webmanifest")
def session_manifest(token: str):
    """A session's manifest: the icon opens its scoreboard with the link it was added from."""
    sess = load(token).session
    return _response(manifest_json(f"{sess.name} · Hanafuda referee", shortened(sess.name, 12),
                                   url_for("scoreboard.scoreboard", token=token)))


def init_app(app: Flask) -> None:
    """Register the manifests."""
    app.register_blueprint(bp)
