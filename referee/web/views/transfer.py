"""Export and import: a session out as JSON (importable) or CSV (for spreadsheets), and sessions in
from a JSON export or an ``export --all`` archive.

- ``GET /s/<token>/export.json``: the session export (``referee.web.service.archive``);
- ``GET /s/<token>/export.csv``: the rounds table, one row per round, scores then running totals
  (then the jackpot, once a money game is over);
- ``GET /import``: the import form; ``POST /import``: a file upload or pasted text.

A view module: imports no other view module.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from flask import Blueprint, flash, render_template, request

from referee import store
from referee.errors import RefereeError
from referee.web.access import load, remember_keeper, see_other
from referee.web.db import get_db
from referee.web.forms.rounds import json_fault
from referee.web.headers import download
from referee.web.nonces import form_nonce, posted_nonce
from referee.web.service import archive
from referee.web.service import session as service

bp = Blueprint("transfer", __name__)


def _filename(sess: store.Session, ext: str) -> str:
    """The download's name: the session's name (any script) without characters a file name cannot hold."""
    safe = "".join("-" if ch in '\\/:*?"<>|' or not ch.isprintable() else ch for ch in sess.name)
    return f"{safe[:60].strip(' .-') or 'session'}.{ext}"


@bp.get("/s/<token>/export.json")
def export_json(token: str):
    """Download the session as JSON."""
    sess = load(token).session
    body = json.dumps(archive.export_data(get_db(), sess), ensure_ascii=False, indent=2)
    return download(body, _filename(sess, "json"), "application/json")


def csv_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run as a formula: text starting with ``= + - @``, a tab
    or a carriage return gets a leading ``'`` (numbers are left as they are)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


@bp.get("/s/<token>/export.csv")
def export_csv(token: str):
    """Download the rounds table as CSV (UTF-8 with a byte order mark, which spreadsheets need to read
    it as UTF-8): one row per round, scores then running totals (a finished money game ends with a
    ``jackpot`` row: each share, and the totals with it, as the board shows them); in a game
    played by months (Koi-Koi: the game context names the next round's month) a ``month`` column
    names each round's month by its plant ("Pine (松, month 1)")."""
    opened = load(token)
    sess = opened.session
    board = service.board(get_db(), opened)
    by_month = "month" in board.context or any(v.month for v in board.rounds)
    out = io.StringIO()
    w = csv.writer(out)
    write = lambda row: w.writerow([csv_cell(c) for c in row])  # noqa: E731
    write(
        [
            "round",
            *(["month"] if by_month else []),
            "dealer",
            "void",
            *(f"{p} ({board.unit})" for p in sess.players),
            *(f"{p} total" for p in sess.players),
            "note",
        ]
    )
    for v in board.rounds:
        note = v.error or (f"instant win: {v.instant_win}" if v.instant_win else "")
        write(
            [
                v.number,
                *([v.month] if by_month else []),
                v.dealer,
                "yes" if v.void else "",
                *(v.scores.get(p, "") for p in sess.players),
                *(v.totals.get(p, "") for p in sess.players),
                note,
            ]
        )
    if board.jackpot_shares:  # the totals after the last round, plus the jackpot: the board's totals
        write(
            [
                "jackpot",
                *([""] if by_month else []),
                "",
                "",
                *(board.jackpot_shares.get(p, 0) for p in sess.players),
                *(board.totals.get(p, "") for p in sess.players),
                f"the antes' sum ({board.jackpot}) to {' and '.join(board.winners)}",
            ]
        )
    # A byte order mark first: Excel reads a CSV without one in the PC's code page, and 明子 comes out garbled.
    return download("\ufeff" + out.getvalue(), _filename(sess, "csv"), "text/csv")


class EmptyImportError(Exception):
    """The import form came with no file and no text."""


@bp.post("/import")
def import_session():
    """Create a session from a JSON export (file upload or pasted text), or every session of an
    ``export --all`` archive."""
    upload = request.files.get("file")
    text = upload.read().decode("utf-8", errors="replace") if upload and upload.filename else ""
    text = text or request.form.get("text", "")
    try:
        if not text.strip():
            raise EmptyImportError
        batch = archive.sessions_to_create(json.loads(text))
    except EmptyImportError:
        message = "Nothing to import: choose a file saved with a scoreboard's “Export JSON”, or paste its text."
    except json.JSONDecodeError as e:
        message = (f"This is not a session export: {json_fault(e.msg, 'the export')} at line {e.lineno}, column "
                   f"{e.colno}. Import takes a file saved "
                   "with a scoreboard's “Export JSON” (a CSV export is for spreadsheets and cannot be imported).")
    except RecursionError:
        message = "That JSON is nested too deeply to be a session export."
    except RefereeError as e:  # before ValueError, its base class: the rules' own words
        message = e.message
    except ValueError as e:  # e.g. a number longer than Python's integer digit limit
        message = f"That JSON has a value that cannot be read ({e})."
    except ImportError as e:
        message = f"This game's scoring module is not installed ({e.name})."
    else:
        try:
            # The form's one-time token: the same form posted again gets what it imported.
            made = archive.create_all(get_db(), batch.sessions, posted_nonce())
        except store.StoreUnavailableError as e:
            return render_template("transfer/import.html", message=e.message, text=text, nonce=form_nonce()), 503
        for sess in reversed(made):
            remember_keeper(sess.edit_token)
        kept = f" Kept as not counted, as the scoreboard showed them: {'; '.join(batch.not_counted)}."
        kept = kept if batch.not_counted else ""
        refused = f" Not imported: {'; '.join(batch.refused)}." if batch.refused else ""
        if len(made) != 1 or batch.refused:
            flash(f"Imported {len(made)} session{'' if len(made) == 1 else 's'}.{kept}{refused}")
            return see_other("home.home")
        n = len(batch.sessions[0]["rounds"])
        flash(f"Imported {n} round{'' if n == 1 else 's'}.{kept}")
        return see_other("scoreboard.scoreboard", token=made[0].edit_token)
    return render_template("transfer/import.html", message=message, text=text, nonce=form_nonce()), 422


@bp.get("/import")
def import_form():
    """The import form."""
    return render_template("transfer/import.html", message=None, text="", nonce=form_nonce())
