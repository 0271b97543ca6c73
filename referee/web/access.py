"""What a session link opens, for every view: the session (404 for no session, 403 for the
viewer link on an edit route; a deleted session's 404 says so, with the scorekeeper's way to bring it
back), a round of it (404), a screen that needs the session's game where it is not installed, and the
redirect after a POST (303).

Each session has two unguessable links: ``/s/<view token>`` (read-only, for the table) and
``/s/<edit token>`` (the scorekeeper's).  Views call ``load`` first; the service
(``referee.web.service.session``) does the finding, this module the answering.
Below the views: must not import them.
"""

from __future__ import annotations

from typing import Any, NoReturn

from flask import abort, make_response, redirect, render_template, request, url_for

from referee import store
from referee.web import privacy
from referee.web.board import installed, not_installed
from referee.web.db import get_db
from referee.web.errors import error_response, wants_json
from referee.web.service.session import Opened, open_session

NO_SESSION = ("No session has this link: it may have been deleted, or the link is not quite right. Your sessions "
              "lists the ones this browser opened; a new one starts from there.")
NO_ROUND = "This session has no such round; it may have been deleted."


def load(token: str, *, edit: bool = False) -> Opened:
    """The session a link opens, with its role; 404 for no session, 403 for a viewer on an edit route."""
    try:
        opened = open_session(get_db(), token)
    except store.DeletedSessionError as e:
        deleted(e.session, e.role)
    except store.NotFoundError:
        abort(404, NO_SESSION)
    if edit and opened.role != "edit":
        abort(403)
    return opened


def load_keeper(token: str) -> tuple[store.Session, bool]:
    """The session a scorekeeper link opens, deleted or not (the routes that delete and bring one back), and
    whether it is deleted; 404 for no session, 403 for the viewer link."""
    try:
        sess, role = store.find_session(get_db(), token)
        gone = False
    except store.DeletedSessionError as e:
        sess, role, gone = e.session, e.role, True
    except store.NotFoundError:
        abort(404, NO_SESSION)
    if role != "edit":
        abort(403)
    return sess, gone


def deleted(sess: store.Session, role: str) -> NoReturn:
    """404 for a link to a deleted session: the page names it and, on the scorekeeper link, leads to its Undo
    (``deleted.gone``); the viewer's leads to Your sessions.  The API's JSON error is ``session-deleted``."""
    if wants_json():
        said = ("this session was deleted; POST /api/v1/sessions/<this token>/restore brings it back with every "
                "round" if role == "edit" else "this session was deleted by its scorekeeper")
        abort(error_response(404, said, "session-deleted"))
    message, back, label = deleted_words(sess, role)
    abort(error_response(404, message, back=back, back_label=label))


def deleted_words(sess: store.Session, role: str) -> tuple[str, str, str]:
    """What a page of a deleted session says, and its way back: (message, address, its label).  The scorekeeper
    link (``role`` ``edit``) leads to its Undo (``deleted.gone``), the viewer's to Your sessions; said by the 404
    page (``deleted``) and by an open scoreboard whose live poll finds the session deleted."""
    if role == "edit":
        message = f"“{sess.name}” was deleted. Its rounds are kept: Undo brings it back as it was."
        return message, url_for("deleted.gone", token=sess.edit_token), "↶ Undo: bring it back"
    message = f"“{sess.name}” was deleted by its scorekeeper, so this link shows nothing now."
    return message, url_for("home.home"), "Your sessions"


def round_or_404(sess: store.Session, round_id: int) -> store.RoundRow:
    """A round of the session, or 404 (``no_round``; also for an id too large to be one)."""
    if not 0 <= round_id < 2**63:
        no_round(sess)
    try:
        return store.get_round(get_db(), sess.id, round_id)
    except store.NotFoundError:
        no_round(sess)


def no_round(sess: store.Session) -> NoReturn:
    """404 for a round ``sess`` does not have: the page offers the session's scoreboard beside Home, by the link
    the request came with (a viewer's stays a viewer's); the API's JSON error as before."""
    token = (request.view_args or {}).get("token") or sess.view_token
    abort(error_response(404, NO_ROUND, back=url_for("scoreboard.scoreboard", token=token)))


def require_installed(opened: Opened, status: int) -> None:
    """Answer ``status`` for a screen that needs the session's game (What if…, its rules page) where the
    game is no longer registered: a page saying so (``board.not_installed``), with the way back to
    the scoreboard; nothing where it is installed."""
    sess = opened.session
    if installed(sess):
        return
    back = url_for("scoreboard.scoreboard", token=sess.edit_token if opened.role == "edit" else sess.view_token)
    page = render_template("error.html", status=status, message=not_installed(sess).message, back=back)
    abort(make_response(page, status))


def remember_keeper(token: str) -> None:
    """Remember, in this browser's signed cookie, that it keeps the score of a session."""
    privacy.remember(token, "edit")


def see_other(endpoint: str, **values: Any):
    """Redirect with 303 (POST, then GET)."""
    return redirect(url_for(endpoint, **values), code=303)
