"""The web app: sessions, tap-to-enter rounds and live scoreboards (Flask + htmx + SQLite).

``create_app(test_config=None)`` builds the app.  Configuration comes from the
defaults below, then ``config.py`` in the instance folder, then the
environment (``HANAFUDA_REFEREE_DATA``, ``HANAFUDA_REFEREE_CARD_ART``), then
``test_config``.  Keys:

- ``DATA_DIR``: the data folder (database, later photos); the instance folder by default.
- ``DATABASE``: the SQLite file; ``DATA_DIR/referee.sqlite3`` by default.
- ``DB_TIMEOUT``: seconds a write waits for a locked database (then a clear 503 page).
- ``DB_KEEP_CONNECTIONS``: each server thread keeps its database connection between requests
  (``serve`` turns it on; off by default, so each request opens and closes its own).
- ``CARD_ART``: a card art folder with a ``MAPPING.tsv`` (file -> card id); unset: the shipped
  thumbnails (``templates/static/cards``); ``"none"`` or ``False``: text tiles.
- ``HTMX_LOCAL``: serve the vendored htmx instead of the pinned CDN copy (offline tables, tests).
- ``POLL_SECONDS``: how often an open scoreboard asks for changes.
- ``MAX_CONTENT_LENGTH``: bytes; larger request bodies get a 413.
- ``HOST_KEY``: lists every session (``referee.web.privacy``); ``DATA_DIR/host_key`` by default.

Templates live in the project's top-level ``templates/`` (one folder per screen group, shared
pages and partials beside them) and static files in ``templates/static/``; a wheel installs both
under ``<prefix>/share/hanafuda-referee/``.  The screens are ``referee.web.views``, one blueprint
each, of thin views: they parse, call the service (``referee.web.service``: load a session,
validate a round once, save, build the board once) and render.  This package must not write SQL.
"""

from __future__ import annotations

import os
import re
import secrets
import sys
import sysconfig
from pathlib import Path
from typing import Any

import click
from flask import Flask, request
from flask.cli import with_appcontext
from flask_compress import Compress

from referee import store
from referee.web.db import close_db, get_db
from referee.web.headers import HTMX_CDN, HTMX_SRI, HTMX_VERSION

__all__ = ["HTMX_CDN", "HTMX_SRI", "HTMX_VERSION", "asset_dir", "create_app", "get_db"]

#: Where a wheel install puts templates/ (and templates/static/) (``[tool.setuptools.data-files]``).
SHARE = Path("share") / "hanafuda-referee"


def asset_dir(name: str) -> Path:
    """The ``templates`` or ``static`` folder: the source checkout's, else the installed copy.

    Raises ``RuntimeError`` naming the places looked at when neither exists.
    """
    root = Path(__file__).resolve().parents[2]
    candidates = []
    if (root / "pyproject.toml").is_file():
        candidates.append(root / name)
    prefixes = [
        sysconfig.get_path("data"),
        sys.prefix,
        sysconfig.get_path("data", f"{os.name}_user"),
    ]
    candidates += [Path(p) / SHARE / name for p in prefixes if p]
    for c in candidates:
        if (c / ".hanafuda-referee").is_file():
            return c
    raise RuntimeError(f"cannot find the web app's {name} folder; looked in: {', '.join(map(str, candidates))}")


def _secret_key(data_dir: Path) -> str:
    """A per-install secret kept in the data folder (signs the flash and keeper cookie)."""
    path = data_dir / "secret_key"
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        key = secrets.token_hex(32)
        path.write_text(key, encoding="utf-8")
        return key


