"""The JSON API under ``/api/v1``, mirroring the screens.

Bodies use the round JSON of the ``score`` CLI (the session's ``ruleset``,
``options``, ``players`` and ``dealer`` come from the session and may be
omitted).  Each view declares its request and response schemas
(``referee.web.schemas``): bodies are validated against them before the view runs,
and ``/api/v1/openapi.json`` is generated from them.  Errors are
``{"error": code, "message": text}`` with a fitting status; ``/rescore`` and ``PUT /rules`` add
``problems`` when the rules refuse options: one per refused option, every one at once.

A round goes through the service (``referee.web.service``), as the round form's does: the
session loaded once, the round scored once, checked as the board will replay it, saved, and
the board after it built once.  ``POST /api/v1/detect`` is the photo flow's detector on its own.

A view module: imports no other view module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, jsonify, request, url_for

from referee import store
from referee.errors import RefereeError
from referee.family import Family
from referee.rescore import merged_options
from referee.ruleset import RefusedOptionsError, every_refusal
from referee.web import photos, privacy
from referee.web.access import load, load_keeper, no_round, round_or_404
from referee.web.board import Board, RoundView
from referee.web.db import get_db
from referee.web.errors import error_response
from referee.web.evidence import describe_error, stream_size
from referee.web.forms.options import check_preset
from referee.web.round_shape import holds_nothing, stored_round, without_context
from referee.web.schemas.inputs import (
    DeleteRoundQuery,
    DeleteSessionQuery,
    DetectIn,
    EditRoundIn,
    NewRoundIn,
    NewSessionIn,
    RestoreIn,
    RoundIn,
    RulesIn,
    SetRulesIn,
    UndoIn,
)
from referee.web.schemas.outputs import (
    ConflictOut,
    DetectionsOut,
    EditedRoundOut,
    ExportOut,
    RescoreOut,
    RestoredOut,
    RestoreRefusedOut,
    ResultOut,
    RulesRefusedOut,
    SavedRoundOut,
    SessionListOut,
    SessionOut,
    UndoConflictOut,
    UndoneOut,
)
from referee.web.schemas.validation import body_object, document, responses, validate
from referee.web.service import archive, rounds
from referee.web.service import rules as what_if
from referee.web.service import session as service
from referee.web.service.session import Opened
from referee.wording import words

bp = Blueprint("api", __name__, url_prefix="/api/v1")


@bp.before_request
def _photo_limit() -> None:
    # A photo is larger than the app-wide body limit: the detect route accepts one (before
    # its form is validated, and so read).
    if request.endpoint == "api.detect_api":
        photos.limit_upload()


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


def session_json(opened: Opened) -> dict[str, Any]:
    """A session with its standings; the edit token only for its scorekeeper."""
    sess, role = opened.session, opened.role
    board = service.board(get_db(), opened)
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
        "view_url": url_for("scoreboard.scoreboard", token=sess.view_token, _external=True),
        "unit": board.unit,
        "totals": board.totals,
        "next_dealer": board.dealer,
        "next_round": dict(board.context),
        "winner": board.winner,
        "wins": board.wins,
        "target": board.target,
        "goal": {"won": board.goal, "target": board.goal_target, "rounds": board.goal_rounds,
                 "match_games": board.match_games},
        "rounds": [_round_json(v) for v in board.rounds],
    }
    if role == "edit":
        out["edit_token"] = sess.edit_token
        latest = store.latest_change(get_db(), sess.id)
        out["last_change"] = _change_json(latest)
    return out


def _change_json(change) -> dict[str, Any] | None:
    """A logged change as the API names it (``last_change``): its id and summary; None for no change."""
    return None if change is None else {"id": change.id, "summary": change.summary}


def _change_refused(status: int, code: str, said: str, latest):
    """A refused undo or restore: ``error``, ``message`` and the change in force as ``last_change``."""
    return jsonify({"error": code, "message": said, "last_change": _change_json(latest)}), status


def _round_input(
    opened: Opened, body: dict[str, Any], dealer: str, context: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The round to store from a request body; session keys (and ``dealer``, this round's oya,
    and its game context, such as Koi-Koi's ``month``) may be repeated but must match."""
    sess = opened.session
    session_values = {"ruleset": sess.ruleset, "options": sess.options, "players": list(sess.players)}
    for key, value in session_values.items():
        if key in body and body[key] != value:
            abort(error_response(422, f'"{key}" differs from the session\'s; omit it', "bad-round"))
    if "dealer" in body and body["dealer"] != dealer:
        abort(error_response(422, f'"dealer" must be this round\'s oya, {dealer!r} (or left out)', "bad-round"))
    body, mismatch = without_context(opened.family, body, context or {})
    if mismatch:
        abort(error_response(422, mismatch, "bad-round"))
    data = stored_round(opened.family, body)
    if holds_nothing(data, sess.players):  # {} or {"piles": {}} would save a round of nothing
        abort(error_response(422, _needs_content(opened.family), "bad-round"))
    return data


