"""Error pages and JSON errors: 403, 404, 405 (with ``Allow``), 413, a locked or read-only database (503).

Requests under ``/api/`` get ``{"error": code, "message": text}``; others get
a page.  Must not import the views.
"""

from __future__ import annotations

from flask import Flask, Response, current_app, jsonify, make_response, render_template, request
from werkzeug.exceptions import HTTPException

from referee.store import NotFoundError, StoreUnavailableError

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
    413: "That upload is too large: {sent}the limit here is {limit}. A photo may be up to {photo} and a session "
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


def error_response(status: int, message: str, code: str | None = None) -> Response:
    """A JSON error for the API, else the error page (``abort(error_response(...))`` raises it)."""
    code = code or _CODES.get(status, "error")
    if wants_json():
        resp = jsonify({"error": code, "message": message})
    else:
        resp = make_response(render_template("error.html", status=status, message=message))
    resp.status_code = status
    return resp


def init_app(app: Flask) -> None:
    """Register the error handlers."""

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        status = e.code or 500
        # A view's own description (abort(404, "No session ...")) wins over the stock one.
        custom = e.description if e.description != type(e).description else None
        message = custom or _MESSAGES.get(status) or e.description or e.name
        if status == 413 and not custom:  # the size sent and the limit that applied, in words
            mb = 1024 * 1024
            other = current_app.config.get("MAX_CONTENT_LENGTH") or mb
            sent = request.content_length
            message = message.format(
                sent=f"{byte_size(sent)} sent; " if sent else "",
                limit=byte_size(request.max_content_length or other),
                photo=byte_size(current_app.config.get("PHOTO_MAX_BYTES", 20 * mb)),
                other=byte_size(other),
            )
        resp = error_response(status, message)
        # The exception's own headers say what the client may do next: Allow on a 405
        # (RFC 9110 §15.5.6), Retry-After, WWW-Authenticate...
        for key, value in e.get_headers():
            if key.lower() != "content-type":
                resp.headers[key] = value
        return resp

    @app.errorhandler(NotFoundError)
    def gone(_e: NotFoundError):
        # A session or round that vanished between the view's check and the store's write
        # (a concurrent delete or undo): the same 404 as if it had been gone before.
        return error_response(404, "This session has no such round any more; it may have just been deleted.")

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
