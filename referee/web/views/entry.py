"""Round entry: the round form, its live preview and steps, and the photo flow.

- ``GET|POST /s/<edit token>/round/new``: tap cards into piles, score the round, save it
  (``referee.web.round_submit``: the steps keep the form as a draft and redirect (303) to the
  same page with ``?step=<id>``, so Back and Reload never re-post a form); opened anew, it offers
  the round a page left half entered: Continue (its ``?step=``) or Start again;
- ``POST /s/<edit token>/round/start-again``: "Start again" on that offer (the form's ``draft``):
  the draft is not offered again (``drafts.dismiss``); 303 to the empty form (``?fresh=1``), or a 404
  page linking to it where the session has no such draft;
- ``POST /s/<edit token>/round/preview``: the live score preview fragment, recomputed as cards
  are tapped, which also keeps every tap in the page's draft (``HX-Replace-Url``);
- ``GET /s/<edit token>/round/hands``: the dealt hands' pickers (``?part=field``: the field's);
- ``POST /s/<edit token>/round/photo``: the whole round form plus ``snap-<slot>`` files
  (slot = the picker's field name: ``pile-0``, ``hand-1``, ``hand-f``), corrections
  (``as-<photo>-<i>``), ``fix`` buttons (``keep:<card>:<slot>``) and answers to suggestions
  (``ask`` = ``yes:<card>:<slot>`` or ``no:<card>:<slot>``); keeps the form as it stands
  afterwards as a draft and answers 303 to ``GET /s/<edit token>/round/photo/<draft>``: the
  round entry page with the certain cards tapped in and the others offered beside the photo.
  Works as a plain form post; ``photo.js`` sends it with fetch (which follows the 303). A photo
  or form too large to send gets its 413 with the way back to the round as sent
  (``referee.web.too_large``);
- ``POST /s/<edit token>/round/deck-check``: the deck-check fragment for the form;
- ``GET /s/<token>/photo/<id>.jpg`` and ``GET /s/<token>/round/<id>/photos``: the evidence.

A view module: imports no other view module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)
from werkzeug.datastructures import MultiDict

from referee import store
from referee.web import drafts, photos
from referee.web.access import load, round_or_404
from referee.web.board import Board
from referee.web.db import get_db
from referee.web.drafts import posted
from referee.web.errors import error_response, http_error
from referee.web.forms.rounds import cards_entered, dealer_mismatch, registered_form, round_data, unanswered
from referee.web.photo_review import active, box_views
from referee.web.photo_slots import deck_check
from referee.web.photo_steps import slot_label
from referee.web.round_page import entry_page, live_context, suggestions, unfinished_round
from referee.web.round_submit import changed_since, kept_step, posted_round, scored, submit
from referee.web.service import rounds
from referee.web.service import session as service
from referee.web.too_large import photo_step_page, round_step_page
from referee.web.words import SENT_TWICE

bp = Blueprint("entry", __name__)

#: Error codes of checks that need every card in the piles: the live preview holds them back until then.
DEFERRED_CHECKS = ("bad-decision", "missing-decision", "pile-points")
#: Error codes the live preview says as guidance while the piles are being entered, not as an error, and not at
#: all before the first card: what grows as cards are tapped in (a Go-Stop stopper's points, ``below-stop-points``).
GUIDANCE_CHECKS = ("below-stop-points",)


@bp.errorhandler(413)
def too_large(e):
    """A round form or photo too large to send: the 413 page, with the way back to the round as it was
    sent (the live preview and the deck check, sent by the page's scripts, keep the page as it is)."""
    if request.endpoint == "entry.round_photo":
        return photo_step_page(e)
    return round_step_page(e) if request.endpoint == "entry.new_round" else http_error(e)


@bp.route("/s/<token>/round/new", methods=["GET", "POST"])
def new_round(token: str):
    """Enter a round: tap cards into piles, score it, save it."""
    opened = load(token, edit=True)
    sess = opened.session
    board = service.board(get_db(), opened)
    number = len(board.rounds) + 1
    if request.method == "GET" and not kept_step(sess):
        start: dict[str, Any] = {"totals": {}} if request.args.get("entry") == "totals" else {"piles": {}}
        # A finished game says so on opening, not after every card is tapped and scored.
        over = _game_over(board)
        # A round left half entered is offered, unless this is its "Start again" (``?fresh=1``).
        unfinished = None if over or request.args.get("fresh") else unfinished_round(opened, number)
        return entry_page(opened, start, dealer=board.dealer, number=number, context=board.context,
                          error=over, unfinished=unfinished)

    # The round number the form was opened for: a round another phone saved since is not saved twice.
    opened_for = str(posted().get("round_number") or "")
    expected = int(opened_for) if opened_for.isdigit() and len(opened_for) < 10 else None

    def save(data: dict[str, Any]) -> tuple[str, int]:
        row, created = rounds.add(get_db(), opened, data, posted().get("nonce") or None, rounds.round_digest(data),
                                  expected_position=expected)
        if created:
            return f"Round {row.position} saved.", row.id
        now = changed_since(opened, row.id, rounds.round_digest(data))  # the same form: data is as it saved it
        return f"Round {row.position} saved. {SENT_TWICE}{now}", row.id  # a double tap: as its first tap

    closed = None
    dealer, context = board.dealer, board.context
    # Back after Save: a form whose one-time token saved a round is that round (shown, or saved
    # again: "saved", once), not the next one with another oya.
    saved = store.round_of_form_token(get_db(), sess.id, posted().get("nonce") or "")
    view = next((v for v in board.rounds if v.id == saved), None)
    if view is not None:
        number, dealer, context = view.number, view.dealer, view.context
    elif (taken_view := next((v for v in board.rounds if expected is not None and v.number == expected),
                             None)) is not None:
        # Another phone saved this round first: score it as it was opened (its oya, its place);
        # the store refuses the place, and the page offers the next one.
        number, dealer, context = taken_view.number, taken_view.dealer, taken_view.context
    else:
        closed = _game_over(board)
    shown = store.get_round(get_db(), sess.id, view.id) if view is not None else None
    return submit(opened, number=number, dealer=dealer, context=context, save=save, closed=closed, need_nonce=True,
                  saved_round=shown)


@bp.post("/s/<token>/round/start-again")
def start_again(token: str):
    """Start again: the round a page left half entered (the form's ``draft``) is no longer offered,
    though its ``?step=`` page still opens; then the empty form."""
    opened = load(token, edit=True)
    fresh = url_for("entry.new_round", token=token, fresh=1)
    if not drafts.dismiss(opened.session, request.form.get("draft", "")):
        return error_response(
            404,
            "That unfinished round was not found: the page that offered it is not one of this session's, or "
            "the round was left over a day ago (unsaved rounds are kept for a day). Nothing saved is lost.",
            back=fresh, back_label="Start the round again",
        )
    return redirect(fresh, 303)


def _game_over(board: Board) -> str | None:
    """What the entry page of a finished game says (None while the game goes on)."""
    if not board.over:
        return None
    ended = f"{board.winner} won" if board.winner else "it ended in a draw"
    return f"The game is over: {ended}. Start a new session for the next game."


@bp.post("/s/<token>/round/preview")
def preview(token: str):
    """The live score preview fragment, recomputed as cards are tapped."""
    opened = load(token, edit=True)
    sess = opened.session
    board = service.board(get_db(), opened)
    context = board.context
    rnd = None
    if request.form.get("round_id", "").isdigit():  # the edit page: that round's place in the game
        view = next((v for v in board.rounds if v.id == int(request.form["round_id"])), None)
        context = view.context if view else context
        rnd = store.get_round(get_db(), sess.id, view.id) if view else None
    data, error = posted_round(opened, context)
    dealer = request.form.get("dealer") or board.dealer
    if dealer not in sess.players:
        error = error or dealer_mismatch(dealer, board.dealer, sess.players)
        dealer = board.dealer
    result, code = None, None
    error = error or unanswered(request.form, opened.family, data)
    if error is None:
        result, error, code = scored(opened, data, dealer, context, request.form)
    count = cards_entered(data)
    # Claims and card points are checked once the piles are in; until then they are not errors.
    deferred = count < 48 and code in DEFERRED_CHECKS
    guidance = code in GUIDANCE_CHECKS
    page = render_template(
        "entry/partials/preview.html",
        s=sess,
        result=result,
        error=None if deferred or guidance else error,
        guidance=error if guidance and count else None,
        deferred=deferred,
        suggest=suggestions(opened, data, dealer, context) if error is None or deferred else None,
        count=count,
        data=data,
        dealer=dealer,
        scored=False,
        oob=True,
        **live_context(opened, rnd),
    )
    resp = make_response(page)
    kept = _keep_typing(sess, rnd)
    if kept:
        resp.headers["HX-Replace-Url"] = kept
    return resp


def _keep_typing(sess: store.Session, rnd: store.RoundRow | None) -> str | None:
    """Keep the form the live preview got as the page's draft (one per page: the form's ``draft``
    field) and return the page's URL showing it (``?step=``), which the preview puts in the address
    bar (``HX-Replace-Url``): Reload, Back after Score, and a tab the phone reloads after the camera
    show every tap.  None when the store is busy (the taps stay on the page)."""
    kept = [(k, v) for k, v in request.form.items(multi=True) if k != "action" and not k.startswith("as-")]
    try:
        draft_id = drafts.keep_typing(sess, request.form.get("draft", ""), [*kept, ("action", "draft")])
    except store.StoreUnavailableError:
        return None
    if rnd is not None:
        return url_for("history.edit_round", token=sess.edit_token, round_id=rnd.id, step=draft_id)
    return url_for("entry.new_round", token=sess.edit_token, step=draft_id)


@bp.get("/s/<token>/round/hands")
def hands_fragment(token: str):
    """The dealt hands' pickers (fetched when "Dealt hands" is opened); ``?part=field``: the
    Hachi-hachi field cards' picker."""
    sess = load(token, edit=True).session
    return render_template(
        "entry/partials/field_cards.html" if request.args.get("part") == "field" else "entry/partials/hands.html",
        s=sess,
        hands={},
        hand_owner={},
        data={"piles": {}},
    )


# ---- photos -------------------------------------------------------------------------


@bp.post("/s/<token>/round/photo")
def round_photo(token: str):
    """Take the snapped photos (certain cards tapped in, the rest offered), apply
    corrections and answers; keep the form as a draft and redirect (303) to it."""
    photos.limit_upload()
    sess = load(token, edit=True).session
    draft_id, slot = photos.step(sess, MultiDict(request.form.items(multi=True)), request.files.items(multi=True))
    anchor = f"#photos-{slot}" if slot else ""
    return redirect(url_for("entry.round_draft", token=token, draft_id=draft_id) + anchor, code=303)


@bp.get("/s/<token>/round/photo/<draft_id>")
def round_draft(token: str, draft_id: str):
    """The round form after a photo step: certain cards tapped in, suggestions beside the
    photos, corrections and conflicts; reloading it changes nothing."""
    opened = load(token, edit=True)
    sess = opened.session
    try:
        draft = drafts.kept(sess, draft_id)
    except store.NotFoundError:
        abort(404, "This photo review is gone (unsaved photos are kept for a day). Open the round again to snap anew.")
    drafts.show(draft, as_posted=False)
    form = draft.form
    entry = registered_form(opened.family)  # None for a game no longer registered: its JSON box
    data = entry.parse(form, sess.players) if entry else round_data(form, sess.players, opened.family)[0]
    board = service.board(get_db(), opened)
    rid = form.get("round_id", "")
    rnd, version = None, None
    number, dealer, context = len(board.rounds) + 1, board.dealer, board.context
    if rid.isdigit():
        rnd = round_or_404(sess, int(rid))
        view = next((v for v in board.rounds if v.id == rnd.id), None)
        number, dealer = rnd.position, (view.dealer if view else board.dealer)
        context = view.context if view else board.context
        version = int(form["version"]) if form.get("version", "").isdigit() else rnd.version
    missing = entry.unanswered(form, data) if entry and entry.unanswered else None  # Koi-Koi: how the round ended
    result, error = (None, missing) if missing else scored(opened, data, dealer, context, form)[:2]
    return entry_page(
        opened,
        data,
        dealer=dealer,
        number=number,
        rnd=rnd,
        result=result,
        error=None if not any(data.get("piles", {}).values()) else error,
        nonce=form.get("nonce"),
        version=version,
        tab=form.get("tab", "0"),
        context=context,
    )


@bp.post("/s/<token>/round/deck-check")
def deck_check_fragment(token: str):
    """The deck-check fragment for the submitted round form (htmx, after each tap)."""
    sess = load(token, edit=True).session
    form = MultiDict(request.form.items(multi=True))
    return render_template("entry/partials/photo_deck.html", s=sess, check=deck_check(sess, form), wrap=False)


@bp.get("/s/<token>/photo/<photo_id>.jpg")
def photo_file(token: str, photo_id: str):
    """An evidence photo (either link of its session may see it)."""
    sess = load(token).session
    try:
        photo = store.get_photo(get_db(), sess.id, photo_id)
    except store.NotFoundError:
        abort(404, "No such photo; it may have been deleted with its round.")
    path = Path(current_app.config["DATA_DIR"]) / photo.file
    if not path.is_file():
        abort(404, "This photo's file is gone.")
    return send_file(path, mimetype="image/jpeg", max_age=3600)


@bp.get("/s/<token>/round/<int:round_id>/photos")
def round_photos(token: str, round_id: int):
    """The round's evidence: each pile's photo with a labelled box per detected card."""
    sess = load(token).session
    rnd = round_or_404(sess, round_id)
    kept = store.photos_of_round(get_db(), sess.id, round_id)
    return render_template(
        "entry/photo_round.html",
        s=sess,
        rnd=rnd,
        token=token,
        photos=kept,
        box_map={p.id: box_views(p) for p in kept},
        counted={p.id: sum(active(d) is not None for d in p.detections) for p in kept},
        slot_label=lambda x: slot_label(x, sess.players),
    )
