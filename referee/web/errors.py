"""Error pages and JSON errors: 403, 404, 405 (with ``Allow``), 413, a locked or read-only database (503).

Requests under ``/api/`` get ``{"error": code, "message": text}``; others get
a page.  A form too large to send (413) links back to its own page where that page answers GET
(``own_page``: the import form, the new-session form); the round entry screens answer their own
413 with the form kept (``referee.web.too_large``).  A way back is built from the request's own
route, never from a URL the request names (a Referer).  Every 4xx page of a session's page (a route with a
``token``, or a path under one that no route reads: ``/s/<token>/round/abc/edit``) that names no way back of
its own gets one (``session_way_back``): the session's scoreboard while the session is there, the session
list (the home page) once it is gone.  Must not import the views.
"""

from __future__ import annotations

from flask import Flask, Response, current_app, jsonify, make_response, render_template, request, url_for
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from referee.store import NotFoundError, StoreError, StoreUnavailableError, find_session
from referee.web.db import get_db

_CODES = {
    400: "bad-request",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    413: "too-large",
    503: "unavailable",
}
_MESSAGES = {
    403: "This is the viewer link: it shows the scoreboard but cannot change it. "
    "Ask the scorekeeper for the scorekeeper link.",
    404: "There is no such page or session. Check the link, or start a new session from the home page.",
    413: "That upload is too large: {sent_and_limit}. A photo may be up to {photo} and a session "
    "export up to {other}; check you picked the right file.",
}


def byte_size(n: int) -> str:
    """Bytes in words for messages: ``21_500_000`` -> ``'20.5 MB'``, ``10_000`` -> ``'9.8 KB'`` (1 MB = 1024 KB)."""
    for unit, size in (("MB", 1024 * 1024), ("KB", 1024)):
        if n >= size:
            v = n / size
            return f"{v:.0f} {unit}" if v == int(v) else f"{v:.1f} {unit}"
    return f"{n} bytes"


def wants_json() -> bool:
    """True for API requests."""
    return request.path.startswith("/api/")


def error_response(
    status: int, message: str, code: str | None = None, *, back: str | None = None, back_label: str | None = None
) -> Response:
    """A JSON error for the API, else the error page (``abort(error_response(...))`` raises it), with
    ``back`` (an address of this app) as its way back, named ``back_label`` (default: the scoreboard); a 4xx
    page given no ``back`` gets ``session_way_back``'s on a session's page."""
    code = code or _CODES.get(status, "error")
    if wants_json():
        resp = jsonify({"error": code, "message": message})
    else:
        if back is None and 400 <= status < 500:
            back, back_label = session_way_back()
        page = render_template("error.html", status=status, message=message, back=back, back_label=back_label)
        resp = make_response(page)
    resp.status_code = status
    return resp


def over_body_limit() -> bool:
    """Whether this request's body is over its size limit (else a 413 came from one text field over
    the most a field may hold, ``MAX_FORM_MEMORY_SIZE``)."""
    sent, limit = request.content_length, request.max_content_length
    return sent is None or limit is None or sent > limit


def sent_and_limit() -> str:
    """A body refused as too large, in words: ``'20.3 KB sent; the limit here is 9.8 KB'`` (the limit
    of this request: a photo route's is ``PHOTO_MAX_BYTES``), without the size where it was not told;
    for a body within it, the limit of one text field that was not."""
    if not over_body_limit():
        most = byte_size(request.max_form_memory_size or 0)
        return f"one of its text fields holds more than {most}, the most a field may hold"
    sent = request.content_length
    limit = request.max_content_length or current_app.config.get("MAX_CONTENT_LENGTH") or 1024 * 1024
    return f"{byte_size(sent)} sent; " * bool(sent) + f"the limit here is {byte_size(limit)}"


def own_page() -> str | None:
    """This request's own address where it answers GET (a form posted to its page: ``/import``,
    ``/new``, a round's entry page), else None.  Only the path, checked against the app's routes:
    never another site's."""
    path = request.path
    if not path.startswith("/") or path.startswith("//"):
        return None
    try:
        current_app.url_map.bind("localhost").match(path, method="GET")
    except HTTPException:  # not a page (a POST-only route), or one that would redirect
        return None
    return request.script_root + path


