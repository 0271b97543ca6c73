"""HTTP response headers: download filenames, ``Allow`` on errors, and the security headers.

- ``download(body, filename, mimetype)``: an attachment whose ``Content-Disposition`` carries
  the user's filename as RFC 6266 / RFC 5987 ``filename*`` (UTF-8, percent-encoded) with a
  plain-ASCII ``filename`` fallback, so a session named ``花札の夜`` downloads as
  ``花札の夜.csv`` and no header ever carries text that HTTP/1.1 cannot encode (latin-1).
- ``init_app(app)``: the Content-Security-Policy (``content_security_policy``), ``nosniff``,
  ``Referrer-Policy: no-referrer`` and no framing, on every response; ``Cache-Control: no-store`` on
  every HTML page that says nothing of caching itself (``no_store``).

Must not import the views.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from flask import Flask, Response

#: The pinned htmx release served from the CDN, with its Subresource Integrity hash.
HTMX_VERSION = "2.0.4"
HTMX_CDN = f"https://unpkg.com/htmx.org@{HTMX_VERSION}/dist/htmx.min.js"
HTMX_SRI = "sha384-HGfztofotfshcF7+8n44JQL2oJmowVChPTg48S+jvZoztPfvwD79OC/LTtG6dMp+"
#: RFC 5987 ``attr-char`` punctuation: left as it is in ``filename*``.
_ATTR_CHARS = "!#$&+-.^_`|~"


def ascii_filename(name: str, fallback: str = "download") -> str:
    """``name`` as a plain-ASCII filename: accents dropped (``Café`` -> ``Cafe``), other
    characters outside ``A-Za-z0-9``, space, ``. - _`` turned into ``-``; ``fallback`` when nothing is left."""
    stem, dot, ext = name.rpartition(".")
    if not dot:
        stem, ext = name, ""
    simple = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode("ascii")
    simple = re.sub(r"[^A-Za-z0-9 ._-]+", "-", simple).strip(" -.") or fallback
    ext = re.sub(r"[^A-Za-z0-9]+", "", ext)
    return f"{simple}.{ext}" if ext else simple


def content_disposition(filename: str, kind: str = "attachment") -> str:
    """A ``Content-Disposition`` value naming ``filename`` (RFC 6266): ``filename`` is its
    ASCII fallback and, when that differs, ``filename*=UTF-8''...`` (RFC 5987) the real name."""
    fallback = ascii_filename(filename)
    value = f'{kind}; filename="{fallback}"'
    if fallback != filename:
        value += f"; filename*=UTF-8''{quote(filename, safe=_ATTR_CHARS)}"
    return value


def download(body: str | bytes, filename: str, mimetype: str) -> Response:
    """A response that the browser saves as ``filename`` (any script, emoji included)."""
    resp = Response(body, mimetype=mimetype)
    resp.headers["Content-Disposition"] = content_disposition(filename)
    return resp


def content_security_policy(htmx_src: str | None, htmx_sri: str | None) -> str:
    """The app's CSP: scripts only from this server's static files (no inline script, no
    ``eval``) and, when given, the pinned htmx CDN file with its SRI hash; inline ``style=``
    attributes and inline SVG allowed; no framing; forms post only here."""
    script = "'self'" + (f" {htmx_src} '{htmx_sri}'" if htmx_src and htmx_sri else "")
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src {script}",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob:",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def no_store(resp: Response) -> None:
    """Make an HTML page ``Cache-Control: no-store``: pages carry one-time form tokens and live
    totals, and a kept copy brought back by the browser's Back button showed a stale form.  A
    response that sets its own caching (static files, card faces, photos: not HTML) is left alone."""
    if resp.mimetype == "text/html" and "Cache-Control" not in resp.headers:
        resp.headers["Cache-Control"] = "no-store"


def init_app(app: Flask) -> None:
    """Send the security headers with every response: the CSP above, ``X-Frame-Options: DENY``
    (older browsers), ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``
    (links carry tokens; no other site may learn them from a Referer); and no caching of HTML pages
    (``no_store``)."""
    local = app.config["HTMX_LOCAL"]
    fixed = {
        "Content-Security-Policy": content_security_policy(None if local else HTMX_CDN, None if local else HTMX_SRI),
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }

    @app.after_request
    def security_headers(resp: Response) -> Response:
        for key, value in fixed.items():
            resp.headers.setdefault(key, value)
        no_store(resp)
        return resp
