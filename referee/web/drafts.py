"""The round form's drafts: one store for every step that keeps an unsaved round form.

A step that only redraws the round form (Score, the hand pickers, the tile style, "every card
left", a refused Save) keeps the form as a draft and redirects (303) to the same page with
``?step=<id>``; a photo step (a snap, a correction, a Yes or No) keeps it the same way and
redirects to ``/s/<token>/round/photo/<id>``; the live preview keeps every tap in the page's own
draft (the form's ``draft`` field).  Back and Reload are then a GET, and never re-post a form or
upload a photo twice.  All of them are rows of one store (``referee.store.drafts``), pruned with
the unsaved photos after a day (``referee.web.photos.prune``).

- ``keep``: a new draft of a form (``[(name, value), ...]``), with the photo steps' errors;
- ``keep_typing``: the page's own draft, replaced at each tap;
- ``kept``: a draft read back, with the photos it names; ``show`` makes it this request's form.
- ``posted``: the round form being handled: the request's, or the draft a step kept.
- ``kept_since``: from when drafts are kept (older ones are pruned); ``unfinished``: the draft of
  the new round now due that a page left unsaved, offered again when the page is opened anew;
  ``dismiss``: "Start again" on that offer, so it is not offered again.

Below the views: must not import them.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import current_app, g, request
from werkzeug.datastructures import MultiDict

from referee import store
from referee.web.db import get_db

#: A draft id as the round form carries it (``secrets.token_urlsafe``).
DRAFT_ID = re.compile(r"[\w-]{8,32}")


@dataclass(frozen=True)
class Kept:
    """A draft read back: the form as kept, the photo steps' errors (slot -> message) and the
    photos the form names (its ``photo`` fields)."""

    form: MultiDict
    errors: dict[str, str]
    photos: list[store.PhotoRow]


def keep(sess: store.Session, form: Sequence[tuple[str, str]], errors: Mapping[str, str] | None = None) -> str:
    """Keep a round form as a new draft; returns its id.  Raises ``store.StoreUnavailableError``."""
    return store.keep_draft(get_db(), sess.id, form, errors).id


def keep_typing(sess: store.Session, draft_id: str, form: Sequence[tuple[str, str]]) -> str:
    """Keep the round form as typed in the page's own draft ``draft_id`` (a new id when it is not
    one, or another session's); returns the id kept.  Raises ``store.StoreUnavailableError``."""
    if not DRAFT_ID.fullmatch(draft_id):
        draft_id = secrets.token_urlsafe(9)
    return store.keep_draft(get_db(), sess.id, form, draft_id=draft_id).id


def kept(sess: store.Session, draft_id: str) -> Kept:
    """A draft of the session, with its photos.  Raises ``store.NotFoundError`` (unknown, another
    session's, or pruned)."""
    draft = store.get_draft(get_db(), sess.id, draft_id)
    form = MultiDict(draft.form)
    return Kept(form, draft.errors, store.photos_by_ids(get_db(), sess.id, form.getlist("photo")))


def show(draft: Kept, *, as_posted: bool) -> None:
    """Make ``draft`` what this request's round page shows: its photos and their errors and, with
    ``as_posted``, its form as the one being handled (``posted``)."""
    if as_posted:
        g.round_form = draft.form
    g.photo_state = {"photos": draft.photos, "errors": draft.errors, "form": draft.form}


def posted() -> Mapping[str, Any]:
    """The round form being handled: the request's, or the one a kept step holds (``?step=``)."""
    form = g.get("round_form")
    return form if form is not None else request.form


def dismiss(sess: store.Session, draft_id: str) -> bool:
    """The player chose "Start again" on the offer of ``draft_id`` (``unfinished``): neither it nor an
    older draft behind it is offered again, until a new tap keeps a draft.  Returns False, changing
    nothing, where it is not one of the session's drafts (made up, another session's, or pruned).
    Raises ``store.StoreUnavailableError``."""
    return bool(DRAFT_ID.fullmatch(draft_id)) and store.dismiss_draft(get_db(), sess.id, draft_id)


def kept_since() -> str:
    """The ISO time from which drafts (and unsaved photos) are kept: ``PHOTO_KEEP_UNSAVED_HOURS``
    (a day) ago; older ones are pruned (``referee.web.photos.prune``)."""
    hours = current_app.config["PHOTO_KEEP_UNSAVED_HOURS"]
    return (datetime.now(UTC) - timedelta(hours=hours)).isoformat(timespec="seconds")


def unfinished(sess: store.Session, number: int) -> store.Draft | None:
    """The session's latest kept draft of a new round (a form that names no ``round_id``) when it is
    of round ``number``, the round now due, its offer was not dismissed ("Start again", ``dismiss``)
    and its one-time token saved no round (a round saved since, even if undone); else None.  Raises
    ``store.StoreUnavailableError``."""
    for draft in store.drafts_since(get_db(), sess.id, kept_since()):
        form = MultiDict(draft.form)
        if form.get("round_id"):  # an edit page's
            continue
        if draft.dismissed:  # "Start again": nor is an older draft of that round offered in its place
            return None
        if form.get("round_number") != str(number):
            return None
        return None if store.round_of_form_token(get_db(), sess.id, form.get("nonce") or "") else draft
    return None
