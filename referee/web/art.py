"""Card faces: the shipped thumbnails, art from a configured folder, or clear text tiles.

``CARD_ART`` names a folder with a ``MAPPING.tsv`` (columns ``file`` and ``id``,
as in ``shared/cards/art/*``).  Unset (None), the small pictures the app ships are used
(``templates/static/cards``: WebP thumbnails of one CC BY-SA 4.0 set, made by
``scripts/make_thumbnails.py``, with their ``ATTRIBUTION.txt``); ``False``, ``""`` or
``"none"``: text tiles only.  The files are served at ``/cards/<card id>``; a card the
mapping does not name, or no folder at all, gets a text tile (the month's kanji, a kind badge
光 / 種 / 短 / カス and the English name), never a broken image.  Only the thumbnails are
in the project; the art sets are never copied into it.  The picker shows pictures unless
this device chose the compact text tiles.

Must not import the store.
"""

from __future__ import annotations

import csv
import functools
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, abort, current_app, g, request
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

from referee.cards import BY_ID, CARDS, Card, month_label

#: Month number -> its kanji, as printed on text tiles.
MONTH_KANJI = {
    1: "一月",
    2: "二月",
    3: "三月",
    4: "四月",
    5: "五月",
    6: "六月",
    7: "七月",
    8: "八月",
    9: "九月",
    10: "十月",
    11: "十一月",
    12: "十二月",
}
#: Card kind -> the badge on a text tile.
KIND_BADGE = {"bright": "光", "animal": "種", "ribbon": "短", "chaff": "カス"}
#: The device's choice of card tiles, kept in a cookie: text tiles ("compact") or card faces ("art").
PICKER_COOKIE = "picker"
PICKER_MODES = ("compact", "art")
#: Files that credit an art set, shown on the Credits page.
CREDIT_FILES = ("SOURCE.md", "NOTICE.md", "ATTRIBUTION.txt", "LICENSE", "LICENSE.md")
#: The credit files written in Markdown (``ATTRIBUTION.txt`` too: ``scripts/make_thumbnails.py`` quotes the
#: set's NOTICE.md in it); the others are plain text.
MARKDOWN_CREDITS = frozenset({"SOURCE.md", "NOTICE.md", "ATTRIBUTION.txt", "LICENSE.md"})
#: Where a credit file's link may lead: another site or a mail address (a path would be one of this app's).
LINK_SCHEMES = re.compile(r"(?:https?:|mailto:)", re.I)


@dataclass(frozen=True)
class ArtSet:
    """A loaded art folder: card id -> file name, and its credit texts (file name, text)."""

    folder: Path
    files: dict[str, str]
    credits: tuple[tuple[str, str], ...]


def load_art(folder: str | Path) -> ArtSet:
    """Read an art folder's ``MAPPING.tsv``.

    Raises ``ValueError`` naming the folder when it has no readable mapping, or a
    mapping row names a card id that is not one of the 48.
    """
    folder = Path(folder).resolve()
    mapping = folder / "MAPPING.tsv"
    try:
        rows = list(csv.DictReader(mapping.read_text(encoding="utf-8").splitlines(), delimiter="\t"))
    except OSError as e:
        raise ValueError(f"CARD_ART={folder}: expected a folder with MAPPING.tsv ({e.strerror})") from None
    files = {}
    for row in rows:
        if row.get("id") not in BY_ID or not row.get("file"):
            raise ValueError(f"{mapping}: expected columns file and id with one of the 48 card ids, got {row!r}")
        if (folder / row["file"]).is_file():
            files[row["id"]] = row["file"]
    credits = tuple(
        (name, (folder / name).read_text(encoding="utf-8", errors="replace"))
        for name in CREDIT_FILES
        if (folder / name).is_file()
    )
    return ArtSet(folder, files, credits)


@functools.cache
def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False})  # raw HTML in the file is shown as text
    # Every link is parsed (one to javascript: would stay "[words](target)" as typed), then
    # ``_safe_inline`` keeps only those to ``LINK_SCHEMES``.
    md.validateLink = lambda url: True
    return md


