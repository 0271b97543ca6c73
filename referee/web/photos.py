"""Photo to score: snap a pile, detect its cards, review and correct them, keep the photo.

Routes:

- ``POST /api/v1/detect``: a multipart ``image``; answers ``{"image", "detections"}`` like
  ``hanafuda-referee detect --json``, or ``{"error", "message"}`` with 413/422/503/504.
- ``POST /s/<edit token>/round/photo``: the whole round form plus ``snap-<slot>`` files
  (slot = the picker's field name: ``pile-0``, ``hand-1``, ``hand-f``), corrections
  (``as-<photo>-<i>``), ``fix`` buttons (``keep:<card>:<slot>``) and answers to
  suggestions (``ask`` = ``yes:<card>:<slot>`` or ``no:<card>:<slot>``); keeps the form as
  it stands afterwards as a draft and answers 303 to
  ``GET /s/<edit token>/round/photo/<draft>``: the round entry page with the certain
  cards tapped in and the others offered beside the photo.  Works as a plain form post;
  ``photo.js`` sends it with fetch (which follows the 303).
- ``POST /s/<edit token>/round/deck-check``: the deck-check fragment for the form.
- ``GET /s/<token>/photo/<id>.jpg`` and ``GET /s/<token>/round/<id>/photos``: the evidence.

Which detections players see (only certain ones tapped in, the others as one-tap
suggestions, nothing below ``vision.SUGGEST_FLOOR``) is ``referee.web.photo_review``.

A round's photos are attached when the round form is saved (an ``after_request`` hook on
the round routes, so the round views stay as they are) and deleted with the round.
Writes go through ``referee.store``; this module writes no SQL and must not import
onnxruntime (the detector is built lazily on the worker, ``referee.web.evidence``).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, g, jsonify, redirect, render_template, request, send_file, url_for
from jinja2 import pass_context
from markupsafe import Markup
from werkzeug.datastructures import ImmutableMultiDict, MultiDict

from referee import families, store
from referee.cards import BY_ID, CARDS
from referee.web import get_db
from referee.web.evidence import (
    PHOTO_MEMORY,
    DetectionRunner,
    default_detector,
    delete_files,
    describe_error,
    save_evidence,
    stream_size,
)
from referee.web.forms import entry_form
from referee.web.photo_review import (
    NO,
    YES,
    Review,
    active,
    answered,
    asked,
    box_views,
    dismissed_in,
    distinct_chaff,
    records,
    review,
)
from referee.web.schemas import DetectIn, DetectionsOut, responses, validate
from vision.detection import Detection

bp = Blueprint("photos", __name__)


# ---- app wiring -----------------------------------------------------------------


def init_app(app) -> None:
    """Register the blueprint, the template helpers and the detector pool.

    Config: ``PHOTO_MAX_BYTES`` (upload limit, default 20 MB), ``PHOTO_SIDE`` (evidence
    long side, 1600 px), ``PHOTO_TIMEOUT`` (seconds, 15), ``PHOTO_DETECTOR`` (a factory
    returning a detector; default: the shipped ONNX models), ``PHOTO_KEEP_UNSAVED_HOURS`` (24),
    ``PHOTO_MEMORY`` (bytes all photo decodes and detections in flight may take, 320 MiB)
    and ``PHOTO_WORKERS`` (how many run at once, 3): the one limit both photo routes share.
    """
    app.config.setdefault("PHOTO_MAX_BYTES", 20 * 1024 * 1024)
    app.config.setdefault("PHOTO_SIDE", 1600)
    app.config.setdefault("PHOTO_TIMEOUT", 15.0)
    app.config.setdefault("PHOTO_DETECTOR", default_detector)
    app.config.setdefault("PHOTO_KEEP_UNSAVED_HOURS", 24)
    app.config.setdefault("PHOTO_MEMORY", PHOTO_MEMORY)
    app.config.setdefault("PHOTO_WORKERS", 3)
    app.extensions["photo_runner"] = DetectionRunner(
        app.config["PHOTO_DETECTOR"], timeout=float(app.config["PHOTO_TIMEOUT"]),
        budget=int(app.config["PHOTO_MEMORY"]), workers=int(app.config["PHOTO_WORKERS"]),
    )
    app.jinja_env.globals.update(photo_slot=photo_slot, photo_deck_check=photo_deck_check)
    app.register_blueprint(bp)


def runner() -> DetectionRunner:
    return current_app.extensions["photo_runner"]


@bp.before_app_request
def _photo_limit() -> None:
    # Photos are larger than the app-wide body limit; only these routes accept them.
    if request.endpoint in ("photos.detect_api", "photos.round_photo"):
        request.max_content_length = current_app.config["PHOTO_MAX_BYTES"]
    elif request.method == "POST" and request.endpoint in ("sessions.new_round", "sessions.edit_round"):
        _apply_before_save()


def _apply_before_save() -> None:
    """A correction chosen without JavaScript, then "Score" or "Save": apply it first, so
    the round views parse the corrected picker."""
    if not any(k.startswith("as-") for k in request.form):
        return
    token = (request.view_args or {}).get("token", "")
    try:
        sess, role = store.find_session(get_db(), token)
    except store.StoreError:
        return
    if role != "edit":
        return
    form = MultiDict(request.form.items(multi=True))
    photos = store.photos_by_ids(get_db(), sess.id, form.getlist("photo"))
    apply_corrections(form, photos, sess)
    request.form = ImmutableMultiDict(form)


@bp.after_app_request
def _attach_or_prune(resp):
    """Attach the form's photos to the round just saved; forget those of deleted rounds."""
    ep = request.endpoint or ""
    if resp.status_code != 303 or request.method != "POST":
        return resp
    if ep in ("sessions.new_round", "sessions.edit_round") and request.form.get("action") == "save":
        # (Score and the other steps also answer 303, to the kept form: they attach nothing.)
        ids = request.form.getlist("photo")
        token = (request.view_args or {}).get("token")
        try:
            sess, _ = store.find_session(get_db(), token)
            if ep == "sessions.edit_round":
                round_id = request.view_args["round_id"]
            else:
                round_id = store.round_of_form_token(get_db(), sess.id, request.form.get("nonce") or "")
            if round_id is not None:
                store.attach_photos(get_db(), sess.id, round_id, ids)
        except (store.StoreError, KeyError):
            current_app.logger.warning("photos of a saved round were not attached", exc_info=True)
    if ep in ("sessions.delete_round", "sessions.undo", "sessions.new_round", "sessions.edit_round"):
        prune()
    return resp


