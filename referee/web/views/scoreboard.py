"""The scoreboard: totals, progress toward the target, the oya, the rounds with their
explanations, the winner and the totals chart, kept live on every phone by polling; and the QR
code of the viewer link.

- ``GET /s/<token>``: the page (an ``HX-Request`` gets the board fragment);
- ``GET /s/<token>/poll?rev=<n>``: the board fragment when the session changed, else 204; a session deleted
  since, 404 with the notice that takes the board's place, which polls on slowly (``rev=deleted``) and gives
  way to the board again when the session is brought back;
- ``GET /s/<token>/qr.svg``: a QR code of the viewer link.

The board is replayed once per change (``referee.web.service.session.board``) and its fragment
rendered once per change and role.  A view module: imports no other view module.
"""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import segno
from flask import Blueprint, Response, abort, current_app, render_template, request, url_for
from markupsafe import Markup

from referee import store
from referee.web import privacy
from referee.web.access import NO_SESSION, deleted_words, load
from referee.web.board import Board, amount_formatter, installed
from referee.web.chart import legend as chart_legend
from referee.web.chart import totals_chart
from referee.web.db import get_db
from referee.web.service import session as service
from referee.web.service.session import Opened, cached

bp = Blueprint("scoreboard", __name__)
#: The ``rev`` a deleted session's notice polls with (``poll``), and how many times slower than the board it polls.
DELETED_REV = "deleted"
DELETED_POLL_FACTOR = 3

#: Rendered board fragments by (viewer token, rev, role): every phone polls, but a change is rendered once.
_FRAGMENTS: OrderedDict[tuple[str, int, str], Markup] = OrderedDict()


def board_html(opened: Opened) -> Markup:
    """The rendered board fragment (``scoreboard/partials/board.html``) for this rev and role."""
    sess = opened.session
    return cached(
        _FRAGMENTS,
        (sess.view_token, sess.rev, opened.role),
        lambda: Markup(render_template("scoreboard/partials/board.html", **_board_context(opened))),
    )


def _board_context(opened: Opened) -> dict[str, Any]:
    sess, role = opened.session, opened.role
    db = get_db()
    board = service.board(db, opened)
    return {
        "s": sess,
        "role": role,
        "board": board,
        # A game no longer registered: no round can be entered or edited (board.not_installed says why).
        "installed": installed(sess),
        "undo": store.latest_change(db, sess.id) if role == "edit" else None,
        "poll": current_app.config["POLL_SECONDS"],
        "money": amount_formatter(sess, opened.loaded),
        "is_money": board.unit != "points",
        "chart": totals_chart(board, _axis_label(opened, board), _axis_unit(opened, board)),
        "chart_legend": chart_legend(board.players),
    }


def _axis_unit(opened: Opened, board: Board) -> int:
    """What the chart's axis steps are multiples of: 1 point, or one kan in mon."""
    return int(opened.session.options.get("mon_per_kan", 12)) if board.unit == "mon" else 1


def _axis_label(opened: Opened, board: Board) -> Callable[[int], str]:
    """The chart's axis values: points as they are, kan and mon in kan, other money with its
    thousands (Go-Stop's ``20,000``, as the totals write it)."""
    if board.unit == "points":
        return str
    if board.unit != "mon":
        return lambda amount: f"{amount:,}"
    per_kan = _axis_unit(opened, board)
    return lambda mon: f"{mon // per_kan} kan"


@bp.get("/s/<token>")
def scoreboard(token: str):
    """Totals, progress toward the target, the oya, the rounds, the winner; kept live by polling."""
    opened = load(token)
    sess, role = opened.session, opened.role
    privacy.remember(token, role)
    if request.headers.get("HX-Request") == "true":
        return board_html(opened)
    view_url = url_for("scoreboard.scoreboard", token=sess.view_token, _external=True)
    return render_template(
        "scoreboard/scoreboard.html",
        s=sess,
        role=role,
        board_html=board_html(opened),
        view_url=view_url,
        installed=installed(sess),
        first_visit=role == "edit" and not service.board(get_db(), opened).rounds,
    )


@bp.get("/s/<token>/poll")
def poll(token: str):
    """The board fragment when the session changed since ``rev``, else 204 (htmx then keeps the page).  A session
    deleted since (on another phone): 404 with what its 404 page says in the board's place, with its way back
    (Undo on the scorekeeper link, Your sessions on the viewer's); ``app.js`` swaps it in.  The notice polls on,
    slowly, with ``rev=deleted``: 204 while the session stays deleted, the board again once it is brought back."""
    try:
        opened = service.open_session(get_db(), token)
    except store.DeletedSessionError as e:
        if request.args.get("rev") == DELETED_REV:
            return "", 204
        message, back, label = deleted_words(e.session, e.role)
        page = render_template(
            "scoreboard/partials/deleted.html",
            message=message,
            back=back,
            back_label=label,
            poll_url=url_for("scoreboard.poll", token=token, rev=DELETED_REV),
            poll=current_app.config["POLL_SECONDS"] * DELETED_POLL_FACTOR,
        )
        return page, 404
    except store.NotFoundError:
        abort(404, NO_SESSION)
    if request.args.get("rev") == str(opened.session.rev):
        return "", 204
    return board_html(opened)


@bp.get("/s/<token>/qr.svg")
def qr(token: str):
    """A QR code of the viewer link."""
    sess = load(token).session
    buf = io.BytesIO()
    segno.make(url_for("scoreboard.scoreboard", token=sess.view_token, _external=True)).save(
        buf, kind="svg", scale=5, border=2, xmldecl=False
    )
    return Response(buf.getvalue(), mimetype="image/svg+xml")
