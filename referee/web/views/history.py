"""History: a saved round edited or deleted, the latest change undone, and "What if…": the whole
history re-scored under other rules, which the scorekeeper may then apply.

- ``GET|POST /s/<edit token>/round/<id>/edit``: the round's entry form; a save over someone
  else's change shows both versions (``referee.web.round_submit``, as for a new round); a form too
  large to send gets its 413 with the way back to it as sent (``referee.web.too_large``);
- ``GET|POST /s/<edit token>/round/<id>/delete``: confirm, then delete;
- the edit, delete and Apply forms carry the one-time token (``referee.web.nonces``): the same form
  sent again (a double tap, Back and Save, a retry) changes nothing more, and is answered as the
  first was; sent after its change was undone, it is shown again to be sent anew;
- ``POST /s/<edit token>/undo``: undo the change the button named (field ``change``); the
  scoreboard's button also sends ``ask``, and an undo that would throw away a round as entered (the
  round just added, or an edit's new cards) goes to ``GET /s/<edit token>/undo/confirm?change=<id>``
  first, which shows that round and asks (an undo cannot itself be undone);
- ``GET /s/<token>/what-if``: the rules form (a preset of the session's game, its house-rule
  options, free ``KEY=VALUE`` lines) and, once submitted, the round-by-round comparison;
  ``POST`` (scorekeeper link only) changes the session's rules: logged, every round re-scored,
  and Undo restores the old rules.  Works without JavaScript (a GET form, then POST and 303).

A view module: imports no other view module.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, render_template, request
from werkzeug.datastructures import MultiDict

from referee import store
from referee.errors import RefereeError
from referee.web import photos
from referee.web.access import load, no_round, require_installed, round_or_404, see_other
from referee.web.board import after_the_end, rules_amount_formatter
from referee.web.db import get_db
from referee.web.drafts import posted
from referee.web.errors import http_error
from referee.web.forms.options import option_error, presets_of, requested_rules, rules_error_words
from referee.web.nonces import form_nonce, new_nonce, posted_nonce
from referee.web.round_page import entry_page, round_words
from referee.web.round_submit import kept_step, submit
from referee.web.service import rounds
from referee.web.service import rules as what_if
from referee.web.service import session as service
from referee.web.too_large import round_step_page
from referee.web.words import SENT_TWICE

bp = Blueprint("history", __name__)


@bp.errorhandler(413)
def too_large(e):
    """The edit page's form too large to send: the 413 page, with the way back to it as it was sent."""
    return round_step_page(e) if request.endpoint == "history.edit_round" else http_error(e)


@bp.route("/s/<token>/round/<int:round_id>/edit", methods=["GET", "POST"])
def edit_round(token: str, round_id: int):
    """Edit a saved round; a save over someone else's change shows both versions."""
    opened = load(token, edit=True)
    sess = opened.session
    rnd = round_or_404(sess, round_id)
    board = service.board(get_db(), opened)
    view = next((v for v in board.rounds if v.id == round_id), None)
    dealer = view.dealer if view else board.dealer
    context = view.context if view else board.context
    ended = after_the_end(board, round_id)
    if request.method == "GET" and ended:  # shown on the form, not "the game is over: start a new game"
        flash(f"Round {rnd.position} comes after the end of the game ({ended}), so it does not count; its cards "
              "can still be corrected here.")
    if request.method == "GET" and not kept_step(sess):
        return entry_page(opened, rnd.data, dealer=dealer, number=rnd.position, rnd=rnd, version=rnd.version,
                          context=context)
    form = posted()
    version = int(form["version"]) if form.get("version", "").isdigit() else -1

    def save(data: dict[str, Any]) -> tuple[str, int]:
        _row, changed = rounds.update(get_db(), opened, round_id, data, version, posted_nonce())
        if not changed:
            return (f"Nothing changed: round {rnd.position} already has these cards and details, so nothing was "
                    "saved."), round_id
        still = after_the_end(service.board(get_db(), service.saved(get_db(), opened)), round_id)
        if still:
            return (f"Round {rnd.position} updated. It comes after the end of the game ({still}), so it does not "
                    "count."), round_id
        return f"Round {rnd.position} updated; totals and later dealers recomputed.", round_id

    return submit(opened, number=rnd.position, dealer=dealer, save=save, rnd=rnd, version=version, context=context)


@bp.route("/s/<token>/round/<int:round_id>/delete", methods=["GET", "POST"])
def delete_round(token: str, round_id: int):
    """Confirm, then delete a round; the same form sent again deletes nothing more."""
    opened = load(token, edit=True)
    sess = opened.session
    if request.method == "GET":
        rnd = round_or_404(sess, round_id)
        return render_template("history/delete.html", s=sess, rnd=rnd, nonce=new_nonce(), **round_words(opened))
    try:
        gone = store.delete_round(get_db(), sess.id, round_id, posted_nonce())
    except store.ChangeTokenUsedError as e:
        if e.summary is not None:
            deleted = e.summary.removeprefix("delete ").capitalize()  # "delete round 3" (store.delete_round)
            flash(f"{deleted} deleted. “Undo” brings it back. {SENT_TWICE}")
            return see_other("scoreboard.scoreboard", token=token)
        rnd = round_or_404(sess, round_id)  # the undo brought it back
        error = (f"Nothing was deleted: this form deleted round {rnd.position} once already, and that was undone. "
                 f"To delete round {rnd.position} again, press Delete below.")
        page = render_template("history/delete.html", s=sess, rnd=rnd, nonce=new_nonce(), error=error,
                               **round_words(opened))
        return page, 409
    except store.NotFoundError:
        no_round(sess)
    flash(f"Round {gone.position} deleted. “Undo” brings it back.")
    photos.prune()  # the deleted round's photos
    return see_other("scoreboard.scoreboard", token=token)


