"""Photo to score, wired into the app: the detector pool, the photos a saved round keeps, and
the pruning of unsaved ones.

The routes are the round entry screen's (``referee.web.views.entry``: snap, review, deck
check, the evidence) and the API's (``POST /api/v1/detect``).  The photos of a round form are
attached to the round when the form is saved (``attach``, from ``referee.web.round_submit``)
and deleted with the round (``prune``).  Writes go through ``referee.store``; this module writes
no SQL and must not import onnxruntime (the detector is built lazily on the worker,
``referee.web.evidence``).  Below the views: must not import them.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping

from flask import current_app, request
from werkzeug.datastructures import FileStorage, ImmutableMultiDict, MultiDict

from referee import store
from referee.web import drafts
from referee.web.db import get_db
from referee.web.evidence import (
    PHOTO_MEMORY,
    DetectionRunner,
    default_detector,
    delete_files,
    describe_error,
    save_evidence,
    stream_size,
)
from referee.web.photo_review import dismissed_in, distinct_chaff, records
from referee.web.photo_slots import photo_deck_check, photo_slot
from referee.web.photo_steps import STEP_ACTIONS, apply_corrections, fill, focus, taken, valid_slot
from vision.detection import Detection


def init_app(app) -> None:
    """Set up the detector pool and register the template helpers.

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


def runner() -> DetectionRunner:
    """The app's detector pool (``referee.web.evidence.DetectionRunner``)."""
    return current_app.extensions["photo_runner"]


def limit_upload() -> None:
    """Let this request's body be as large as a photo may be (``PHOTO_MAX_BYTES``, above the
    app-wide limit): only the photo routes call it, before the body is read."""
    request.max_content_length = current_app.config["PHOTO_MAX_BYTES"]


def apply_posted_corrections(sess: store.Session) -> None:
    """A correction chosen without JavaScript, then "Score" or "Save": apply it to the posted form
    first, so the round form is read with the corrected picker."""
    if any(k.startswith("as-") for k in request.form):
        request.form = ImmutableMultiDict(corrected(sess, MultiDict(request.form.items(multi=True))))


def corrected(sess: store.Session, form: MultiDict) -> MultiDict:
    """A round form with its corrections (``as-<photo>-<i>``) applied to it and to its photos in the
    store; ``form`` itself when it holds none."""
    if any(k.startswith("as-") for k in form):
        apply_corrections(form, store.photos_by_ids(get_db(), sess.id, form.getlist("photo")), sess)
    return form


#: What a slot says when its Detect cards was pressed with no photo chosen (``photo.js`` says the same).
NO_PHOTO = "Choose or take a photo first (📷 Snap), or tap the cards in by hand; the cards you tapped are kept."


def step(
    sess: store.Session,
    form: MultiDict,
    uploads: Iterable[tuple[str, FileStorage]] = (),
    errors: Mapping[str, str] | None = None,
) -> tuple[str, str]:
    """One photo step of the round form (``POST /s/<token>/round/photo``): corrections and answers
    applied, each ``snap-<slot>`` upload taken (:func:`take_photo`), and the form as it then stands
    kept as a new draft with the slots' errors (``errors``: slot -> words already known, such as a
    photo too large to read).  Returns (the draft's id, the slot the page scrolls back to, or "")."""
    shown = store.photos_by_ids(get_db(), sess.id, form.getlist("photo"))
    shown = apply_corrections(form, shown, sess)
    errors = dict(errors or {})
    uploaded: list[str] = []
    for key, upload in uploads:
        slot = key.removeprefix("snap-")
        if not key.startswith("snap-") or not valid_slot(slot, sess.players) or not upload.filename:
            continue
        uploaded.append(slot)
        photo, error = take_photo(sess, slot, upload.stream, dismissed_in(shown, slot), taken(form, shown, slot))
        if error:
            errors[slot] = error
        if photo is not None:
            shown.append(photo)
            fill(form, shown, photo)
    pressed = form.get("snap", "")
    if valid_slot(pressed, sess.players) and pressed not in uploaded and pressed not in errors:
        errors[pressed] = NO_PHOTO  # Detect cards pressed with no photo chosen
    kept = [(k, v) for k, v in form.items(multi=True) if k not in STEP_ACTIONS and not k.startswith("as-")]
    kept += [("photo", p.id) for p in shown]
    slot = focus(form, uploaded or list(errors))
    return drafts.keep(sess, kept, errors), slot if valid_slot(slot, sess.players) else ""


def attach(sess: store.Session, round_id: int | None, photo_ids: list[str]) -> None:
    """Attach a saved round form's photos to the round it saved (a failure is logged: the round
    is saved all the same)."""
    try:
        if round_id is not None:
            store.attach_photos(get_db(), sess.id, round_id, photo_ids)
    except store.StoreError:
        current_app.logger.warning("photos of a saved round were not attached", exc_info=True)


def prune() -> None:
    """Delete the photos of deleted rounds, and unsaved photos older than a day."""
    cutoff = drafts.kept_since()
    try:
        files = store.prune_photos(get_db(), cutoff)
        store.prune_drafts(get_db(), cutoff)
    except store.StoreError:
        return
    delete_files(current_app.config["DATA_DIR"], files)


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
