"""The JSON API under ``/api/v1``, mirroring the screens.

Bodies use the round JSON of the ``score`` CLI (the session's ``ruleset``,
``options``, ``players`` and ``dealer`` come from the session and may be
omitted).  Each view declares its request and response schemas
(``referee.web.schemas``): bodies are validated against them before the view runs,
and ``/api/v1/openapi.json`` is generated from them.  Errors are
``{"error": code, "message": text}`` with a fitting status.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, jsonify, url_for

from referee import store
from referee.errors import RefereeError
from referee.rescore import merged_options
from referee.rescore import rescore as what_if
from referee.web import get_db, privacy
from referee.web.board import (
    Board,
    RoundView,
    first_to_target_choices,
    holds_nothing,
    replay_error,
    stored_round,
    without_context,
)
from referee.web.errors import error_response
from referee.web.forms import check_preset
from referee.web.schemas import (
    ConflictOut,
    EditedRoundOut,
    EditRoundIn,
    ExportOut,
    NewRoundIn,
    NewSessionIn,
    RescoreOut,
    ResultOut,
    RoundIn,
    RulesIn,
    SavedRoundOut,
    SessionListOut,
    SessionOut,
    UndoConflictOut,
    UndoIn,
    UndoneOut,
    body_object,
    document,
    responses,
    validate,
)
from referee.web.sessions import board_of, export_data, load, round_or_404, score_input, session_from_export
from referee.web.what_if import compare, describe_rules, same_rules, session_game

bp = Blueprint("api", __name__, url_prefix="/api/v1")


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
        "next_round": dict(board.context),
        "winner": board.winner,
        "wins": board.wins,
        "target": board.target,
        "rounds": [_round_json(v) for v in board.rounds],
    }
    if role == "edit":
        out["edit_token"] = sess.edit_token
        latest = store.latest_change(get_db(), sess.id)
        out["last_change"] = None if latest is None else {"id": latest.id, "summary": latest.summary}
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
    data = stored_round(sess.family, body)
    if holds_nothing(data, sess.players):  # {} or {"piles": {}} would save a round of nothing
        abort(error_response(422, 'a round needs its cards or its points: "piles" (each player\'s captured cards), '
                             '"hands" (the dealt hands, for a lucky hand at the deal) or "totals" (points entered '
                             'on paper); all three are missing or empty', "bad-round"))
    return data


def _checked(
    sess: store.Session, data: dict[str, Any], dealer: str, context: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    try:
        return score_input(sess, data, dealer, context)
    except RefereeError as e:
        abort(error_response(422, e.message, e.code))
    except ImportError as e:
        abort(error_response(501, f"this game's scoring module is not installed ({e.name})", "unavailable"))


def _replayable(sess: store.Session, board: Board, data: dict[str, Any], round_id: int | None = None) -> None:
    """422 for a round the scoreboard could not replay (``board.replay_error``, the check the round form runs too)."""
    if (e := replay_error(sess, board, data, round_id)) is not None:
        abort(error_response(422, e.message, e.code))


@bp.get("/sessions")
@validate(resp=responses({200: SessionListOut}, 503))
def list_sessions():
    """The sessions this browser created or opened (every session with ``Authorization: Bearer <host key>``),
    viewer tokens only."""
    out = []
    for sess in privacy.visible_sessions()[0]:
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
@validate(json=NewSessionIn, resp=responses({201: SessionOut}, 400, 413, 422, 501, 503))
def create_session():
    """Create a session from ``{name, ruleset, options, players, dealer, rounds?}``."""
    body = body_object()
    try:
        created = session_from_export({"name": body["name"], "game": body})
    except RefereeError as e:
        return error_response(422, e.message, e.code)
    sess = store.create_session(get_db(), **created)
    privacy.remember(sess.edit_token, "edit")
    return jsonify(session_json(sess, "edit")), 201


@bp.get("/sessions/<token>")
@validate(resp=responses({200: SessionOut}, 404, 503))
def get_session(token: str):
    """One session with its standings and rounds."""
    sess, role = load(token)
    return jsonify(session_json(sess, role))


@bp.get("/sessions/<token>/export")
@validate(resp=responses({200: ExportOut}, 404, 503))
def export(token: str):
    """The session export (as the Export JSON button)."""
    sess, _ = load(token)
    return jsonify(export_data(sess))


@bp.post("/sessions/<token>/preview")
@validate(json=RoundIn, resp=responses({200: ResultOut}, 400, 404, 413, 422, 501, 503))
def preview(token: str):
    """Score a round as the next round, without saving it."""
    sess, _ = load(token)
    board = board_of(sess)
    data = _round_input(sess, body_object(), board.dealer, board.context)
    return jsonify(_checked(sess, data, board.dealer, board.context))


@bp.post("/sessions/<token>/rounds")
@validate(
    json=NewRoundIn, resp=responses({201: SavedRoundOut, 200: SavedRoundOut}, 400, 403, 404, 409, 413, 422, 501, 503)
)
def add_round(token: str):
    """Append a round.

    Send a fresh ``form_token`` (any string of 1 to 200 characters, e.g. a UUID) as the idempotency key: a
    retried request with the same key in the same session saves the round once and answers 200 with the saved
    round. When the round saved with that key has since been deleted or undone, the answer is 409
    ``form-token-spent``; a different round sent with a key already used is 422 ``form-token-reused``.
    Without a key, every request saves a new round.
    """
    sess, _ = load(token, edit=True)
    body = body_object()
    form_token = body.get("form_token")
    digest = request_digest(body) if form_token else None
    try:
        saved = store.saved_with_form_token(get_db(), sess.id, form_token, digest) if form_token else None
        if saved is not None:  # a retry: answered as the first time, even if the game has moved on since
            return _saved_round(sess, saved, created=False)
    except store.SpentFormTokenError as e:
        return error_response(409, str(e), "form-token-spent")
    except store.FormTokenReusedError as e:
        return error_response(422, str(e), "form-token-reused")
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
    _replayable(sess, board, data)
    try:
        row, created = store.add_round(get_db(), sess.id, data, form_token, digest)
    except store.SpentFormTokenError as e:
        return error_response(409, str(e), "form-token-spent")
    except store.FormTokenReusedError as e:
        return error_response(422, str(e), "form-token-reused")
    return _saved_round(sess, row, created)


def request_digest(body: Mapping[str, Any]) -> str:
    """What names a round request for its ``form_token``: a SHA-256 of its body without the token
    (canonical JSON, so key order and spacing do not count)."""
    rest = {k: v for k, v in body.items() if k != "form_token"}
    text = json.dumps(rest, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _saved_round(sess: store.Session, row: store.RoundRow, created: bool):
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
@validate(
    json=EditRoundIn,
    resp=responses({200: EditedRoundOut}, 400, 403, 404, 409, 413, 422, 501, 503, HTTP_409=ConflictOut),
)
def edit_round(token: str, round_id: int):
    """Replace a round; ``version`` (from GET) is required, and a stale one gets 409."""
    sess, _ = load(token, edit=True)
    round_or_404(sess, round_id)
    body = body_object()
    version = body["version"]
    board = board_of(sess)
    view = next((v for v in board.rounds if v.id == round_id), None)
    dealer = view.dealer if view else board.dealer
    context = view.context if view else board.context
    data = _round_input(sess, body, dealer, context)
    _checked(sess, data, dealer, context)
    _replayable(sess, board, data, round_id)
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
@validate(resp=responses({204: None}, 403, 404, 503))
def delete_round(token: str, round_id: int):
    """Delete a round."""
    sess, _ = load(token, edit=True)
    round_or_404(sess, round_id)
    store.delete_round(get_db(), sess.id, round_id)
    return "", 204


@bp.post("/sessions/<token>/undo")
@validate(
    json=UndoIn, resp=responses({200: UndoneOut}, 400, 403, 404, 409, 413, 422, 503, HTTP_409=UndoConflictOut)
)
def undo(token: str):
    """Undo the latest change; ``change`` (its id, from ``last_change``) makes a repeated request undo nothing more.

    409 ``already-undone`` (with ``last_change``) when that change is no longer the latest, ``nothing-to-undo``
    when there is none.
    """
    sess, _ = load(token, edit=True)
    change_id = body_object().get("change")
    try:
        undone = store.undo(get_db(), sess.id, change_id)
    except store.UndoMismatchError as e:
        latest = None if e.latest is None else {"id": e.latest.id, "summary": e.latest.summary}
        return jsonify({"error": "already-undone", "message": "that change was already undone; nothing else was undone",
                        "last_change": latest}), 409
    if undone is None:
        return jsonify({"error": "nothing-to-undo", "message": "there is nothing to undo", "last_change": None}), 409
    sess = store.get_session(get_db(), sess.id)
    return jsonify({"undone": undone, "session": session_json(sess, "edit")})


def _rules_body(sess: store.Session) -> tuple[str, dict[str, Any]]:
    """``{"ruleset"?, "options"?}`` (``RulesIn``, its shape already validated): the what-if rules,
    ``options`` on top of the session's own (or of the new preset's defaults).  422 for a ruleset
    that is not a preset."""
    body = body_object()
    ruleset, options = body.get("ruleset"), body.get("options", {})
    try:
        if ruleset is not None:
            check_preset(ruleset)
        return merged_options({"ruleset": sess.ruleset, "options": sess.options}, ruleset, options)
    except RefereeError as e:
        abort(error_response(422, e.message, e.code))


@bp.post("/sessions/<token>/rescore")
@validate(json=RulesIn, resp=responses({200: RescoreOut}, 400, 404, 413, 422, 503))
def rescore(token: str):
    """What if: the session's history re-scored under other rules, round by round (saves nothing).

    ``options`` go on top of the session's own options, or of the new preset's defaults when ``ruleset``
    names another preset.  The answer compares each round before and after (a round the new rules reject,
    or play after the game is over, has null scores and a note) and the final totals and winners: the same
    JSON as ``hanafuda-referee rescore``.  The viewer link may ask too.
    """
    sess, _ = load(token)
    ruleset, options = _rules_body(sess)
    try:
        return jsonify(compare(sess, ruleset, options))
    except RefereeError as e:
        return error_response(422, e.message, e.code)


@bp.put("/sessions/<token>/rules")
@validate(json=RulesIn, resp=responses({200: SessionOut}, 400, 403, 404, 413, 422, 503))
def set_rules(token: str):
    """Fix a rule afterwards: change the session's ruleset and options (the body as for ``/rescore``).

    The new rules must load and score this session; the history is re-scored, the change is logged, and
    Undo (``last_change``) restores the old rules.
    """
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
@validate(resp=responses({200: None}))
def openapi():
    """The OpenAPI 3.1 document of this API, generated from the schemas requests are validated with."""
    return jsonify(document(url_for("api.list_sessions", _external=True).rsplit("/sessions", 1)[0]))
