"""Deleted sessions: a session deleted from its scorekeeper link, and brought back.

- ``GET|POST /s/<edit token>/delete``: confirm (the session's name, players and rounds), then delete.
  The form carries the one-time token (``referee.web.nonces``) and the session's ``rev``: sent twice it
  deletes once; sent after its delete was undone, or after the session changed since the page was shown
  (a round saved on another phone), it deletes nothing and asks again; a form this app did not give out
  deletes nothing.
- ``GET /s/<edit token>/deleted``: the page after a delete, with Undo (``restore``); the way back every
  page of the deleted session offers its scorekeeper (``referee.web.access.deleted``).
- ``POST /s/<edit token>/restore``: the undo of the delete the button named (field ``change``).
- ``GET /deleted``: the deleted sessions this browser keeps the score of (every one for the host), each
  with its Undo.

The delete is soft (``referee.store.deleted``): nothing of the session is lost until it is restored.
A view module: imports no other view module.
"""

from __future__ import annotations

from flask import Blueprint, flash, render_template, request

from referee import store
from referee.web import privacy
from referee.web.access import load_keeper, remember_keeper, see_other
from referee.web.db import get_db
from referee.web.nonces import new_nonce, posted_nonce
from referee.web.words import SENT_TWICE

bp = Blueprint("deleted", __name__)


def _deleted_words(sess: store.Session) -> str:
    """What the page after a delete says of it (a form sent twice adds ``SENT_TWICE``)."""
    return f"“{sess.name}” deleted. “Undo” brings it back with every round."


def _confirm(sess: store.Session, error: str | None = None, status: int = 200):
    """The confirm page: what the delete takes off the lists, and the form with a fresh one-time token."""
    rounds = len(store.rounds_of(get_db(), sess.id))
    page = render_template("deleted/confirm.html", s=sess, rounds=rounds, nonce=new_nonce(), error=error)
    return page, status


@bp.route("/s/<token>/delete", methods=["GET", "POST"])
def delete_session(token: str):
    """Confirm, then delete the session (soft: Undo brings it back)."""
    sess, gone = load_keeper(token)
    if request.method == "GET":
        return see_other("deleted.gone", token=token) if gone else _confirm(sess)
    nonce = posted_nonce()
    if not gone and nonce is None:
        return _confirm(
            sess,
            "This delete form is not one this page gave out (it may be from an older page), so "
            f"nothing was deleted. To delete “{sess.name}”, press Delete below.",
            422,
        )
    try:
        if nonce is not None:  # the same form sent again: answered as the first time, before anything else
            store.check_change_token(get_db(), sess.id, nonce, None)
        if not gone and request.form.get("rev") != str(sess.rev):
            return _confirm(
                sess,
                f"“{sess.name}” changed since this page was opened (on another phone, say), so "
                "nothing was deleted. Check what it holds now, and press Delete below if you "
                "still mean it.",
                409,
            )
        store.delete_session(get_db(), sess.id, nonce)
    except store.ChangeTokenUsedError as e:
        if e.summary is not None:
            flash(f"{_deleted_words(sess)} {SENT_TWICE}")
            return see_other("deleted.gone", token=token)
        return _confirm(
            sess,
            f"Nothing was deleted: this form deleted “{sess.name}” once already, and that was "
            "undone. To delete it again, press Delete below.",
            409,
        )
    except store.DeletedSessionError:
        flash(f"“{sess.name}” was already deleted (on another phone, say), so nothing more was deleted.")
        return see_other("deleted.gone", token=token)
    flash(_deleted_words(sess))
    return see_other("deleted.gone", token=token)


def _gone_page(sess: store.Session, error: str | None = None, status: int = 200):
    return render_template("deleted/gone.html", d=store.deleted_session(get_db(), sess.id), error=error), status


@bp.get("/s/<token>/deleted")
def gone(token: str):
    """A deleted session, with Undo; a session that is not deleted goes to its scoreboard."""
    sess, deleted = load_keeper(token)
    if not deleted:
        flash(f"“{sess.name}” is not deleted: here it is.")
        return see_other("scoreboard.scoreboard", token=token)
    return _gone_page(sess)


@bp.post("/s/<token>/restore")
def restore(token: str):
    """Undo the delete the button named (field ``change``, its id); a second tap brings back nothing more."""
    sess, deleted = load_keeper(token)
    raw = request.form.get("change", "")
    if not (raw.isascii() and raw.isdigit() and len(raw) < 19):
        if not deleted:
            flash(f"“{sess.name}” is not deleted: nothing to bring back.")
            return see_other("scoreboard.scoreboard", token=token)
        return _gone_page(
            sess,
            "That Undo did not say which delete to undo, so nothing was brought back. Use the Undo button below.",
            422,
        )
    try:
        back = store.restore_session(get_db(), sess.id, int(raw))
    except store.NotADeleteError:
        return _gone_page(
            sess,
            f"That Undo did not name a delete of “{sess.name}”, so nothing was brought back. Use the Undo button "
            "below.",
            422,
        )
    except store.UndoMismatchError:
        return _gone_page(
            sess,
            f"That Undo was for an earlier delete of “{sess.name}”, which was already undone; it "
            "was deleted again since. To bring it back, press Undo below.",
            409,
        )
    remember_keeper(sess.edit_token)
    if back is None:
        flash(
            f"“{sess.name}” was already brought back (the Undo was sent twice, or another phone did it); "
            "nothing more changed."
        )
    else:
        flash(f"“{sess.name}” is back, with every round as it was.")
    return see_other("scoreboard.scoreboard", token=token)


@bp.get("/deleted")
def deleted_list():
    """The deleted sessions this browser keeps the score of (every one for the host), each with Undo."""
    return render_template("deleted/list.html", deleted=privacy.visible_deleted(), host=privacy.is_host())
