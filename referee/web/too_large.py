"""A round form too large to send (413) that loses nothing: what it carried, read anyway (each
file's bytes counted and skipped, never kept), kept as a draft, and the 413 page's way back to it.

Without JavaScript a snapped photo goes up whole, with the whole round form (``photo.js``
shrinks it first); a body over the photo limit (``PHOTO_MAX_BYTES``), or a round form over
``MAX_CONTENT_LENGTH``, is refused before the view reads it.  The round entry and edit screens
answer that 413 here: the page says what was too large and the limit, and links back to the same
round with every tap kept (``/round/photo/<draft>`` after a photo step, ``?step=<draft>`` after
Score or Save), as a refused photo or Save keeps its form.  The page's own draft (the live
preview's) is left as it was.  The way back is built from the request's own route, never from a
URL the request names (a Referer).  Below the views: must not import them.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Response, current_app, request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.http import parse_options_header
from werkzeug.sansio.multipart import Data, Epilogue, Field, File, MultipartDecoder, NeedData
from werkzeug.wsgi import LimitedStream

from referee import store
from referee.web import drafts, photos
from referee.web.access import load
from referee.web.errors import error_response, http_error, over_body_limit, own_page, sent_and_limit
from referee.web.photo_steps import valid_slot

#: The largest refused body read again for its fields: the server has taken it in already (waitress
#: buffers a body before the app runs), so reading it costs time, not memory; beyond this it is no photo.
READ_AT_MOST = 256 * 1024 * 1024
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Sent:
    """What a refused form carried: its text fields in order (as many as fit in the app's form
    limit), the names of its file fields that held a file, and whether text was left out."""

    fields: list[tuple[str, str]]
    files: list[str]
    left_out: bool


def read_sent(environ: dict[str, Any], keep: int, parts: int) -> Sent | None:
    """The text fields of a body refused as too large, read from the WSGI input, keeping at most
    ``keep`` bytes of text in all (a field that does not fit is left out) and at most ``parts``
    multipart parts.  None where it cannot be read again: no Content-Length, over
    :data:`READ_AT_MOST`, neither form encoding, or malformed."""
    try:
        length = int(environ.get("CONTENT_LENGTH") or -1)
    except ValueError:
        return None
    if not 0 <= length <= READ_AT_MOST:
        return None
    mimetype, options = parse_options_header(environ.get("CONTENT_TYPE", ""))
    read = LimitedStream(environ["wsgi.input"], length).read
    try:
        if mimetype == "multipart/form-data" and options.get("boundary"):
            return _multipart(read, options["boundary"].encode("latin-1"), keep, parts)
        if mimetype == "application/x-www-form-urlencoded":
            return _urlencoded(read, keep)
    except (ValueError, RequestEntityTooLarge):  # malformed, or more parts than a form may have
        return None
    return None


def _chunks(read: Callable[[int], bytes]):
    while chunk := read(_CHUNK):
        yield chunk


def _multipart(read: Callable[[int], bytes], boundary: bytes, keep: int, parts: int) -> Sent:
    decoder = MultipartDecoder(boundary, max_parts=parts)
    fields: list[tuple[str, str]] = []
    files: list[str] = []
    left_out = False
    name, text = "", None  # the part being read; text None: a file's (or a field's left out)
    for chunk in _with_end(_chunks(read)):
        decoder.receive_data(chunk)
        event = decoder.next_event()
        while not isinstance(event, (Epilogue, NeedData)):
            if isinstance(event, File):
                name, text = event.name, None
                if event.filename:
                    files.append(name)
            elif isinstance(event, Field):
                name, text = event.name, bytearray()
            elif isinstance(event, Data):
                if text is not None:
                    if len(text) + len(event.data) > keep:
                        text, left_out = None, True
                    else:
                        text += event.data
                if not event.more_data and text is not None:
                    keep -= len(text)
                    fields.append((name, text.decode("utf-8", "replace")))
            event = decoder.next_event()
    return Sent(fields, files, left_out)


def _with_end(chunks):
    yield from chunks
    yield None  # the decoder's end of data


def _urlencoded(read: Callable[[int], bytes], keep: int) -> Sent:
    fields: list[tuple[str, str]] = []
    left_out = False
    pair, over = bytearray(), False

    def done() -> None:
        nonlocal keep, left_out
        if over:
            left_out = True
        elif pair:
            keep -= len(pair)
            fields.extend(urllib.parse.parse_qsl(pair.decode("latin-1"), keep_blank_values=True, errors="replace"))

    for chunk in _chunks(read):
        for i, piece in enumerate(chunk.split(b"&")):
            if i:
                done()
                pair, over = bytearray(), False
            if not over:
                pair += piece
                if len(pair) > keep:
                    pair, over = bytearray(), True
    done()
    return Sent(fields, [], left_out)


def _sent() -> Sent | None:
    """What this refused request carried, or None (the body already read in part, or unreadable)."""
    if "stream" in request.__dict__:  # werkzeug began reading it (a field over its own limit)
        return None
    keep = int(current_app.config.get("MAX_CONTENT_LENGTH") or 1024 * 1024)
    return read_sent(request.environ, keep, request.max_form_parts or 1000)


def _session() -> store.Session | None:
    try:  # the view loaded it already, before it read the form
        return load(str((request.view_args or {}).get("token", "")), edit=True).session
    except HTTPException:
        return None


def photo_step_page(e: RequestEntityTooLarge) -> Response:
    """The 413 of a photo step (``POST /s/<token>/round/photo``): the photo was too large, the
    limit, and the way back to the round with the form as it was sent and each photo too large
    named on its pile.  Sent by ``photo.js`` (``X-Photo``), the form is still on the phone's page:
    only the words."""
    sess = _session()
    if sess is None:
        return http_error(e)
    said = f"That {'photo' if over_body_limit() else 'round form'} is too large to send: {sent_and_limit()}."
    if request.headers.get("X-Photo"):
        return error_response(413, said)
    sent = _sent()
    if sent is not None:
        why = (f"This photo was too large to send ({sent_and_limit()}), so it was not read. Snap it again "
               "with the camera set to a smaller photo size, or tap the cards in by hand.")
        errors = {k.removeprefix("snap-"): why for k in sent.files
                  if k.startswith("snap-") and valid_slot(k.removeprefix("snap-"), sess.players)}
        try:
            draft_id, slot = photos.step(sess, MultiDict(sent.fields), (), errors)
        except store.StoreUnavailableError:
            sent = None
    if sent is None:
        return error_response(
            413, f"{said} Go back with your browser's Back button: most phones keep the cards you tapped.",
            back=url_for("scoreboard.scoreboard", token=sess.edit_token),
        )
    back = url_for("entry.round_draft", token=sess.edit_token, draft_id=draft_id) + (f"#photos-{slot}" * bool(slot))
    return error_response(
        413,
        f"{said} Nothing you entered is lost: go back to the round, where every card you tapped is kept, then snap "
        "the pile again with the camera set to a smaller photo size, or tap its cards in by hand.",
        back=back, back_label="← Back to the round, as you left it",
    )


def round_step_page(e: RequestEntityTooLarge) -> Response:
    """The 413 of the round form itself (Score, Save or a step of the new-round or edit page): the
    form was too large, the limit, and the way back to the same page showing the form as it was
    sent (``?step=``, which never saves); text too long to keep is left out, and said so."""
    sess = _session()
    page = own_page()
    if sess is None or page is None or request.method != "POST":
        return http_error(e)
    said = f"This round form is too large to send: {sent_and_limit()}."
    sent = _sent()
    if sent is not None:
        form = photos.corrected(sess, MultiDict(sent.fields))
        try:
            draft_id = drafts.keep(sess, [(k, v) for k, v in form.items(multi=True) if not k.startswith("as-")])
        except store.StoreUnavailableError:
            sent = None
    if sent is None:
        return error_response(
            413, f"{said} Go back with your browser's Back button: most phones keep the cards you tapped.",
            back=page, back_label="← Back to the round",
        )
    kept = ("Every card you entered is kept, but text too long to keep (such as a pasted round) was left out: "
            "go back to the round." if sent.left_out else
            "Nothing you entered is lost: go back to the round, where every card is kept.")
    return error_response(
        413, f"{said} {kept}",
        back=url_for(request.endpoint, **(request.view_args or {}), step=draft_id) + "#result",
        back_label="← Back to the round, as you left it",
    )