@bp.post("/s/<token>/undo")
def undo(token: str):
    """Undo the change the button named (form field ``change``, its id); a second tap of the
    same button undoes nothing more.  A form naming no change it can (missing, not a whole
    number, another session's) undoes nothing: the form never means "whatever is latest"."""
    sess = load(token, edit=True).session
    raw = request.form.get("change", "")
    latest = store.latest_change(get_db(), sess.id)
    if not (raw.isascii() and raw.isdigit() and len(raw) < 19):
        if latest is None:
            flash("Nothing to undo.")
        else:
            flash("That Undo did not say which change to undo, so nothing was undone. Use the Undo button on the "
                  f"scoreboard: it names the change it undoes (now “{latest.summary}”).")
        return see_other("scoreboard.scoreboard", token=token)
    if request.form.get("ask") and store.undo_discards(get_db(), sess.id, int(raw)):
        return see_other("history.confirm_undo", token=token, change=raw)
    try:
        undone = store.undo(get_db(), sess.id, int(raw))
    except store.UnknownChangeError as e:
        now = f" The latest change here is “{e.latest.summary}”." if e.latest else ""
        flash(f"That Undo button is for another session's change, so nothing was undone.{now}")
    except store.UndoMismatchError as e:
        latest = f" The latest change now is “{e.latest.summary}”." if e.latest else ""
        if e.superseded:  # an old page's Undo: undo goes back one change at a time, newest first
            flash("Nothing was undone: other changes were made after that one, and Undo takes back the latest "
                  f"change first.{latest}")
        else:
            flash(f"That change was already undone; nothing else was undone.{latest}")
    else:
        flash(f"Undone: {undone}." if undone else "Nothing to undo.")
    photos.prune()  # the photos of a round the undo took away
    return see_other("scoreboard.scoreboard", token=token)


@bp.get("/s/<token>/undo/confirm")
def confirm_undo(token: str):
    """Ask before an undo that throws away a round as entered: the round as it is now, a button that
    undoes the change (query ``change``, its id) and one that keeps it.  A change that is no longer
    the latest (undone on another phone) goes back to the scoreboard, saying so."""
    opened = load(token, edit=True)
    sess = opened.session
    latest = store.latest_change(get_db(), sess.id)
    if latest is None or request.args.get("change", "") != str(latest.id):
        now = f" The latest change now is “{latest.summary}”." if latest else ""
        flash(f"That change was already undone; nothing else was undone.{now}")
        return see_other("scoreboard.scoreboard", token=token)
    discarded = store.undo_discards(get_db(), sess.id, latest.id)
    return render_template("history/undo.html", s=sess, change=latest, discarded=discarded, **round_words(opened))


@bp.route("/s/<token>/what-if", methods=["GET", "POST"])
def what_if_page(token: str):
    """GET: the rules form and, once submitted, the round-by-round comparison.  POST: apply the rules."""
    opened = load(token, edit=request.method == "POST")
    require_installed(opened, 422)
    sess, role = opened.session, opened.role
    form = request.form if request.method == "POST" else request.args
    req = requested_rules(MultiDict(form), sess.ruleset, sess.options)
    result, status = None, 200
    error = " ".join(req["refused"]) or None  # every refused option at once (requested_rules)
    if req["submitted"] and not req["errors"] and not error:
        try:
            result = what_if.compare(get_db(), sess, req["ruleset"], req["options"])
        except RefereeError as e:
            at, status = option_error(e, req["specs"]), 422
            if at and at[0] in form:  # typed in its field: said there, as on the new-session form
                req["errors"][at[0]] = at[1]
            else:  # a KEY=VALUE line's, or about no field
                error = rules_error_words(e, req["specs"])
    elif req["errors"] or error:
        status = 422
    if request.method == "POST" and result is not None and what_if.same_rules(sess, req["ruleset"], req["options"]):
        flash("The session is already scored with these rules: nothing changed.")
        return see_other("scoreboard.scoreboard", token=token)
    nonce, refused = form_nonce(), None
    if request.method == "POST" and result is not None:
        try:
            what_if.change_rules(get_db(), sess, req["ruleset"], req["options"], posted_nonce())
        except store.ChangeTokenUsedError as e:
            if e.summary is not None and e.same:
                # Not the rules now (those were answered above, "already scored with these rules"): say which are.
                flash("These rules were already applied from this form (it was sent twice), so nothing more "
                      "changed. They were changed after that: the session is now scored with "
                      f"{what_if.describe_rules(sess.ruleset, sess.options)}.")
                return see_other("scoreboard.scoreboard", token=token)
            done = "that change has since been undone" if e.summary is None else f"it made “{e.summary}”"
            refused = (f"Nothing changed: this form applied rules once already, and {done}. To apply these rules, "
                       "press Apply below.")
            nonce, status = new_nonce(), 409
        else:
            flash(f"Rules changed to {what_if.describe_rules(req['ruleset'], req['options'])}: every round was "
                  "re-scored. Undo brings the old rules back.")
            return see_other("scoreboard.scoreboard", token=token)
    shown = {"before": rules_amount_formatter(sess.ruleset, sess.options),
             "after": rules_amount_formatter(req["ruleset"], req["options"])}
    return render_template(
        "history/what_if.html", s=sess, role=role, req=req, form=req, presets=presets_of(sess.family),
        result=result, error=error, now=what_if.describe_rules(sess.ruleset, sess.options), shown=shown,
        examples=what_if.rule_field_examples(req["ruleset"]), nonce=nonce, refused=refused,
    ), status