def prune() -> None:
    """Delete the photos of deleted rounds, and unsaved photos older than a day."""
    hours = current_app.config["PHOTO_KEEP_UNSAVED_HOURS"]
    cutoff = (datetime.now(UTC) - timedelta(hours=hours)).isoformat(timespec="seconds")
    try:
        files = store.prune_photos(get_db(), cutoff)
        store.prune_photo_drafts(get_db(), cutoff)
    except store.StoreError:
        return
    delete_files(current_app.config["DATA_DIR"], files)


# ---- the API ----------------------------------------------------------------------


def _api_error(status: int, code: str, message: str):
    resp = jsonify({"error": code, "message": message})
    resp.status_code = status
    return resp


@bp.post("/api/v1/detect")
@validate(form=DetectIn, resp=responses({200: DetectionsOut}, 400, 413, 422, 503, 504))
def detect_api():
    """Detect the cards in one uploaded photo (multipart field ``image``)."""
    upload = request.files.get("image") or next(iter(request.files.values()), None)
    if upload is None:
        return _api_error(400, "no-image", "Send the photo as a multipart file field named 'image'.")
    if not stream_size(upload.stream):
        return _api_error(422, "bad-image", "The uploaded file is empty; expected a photo.")
    try:
        dets = runner().detect(upload.stream)  # read and decoded on a worker, within the limit
    except Exception as e:  # every failure becomes words and a status
        status, message = describe_error(e)
        code = {422: "bad-image", 503: "unavailable", 504: "timeout"}.get(status, "detector-error")
        return _api_error(status, code, message)
    return jsonify({"image": upload.filename or "upload", "detections": [d.to_dict() for d in dets]})


