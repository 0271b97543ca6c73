"""Who sees which sessions: a browser lists only the sessions it created or opened; the host
(whoever runs ``hanafuda-referee serve``) lists them all with the host key.

- The browser's signed cookie remembers the scorekeeper links it created or opened
  (``keeper``) and the viewer links it opened (``seen``), 50 of each, newest first
  (``remember``: the only writer of those cookies).
- ``visible_sessions`` is the one rule for what a browser may list: the home page,
  ``GET /api/v1/sessions``, the player pages and the names offered on the new-session form;
  ``visible_deleted`` the same for the deleted sessions this browser may bring back (its scorekeeper
  links only: a viewer cannot).
- The host key is a random secret kept in ``DATA_DIR/host_key``; ``serve`` prints it at
  start.  ``GET /host?key=...`` or the form at ``/host`` (``referee.web.views.home``) marks this
  browser as the host's (``mark_host``); an API client sends ``Authorization: Bearer <host key>``.

Must not write SQL (it reads through ``referee.store``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from pathlib import Path

from flask import current_app, request, session

from referee import store
from referee.web.db import get_db

#: How many links of each kind a browser remembers (its cookie stays under 4 KB).
REMEMBERED = 50


def host_key(data_dir: str | Path) -> str:
    """The host key of this install, made on first use (``DATA_DIR/host_key``, owner-only)."""
    path = Path(data_dir) / "host_key"
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        key = secrets.token_urlsafe(18)
        path.touch(mode=0o600)
        path.write_text(key, encoding="utf-8")
        return key


def key_ok(given: str | None) -> bool:
    """Whether ``given`` is this install's host key (compared in constant time)."""
    key = current_app.config["HOST_KEY"]
    return bool(given) and hmac.compare_digest(given.encode(), key.encode())


def is_host() -> bool:
    """Whether this request comes from the host: a browser that entered the host key, or an
    ``Authorization: Bearer <host key>`` header."""
    auth = request.headers.get("Authorization", "")
    if auth[:7].lower() == "bearer " and key_ok(auth[7:].strip()):
        return True
    return session.get("host") == _host_mark()


def wrong_host_key() -> bool:
    """Whether this request sends ``Authorization: Bearer`` with a key that is not the host key (the API refuses
    it rather than list this client's sessions as if the key were right); another scheme is not ours to judge
    (a proxy's Basic login)."""
    scheme, _, given = request.headers.get("Authorization", "").strip().partition(" ")
    return scheme.lower() == "bearer" and not key_ok(given.strip())


def mark_host() -> None:
    """Mark this browser as the host's (after it gave the host key): it lists every session."""
    session["host"] = _host_mark()


def _host_mark() -> str:
    """What the cookie of a host's browser holds: a digest of the key (not the key), so a new
    key (delete ``DATA_DIR/host_key``) ends every host browser's mode."""
    return hashlib.sha256(b"hanafuda-referee host " + current_app.config["HOST_KEY"].encode()).hexdigest()[:20]


def remember(token: str, role: str) -> None:
    """Remember in this browser's cookie that it opened a session (``role``: edit or view)."""
    name = "keeper" if role == "edit" else "seen"
    kept = session.get(name, [])
    if kept[:1] != [token]:  # an unchanged cookie is not sent again
        session[name] = [token, *(t for t in kept if t != token)][:REMEMBERED]


def visible_sessions() -> tuple[list[store.Session], set[str]]:
    """The sessions this request may list (all for the host, else those this browser created or
    opened), most recent first, and the scorekeeper tokens this browser holds."""
    kept = list(session.get("keeper", []))
    if is_host():
        return store.list_sessions(get_db()), set(kept)
    tokens = kept + list(session.get("seen", []))
    return store.sessions_by_tokens(get_db(), tokens), set(kept)


def visible_deleted() -> list[store.DeletedSession]:
    """The deleted sessions this request may list and restore (all for the host, else those whose scorekeeper
    link this browser holds), most recently deleted first."""
    if is_host():
        return store.deleted_sessions(get_db())
    return store.deleted_sessions(get_db(), list(session.get("keeper", [])))
