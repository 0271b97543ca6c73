"""The JSON API under ``/api/v1``, mirroring the screens.

Bodies use the round JSON of the ``score`` CLI (the session's ``ruleset``,
``options``, ``players`` and ``dealer`` come from the session and may be
omitted).  Errors are ``{"error": code, "message": text}`` with a fitting
status; ``/api/v1/openapi.json`` documents it all.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, jsonify, request, url_for

from referee import store
from referee.errors import RefereeError
from referee.web import get_db
from referee.web.board import RoundView, stored_round
from referee.web.errors import error_response
from referee.web.sessions import board_of, export_data, load, round_or_404, score_input, session_from_export

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def _body() -> dict[str, Any]:
    try:
        data = request.get_json(silent=True)
        if data is None and request.is_json and request.data:
            json.loads(request.data)  # only to name what is wrong with it
    except RecursionError:
        abort(error_response(400, "the JSON body is nested too deeply", "bad-request"))
    except ValueError as e:  # not JSON, or a number over Python's integer digit limit
        abort(error_response(400, f"the body is not valid JSON: {str(e)[:200]}", "bad-request"))
    if not isinstance(data, dict):
        abort(error_response(400, "expected a JSON object body (Content-Type: application/json)", "bad-request"))
    return data


def _round_json(v: RoundView) -> dict[str, Any]:
    return {
        "id": v.id,
        "round": v.number,
        "version": v.version,
        "dealer": v.dealer,
        "input": v.data,
        "scores": v.scores,
        "totals": v.totals,
        "void": v.void,
        "instant_win": v.instant_win,
        "game_winner": v.game_winner,
        "warnings": v.warnings,
        "explanation": v.lines,
        "payments": v.payments,
        "error": v.error,
    }


def session_json(sess: store.Session, role: str) -> dict[str, Any]:
    """A session with its standings; the edit token only for its scorekeeper."""
    board = board_of(sess)
    out = {
        "name": sess.name,
        "ruleset": sess.ruleset,
        "family": sess.family,
        "options": sess.options,
        "players": list(sess.players),
        "dealer": sess.dealer,
        "rev": sess.rev,
        "updated": sess.updated,
        "view_token": sess.view_token,
        "view_url": url_for("sessions.scoreboard", token=sess.view_token, _external=True),
        "unit": board.unit,
        "totals": board.totals,
        "next_dealer": board.dealer,
        "winner": board.winner,
        "wins": board.wins,
        "target": board.target,
        "rounds": [_round_json(v) for v in board.rounds],
    }
    if role == "edit":
        out["edit_token"] = sess.edit_token
    return out


def _round_input(sess: store.Session, body: dict[str, Any], dealer: str) -> dict[str, Any]:
    """The round to store from a request body; session keys (and ``dealer``, this round's oya)
    may be repeated but must match."""
    session_values = {"ruleset": sess.ruleset, "options": sess.options, "players": list(sess.players)}
    for key, value in session_values.items():
        if key in body and body[key] != value:
            abort(error_response(422, f'"{key}" differs from the session\'s; omit it', "bad-round"))
    if "dealer" in body and body["dealer"] != dealer:
        abort(error_response(422, f'"dealer" must be this round\'s oya, {dealer!r} (or left out)', "bad-round"))
    return stored_round(sess.family, body)


def _checked(
    sess: store.Session, data: dict[str, Any], dealer: str, context: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    try:
        return score_input(sess, data, dealer, context)
    except RefereeError as e:
        abort(error_response(422, e.message, e.code))
    except ImportError as e:
        abort(error_response(501, f"this game's scoring module is not installed ({e.name})", "unavailable"))


@bp.get("/sessions")
def list_sessions():
    """All sessions (viewer tokens only)."""
    out = []
    for sess in store.list_sessions(get_db()):
        board = board_of(sess)
        out.append(
            {
                "name": sess.name,
                "ruleset": sess.ruleset,
                "players": list(sess.players),
                "updated": sess.updated,
                "view_token": sess.view_token,
                "leader": board.leader,
                "rounds": len(board.rounds),
                "winner": board.winner,
            }
        )
    return jsonify({"sessions": out})


@bp.post("/sessions")
def create_session():
    """Create a session from ``{name, ruleset, options, players, dealer, rounds?}``."""
    body = _body()
    if not body.get("name") or not isinstance(body.get("name"), str):
        return error_response(422, '"name" is required (the session\'s name)', "bad-request")
    try:
        created = session_from_export({"name": body["name"], "game": body})
    except RefereeError as e:
        return error_response(422, e.message, e.code)
    sess = store.create_session(get_db(), **created)
    return jsonify(session_json(sess, "edit")), 201


@bp.get("/sessions/<token>")
def get_session(token: str):
    """One session with its standings and rounds."""
    sess, role = load(token)
    return jsonify(session_json(sess, role))


@bp.get("/sessions/<token>/export")
def export(token: str):
    """The session export (as the Export JSON button)."""
    sess, _ = load(token)
    return jsonify(export_data(sess))


@bp.post("/sessions/<token>/preview")
def preview(token: str):
    """Score a round as the next round, without saving it."""
    sess, _ = load(token)
    board = board_of(sess)
    data = _round_input(sess, _body(), board.dealer)
    return jsonify(_checked(sess, data, board.dealer, board.context))


@bp.post("/sessions/<token>/rounds")
def add_round(token: str):
    """Append a round; ``form_token`` (optional, the idempotency key) makes a retried request save it once."""
    sess, _ = load(token, edit=True)
    body = _body()
    form_token = body.get("form_token")
    if form_token is not None and (not isinstance(form_token, str) or not 1 <= len(form_token) <= 200):
        return error_response(
            400,
            '"form_token" must be a string of 1 to 200 characters (the idempotency key), or left out',
            "bad-request",
        )
    board = board_of(sess)
    if board.over:
        ended = f"{board.winner} won" if board.winner else "it ended in a draw"
        return error_response(409, f"the game is over: {ended}", "game-over")
    data = _round_input(sess, body, board.dealer)
    _checked(sess, data, board.dealer, board.context)
    row, created = store.add_round(get_db(), sess.id, data, form_token)
    sess = store.get_session(get_db(), sess.id)
    return jsonify(
        {
            "id": row.id,
            "round": row.position,
            "version": row.version,
            "created": created,
            "session": session_json(sess, "edit"),
        }
    ), 201 if created else 200


@bp.put("/sessions/<token>/rounds/<int:round_id>")
def edit_round(token: str, round_id: int):
    """Replace a round; ``version`` (from GET) is required, and a stale one gets 409."""
    sess, _ = load(token, edit=True)
    round_or_404(sess, round_id)
    body = _body()
    version = body.get("version")
    if not isinstance(version, int):
        return error_response(422, '"version" is required: the round\'s version when you read it', "bad-request")
    board = board_of(sess)
    view = next((v for v in board.rounds if v.id == round_id), None)
    dealer = view.dealer if view else board.dealer
    data = _round_input(sess, body, dealer)
    _checked(sess, data, dealer, view.context if view else board.context)
    try:
        row = store.update_round(get_db(), sess.id, round_id, data, version)
    except store.ConflictError as e:
        resp = jsonify(
            {
                "error": "conflict",
                "message": "this round changed since you opened it",
                "current": None if e.current is None else {"version": e.current.version, "input": e.current.data},
            }
        )
        return resp, 409
    sess = store.get_session(get_db(), sess.id)
    return jsonify(
        {
            "id": row.id,
            "round": row.position,
            "version": row.version,
            "session": session_json(sess, "edit"),
        }
    )


@bp.delete("/sessions/<token>/rounds/<int:round_id>")
def delete_round(token: str, round_id: int):
    """Delete a round."""
    sess, _ = load(token, edit=True)
    round_or_404(sess, round_id)
    store.delete_round(get_db(), sess.id, round_id)
    return "", 204


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI 3.1 document of this API."""
    from referee.web.openapi import document

    return jsonify(document(url_for("api.list_sessions", _external=True).rsplit("/sessions", 1)[0]))