# ---- slots and the form -----------------------------------------------------------


def slot_label(slot: str, players) -> str:
    group, _, seat = slot.partition("-")
    if seat == "f":
        return "the field"
    name = players[int(seat)] if seat.isdigit() and int(seat) < len(players) else seat
    return f"{name}'s {'pile' if group == 'pile' else 'hand'}"


def _valid_slot(slot: str, players) -> bool:
    group, _, seat = slot.partition("-")
    if group == "hand" and seat == "f":
        return True
    return group in ("pile", "hand") and seat.isdigit() and int(seat) < len(players)


def _claims(form: MultiDict, photos: list[store.PhotoRow], group: str) -> dict[str, set[str]]:
    """card -> the slots of ``group`` that hold it: tapped in, or on a photo as a certain card
    or an answered-Yes suggestion (see ``photo_review.active``)."""
    out: dict[str, set[str]] = {}
    for key in form:
        if key.partition("-")[0] == group and key.partition("-")[2] and not key.startswith(("as-", "snap-")):
            for c in form.getlist(key):
                out.setdefault(c, set()).add(key)
    for p in photos:
        if p.slot.partition("-")[0] == group:
            for d in p.detections:
                if (c := active(d)) is not None:
                    out.setdefault(c, set()).add(p.slot)
    return out


def conflicts(form: MultiDict, photos: list[store.PhotoRow]) -> dict[str, dict[str, list[str]]]:
    """slot -> {card: the other slots claiming it} for cards claimed by two slots of a group."""
    out: dict[str, dict[str, list[str]]] = {}
    for group in ("pile", "hand"):
        for card, slots in _claims(form, photos, group).items():
            if len(slots) > 1:
                for s in slots:
                    out.setdefault(s, {})[card] = sorted(slots - {s})
    return out


def _add(form: MultiDict, slot: str, card: str) -> None:
    if card not in form.getlist(slot):
        form.add(slot, card)


def _remove(form: MultiDict, slot: str, card: str) -> None:
    form.setlist(slot, [c for c in form.getlist(slot) if c != card])


def _fill(form: MultiDict, photos: list[store.PhotoRow], photo: store.PhotoRow) -> None:
    """Tap in ``photo``'s cards, except those another slot of its group claims (flagged)."""
    group = photo.slot.partition("-")[0]
    others = [p for p in photos if p.id != photo.id]
    claims = _claims(form, others, group)
    for d in photo.detections:
        c = active(d)
        if c is not None and not (claims.get(c, set()) - {photo.slot}):
            _add(form, photo.slot, c)


def _taken(form: MultiDict, photos: list[store.PhotoRow], slot: str) -> set[str]:
    """Card ids a new photo of ``slot`` must leave to others: held by another slot of its group
    (tapped in or on a photo), or on an earlier photo of ``slot`` (two photos of half a pile
    each show different cards).  A card tapped into ``slot`` by hand is not taken: the photo
    shows that card again."""
    group = slot.partition("-")[0]
    held = {c for c, slots in _claims(form, photos, group).items() if slots - {slot}}
    return held | {c for p in photos if p.slot == slot for d in p.detections if (c := active(d)) is not None}


def _still_seen(photos: list[store.PhotoRow], slot: str, card: str) -> bool:
    return any(p.slot == slot and any(active(d) == card for d in p.detections) for p in photos)