def credit_html(name: str, text: str) -> Markup:
    """A credit file (``name``, its ``text``) as the Credits page shows it, under an ``<h3>`` of its name:
    Markdown (``MARKDOWN_CREDITS``; CommonMark) as HTML in a ``<div class="credit">``, its headings from
    ``<h4>`` down, raw HTML escaped, links only to other sites or mail addresses (any other keeps its
    words) and pictures as their words; any other file as preformatted text (``<pre class="credit">``)."""
    if name not in MARKDOWN_CREDITS:
        return Markup('<pre class="credit">{}</pre>').format(text)
    tokens = _markdown().parse(text)
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(int(token.tag[1]) + 3, 6)}"
        if token.children:
            token.children = _safe_inline(token.children)
    html = _markdown().renderer.render(tokens, _markdown().options, {})
    return Markup('<div class="credit">{}</div>').format(Markup(html))


def _safe_inline(children: list[Token]) -> list[Token]:
    """Inline tokens with links elsewhere than ``LINK_SCHEMES`` unwrapped and pictures as their alt text."""
    out: list[Token] = []
    dropped = False  # CommonMark links do not nest: a dropped link_open pairs with the next link_close
    for child in children:
        if child.type == "link_open" and not LINK_SCHEMES.match(str(child.attrGet("href") or "")):
            dropped = True
        elif child.type == "link_close" and dropped:
            dropped = False
        elif child.type == "image":
            out.append(Token("text", "", 0, content=child.content))
        else:
            out.append(child)
    return out


def months() -> list[tuple[int, str, list[Card]]]:
    """(month, kanji, its four cards) for the 12 months, in play order."""
    return [(m, MONTH_KANJI[m], [c for c in CARDS if c.month == m]) for m in range(1, 13)]


def short_name(card: Card) -> str:
    """What a tile in a month's row needs to say: the card's name without its plant
    ("Pine with Crane (and Sun)" -> "Crane", "Pine poetry ribbon" -> "Poetry ribbon")."""
    plant = card.plant.replace("-", " ")
    name = re.sub(r"\s*\([^)]*\)", "", card.name)
    if name.lower().startswith(plant):
        name = name[len(plant):].strip()
    name = re.sub(r"^with\s+", "", name)
    return name[:1].upper() + name[1:] if name else card.name


def plant_kanji(month: int) -> str:
    """The month's plant in kanji (松 for month 1), as printed on the picker's rows."""
    return next(c for c in CARDS if c.month == month).plant_ja.split(" ")[0]


def init_app(app: Flask) -> None:
    """Load the configured art (if any) and register the ``/cards/<id>`` route and template helpers."""
    configured = app.config.get("CARD_ART")
    if configured is None:  # the shipped thumbnails, where the install has them
        shipped = Path(app.static_folder or "") / "cards"
        configured = shipped if (shipped / "MAPPING.tsv").is_file() else None
    elif str(configured).strip().lower() in ("", "none", "false"):
        configured = None
    app.extensions["card_art"] = load_art(configured) if configured else None

    @app.get("/cards/<card_id>")
    def card_face(card_id: str):
        current = current_app.extensions["card_art"]
        if current is None or card_id not in current.files:
            abort(404)
        # the bytes, not a file handle: a phone leaving the page mid-transfer left the handle
        # open (a ResourceWarning under waitress); the thumbnails are about 3 KB each
        path = Path(current.folder) / current.files[card_id]
        resp = Response(path.read_bytes(), mimetype=mimetypes.guess_type(path.name)[0] or "application/octet-stream")
        resp.cache_control.max_age = 86400
        resp.cache_control.public = True
        return resp

    def has_face(card_id: str) -> bool:
        current = current_app.extensions["card_art"]
        return current is not None and card_id in current.files

    def art_available() -> bool:
        return current_app.extensions["card_art"] is not None

    def picker_mode() -> str:
        """``art`` where there are card pictures, unless this device chose ``compact`` text tiles."""
        if not art_available():
            return "compact"
        mode = g.get("picker_mode") or request.cookies.get(PICKER_COOKIE)
        return mode if mode in PICKER_MODES else "art"

    @app.context_processor
    def picker_settings() -> dict:
        return {"art_available": art_available(), "picker_mode": picker_mode()}

    app.jinja_env.globals.update(
        months=months,
        has_face=has_face,
        KIND_BADGE=KIND_BADGE,
        MONTH_KANJI=MONTH_KANJI,
        CARD=BY_ID,
        month_label=month_label,
        short_name=short_name,
        plant_kanji=plant_kanji,
    )
