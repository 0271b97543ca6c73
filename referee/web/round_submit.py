"""A posted round form: scored, kept as a step, or saved, for the new-round and edit screens alike.

``submit`` reads the form (``drafts.posted``), and then:

- a step that only redraws the form (Score, the hand pickers, the tile style, "every card left",
  clearing a pile) keeps the form as a draft and redirects (303) to the same page with
  ``?step=<id>`` (``to_step``), so Back and Reload never re-post a form; that page, a GET, shows
  the form scored or redrawn (``kept_step`` loads it);
- Save scores the round once through the service (``referee.web.service.rounds``), asks who
  reached the target first where two or more did, checks that the board can replay it, saves it
  (``save(data)``, which the view gives), attaches the form's photos and redirects (303) to the
  scoreboard; a refused Save shows the form again with every tap kept (and keeps it as a draft,
  ``keep_failed_save``).

Below the views: must not import them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from flask import abort, flash, g, make_response, redirect, render_template, request, url_for

from referee import store
from referee.errors import RefereeError, RoundFieldError
from referee.web import drafts, photos
from referee.web.access import see_other
from referee.web.art import PICKER_COOKIE, PICKER_MODES
from referee.web.db import get_db
from referee.web.drafts import posted
from referee.web.errors import error_response
from referee.web.forms.piles import PILE_STEPS, clear_pile, give_rest, put_back, round_diff
from referee.web.forms.rounds import (
    dealer_mismatch,
    in_form_words,
    no_card_entered,
    nothing_entered,
    round_data,
    sentence,
    unanswered,
)
from referee.web.nonces import new_nonce, nonce_ok
from referee.web.round_page import entry_page, mon_per_kan, round_words
from referee.web.round_shape import no_card
from referee.web.service import rounds
from referee.web.service import session as service
from referee.web.service.session import Opened
from referee.web.words import SENT_TWICE

#: The picker cookie lasts a year.
_YEAR = 365 * 24 * 3600


def scored(opened: Opened, data: dict[str, Any], dealer: str, context: Mapping[str, Any] | None = None,
           form: Any = None) -> tuple[dict | None, str | None, str | None]:
    """(result, error message, error code) of scoring a round input, in the page's words: those of the
    ``form`` that sent it, when given (``forms.rounds.in_form_words``)."""
    try:
        return rounds.score(opened, data, dealer, context), None, None
    except RefereeError as e:
        if form is None:
            return None, e.message, e.code
        return None, sentence(in_form_words(form, opened.family, e), opened.session.players), e.code
    except ImportError as e:
        return None, f"This game's scoring module is not installed yet ({e.name}).", "not-installed"


def _no_card_refusal(opened: Opened, data: dict[str, Any], dealer: str, context: Mapping[str, Any] | None,
                     saving: bool) -> str | None:
    """What a round of no card (``round_shape.no_card``) says: what to do (``no_card_entered``), not the core's
    answer for empty piles (a void round, 48 cards in no pile, a stop with no yaku); None where the core refuses
    one of its other fields (a ``RoundFieldError`` not of the piles: who stopped names a stranger, a drop-out
    order), which the form then says at that field."""
    try:
        rounds.score(opened, data, dealer, context)
    except RoundFieldError as e:
        if e.field != "piles":
            return None
    except (RefereeError, ImportError):
        pass
    return no_card_entered(saving)


def posted_round(opened: Opened, context: Mapping[str, Any] | None = None) -> tuple[dict[str, Any], str | None]:
    """The round the posted form holds (``forms.rounds.round_data``), and why it cannot be read."""
    sess = opened.session
    return round_data(posted(), sess.players, opened.family, context, mon_per_kan(opened))


def to_step(sess: store.Session, form: Any):
    """Keep a posted round form (Score, or a step that only redraws the form) and redirect
    (303) to the same page with ``?step=<id>``, which shows it scored: POST, then GET, so
    Back and Reload never re-post the form.  The form is kept as a draft (``referee.web.drafts``)
    with its one-time token, so Save on that page still saves once."""
    kept = [(k, v) for k, v in form.items(multi=True) if not k.startswith("as-")]  # corrections: applied
    draft_id = drafts.keep(sess, kept)
    resp = redirect(url_for(request.endpoint, **(request.view_args or {}), step=draft_id) + "#result", code=303)
    mode = str(form.get("action") or "").removeprefix("picker-")
    if mode in PICKER_MODES:
        resp.set_cookie(PICKER_COOKIE, mode, max_age=_YEAR, samesite="Lax")
    photos.prune()
    return resp


def kept_step(sess: store.Session) -> bool:
    """Load the round form a step kept (``?step=<id>``) for ``posted()``; ``False``: no step asked.
    404 when the step is unknown, another session's or pruned (kept a day, like unsaved photos), with
    the same page without the step as its way back."""
    step = request.args.get("step")
    if not step:
        return False
    try:
        draft = drafts.kept(sess, step)
    except store.NotFoundError:
        abort(error_response(
            404,
            "This round's unsaved page is not here: the link is not one of this session's, or the page was "
            "left over a day ago (unsaved rounds are kept for a day). Nothing saved is lost.",
            back=request.script_root + request.path, back_label="Open the round again",
        ))
    drafts.show(draft, as_posted=True)
    return True


def keep_failed_save(sess: store.Session, form: Any, **given: Any) -> None:
    """A Save refused (422, 409, 400) is answered from its POST: keep the form as a draft and name
    its ``?step=`` page in ``g.replace_url``, which ``base.html`` gives ``app.js`` to put in the
    address bar (``history.replaceState``), so Back onto it and Reload are a GET that shows it
    again, never "Confirm Form Resubmission".  The store busy: nothing is kept (the page still is).

    ``given``: what the refusal's page gives the form instead of what was posted (a fresh ``nonce``, the
    round's ``version`` now) and ``round_id``: the round the page's Save edits (the edit page's ``?step=``),
    so Reload shows the same working Save."""
    if request.method != "POST":
        return
    round_id = given.pop("round_id", None)
    changed = {k: str(v) for k, v in given.items() if v is not None}
    kept = [(k, v) for k, v in form.items(multi=True) if not k.startswith("as-") and k not in changed]
    kept += list(changed.items())
    try:
        draft_id = drafts.keep(sess, kept)
    except store.StoreUnavailableError:
        return
    if round_id is not None:
        g.replace_url = url_for("history.edit_round", token=sess.edit_token, round_id=round_id, step=draft_id)
    else:
        g.replace_url = url_for(request.endpoint, **(request.view_args or {}), step=draft_id)


def changed_since(opened: Opened, round_id: int | None, saved: str | None) -> str:
    """What a form's "already saved" adds when a later change replaced what it saved: the round as it is now,
    in players' words ("It was changed after that: round 3 now scores Aki 50, Ben 220, Chiyo 70 …"); "" while
    round ``round_id`` still holds the round as the form saved it (``saved``: its ``rounds.round_digest``, never
    the taps of a page shown since), when it is gone (the form's answer says so), or when ``saved`` is None
    (nothing to tell it by)."""
    board = service.board(get_db(), opened)
    view = next((v for v in board.rounds if v.id == round_id), None)
    if view is None or saved is None or rounds.round_digest(view.data) == saved:
        return ""
    if view.error:
        return f" It was changed after that: round {view.number} now does not count ({view.error})."
    scores = ", ".join(f"{p} {view.shown.get(p, view.scores.get(p, 0))}" for p in opened.session.players)
    return (f" It was changed after that: round {view.number} now scores {scores} (“Edit round {view.number}” "
            "shows its cards as they are now).")


def saved_page_notice(opened: Opened, saved_round: store.RoundRow, number: int, data: Mapping[str, Any],
                      nonce: str) -> str:
    """What the page of a form that saved its round says (Back after Save): that the round is saved and how to
    change it; whether the form shown is the round as this form saved it (the digest its one-time token ``nonce``
    kept) or holds other cards (taps sent since, from another tab); and, only when the saved round itself changed
    since, how it scores now (``changed_since``: the round as saved against the round now, never the page's taps)."""
    kept = store.form_token_digest(get_db(), opened.session.id, nonce)
    edit = f"use “Edit round {number}”"
    if kept is None or rounds.round_digest(data) == kept:
        said = f"Round {number} is saved: this is its form as it was scored. To change the round, {edit}."
    else:
        said = f"Round {number} is saved from this form, with other cards than these: to change the round, {edit}."
    return said + changed_since(opened, saved_round.id, kept)


def refused(opened: Opened, e: store.StoreError, data: dict[str, Any], *, number: int,
            rnd: store.RoundRow | None, again: Callable[..., Any], form: Any):
    """The page for a Save the store refused: someone else's edit, a round number taken, a used token
    (a form sent again: answered as its first Save was, "saved", when it sent the same cards; with other cards, a page
    whose Save works: a fresh token, and the round the form saved as the round to edit, at its version now)."""
    sess = opened.session
    nonce = form.get("nonce")
    if isinstance(e, store.ChangeTokenUsedError):  # an edit form sent again
        if e.summary is not None and e.same:
            now = changed_since(opened, rnd.id if rnd is not None else None, rounds.round_digest(data))
            flash(f"Round {number} updated; totals and later dealers recomputed. {SENT_TWICE}{now}")
            return see_other("scoreboard.scoreboard", token=sess.edit_token)
        fresh, version = new_nonce(), rnd.version if rnd is not None else None
        keep_failed_save(sess, form, nonce=fresh, version=version)
        if e.summary is not None:
            return again(
                error=f"Nothing was saved: this form already saved round {number}, with other cards than these. "
                f"Your cards are kept below: press “Save changes to round {number}” to save them over round "
                f"{number} as it is now, or go back to the scoreboard to keep it.",
                status=409, nonce=fresh, version=version,
            )
        return again(
            error=f"Nothing was saved: this form saved round {number} once already, and that change has since been "
            f"undone. Your cards are kept below; press Save again to save them over round {number} as it is now.",
            status=409, nonce=fresh, version=version,
        )
    if (isinstance(e, store.ConflictError) and e.current is not None
            and rounds.round_digest(e.current.data) == rounds.round_digest(data)):
        # The same edit sent again (Back after Save, a double tap, a retry): saved, nobody else's change.
        flash(f"Round {number} was already saved with these changes.")
        return see_other("scoreboard.scoreboard", token=sess.edit_token)
    keep_failed_save(sess, form)
    if isinstance(e, store.ConflictError):
        diff = round_diff(sess.players, data, e.current.data if e.current else None)
        page = render_template("entry/conflict.html", s=sess, mine=data, theirs=e.current, number=number, rnd=rnd,
                               diff=diff, nonce=nonce, **round_words(opened))
        return page, 409
    if isinstance(e, store.RoundTakenError):
        board = service.board(get_db(), service.saved(get_db(), opened))  # as it is now, with the round saved first
        page = render_template(
            "entry/round_taken.html", s=sess, mine=data, theirs=e.current, number=e.position,
            next_number=e.next_position, next_dealer=board.dealer, over=board.over, nonce=nonce,
            diff=round_diff(sess.players, data, e.current.data if e.current else None), **round_words(opened),
        )
        return page, 409
    if isinstance(e, store.FormTokenReusedError):
        # A new-round form that saved round N, sent again with other cards: its Save edits round N.
        saved_id = store.round_of_form_token(get_db(), sess.id, nonce or "")
        saved = store.get_round(get_db(), sess.id, saved_id) if saved_id is not None else None
        if saved is None:  # not found: as it was, with nothing to edit
            return again(error=f"Nothing was saved: this form already saved round {e.position}, with other cards "
                         "than these. Your cards are kept below.", status=409)
        fresh = new_nonce()
        keep_failed_save(sess, form, nonce=fresh, version=saved.version, round_id=saved.id)
        return again(
            error=f"Nothing was saved as a new round: this form already saved round {saved.position}, with other "
            f"cards than these. Your cards are kept below: press “Save changes to round {saved.position}” to save "
            f"them as round {saved.position}'s edit, or go back to the scoreboard to keep it as it is.",
            status=409, rnd=saved, number=saved.position, nonce=fresh, version=saved.version,
        )
    fresh = new_nonce()
    keep_failed_save(sess, form, nonce=fresh)
    return again(
        error="Nothing was saved: this form was saved once already, and that round has since been undone or "
        "deleted. Your cards are kept below; press Save again to save them as a new round.",
        status=409,
        nonce=fresh,
    )


def submit(
    opened: Opened,
    *,
    number: int,
    dealer: str,
    save: Callable[[dict[str, Any]], tuple[str, int | None]],
    context: Mapping[str, Any] | None = None,
    rnd: store.RoundRow | None = None,
    version: int | None = None,
    closed: str | None = None,
    need_nonce: bool = False,
    saved_round: store.RoundRow | None = None,
):
    """Score a submitted round form, or save it with ``save(data)``, which returns (the flash
    message, the id of the round saved).

    An error, a conflict or a locked database gives the form back with every tap kept.
    ``need_nonce``: saving needs the form's one-time token (a new round: a repeated POST saves once).
    ``saved_round``: the round this form's token saved (Back after Save): shown as saved, with no Save.
    """
    sess = opened.session
    if request.method == "POST":
        photos.apply_posted_corrections(sess)
    form = posted()
    action = form.get("action") or "score"
    if action != "save" and request.method == "POST":
        return to_step(sess, form)
    if request.method == "GET":  # a kept step shown again: it never saves
        action = "score" if action == "save" else action
    data, error = posted_round(opened, context)
    if saved_round is not None and request.method == "GET":
        flash(saved_page_notice(opened, saved_round, number, data, form.get("nonce") or ""))
    if action.startswith("rest-") and error is None:
        give_rest(data, sess.players, action.removeprefix("rest-"))
    cleared: dict[int, list[str]] = {}
    if action.startswith("clear-"):
        cleared = clear_pile(data, sess.players, action.removeprefix("clear-"))
    elif action.startswith("unclear-"):
        seat = action.removeprefix("unclear-")
        put_back(data, sess.players, seat, list(_getlist(form, f"cleared-{seat}")))
    error = (error or dealer_mismatch(form.get("dealer"), dealer, sess.players)
             or unanswered(form, opened.family, data))
    # A round of no card scores and saves nothing, and says what to do (before the core's "cards missing"
    # refusals); a game whose round can end with nobody scoring by a call (Koi-Koi: the hands ran out)
    # records that draw without its cards.
    if error is None and not closed and no_card(data, opened.family, sess.players):
        error = (nothing_entered(opened.family.unit, saving=action == "save") if form.get("entry") == "totals" else
                 _no_card_refusal(opened, data, dealer, context, saving=action == "save"))
    result = None
    if error is None:
        result, error, _code = scored(opened, data, dealer, context, form)
    error = error or closed
    saving = action == "save"
    board = service.board(get_db(), opened)
    first = rounds.first_to_target(opened, board, number, result) if saving and not error else []
    if first and data.get("first_to_target") not in first:
        error = (f"Nothing was saved: {' and '.join(first)} {'both' if len(first) == 2 else 'all'} reach the "
                 "target in this round. Say who got there first (below), then save.")
    # The board must be able to replay what is saved (the API runs the same check, after the same
    # questions).  A form for a round saved already, by this form or another phone, is the store's to
    # answer ("already saved", taken).
    if (saving and error is None and (rnd is not None or number == len(board.rounds) + 1)
            and (why := rounds.replay_error(opened, board, data, rnd.id if rnd else None))):
        error = f"Nothing was saved: {in_form_words(form, opened.family, why)}"
    if action in ("hands", "draft", *(f"picker-{m}" for m in PICKER_MODES)) or action.startswith(PILE_STEPS):
        # Not a scoring: the form comes back as it was, with the hands open or the other tiles.
        tab = form.get("tab", "0")
        seat = action.partition("-")[2]
        if action.startswith(PILE_STEPS) and seat.isdigit():
            tab = seat
        mode = action.removeprefix("picker-") if action.startswith("picker-") else None
        if mode:
            g.picker_mode = mode
        page, status = entry_page(
            opened, data, dealer=dealer, number=number, rnd=rnd, nonce=form.get("nonce"), version=version,
            tab=tab, context=context, show_hands=action == "hands", cleared=cleared,
        )
        resp = make_response(page, status)
        if mode:
            resp.set_cookie(PICKER_COOKIE, mode, max_age=_YEAR, samesite="Lax")
        return resp
    again = functools.partial(
        entry_page,
        opened,
        data,
        dealer=dealer,
        number=number,
        rnd=rnd,
        result=result,
        scored=True,
        nonce=form.get("nonce"),
        version=version,
        tab=form.get("tab", "0"),
        context=context,
        saved_round=saved_round if request.method == "GET" else None,
    )
    if not saving or error:
        if saving and error:
            keep_failed_save(sess, form)
        return again(error=error, status=422 if error and saving else 200)
    if need_nonce and not nonce_ok(form.get("nonce")):
        keep_failed_save(sess, form)
        return again(
            error="Nothing was saved: this form has no valid one-time token (it may come from an old page or another "
            "server). Your cards are kept below; press Save again.",
            status=400,
        )
    try:
        message, round_id = save(data)
    except (store.ConflictError, store.RoundTakenError, store.FormTokenReusedError, store.SpentFormTokenError,
            store.ChangeTokenUsedError) as e:
        return refused(opened, e, data, number=number, rnd=rnd, again=again, form=form)
    except store.StoreUnavailableError as e:
        return again(error=e.message, status=503)
    flash(message)
    photos.attach(sess, round_id, request.form.getlist("photo"))
    photos.prune()
    return see_other("scoreboard.scoreboard", token=sess.edit_token)


def _getlist(form: Any, key: str) -> list[str]:
    return form.getlist(key) if hasattr(form, "getlist") else [form[key]] if key in form else []