def apply_corrections(form: MultiDict, photos: list[store.PhotoRow], sess: store.Session) -> list[store.PhotoRow]:
    """Apply ``as-<photo>-<i>`` choices (a card id, or empty = not a card) and the ``fix``
    button (``keep:<card>:<slot>``); returns the photos as updated in the store."""
    db = get_db()
    out = []
    for p in photos:
        changed = False
        dets = [dict(d) for d in p.detections]
        for i, d in enumerate(dets):
            key = f"as-{p.id}-{i}"
            if key not in form:
                continue
            want = form.get(key) or None
            if want is not None and want not in BY_ID:
                continue
            old = active(d)
            if "ask" in d:  # on a suggestion, a card answers Yes (as that card); "not a card", No
                verdict = YES if want is not None else NO
                if want == d.get("fixed", d["card"]) and d["ask"] == verdict:
                    continue
                d["ask"] = verdict
            elif want == old:
                continue
            d["fixed"] = want
            changed = True
            rest = [q if q.id != p.id else _with(p, dets) for q in photos]
            if old is not None and not _still_seen(rest, p.slot, old):
                _remove(form, p.slot, old)
            if want is not None:
                _add(form, p.slot, want)
        if changed:
            store.set_photo_detections(db, sess.id, p.id, dets)
            p = _with(p, dets)
        out.append(p)
    fix = form.get("fix", "")
    if fix.startswith("keep:"):
        _, card, slot = fix.split(":", 2)
        group = slot.partition("-")[0]
        if card in BY_ID and _valid_slot(slot, sess.players):
            for key in list(form):
                if key != slot and key.partition("-")[0] == group and not key.startswith(("as-", "snap-")):
                    _remove(form, key, card)
            kept = []
            for p in out:
                if p.slot != slot and p.slot.partition("-")[0] == group:
                    dets = [dict(d, fixed=None) if active(d) == card else dict(d) for d in p.detections]
                    if dets != p.detections:
                        store.set_photo_detections(db, sess.id, p.id, dets)
                        p = _with(p, dets)
                kept.append(p)
            out = kept
            _add(form, slot, card)
    elif fix.startswith(("drop:", "move:")):
        out = _drop_or_move(form, out, sess, fix)
    return answer(form, out, sess)


def _drop_or_move(form: MultiDict, photos: list[store.PhotoRow], sess: store.Session, fix: str) -> list[store.PhotoRow]:
    """``drop:<photo>``: take a photo out of the round, with the cards only it put in its pile;
    ``move:<photo>:<slot>``: move it to another slot of its group (snapped on the wrong tab),
    its cards with it.  One tap each (issue 18 row 5).  Returns the round's photos after it."""
    verb, _, rest = fix.partition(":")
    pid, _, target = rest.partition(":")
    photo = next((p for p in photos if p.id == pid), None)
    if photo is None:
        return photos
    if verb == "move" and not (
        _valid_slot(target, sess.players)
        and target != photo.slot
        and target.partition("-")[0] == photo.slot.partition("-")[0]
    ):
        return photos
    others = [p for p in photos if p.id != pid]
    for d in photo.detections:
        c = active(d)
        if c is not None and not _still_seen(others, photo.slot, c):
            _remove(form, photo.slot, c)
    if verb == "drop":
        return others  # out of the form; the unsaved file is pruned like any unsaved photo
    from dataclasses import replace

    store.set_photo_slot(get_db(), sess.id, pid, target)
    if target.startswith("pile-"):
        form["tab"] = target.partition("-")[2]  # the page opens on the pile the photo went to
    moved = replace(photo, slot=target)
    out = [moved if p.id == pid else p for p in photos]
    _fill(form, out, moved)
    return out


def answer(form: MultiDict, photos: list[store.PhotoRow], sess: store.Session) -> list[store.PhotoRow]:
    """Apply the ``ask`` button (``yes:<card>:<slot>`` or ``no:<card>:<slot>``) to every
    unanswered suggestion of that card in that slot's photos.  Yes taps the card in, unless
    another slot of the group holds it: then both are flagged, as for a certain card.
    Returns the photos as updated in the store."""
    verdict, _, rest = form.get("ask", "").partition(":")
    card, _, slot = rest.partition(":")
    if verdict not in (YES, NO) or card not in BY_ID or not _valid_slot(slot, sess.players):
        return photos
    out = []
    for p in photos:
        if p.slot == slot and any(asked(d) == card for d in p.detections):
            dets = answered(p.detections, card, verdict)
            store.set_photo_detections(get_db(), sess.id, p.id, dets)
            p = _with(p, dets)
        out.append(p)
    if verdict == YES:
        group = slot.partition("-")[0]
        if not (_claims(form, [p for p in out if p.slot != slot], group).get(card, set()) - {slot}):
            _add(form, slot, card)
    return out


