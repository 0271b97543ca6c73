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
from referee.rescore import merged_options
from referee.rescore import rescore as what_if
from referee.web import get_db
from referee.web.board import RoundView, first_to_target_choices, stored_round, without_context
from referee.web.errors import error_response
from referee.web.forms import check_preset
from referee.web.sessions import board_of, export_data, load, round_or_404, score_input, session_from_export
from referee.web.what_if import compare, describe_rules, same_rules, session_game

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


def _round_input(
    sess: store.Session, body: dict[str, Any], dealer: str, context: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The round to store from a request body; session keys (and ``dealer``, this round's oya,
    and its game context, such as Koi-Koi's ``month``) may be repeated but must match."""
    session_values = {"ruleset": sess.ruleset, "options": sess.options, "players": list(sess.players)}
    for key, value in session_values.items():
        if key in body and body[key] != value:
            abort(error_response(422, f'"{key}" differs from the session\'s; omit it', "bad-round"))
    if "dealer" in body and body["dealer"] != dealer:
        abort(error_response(422, f'"dealer" must be this round\'s oya, {dealer!r} (or left out)', "bad-round"))
    body, mismatch = without_context(sess.family, body, context or {})
    if mismatch:
        abort(error_response(422, mismatch, "bad-round"))
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
    data = _round_input(sess, _body(), board.dealer, board.context)
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
    data = _round_input(sess, body, board.dealer, board.context)
    result = _checked(sess, data, board.dealer, board.context)
    first = first_to_target_choices(sess, board, len(board.rounds) + 1, result)
    if first and data.get("first_to_target") not in first:
        return error_response(422, f"{' and '.join(first)} reach the target in this round: say who got there first "
                              f'("first_to_target": one of {first})', "missing-decision")
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
    context = view.context if view else board.context
    data = _round_input(sess, body, dealer, context)
    _checked(sess, data, dealer, context)
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


def _rules_body(sess: store.Session) -> tuple[str, dict[str, Any]]:
    """``{"ruleset"?, "options"?}``: the what-if rules, ``options`` on top of the session's own (or of
    the new preset's defaults).  422 for a bad shape or a ruleset that is not a preset."""
    body = _body()
    ruleset, options = body.get("ruleset"), body.get("options", {})
    if (ruleset is not None and not isinstance(ruleset, str)) or not isinstance(options, dict):
        abort(error_response(422, '"ruleset" must be a preset name and "options" an object', "bad-ruleset"))
    try:
        if ruleset is not None:
            check_preset(ruleset)
        return merged_options({"ruleset": sess.ruleset, "options": sess.options}, ruleset, options)
    except RefereeError as e:
        abort(error_response(422, e.message, e.code))


@bp.post("/sessions/<token>/rescore")
def rescore(token: str):
    """What if: the session's history re-scored under other rules, round by round (read-only)."""
    sess, _ = load(token)
    ruleset, options = _rules_body(sess)
    try:
        return jsonify(compare(sess, ruleset, options))
    except RefereeError as e:
        return error_response(422, e.message, e.code)


@bp.put("/sessions/<token>/rules")
def set_rules(token: str):
    """Fix a rule afterwards: change the session's ruleset and options; the history is re-scored,
    the change is logged and the scoreboard's Undo restores the old rules."""
    sess, _ = load(token, edit=True)
    ruleset, options = _rules_body(sess)
    if same_rules(sess, ruleset, options):  # a retried request: nothing to change or log
        return jsonify(session_json(sess, "edit"))
    try:
        what_if(session_game(sess), ruleset, options)  # the new rules must load and score this session
    except RefereeError as e:
        return error_response(422, e.message, e.code)
    sess = store.set_rules(get_db(), sess.id, ruleset, options, f"change rules to {describe_rules(ruleset, options)}")
    return jsonify(session_json(sess, "edit"))


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI 3.1 document of this API."""
    from referee.web.openapi import document

    return jsonify(document(url_for("api.list_sessions", _external=True).rsplit("/sessions", 1)[0]))