def session_token() -> str | None:
    """The session link of this request's page: its route's ``token``; where no route read the path (a 404
    of ``/s/<token>/round/abc/edit``, a 405), the ``token`` of the longest start of the path that a route
    reads (``/s/<token>``); None off a session's page."""
    if request.url_rule is not None:
        token = (request.view_args or {}).get("token")
        return token if isinstance(token, str) else None
    parts = request.path.split("/")
    adapter = current_app.url_map.bind("localhost")
    for end in range(len(parts) - 1, 1, -1):
        try:
            _, args = adapter.match("/".join(parts[:end]), method="GET")
        except HTTPException:  # no route, or one that would redirect
            continue
        token = args.get("token")
        return token if isinstance(token, str) else None
    return None


def session_way_back() -> tuple[str | None, str | None]:
    """The way on from an error (4xx) on a session's page, as (address, its words): the session's scoreboard
    by the link the request came with (a viewer's stays a viewer's) while the session is there (a round
    deleted, a photo review pruned, the viewer link on a scorekeeper's page); the session list once the
    session is gone (or never was); (None, None) off a session's page, for the API (its JSON names no way),
    or where the database cannot be read."""
    token = session_token()
    if token is None or wants_json():
        return None, None
    try:
        find_session(get_db(), token)
    except NotFoundError:
        return url_for("home.home"), "Your sessions"
    except StoreError:
        return None, None
    return url_for("scoreboard.scoreboard", token=token), None


def http_error(e: HTTPException) -> Response:
    """The JSON error or the error page of an HTTP error (the app's handler; a blueprint's own
    handler may fall back on it)."""
    status = e.code or 500
    # A view's own description (abort(404, "No session ...")) wins over the stock one.
    custom = e.description if e.description != type(e).description else None
    message = custom or _MESSAGES.get(status) or e.description or e.name
    back, back_label = None, None  # error_response gives a 4xx of a session's page its way back
    if status == 413 and not custom:  # the size sent and the limit that applied, in words
        mb = 1024 * 1024
        message = message.format(
            sent_and_limit=sent_and_limit(),
            photo=byte_size(current_app.config.get("PHOTO_MAX_BYTES", 20 * mb)),
            other=byte_size(current_app.config.get("MAX_CONTENT_LENGTH") or mb),
        )
    if isinstance(e, RequestEntityTooLarge) and request.method == "POST":
        back = own_page()
        back_label = "← Back to the form" if back else None
    resp = error_response(status, message, back=back, back_label=back_label)
    # The exception's own headers say what the client may do next: Allow on a 405
    # (RFC 9110 §15.5.6), Retry-After, WWW-Authenticate...
    for key, value in e.get_headers():
        if key.lower() != "content-type":
            resp.headers[key] = value
    return resp


def init_app(app: Flask) -> None:
    """Register the error handlers."""

    app.register_error_handler(HTTPException, http_error)

    @app.errorhandler(NotFoundError)
    def gone(_e: NotFoundError):
        # A session or round that vanished between the view's check and the store's write
        # (a concurrent delete or undo): the same 404 as if it had been gone before.
        back, back_label = session_way_back()
        return error_response(404, "This session has no such round any more; it may have just been deleted.",
                              back=back, back_label=back_label)

    @app.errorhandler(RecursionError)
    def too_deep(_e: RecursionError):
        return error_response(400, "That input is nested too deeply to read. Nothing was changed.")

    @app.errorhandler(OverflowError)
    def too_large(_e: OverflowError):
        return error_response(400, "That input holds a number too large to use. Nothing was changed.")

    @app.errorhandler(Exception)
    def unexpected(e: Exception):
        # A bug stays visible where it can be fixed: tests and debugging re-raise it.
        if isinstance(e, HTTPException):
            return http_error(e)
        if current_app.testing or current_app.debug:
            raise e
        current_app.logger.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(
            500,
            "Something went wrong on the server while handling this request; the error is in the server's log. "
            "Go back and try again; if it keeps happening, export the session and report it.",
            "server-error",
        )

    @app.errorhandler(StoreUnavailableError)
    def unavailable(e: StoreUnavailableError):
        if request.method in ("GET", "HEAD"):  # nothing was being saved
            return error_response(503, f"The database cannot be read: {e.why}.")
        return error_response(503, e.message)