def _with(p: store.PhotoRow, dets: list[dict[str, Any]]) -> store.PhotoRow:
    from dataclasses import replace

    return replace(p, detections=dets)


def take_photo(
    sess: store.Session,
    slot: str,
    upload,
    dismissed: set[str] | frozenset[str] = frozenset(),
    taken: set[str] | frozenset[str] = frozenset(),
) -> tuple[store.PhotoRow | None, str | None]:
    """Decode, keep and detect one upload (bytes or a binary file).  Returns (photo, error in
    words); the photo is kept even when detection fails, and is None only when the file is
    not a usable image.  The decode runs under the detector's limit, like detection.
    ``dismissed``: cards answered No in this slot before (see :func:`records`); ``taken``: card
    ids the round holds already, which its plain chaff leave to them (:func:`distinct_chaff`)."""
    cfg = current_app.config
    if not (len(upload) if isinstance(upload, bytes) else stream_size(upload)):
        return None, "The photo is empty (0 bytes); take it again, or tap the cards in by hand."
    try:
        prepared = runner().prepare(upload, int(cfg["PHOTO_SIDE"]))
    except Exception as e:
        return None, describe_error(e)[1]
    pid = secrets.token_urlsafe(12)
    rel = save_evidence(cfg["DATA_DIR"], sess.id, pid, prepared.jpeg)
    error = None
    dets: list[Detection] = []
    try:
        dets = runner().detect(prepared.image)
    except Exception as e:
        error = describe_error(e)[1]
        current_app.logger.warning("detection failed: %s", error)
    photo = store.add_photo(
        get_db(),
        sess.id,
        photo_id=pid,
        slot=slot,
        file=rel,
        size=prepared.size,
        detections=distinct_chaff(records(dets, dismissed), taken),
        error=error,
    )
    return photo, error


# ---- deck checks -------------------------------------------------------------------


def deck_check(sess: store.Session, form: MultiDict) -> dict[str, Any]:
    """Piles that break the deck: cards in no pile, odd piles, and, where the family's piles add up
    to a deck total of card points, the check of the deal actually played (``Family.deck_check``:
    Hachi-hachi's 264 points with three active players, at most 34 cards with two, 14 never drawn),
    else the gap to the deck total (``Family.card_points``), under ``hachi``, the key the template reads."""
    piles = {p: list(dict.fromkeys(form.getlist(f"pile-{i}"))) for i, p in enumerate(sess.players)}
    known = {c for cs in piles.values() for c in cs if c in BY_ID}
    missing = [c for c in CARDS if c.id not in known]
    family = families.get(sess.family)
    odd = [p for p, cs in piles.items() if len(cs) % 2] if family.odd_piles_warn else []
    out: dict[str, Any] = {"count": len(known), "of": len(CARDS), "missing": missing, "odd": odd, "hachi": None}
    if family.deck_check is not None:
        # Seats marked as dropping out (the money form's status-i) hold no pile this round.
        playing = [p for i, p in enumerate(sess.players) if (form.get(f"status-{i}") or "play") == "play"]
        check = family.deck_check(len(playing), {p: piles[p] for p in playing})
        out["of"] = check.deal.in_play
        out["hachi"] = {
            "points": check.points,
            "gap": check.gap,
            "undrawn": check.deal.undrawn,
            "problem": check.problem(),
        }
    elif family.card_points is not None:
        points = sum(family.card_points(BY_ID[c]) for c in known)
        out["hachi"] = {"points": points, "gap": sum(family.card_points(c) for c in CARDS) - points}
    return out


# ---- template helpers ------------------------------------------------------------


def _state() -> dict[str, Any]:
    return g.get("photo_state") or {}


def _photos_for_page(ctx) -> list[store.PhotoRow]:
    state = _state()
    if "photos" in state:
        return state["photos"]
    rnd, sess = ctx.get("rnd"), ctx.get("s")
    if sess is None:
        return []
    form = None
    try:
        if request.method == "POST":  # the round form shown again ("Score round", an error)
            form = MultiDict(request.form.items(multi=True))
            photos = store.photos_by_ids(get_db(), sess.id, form.getlist("photo"))
        elif rnd is not None:
            photos = store.photos_of_round(get_db(), sess.id, rnd.id)
        else:
            photos = []
    except store.StoreError:
        photos = []
    g.photo_state = {"photos": photos, "errors": {}, "form": form}
    return photos


