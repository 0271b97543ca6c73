"""HTTP response headers: download filenames, ``Allow`` on errors, and the security headers.

- ``download(body, filename, mimetype)``: an attachment whose ``Content-Disposition`` carries
  the user's filename as RFC 6266 / RFC 5987 ``filename*`` (UTF-8, percent-encoded) with a
  plain-ASCII ``filename`` fallback, so a session named ``花札の夜`` downloads as
  ``花札の夜.csv`` and no header ever carries text that HTTP/1.1 cannot encode (latin-1).
- ``header_safe(text)``: any other user text bound for a header, as ASCII.
- ``init_app(app)``: the Content-Security-Policy and its friends on every response.

Must not import the views.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from flask import Response

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


def header_safe(text: str) -> str:
    """User text for a header other than a filename: percent-encoded UTF-8 outside printable
    ASCII, so the header stays valid whatever the text (RFC 9110 §5.5)."""
    return quote(text, safe=" !\"#$&'()*+,-./:;<=>?@[]^_`{|}~")