#: What a round's content keys hold, in the order a refusal of a round of nothing names them.
_CONTENT_KEYS = {"piles": "each player's captured cards", "hands": "the dealt hands, for a lucky hand at the deal",
                 "instant": "a chongtong at the deal", "totals": "points entered on paper"}


def _needs_content(family: Family) -> str:
    """The 422 message for a round of nothing, naming the content keys the family's rounds take (``round_keys``)."""
    keys = [f'"{k}" ({gloss})' for k, gloss in _CONTENT_KEYS.items() if k in family.round_keys]
    which = {1: "it is", 2: "both are", 3: "all three are"}.get(len(keys), "all four are")
    return f"a round needs its cards or its points: {words(keys, 'or')}; {which} missing or empty"


def _checked(
    opened: Opened, data: dict[str, Any], dealer: str, context: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The round scored (``service.rounds.score``); 422 with the rules' words, 501 without the module."""
    try:
        return rounds.score(opened, data, dealer, context)
    except RefereeError as e:
        abort(error_response(422, e.message, e.code))
    except ImportError as e:
        abort(error_response(501, f"this game's scoring module is not installed ({e.name})", "unavailable"))


def _replayable(opened: Opened, board: Board, data: dict[str, Any], round_id: int | None = None) -> None:
    """422 for a round the scoreboard could not replay (``board.replay_error``, the check the round form runs too)."""
    if (e := rounds.replay_error(opened, board, data, round_id)) is not None:
        abort(error_response(422, e.message, e.code))


@bp.get("/sessions")
@validate(resp=responses({200: SessionListOut}, 401, 503))
def list_sessions():
    """The sessions this browser created or opened (every session with ``Authorization: Bearer <host key>``),
    viewer tokens only; 401 ``wrong-host-key`` for a Bearer key that is not the host key."""
    if privacy.wrong_host_key():
        resp = error_response(401, "That is not this server's host key (the one hanafuda-referee serve printed at "
                              "start, kept in DATA_DIR/host_key). Send no Authorization header to list only "
                              "this client's sessions.", "wrong-host-key")
        resp.headers["WWW-Authenticate"] = "Bearer"
        return resp
    out = []
    for sess in privacy.visible_sessions()[0]:
        board = service.board(get_db(), Opened(sess))
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


#: 422 on the new session: its rules as on a route that takes other rules (``_rules_refused``).
_NEW_SESSION_WORDS = {422: "The request breaks the schema, or the session is invalid (its players, rounds or "
                      "rules); `problems` names every option the rules refuse"}


@bp.post("/sessions")
@validate(json=NewSessionIn, resp=responses({201: SessionOut, 200: SessionOut}, 400, 413, 422, 501, 503,
                                            words=_NEW_SESSION_WORDS, HTTP_422=RulesRefusedOut))
def create_session():
    """Create a session from ``{name, ruleset, options, players, dealer, rounds?, form_token?}``.

    ``form_token`` is the idempotency key: a retry of the same request with the same key (a
    lost reply, a double tap) creates nothing and gets the first session back with 200
    instead of 201; another request with a used key is refused with 422 ``form-token-reused``.
    API keys are kept apart from the web forms' one-time tokens.  Options the rules refuse are named every one
    at once, in ``problems``, as for ``PUT /rules``."""
    body = body_object()
    try:
        created = archive.session_from_export({"name": body["name"], "game": body})
    except RefereeError as e:
        return _rules_refused(e)
    key = body.get("form_token")
    try:
        made, fresh = store.create_sessions_once(
            get_db(), f"api:{key}" if key else None, [created], rounds.request_digest(body) if key else None
        )
    except store.SessionKeyReusedError as e:
        return error_response(422, str(e), "form-token-reused")
    sess = made[0]
    privacy.remember(sess.edit_token, "edit")
    return jsonify(session_json(Opened(sess))), 201 if fresh else 200


@bp.get("/sessions/<token>")
@validate(resp=responses({200: SessionOut}, 404, 503))
def get_session(token: str):
    """One session with its standings and rounds."""
    return jsonify(session_json(load(token)))


@bp.get("/sessions/<token>/export")
@validate(resp=responses({200: ExportOut}, 404, 503))
def export(token: str):
    """The session export (as the Export JSON button)."""
    return jsonify(archive.export_data(get_db(), load(token).session))


@bp.post("/sessions/<token>/preview")
@validate(json=RoundIn, resp=responses({200: ResultOut}, 400, 404, 413, 422, 501, 503))
def preview(token: str):
    """Score a round as the next round, without saving it."""
    opened = load(token)
    board = service.board(get_db(), opened)
    data = _round_input(opened, body_object(), board.dealer, board.context)
    return jsonify(_checked(opened, data, board.dealer, board.context))


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
    opened = load(token, edit=True)
    body = body_object()
    form_token = body.get("form_token")
    digest = rounds.request_digest(body) if form_token else None
    try:
        saved = store.saved_with_form_token(get_db(), opened.session.id, form_token, digest) if form_token else None
        if saved is not None:  # a retry: answered as the first time, even if the game has moved on since
            return _saved_round(opened, saved, created=False)
    except store.SpentFormTokenError as e:
        return error_response(409, str(e), "form-token-spent")
    except store.FormTokenReusedError as e:
        return error_response(422, str(e), "form-token-reused")
    board = service.board(get_db(), opened)
    if board.over:
        ended = f"{board.winner} won" if board.winner else "it ended in a draw"
        return error_response(409, f"the game is over: {ended}", "game-over")
    data = _round_input(opened, body, board.dealer, board.context)
    result = _checked(opened, data, board.dealer, board.context)
    first = rounds.first_to_target(opened, board, len(board.rounds) + 1, result)
    if first and data.get("first_to_target") not in first:
        return error_response(422, f"{' and '.join(first)} reach the target in this round: say who got there first "
                              f'("first_to_target": one of {first})', "missing-decision")
    _replayable(opened, board, data)
    try:
        row, created = rounds.add(get_db(), opened, data, form_token, digest)
    except store.SpentFormTokenError as e:
        return error_response(409, str(e), "form-token-spent")
    except store.FormTokenReusedError as e:
        return error_response(422, str(e), "form-token-reused")
    return _saved_round(opened, row, created)


def _round_answer(opened: Opened, row: store.RoundRow, **flag: bool) -> dict:
    """A saved round's answer: its id, position and version, ``flag`` (``created`` or ``changed``), and the
    session as it is now."""
    return {
        "id": row.id,
        "round": row.position,
        "version": row.version,
        **flag,
        "session": session_json(service.saved(get_db(), opened)),
    }


def _saved_round(opened: Opened, row: store.RoundRow, created: bool):
    return jsonify(_round_answer(opened, row, created=created)), 201 if created else 200


def _change_key(key: str | None, route: str, body: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """The store's token and digest for an edit, delete or rules change's idempotency key (None, None
    without one): API keys kept apart from the web forms' one-time tokens, and the digest naming the
    route (``route``, e.g. ``"PUT /rounds/7"``) with the body, so one key never names two requests."""
    if not key:
        return None, None
    return f"api:{key}", rounds.request_digest({**body, "_route": route})


def _key_refusal(e: store.ChangeTokenUsedError, gone: str | None = None) -> tuple[int, str, str] | None:
    """(status, code, message) for a key that already made a change and cannot be answered as a retry:
    409 ``form-token-spent`` when that change was since undone (or ``gone`` says what since took it away),
    422 ``form-token-reused`` when another request made it; None for a retry to answer."""
    if e.summary is None or gone:
        since = gone or "that change has since been undone"
        made = "a change" if e.summary is None else f"“{e.summary}”"
        return 409, "form-token-spent", (f"this form_token already made {made} in this session, and {since}; "
                                         "nothing was changed (send a new form_token to make the change again)")
    if not e.same:
        return 422, "form-token-reused", (f"this form_token already made “{e.summary}” in this session from a "
                                          "different request; nothing was changed (send a new form_token for a new "
                                          "change, or the same request to retry it)")
    return None


def _key_refused(e: store.ChangeTokenUsedError):
    """``_key_refusal`` as the JSON error, or None for a retry to answer."""
    refusal = _key_refusal(e)
    return None if refusal is None else error_response(refusal[0], refusal[2], refusal[1])


def _round_version(row: store.RoundRow | None) -> dict[str, Any] | None:
    return None if row is None else {"version": row.version, "input": row.data}


def _edit_retried(opened: Opened, round_id: int, e: store.ChangeTokenUsedError):
    """A PUT of a round whose key already made a change: the round as it is now (``changed`` false:
    this request changed nothing), or the key's refusal (a 409 with the round as saved now, as a stale
    edit's)."""
    try:
        row = store.get_round(get_db(), opened.session.id, round_id) if 0 <= round_id < 2**63 else None
    except store.NotFoundError:
        row = None
    refusal = _key_refusal(e, None if row is not None else "that round has since been deleted")
    if refusal is None:
        return _edited_round(opened, row, changed=False)
    status, code, message = refusal
    if status == 409:
        return jsonify({"error": code, "message": message, "current": _round_version(row)}), 409
    return error_response(status, message, code)


def _edited_round(opened: Opened, row: store.RoundRow, changed: bool):
    return jsonify(_round_answer(opened, row, changed=changed))


@bp.put("/sessions/<token>/rounds/<int:round_id>")
@validate(
    json=EditRoundIn,
    resp=responses({200: EditedRoundOut}, 400, 403, 404, 409, 413, 422, 501, 503, HTTP_409=ConflictOut),
)
def edit_round(token: str, round_id: int):
    """Replace a round; ``version`` (from GET) is required, and a stale one gets 409.  ``changed`` false: the
    round already held this input (its cards in any order), so nothing was saved or logged.

    ``form_token`` (optional, 1 to 200 characters) is the idempotency key, as for POST: a retry of the same
    request with the same key in this session changes the round once and answers 200 with the round as it is
    now and ``changed`` false, even if the game has moved on since.  When that change has since been undone,
    or the round deleted, the answer is 409 ``form-token-spent``; another request (another round, body or
    route) with a used key is 422 ``form-token-reused``.  A request that changed nothing keeps no key.
    Without a key, a retry is answered as any request (409 ``conflict``: its version is stale).
    """
    opened = load(token, edit=True)
    body = body_object()
    key, digest = _change_key(body.get("form_token"), f"PUT /rounds/{round_id}", body)
    if key:
        try:  # a retry: answered before the round is checked against a game that may have moved on
            store.check_change_token(get_db(), opened.session.id, key, digest)
        except store.ChangeTokenUsedError as e:
            return _edit_retried(opened, round_id, e)
    round_or_404(opened.session, round_id)
    version = body["version"]
    board = service.board(get_db(), opened)
    view = next((v for v in board.rounds if v.id == round_id), None)
    dealer = view.dealer if view else board.dealer
    context = view.context if view else board.context
    data = _round_input(opened, body, dealer, context)
    _checked(opened, data, dealer, context)
    _replayable(opened, board, data, round_id)
    try:
        row, changed = rounds.update(get_db(), opened, round_id, data, version, key, digest)
    except store.ChangeTokenUsedError as e:  # the same key, made while this request was checked
        return _edit_retried(opened, round_id, e)
    except store.ConflictError as e:
        said = "this round changed since you opened it"
        return jsonify({"error": "conflict", "message": said, "current": _round_version(e.current)}), 409
    return _edited_round(opened, row, changed)


@bp.delete("/sessions/<token>/rounds/<int:round_id>")
@validate(query=DeleteRoundQuery, resp=responses({204: None}, 403, 404, 409, 422, 503))
def delete_round(token: str, round_id: int):
    """Delete a round.

    ``?form_token=`` (optional, 1 to 200 characters, in the query string) is the idempotency key, as for POST:
    a retry with the same key in this session deletes the round once and answers 204 again.  When that delete
    has since been undone, the answer is 409 ``form-token-spent``; the key used for another request (another
    round, or another route) is 422 ``form-token-reused``.  Without a key, a retry of a delete that was made
    gets 404.
    """
    sess = load(token, edit=True).session
    key, digest = _change_key(request.args.get("form_token"), f"DELETE /rounds/{round_id}", {})
    try:
        if key:  # a retry: answered before the round is looked up (it is gone)
            store.check_change_token(get_db(), sess.id, key, digest)
        round_or_404(sess, round_id)
        store.delete_round(get_db(), sess.id, round_id, key, digest)
    except store.ChangeTokenUsedError as e:
        if (refused := _key_refused(e)) is not None:
            return refused
    except store.NotFoundError:  # another request deleted it first
        no_round(sess)
    return "", 204


@bp.delete("/sessions/<token>")
@validate(query=DeleteSessionQuery, resp=responses({204: None}, 403, 404, 409, 422, 503))
def delete_session(token: str):
    """Delete a session (the scorekeeper token): it leaves every list and its routes answer 404
    ``session-deleted``, until ``POST .../restore`` brings it back whole (nothing of it is lost).

    ``?form_token=`` (optional, 1 to 200 characters, in the query string) is the idempotency key, as for
    DELETE of a round: a retry with the same key deletes the session once and answers 204 again.  When that
    delete has since been undone (restored), the answer is 409 ``form-token-spent``; the key used for another
    request of this session is 422 ``form-token-reused``.  Without a key, a retry gets 404 ``session-deleted``.
    """
    sess, gone = load_keeper(token)
    key, digest = _change_key(request.args.get("form_token"), "DELETE /sessions", {})
    try:
        if key:  # a retry: answered before the session is looked at (it is deleted)
            store.check_change_token(get_db(), sess.id, key, digest)
        if gone:
            raise store.DeletedSessionError(sess)
        store.delete_session(get_db(), sess.id, key, digest)
    except store.ChangeTokenUsedError as e:
        if (refused := _key_refused(e)) is not None:
            return refused
    except store.DeletedSessionError:  # deleted before (another client, or a retry without a key)
        return error_response(404, "this session is already deleted; nothing more was deleted (POST "
                              "/api/v1/sessions/<this token>/restore brings it back)", "session-deleted")
    return "", 204


@bp.post("/sessions/<token>/restore")
@validate(json=RestoreIn, resp=responses({200: RestoredOut}, 400, 403, 404, 409, 413, 422, 503,
                                         HTTP_409=UndoConflictOut, HTTP_422=RestoreRefusedOut))
def restore_session(token: str):
    """Bring a deleted session back (the scorekeeper token), as it was: every round, its rules, its undo log.

    ``restored`` false: the session was not deleted (a retry, or another client restored it first), and
    nothing changed.  ``change`` (optional): the delete to undo; when that delete was already undone and the
    session deleted again since, nothing is restored: 409 ``already-undone`` with the delete in force as
    ``last_change``; an id that is not a delete of this session (a change of it still logged, such as "add round
    1", another session's, one never given out, 0 or less) restores nothing: 422 ``not-a-delete``, with the
    delete in force as ``last_change``.
    """
    sess, _gone = load_keeper(token)
    try:
        back = store.restore_session(get_db(), sess.id, body_object().get("change"))
    except store.NotADeleteError as e:
        said = (f"change {body_object().get('change')} is not a delete of this session, so nothing was restored; "
                "send the id of the delete in force (last_change), or no change")
        return _change_refused(422, "not-a-delete", said, e.latest)
    except store.UndoMismatchError as e:
        said = "that delete was already undone, and the session was deleted again since; nothing was restored"
        return _change_refused(409, "already-undone", said, e.latest)
    now = Opened(store.get_session(get_db(), sess.id), "edit")
    return jsonify({"restored": back is not None, "session": session_json(now)})


@bp.post("/sessions/<token>/undo")
@validate(
    json=UndoIn, resp=responses({200: UndoneOut}, 400, 403, 404, 409, 413, 422, 503, HTTP_409=UndoConflictOut)
)
def undo(token: str):
    """Undo the latest change; ``change`` (its id, from ``last_change``) makes a repeated request undo nothing more.

    409 ``already-undone`` (with ``last_change``) when that change is no longer the latest, ``nothing-to-undo``
    when there is none.
    """
    opened = load(token, edit=True)
    change_id = body_object().get("change")
    try:
        undone = store.undo(get_db(), opened.session.id, change_id)
    except store.UndoMismatchError as e:
        said = ("newer changes came after that change, and undo takes back the latest first; nothing was undone"
                if e.superseded else "that change was already undone; nothing else was undone")
        return _change_refused(409, "already-undone", said, e.latest)
    if undone is None:
        return jsonify({"error": "nothing-to-undo", "message": "there is nothing to undo", "last_change": None}), 409
    return jsonify({"undone": undone, "session": session_json(service.saved(get_db(), opened))})


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


def _rules_refused(e: RefereeError):
    """422 for rules a session cannot take (a new session's, or other rules for one): the error as ever, plus
    ``problems`` (``RulesRefusedOut``) naming each option the rules refuse (``ruleset.RefusedOptionsError``) with
    why, in the order they are checked."""
    if not isinstance(e, RefusedOptionsError):
        return error_response(422, e.message, e.code)
    problems = [{"option": key, "message": why.message} for key, why in every_refusal(e.refusals, e.other)]
    return jsonify({"error": e.code, "message": e.message, "problems": problems}), 422


#: 422 on a route that takes other rules for a session.
_RULES_WORDS = {422: "The request breaks the schema, or the rules refuse them or cannot score this session; "
                "`problems` names every option the rules refuse"}


@bp.post("/sessions/<token>/rescore")
@validate(json=RulesIn, resp=responses({200: RescoreOut}, 400, 404, 413, 422, 503, words=_RULES_WORDS,
                                       HTTP_422=RulesRefusedOut))
def rescore(token: str):
    """What if: the session's history re-scored under other rules, round by round (saves nothing).

    ``options`` go on top of the session's own options, or of the new preset's defaults when ``ruleset``
    names another preset.  The answer compares each round before and after (a round the new rules reject,
    or play after the game is over, has null scores and a note) and the final totals and winners: the same
    JSON as ``hanafuda-referee rescore``.  The viewer link may ask too.
    """
    sess = load(token).session
    ruleset, options = _rules_body(sess)
    try:
        return jsonify(what_if.compare(get_db(), sess, ruleset, options))
    except RefereeError as e:
        return _rules_refused(e)


@bp.put("/sessions/<token>/rules")
@validate(json=SetRulesIn, resp=responses({200: SessionOut}, 400, 403, 404, 409, 413, 422, 503, words=_RULES_WORDS,
                                          HTTP_422=RulesRefusedOut))
def set_rules(token: str):
    """Fix a rule afterwards: change the session's ruleset and options (the body as for ``/rescore``).

    The new rules must load and score this session; the history is re-scored, the change is logged, and
    Undo (``last_change``) restores the old rules.  Rules the session already has change and log nothing.

    ``form_token`` (optional, 1 to 200 characters) is the idempotency key, as for POST of a round: a retry of
    the same request with the same key in this session changes the rules once and answers 200 with the session
    as it is now.  When that change has since been undone, the answer is 409 ``form-token-spent``; another
    request with a used key is 422 ``form-token-reused``.  A request that changed nothing keeps no key.
    """
    opened = load(token, edit=True)
    sess = opened.session
    body = body_object()
    key, digest = _change_key(body.get("form_token"), "PUT /rules", body)
    try:
        if key:  # a retry: answered before the rules are checked against a session that may have moved on
            store.check_change_token(get_db(), sess.id, key, digest)
        ruleset, options = _rules_body(sess)
        if what_if.same_rules(sess, ruleset, options):  # a retried request: nothing to change or log
            return jsonify(session_json(opened))
        try:
            what_if.check_rules(get_db(), sess, ruleset, options)  # the new rules must load and score this session
        except RefereeError as e:
            return _rules_refused(e)
        sess = what_if.change_rules(get_db(), sess, ruleset, options, key, digest)
    except store.ChangeTokenUsedError as e:
        if (refused := _key_refused(e)) is not None:
            return refused
        return jsonify(session_json(service.saved(get_db(), opened)))
    return jsonify(session_json(Opened(sess)))


#: What a refusal of ``/detect`` means there: a missing photo breaks the form's schema (422, as a missing JSON
#: field does elsewhere), a body in another encoding is 400.
_DETECT_WORDS = {
    400: "Bad request: the body is not multipart/form-data",
    422: "No photo (no file part named `image`, or no file chosen in it: the error names the field), or "
    "one that is not a photo this app can read (empty, truncated, over the pixel limit)",
}


@bp.post("/detect")
@validate(form=DetectIn, resp=responses({200: DetectionsOut}, 400, 413, 422, 503, 504, words=_DETECT_WORDS))
def detect_api():
    """Detect the cards in one uploaded photo (multipart field ``image``)."""
    upload = request.files["image"]  # the schema holds it: one file
    if not stream_size(upload.stream):
        return error_response(422, "The uploaded file is empty; expected a photo.", "bad-image")
    try:
        dets = photos.runner().detect(upload.stream)  # read and decoded on a worker, within the limit
    except Exception as e:  # every failure becomes words and a status
        status, message = describe_error(e)
        code = {422: "bad-image", 503: "unavailable", 504: "timeout"}.get(status, "detector-error")
        return error_response(status, message, code)
    return jsonify({"image": upload.filename or "upload", "detections": [d.to_dict() for d in dets]})


@bp.get("/openapi.json")
@validate(resp=responses({200: None}))
def openapi():
    """The OpenAPI 3.1 document of this API, generated from the schemas requests are validated with."""
    return jsonify(document(url_for("api.list_sessions", _external=True).rsplit("/sessions", 1)[0]))