def _static_bytes(filename: str):
    """A file of the static folder as bytes (cached for ``SEND_FILE_MAX_AGE_DEFAULT`` seconds,
    with an ETag, 304 when unchanged), so flask-compress can compress it; 404 when absent."""
    import mimetypes

    from flask import Response, abort, current_app, request
    from werkzeug.security import safe_join

    path = safe_join(current_app.static_folder, filename)
    if path is None or not Path(path).is_file():
        abort(404)
    resp = Response(Path(path).read_bytes(), mimetype=mimetypes.guess_type(path)[0] or "application/octet-stream")
    resp.cache_control.public = True
    resp.cache_control.max_age = current_app.get_send_file_max_age(filename) or 0
    resp.add_etag()
    return resp.make_conditional(request)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the web app (see the module docstring for the configuration keys)."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(asset_dir("templates")),
        static_folder=str(asset_dir("templates/static")),
    )
    app.config.from_mapping(
        DATA_DIR=None,
        DATABASE=None,
        DB_TIMEOUT=5.0,
        CARD_ART=None,
        HTMX_LOCAL=False,
        POLL_SECONDS=2,
        MAX_CONTENT_LENGTH=1024 * 1024,
        SECRET_KEY=None,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    for key, env in (
        ("DATA_DIR", "HANAFUDA_REFEREE_DATA"),
        ("CARD_ART", "HANAFUDA_REFEREE_CARD_ART"),
    ):
        if os.environ.get(env):
            app.config[key] = os.environ[env]
    if test_config is not None:
        app.config.update(test_config)
    data_dir = Path(app.config["DATA_DIR"] or app.instance_path)
    data_dir.mkdir(parents=True, exist_ok=True)
    app.config["DATA_DIR"] = str(data_dir)
    app.config["DATABASE"] = app.config["DATABASE"] or str(data_dir / "referee.sqlite3")
    app.config["SECRET_KEY"] = app.config["SECRET_KEY"] or _secret_key(data_dir)

    from referee.web import art, errors, headers, photos, privacy, words
    from referee.web.views import (
        api,
        deleted,
        entry,
        health,
        help,
        history,
        home,
        homescreen,
        players,
        scoreboard,
        transfer,
    )

    app.config["HOST_KEY"] = app.config.get("HOST_KEY") or privacy.host_key(data_dir)

    art.init_app(app)
    words.init_app(app)
    # Pages go compressed to browsers that ask (every phone): a round entry page is about 5 KB on
    # the wire instead of 37 (scripts/bench_pages.py).  Static files too: they are read whole
    # (a few KB each; htmx 50) and sent as bytes with an ETag, so compressing them leaves no file
    # open, where compressing a file stream would keep it open until garbage collection.
    app.config.setdefault("COMPRESS_STREAMS", False)
    app.view_functions["static"] = _static_bytes
    Compress(app)
    errors.init_app(app)
    help.init_app(app)
    homescreen.init_app(app)
    players.init_app(app)
    for screen in (home, scoreboard, entry, history, deleted, transfer, api, health):
        app.register_blueprint(screen.bp)
    headers.init_app(app)
    app.teardown_appcontext(close_db)
    photos.init_app(app)  # issue 6: pile photos (the detector pool and the template helpers)
    app.cli.add_command(init_db_command)

    app.add_template_filter(soft_hyphens)

    @app.context_processor
    def htmx_settings() -> dict[str, Any]:
        return {
            "htmx_local": app.config["HTMX_LOCAL"],
            "htmx_cdn": HTMX_CDN,
            "htmx_sri": HTMX_SRI,
            "htmx_version": HTMX_VERSION,
            "is_htmx": request.headers.get("HX-Request") == "true",
        }

    with app.app_context():
        # Apply migrations once at start; a read-only or locked file is reported per request.
        try:
            store.migrate(get_db())
        except store.StoreUnavailableError as e:
            app.logger.error("database not ready: %s", e.message)
    return app


#: Where the card names' long words may break on a 320 px phone (U+00AD, a soft hyphen): the words of a
#: tile's name wider than a 320 px phone's tile (53 px at 12 px type), by their lower-case spelling.
_HYPHENATED = {
    "chrysanthemum": "chrys\u00adan\u00adthe\u00admum",
    "butterflies": "but\u00adter\u00adflies",
    "paulownia": "pau\u00adlow\u00adnia",
    "lightning": "light\u00adning",
}
_LONG_WORD = re.compile(rf"\b(?:{'|'.join(_HYPHENATED)})\b", re.IGNORECASE)


def soft_hyphens(text: str) -> str:
    """``text`` with soft hyphens in the card names' long words, capitalised or not ("Lightning" as a tile
    names the willow's lightning, "lightning" in its full name), so a narrow tile breaks them at a
    syllable ("Chrysan-themum"), never mid-syllable; a word without one that a tile still cannot hold (a
    wider font) breaks where it must (app.css), never past the tile's edge."""
    return _LONG_WORD.sub(lambda m: m.group(0)[0] + _HYPHENATED[m.group(0).lower()][1:], text)


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the database file, or apply pending migrations to it."""
    from flask import current_app

    store.migrate(get_db())
    click.echo(f"Database ready: {current_app.config['DATABASE']}")