def _page_form(ctx, sess: store.Session) -> MultiDict:
    """The round form the page shows: as posted, or built from the round's data (GET)."""
    form = _state().get("form")
    if form is not None:
        return form
    data = ctx.get("data") or {}
    hands = ctx.get("hands") or data.get("hands") or {}
    form = MultiDict()
    for i, p in enumerate(sess.players):
        for c in (data.get("piles") or {}).get(p, []):
            form.add(f"pile-{i}", c)
        for c in hands.get(p) or []:
            form.add(f"hand-{i}", c)
    for c in data.get("field") or []:
        form.add("hand-f", c)
    return form


def slot_review(slot: str, photos: list[store.PhotoRow], form: MultiDict, players) -> Review:
    """The review of one slot: its photos, what the form holds, and who else holds a card."""
    group = slot.partition("-")[0]
    held = _claims(form, photos, group)
    elsewhere = {c: [slot_label(o, players) for o in sorted(slots - {slot})] for c, slots in held.items()}
    return review(slot, photos, form.getlist(slot), elsewhere)


#: Set (by app.js) once this phone has shown the capture guide: it is folded after that.
GUIDE_COOKIE = "guide-seen"


def _move_targets(slot: str, players) -> list[str]:
    """The other slots of ``slot``'s group a photo can move to (piles; hands and the field)."""
    group = slot.partition("-")[0]
    seats = [str(i) for i in range(len(players))] + (["f"] if group == "hand" else [])
    return [f"{group}-{x}" for x in seats if f"{group}-{x}" != slot]


@pass_context
def photo_slot(ctx, group: str, seat) -> Markup:
    """The "Snap" input, the capture guide and the review of a slot's photos: certain cards
    tapped in, suggestions beside their photo, conflicts (a reusable partial: ``round.html``
    and ``round_money.html`` include it per picker)."""
    sess = ctx.get("s")
    if sess is None:
        return Markup("")
    slot = f"{group}-{seat}"
    photos = _photos_for_page(ctx)
    state = _state()
    form = _page_form(ctx, sess)
    mine = [p for p in photos if p.slot == slot]
    return Markup(
        render_template(
            "partials/photo_slot.html",
            s=sess,
            slot=slot,
            label=slot_label(slot, sess.players),
            photos=mine,
            review=slot_review(slot, photos, form, sess.players),
            error=state.get("errors", {}).get(slot),
            conflicts=conflicts(form, photos).get(slot, {}),
            slot_label=lambda x: slot_label(x, sess.players),
            moves=_move_targets(slot, sess.players),
            guide_seen=request.cookies.get(GUIDE_COOKIE) == "1",
            round_id=ctx["rnd"].id if ctx.get("rnd") else "",
            cards=CARDS,
            BY_ID=BY_ID,
        )
    )


@pass_context
def photo_deck_check(ctx) -> Markup:
    """The deck-check box (cards in no pile, odd piles, the 264-point gap), live via htmx."""
    sess = ctx.get("s")
    if sess is None:
        return Markup("")
    return Markup(
        render_template(
            "partials/photo_deck.html",
            s=sess,
            check=deck_check(sess, _page_form(ctx, sess)),
            wrap=True,
            round_id=ctx["rnd"].id if ctx.get("rnd") else "",
        )
    )


# ---- the round routes -----------------------------------------------------------


def _parse(sess: store.Session, form: MultiDict) -> dict[str, Any]:
    return entry_form(sess.family).parse(form, sess.players)


#: Form fields that are one-off actions of a photo step, not state kept in the draft.
_ACTIONS = ("snap", "fix", "ask", "photo")


def _focus(form: MultiDict, uploaded: list[str]) -> str:
    """The slot the step acted on (the page scrolls back to it)."""
    for key in ("ask", "fix"):
        if form.get(key, "").count(":") == 2:
            return form[key].rsplit(":", 1)[1]
    return form.get("snap") or (uploaded[0] if uploaded else "")


@bp.post("/s/<token>/round/photo")
def round_photo(token: str):
    """Take the snapped photos (certain cards tapped in, the rest offered), apply
    corrections and answers; keep the form as a draft and redirect (303) to it."""
    from referee.web import sessions

    sess, _ = sessions.load(token, edit=True)
    form = MultiDict(request.form.items(multi=True))
    photos = store.photos_by_ids(get_db(), sess.id, form.getlist("photo"))
    photos = apply_corrections(form, photos, sess)
    errors: dict[str, str] = {}
    uploaded: list[str] = []
    for key, upload in request.files.items(multi=True):
        slot = key.removeprefix("snap-")
        if not key.startswith("snap-") or not _valid_slot(slot, sess.players) or not upload.filename:
            continue
        uploaded.append(slot)
        photo, error = take_photo(sess, slot, upload.stream, dismissed_in(photos, slot), _taken(form, photos, slot))
        if error:
            errors[slot] = error
        if photo is not None:
            photos.append(photo)
            _fill(form, photos, photo)
    kept = [(k, v) for k, v in form.items(multi=True) if k not in _ACTIONS and not k.startswith("as-")]
    kept += [("photo", p.id) for p in photos]
    draft = store.add_photo_draft(get_db(), sess.id, kept, errors)
    focus = _focus(form, uploaded)
    anchor = f"#photos-{focus}" if _valid_slot(focus, sess.players) else ""
    return redirect(url_for("photos.round_draft", token=token, draft_id=draft.id) + anchor, code=303)


@bp.get("/s/<token>/round/photo/<draft_id>")
def round_draft(token: str, draft_id: str):
    """The round form after a photo step: certain cards tapped in, suggestions beside the
    photos, corrections and conflicts; reloading it changes nothing."""
    from referee.web import sessions

    sess, _ = sessions.load(token, edit=True)
    try:
        draft = store.get_photo_draft(get_db(), sess.id, draft_id)
    except store.NotFoundError:
        abort(404, "This photo review is gone (unsaved photos are kept for a day). Open the round again to snap anew.")
    form = MultiDict(draft.form)
    photos = store.photos_by_ids(get_db(), sess.id, form.getlist("photo"))
    g.photo_state = {"photos": photos, "errors": draft.errors, "form": form}
    data = _parse(sess, form)
    board = sessions.board_of(sess)
    rid = form.get("round_id", "")
    rnd, version = None, None
    number, dealer, context = len(board.rounds) + 1, board.dealer, board.context
    if rid.isdigit():
        rnd = sessions.round_or_404(sess, int(rid))
        view = next((v for v in board.rounds if v.id == rnd.id), None)
        number, dealer = rnd.position, (view.dealer if view else board.dealer)
        context = view.context if view else board.context
        version = int(form["version"]) if form.get("version", "").isdigit() else rnd.version
    entry = entry_form(sess.family)
    missing = entry.unanswered(form, data) if entry.unanswered else None  # Koi-Koi: how the round ended
    result, error = (None, missing) if missing else sessions._preview(sess, data, dealer, context)
    return sessions._entry(
        sess,
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
    from referee.web import sessions

    sess, _ = sessions.load(token, edit=True)
    form = MultiDict(request.form.items(multi=True))
    return render_template("partials/photo_deck.html", s=sess, check=deck_check(sess, form), wrap=False)


@bp.get("/s/<token>/photo/<photo_id>.jpg")
def photo_file(token: str, photo_id: str):
    """An evidence photo (either link of its session may see it)."""
    from referee.web import sessions

    sess, _ = sessions.load(token)
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
    from referee.web import sessions

    sess, _ = sessions.load(token)
    rnd = sessions.round_or_404(sess, round_id)
    photos = store.photos_of_round(get_db(), sess.id, round_id)
    return render_template(
        "photo_round.html",
        s=sess,
        rnd=rnd,
        token=token,
        photos=photos,
        box_map={p.id: box_views(p) for p in photos},
        counted={p.id: sum(active(d) is not None for d in p.detections) for p in photos},
        slot_label=lambda x: slot_label(x, sess.players),
    )
