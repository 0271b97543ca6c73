"""The JSON API's request and response schemas (pydantic), and the validator that uses them.

One source for both: ``api.validate(...)`` (spectree) checks every request body against these
models before a view runs, and ``/api/v1/openapi.json`` is generated from the same models and
routes, so the document cannot drift from what the server accepts.  Responses are checked
against their models too while the app is under test (``app.testing``).

A request that breaks a schema gets 422 ``{"error": "bad-request", "message": ...}``; the
message names the field and says what it must be, in the words of the field's description
(``"players" must be 2 to 6 players' names ...``).  A body that is not a JSON object gets 400.

Must not import the views.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from flask import abort, current_app, request
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, WithJsonSchema
from pydantic_core import PydanticCustomError
from spectree import Response, SpecTree
from spectree.model_adapter.pydantic_adapter import BaseFile, PydanticModelAdapter
from spectree.plugins.flask_plugin import FlaskPlugin

from referee.web.errors import error_response
from referee.web.forms import (
    MAX_NAME,
    MAX_NAME_CODEPOINTS,
    MAX_OPTION_NUMBER,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_SESSION_NAME,
    name_length,
    option_number_error,
)

# ---- requests ---------------------------------------------------------------------------

Card = Annotated[
    str,
    Field(
        min_length=1,
        max_length=80,
        description="a card: its id (referee/data/cards.tsv), English or Japanese name",
    ),
]
Cards = list[Card]


def _option_numbers(options: dict[str, Any]) -> dict[str, Any]:
    error = option_number_error(options)
    if error:
        raise PydanticCustomError("option_number", error)
    return options


#: Ruleset overrides (dotted keys to values) whose numbers stay within ``forms.MAX_OPTION_NUMBER``.
Options = Annotated[dict[str, Any], AfterValidator(_option_numbers)]


def _name_characters(name: str) -> str:
    """At most MAX_NAME characters as players count them (grapheme clusters: an emoji is one)."""
    if name_length(name) > MAX_NAME:
        raise PydanticCustomError(
            "name_too_long", f"has {name_length(name)} characters; at most {MAX_NAME} characters"
        )
    return name

NonBlank = r"\S"

PlayerName = Annotated[
    str, Field(min_length=1, max_length=MAX_NAME_CODEPOINTS, pattern=NonBlank), AfterValidator(_name_characters)
]


class _Request(BaseModel):
    """JSON types as they are: no "5" for 5, no 1 for true."""

    model_config = ConfigDict(strict=True, extra="forbid")


class KoiKoiCall(_Request):
    """A koi-koi call (docs/KOIKOI.md)."""

    model_config = ConfigDict(extra="allow")

    player: str = Field(description="is required: who called")
    call: str | None = Field(None, description="must be the call made (default koi-koi), or be left out")


def core(tp: Any) -> Any:
    """A round field documented in OpenAPI as ``tp`` but accepted as any JSON, so that the rules
    core names what is wrong in its own words, as it does for the CLI (the Hachi-hachi keys, which
    the model leaves to ``extra``, already were): one validation, one message."""
    schema = TypeAdapter(tp).json_schema()
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:  # the field's own schema, its models written in place
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                return inline(defs[ref.removeprefix("#/$defs/")])
            return {k: inline(v) for k, v in node.items()}
        return [inline(v) for v in node] if isinstance(node, list) else node

    return Annotated[Any, WithJsonSchema(inline(schema))]


class RoundIn(_Request):
    """A round: the round JSON of the session's game family, without the session's keys.
    Roppyakken family: piles, hands, field (README "Round input"); Hachi-hachi: field or multiplier,
    hands, dropped, mizuten, dekiyaku, hatto, piles (docs/HACHIHACHI.md); Koi-Koi: piles, hands, calls,
    stopped_by (docs/KOIKOI.md); Go-Stop: piles, bonus, sake_cup, gos, last_go, stopped_by, shakes, bombs,
    ppeok, instant, dokbak (docs/GOSTOP.md); any family: totals instead of cards."""

    model_config = ConfigDict(extra="allow", title="Round")

    # The round's own fields are documented with their types but checked by the core alone
    # (``core``), as the CLI checks them: one validation, one message naming the field.

    piles: core(dict[str, Cards] | None) = Field(None, description="must map each player to the cards they captured")
    hands: core(dict[str, Cards] | None) = Field(
        None, description="must map players to their dealt hands (for lucky hands), or be left out"
    )
    field: core(Cards | None) = Field(None, description="must be the field cards of the deal, or be left out")
    totals: core(dict[str, int | float | str] | None) = Field(  # float: the core says 12.5 is not whole, 1e30 too big
        None,
        description='must map each player to the amount entered instead of cards (README "Entered totals"): '
        'points, or Hachi-hachi mon or money text such as "-1 kan 7 mon", summing to zero; or be left out',
    )
    void: core(bool | None) = Field(None, description="with totals: true when the table's fuke voided the round")
    calls: core(list[KoiKoiCall] | None) = Field(
        None, description="Koi-Koi: must be the koi-koi calls of this round in the order made, or be left out"
    )
    stopped_by: core(str | None) = Field(
        None, description="Koi-Koi: must be the player who stopped (勝負), or null when the hands ran out (required "
        "but for a lucky hand at the deal); Go-Stop: the player who stopped (스톱), or null for a nagari (required "
        "but beside chongtong or three ppeok)"
    )
    bonus: core(dict[str, list[int]] | None) = Field(
        None, description="Go-Stop: must map players to the pi values of their bonus cards (보너스피), e.g. [3], "
        "at most as many of a value as option bonus_cards holds, or be left out (docs/GOSTOP.md)"
    )
    sake_cup: core(dict[str, str] | None) = Field(
        None, description='Go-Stop: must map the sake cup\'s holder to "pi" or "animal", or be left out '
        "(the referee picks the better use)"
    )
    gos: core(dict[str, int] | None) = Field(
        None, description="Go-Stop: must map players to how many gos (고) they called"
    )
    last_go: core(str | None) = Field(
        None, description="Go-Stop: must be the last of two go-calling losers (who pays dokbak), or be left out"
    )
    shakes: core(dict[str, int] | None) = Field(None, description="Go-Stop: must map players to their shakes (흔들기)")
    bombs: core(dict[str, int] | None) = Field(None, description="Go-Stop: must map players to their bombs (폭탄)")
    ppeok: core(dict[str, list[int]] | None) = Field(
        None, description="Go-Stop: must map players to the own-turn numbers of their ppeok (뻑), e.g. [1, 2]"
    )
    instant: core(dict[str, Any] | None) = Field(
        None, description='Go-Stop: must be {"type": "chongtong", "player", "cards": the four of a month} for a '
        "chongtong (총통) at the deal, with no piles, gos or stopper; or be left out"
    )
    dokbak: core(str | None) = Field(
        None, description="Go-Stop: may name the loser the table holds liable for feeding the winner (독박)"
    )
    nagari_carry: core(Annotated[int, Field(ge=1)] | None) = Field(
        None, description="Go-Stop: best left out (the session carries the nagari multiplier, ×2 after each "
        "nagari in a row); if given, it must be that multiplier (1, 2, 4 ...)"
    )
    month: core(Annotated[int, Field(ge=1, le=12)] | None) = Field(
        None, description="Koi-Koi: may be repeated, but must be the round's month (round n is month n)"
    )
    first_to_target: core(str | None) = Field(
        None,
        description="Roppyakken with first_to_target_wins: must be the player who reached the target first when "
        "two or more reach it in this round (else 422 missing-decision), or be left out",
    )
    ruleset: str | None = Field(None, description="must be the session's ruleset, or be left out")
    options: dict[str, Any] | None = Field(None, description="must be the session's options, or be left out")
    players: list[str] | None = Field(None, description="must be the session's players, or be left out")
    dealer: str | None = Field(None, description="must be this round's oya (dealer), or be left out")


class NewRoundIn(RoundIn):
    """A round to add."""

    model_config = ConfigDict(title="NewRound")

    form_token: str | None = Field(
        None,
        min_length=1,
        max_length=200,
        description="must be a string of 1 to 200 characters (the idempotency key), or left out: "
        "a retry with the same key in this session saves the round once",
    )


class EditRoundIn(RoundIn):
    """A round's new input, with the version it was read at."""

    model_config = ConfigDict(title="EditRound")

    version: int = Field(description="is required: the round's version when you read it (an integer)")


class NewSessionIn(_Request):
    """A new session, optionally with its rounds (as in a session export's ``game``)."""

    model_config = ConfigDict(title="NewSession")

    name: str = Field(
        min_length=1,
        max_length=MAX_SESSION_NAME,
        pattern=NonBlank,
        description=f"is required: the session's name, 1 to {MAX_SESSION_NAME} characters",
    )
    ruleset: str | None = Field(
        None,
        min_length=1,
        description="must be a preset name (`hanafuda-referee rulesets` lists them); default Roppyakken",
    )
    options: Options = Field(
        default_factory=dict,
        description='must be an object of option names to values, e.g. {"target": 600}; every number in it '
        f"between {-MAX_OPTION_NUMBER} and {MAX_OPTION_NUMBER}",
    )
    players: list[PlayerName] = Field(
        min_length=2,
        max_length=MAX_PLAYERS,
        description=f"must be 2 to {MAX_PLAYERS} players' names in play order: non-empty strings of at most "
        f"{MAX_NAME} characters, all different",
    )
    dealer: str | None = Field(None, description='"dealer" must be one of the players (the first oya); '
                               "default the first player")
    rounds: list[dict[str, Any]] = Field(
        default_factory=list, max_length=MAX_ROUNDS, description=f"must be a list of at most {MAX_ROUNDS} rounds"
    )


class UndoIn(_Request):
    """Which change to undo."""

    model_config = ConfigDict(title="Undo")

    change: int | None = Field(
        None,
        description="must be the id of the change to undo (last_change.id of the session), or left out; "
        "when it is no longer the latest change, nothing is undone (409)",
    )


class RulesIn(_Request):
    """Other rules for a session (what if, or a rule fixed afterwards)."""

    model_config = ConfigDict(title="Rules")

    ruleset: str | None = Field(
        None,
        min_length=1,
        description="must be a preset of the session's game (`hanafuda-referee rulesets` lists them), or be left "
        "out: the session's own",
    )
    options: Options = Field(
        default_factory=dict,
        description='must be an object of dotted-key overrides, e.g. {"fuke.threshold": 40}: on top of the '
        "session's own options, or of the new preset's defaults when \"ruleset\" names another preset; every number in "
        f"it between {-MAX_OPTION_NUMBER} and {MAX_OPTION_NUMBER}",
    )


class DetectIn(BaseModel):
    """A photo of a pile (multipart/form-data)."""

    model_config = ConfigDict(title="DetectForm")

    image: BaseFile = Field(description="is required: the photo file (JPEG, PNG, HEIC...)")


# ---- responses ------------------------------------------------------------------------


class _Response(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorOut(_Response):
    """An error: a stable ``error`` code and a ``message`` in words."""

    model_config = ConfigDict(title="Error")

    error: str
    message: str


class RoundVersionOut(_Response):
    model_config = ConfigDict(title="RoundVersion")

    version: int
    input: dict[str, Any]


class ConflictOut(ErrorOut):
    """A stale edit: the round as saved now (null when it was deleted)."""

    model_config = ConfigDict(title="Conflict")

    current: RoundVersionOut | None


class ChangeOut(_Response):
    """An undoable change."""

    model_config = ConfigDict(title="Change")

    id: int
    summary: str


class UndoConflictOut(ErrorOut):
    """An undo of a change that is no longer the latest; ``last_change`` is the latest now."""

    model_config = ConfigDict(title="UndoConflict")

    last_change: ChangeOut | None


class RoundOut(_Response):
    """A saved round as the scoreboard shows it (points, or mon for Hachi-hachi)."""

    model_config = ConfigDict(title="RoundView")

    id: int
    round: int
    version: int
    dealer: str
    input: dict[str, Any]
    scores: dict[str, int]
    totals: dict[str, int]
    void: bool
    instant_win: str | None
    game_winner: str | None
    warnings: list[str]
    explanation: list[dict[str, Any]]
    payments: list[dict[str, Any]]
    error: str | None


class SessionOut(_Response):
    """A session with its standings and rounds; ``edit_token`` and ``last_change`` only for its scorekeeper."""

    model_config = ConfigDict(title="Session")

    name: str
    ruleset: str
    family: str
    options: dict[str, Any]
    players: list[str]
    dealer: str
    rev: int
    updated: str
    view_token: str
    view_url: str
    unit: str
    totals: dict[str, int]
    next_dealer: str
    next_round: dict[str, Any] = Field(
        default_factory=dict,
        description="what the next round carries from the game (Family.next_round): Go-Stop "
        '{"nagari_carry": 2} after a nagari (the multiplier the next round pays), Koi-Koi {"month": 3}; '
        "empty for the other families",
    )
    winner: str | None
    wins: dict[str, int]
    target: int | None
    rounds: list[RoundOut]
    edit_token: str | None = None
    last_change: ChangeOut | None = None


class SessionSummaryOut(_Response):
    model_config = ConfigDict(title="SessionSummary")

    name: str
    ruleset: str
    players: list[str]
    updated: str
    view_token: str
    leader: str | None
    rounds: int
    winner: str | None


class SessionListOut(_Response):
    """The sessions this browser created or opened (every session for the host)."""

    model_config = ConfigDict(title="SessionList")

    sessions: list[SessionSummaryOut]


class SavedRoundOut(_Response):
    """A round added (201), or already saved with this form_token (200, ``created`` false)."""

    model_config = ConfigDict(title="SavedRound")

    id: int
    round: int
    version: int
    created: bool
    session: SessionOut


class EditedRoundOut(_Response):
    model_config = ConfigDict(title="EditedRound")

    id: int
    round: int
    version: int
    session: SessionOut


class UndoneOut(_Response):
    model_config = ConfigDict(title="Undone")

    undone: str
    session: SessionOut


class ExportOut(_Response):
    """A session export: ``game`` is a valid ``hanafuda-referee game`` input."""

    model_config = ConfigDict(title="Export")

    format: str
    name: str
    exported: str
    game: dict[str, Any]
    totals: dict[str, int]
    next_dealer: str
    winner: str | None


class ResultOut(BaseModel):
    """A scored round: the JSON of ``hanafuda-referee score`` (README "Round result")."""

    model_config = ConfigDict(title="RoundResult", extra="allow")

    ruleset: str
    players: dict[str, Any]
    dealer: str
    next_dealer: str
    warnings: list[str]
    explanation: list[dict[str, Any]]


class RescoreSideOut(_Response):
    """One side of a what-if: the rules and the final standings (``mon_per_kan`` for Hachi-hachi)."""

    model_config = ConfigDict(title="RescoreSide")

    ruleset: str
    options: dict[str, Any]
    totals: dict[str, int]
    winner: str | None
    mon_per_kan: int | None = None


class RescoreRoundSideOut(_Response):
    """A round on one side: what it added (``scores``) and the running ``totals`` (points, or mon);
    both null, with a ``note``, when these rules reject the round or the game was already over."""

    model_config = ConfigDict(title="RescoreRoundSide")

    scores: dict[str, int] | None
    totals: dict[str, int] | None
    void: bool | None = None
    note: str | None = None


class RescoreRoundOut(_Response):
    model_config = ConfigDict(title="RescoreRound")

    round: int
    changed: bool
    before: RescoreRoundSideOut
    after: RescoreRoundSideOut


class RescoreOut(_Response):
    """A what-if: the session as played (``before``) and under the other rules (``after``), round
    by round; the JSON of ``hanafuda-referee rescore``."""

    model_config = ConfigDict(title="Rescore")

    unit: Literal["points", "mon", "money"]
    before: RescoreSideOut
    after: RescoreSideOut
    rounds: list[RescoreRoundOut]


class DetectionOut(_Response):
    model_config = ConfigDict(title="Detection")

    card: str
    confidence: float
    box: list[float]
    uncertain: bool
    covered: bool = Field(False, description="seen, but too covered to read: card is only a guess")
    visible: float = Field(1.0, description="share of the card's face that shows, 0-1")


class DetectionsOut(_Response):
    """The JSON of ``hanafuda-referee detect --json`` for one photo."""

    model_config = ConfigDict(title="Detections")

    image: str
    detections: list[DetectionOut]


# ---- the validator --------------------------------------------------------------------

_WORDS = {
    400: "Bad request: the body is not a JSON object (or, for a photo, has no image)",
    403: "The viewer link on an edit route",
    404: "No such session or round",
    405: "Method not allowed (the Allow header lists those that are)",
    409: "Conflict",
    413: "The body is too large",
    415: "Not JSON",
    422: "The request breaks the schema, or the round or session is invalid (unknown card, duplicate...)",
    501: "The game's scoring module is not installed",
    503: "The database is busy or read-only; nothing was saved",
    504: "Detection took too long",
}


def responses(ok: dict[int, type[BaseModel] | None], *errors: int, **special: type[BaseModel]) -> Response:
    """A spectree ``Response``: the success models, then each error status with the Error model
    (or the model given as ``HTTP_409=...``)."""
    codes: dict[str, Any] = {f"HTTP_{status}": model for status, model in ok.items()}
    for status in errors:
        key = f"HTTP_{status}"
        codes[key] = (special.get(key, ErrorOut), _WORDS[status])
    return Response(**codes)


def _field_rule(model: type[BaseModel] | None, loc: tuple) -> tuple[str, str | None]:
    """(the field's name as a client wrote it, its description) for an error location."""
    top = str(loc[0]) if loc else ""
    field = model.model_fields.get(top) if model is not None and hasattr(model, "model_fields") else None
    return top, field.description if field is not None else None


_SHORT = {
    "missing": "is required",
    "dict_type": "must be an object",
    "list_type": "must be an array",
    "string_type": "must be a string",
    "int_type": "must be an integer",
    "bool_type": "must be true or false",
    "extra_forbidden": "is not a field of this request",
}


def _length(e: dict[str, Any]) -> str | None:
    """A length error in words with the real length and the limit (``has 41 characters; at most
    40 characters``), or None for another error (or one without its input)."""
    kind, ctx, given = e.get("type"), e.get("ctx") or {}, e.get("input")
    if kind in ("string_too_long", "string_too_short") and isinstance(given, str):
        limit = f"at most {ctx['max_length']}" if kind == "string_too_long" else f"at least {ctx['min_length']}"
        return f"has {len(given)} characters; {limit} characters"
    if kind in ("too_long", "too_short") and ("actual_length" in ctx or isinstance(given, (list, dict))):
        n = ctx.get("actual_length", len(given) if isinstance(given, (list, dict)) else 0)
        limit = f"at most {ctx['max_length']}" if kind == "too_long" else f"at least {ctx['min_length']}"
        return f"has {n} items; {limit}"
    return None


def describe(errors: list[dict[str, Any]], model: type[BaseModel] | None) -> str:
    """One message for a body's schema errors: each bad field (up to three) with what it must be,
    and for a length error the real length and the limit."""
    parts = []
    for e in errors[:3]:
        loc = tuple(e.get("loc") or ())
        top, rule = _field_rule(model, loc)
        where = ".".join(str(p) for p in loc) or "body"
        detail = _length(e) or _SHORT.get(e.get("type", ""), str(e.get("msg", "is not valid")).lower())
        if rule and not rule.startswith('"'):
            text = f'"{top}" {rule}'
            if where != top or e.get("type") not in ("missing",):
                text += f' ("{where}" {detail})'
        elif rule:
            text = f"{rule} (\"{where}\" {detail})"
        else:
            text = f'"{where}" {detail}'
        parts.append(text)
    more = f"; and {len(errors) - 3} more" if len(errors) > 3 else ""
    return "; ".join(parts) + more


def body_object() -> dict[str, Any]:
    """The request's JSON object body, or abort with 400 saying what is wrong with it."""
    try:
        data = request.get_json(silent=True)
        if data is None and request.is_json and request.data:
            json.loads(request.data)  # only to name what is wrong with it
    except RecursionError:
        abort(error_response(400, "the JSON body is nested too deeply", "bad-request"))
    except ValueError as e:  # not JSON, or a number over Python's integer digit limit
        if "digits" in str(e) and "integer" in str(e):
            abort(error_response(400, "the body holds a number too big to read (over 4300 digits); no amount, "
                                 "option or id is anywhere near that long", "bad-request"))
        abort(error_response(400, f"the body is not valid JSON: {str(e)[:200]}", "bad-request"))
    if not isinstance(data, dict):
        abort(error_response(400, "expected a JSON object body (Content-Type: application/json)", "bad-request"))
    return data


class _Plugin(FlaskPlugin):
    """spectree's Flask plugin with the app's own errors: a body that is not a JSON object is a
    400 (not an empty object), and responses are checked against their models only under test."""

    def request_validation(self, req, query, json, form, headers, cookies):
        if json is not None and req.method not in ("GET", "DELETE"):
            body_object()
        super().request_validation(req, query, json, form, headers, cookies)

    def validate_response(self, resp, resp_model, skip_validation, force_resp_serialize):
        return super().validate_response(resp, resp_model, skip_validation or not current_app.testing,
                                         force_resp_serialize)


class _Adapter(PydanticModelAdapter):
    """Validation errors without the offending input (it may not even be JSON: a form field
    whose name is not a string); ``_before`` writes the app's own error body anyway."""

    def validation_errors(self, err):
        return err.errors(include_context=False, include_input=False, include_url=False)


def _before(req, resp, err, _instance, _adapter) -> None:
    """A schema error: the app's error body, naming the field and what it must be."""
    if err is None:
        return
    model = None
    rule = req.url_rule
    view = current_app.view_functions.get(rule.endpoint) if rule is not None else None
    meta = api.get_function_metadata(view) if view is not None else None
    key = (meta.json or meta.form) if meta is not None else None
    model = _MODELS.get(key)
    errors = err.errors(include_url=False)
    # The same code as the rules core's for a player count out of range.
    count = all(tuple(e["loc"][:1]) == ("players",) and e["type"] in ("too_short", "too_long") for e in errors)
    body = {"error": "player-count" if count else "bad-request", "message": describe(errors, model)}
    resp.set_data(json.dumps(body, ensure_ascii=False))
    resp.mimetype = "application/json"


def _after(_req, resp, err, _instance, _adapter) -> None:
    """A response that breaks its own schema is a bug: under test it fails loudly."""
    if err is not None:
        raise AssertionError(f"response breaks its documented schema: {err}")


api = SpecTree(
    backend=_Plugin,
    title="hanafuda-referee",
    version="1",
    description="Sessions and rounds of the scoring referee. Round bodies use the round JSON of "
    '`hanafuda-referee score` (README "Round input"). Errors are `{"error": code, "message": text}`.',
    mode="strict",
    model_adapter=_Adapter(),
    before=_before,
    after=_after,
    validation_error_model=ErrorOut,
    annotations=False,
    naming_strategy=lambda model: getattr(model, "model_config", {}).get("title") or model.__name__,
    nested_naming_strategy=lambda _parent, child: child,
)

#: What the path parameters of every route mean (in the generated document).
PATH_PARAMETERS = {
    "token": "the session's viewer token (read) or scorekeeper token (read and write)",
    "round_id": "a round's id (the `id` of a round in GET /sessions/{token})",
}


def validate(**kwargs: Any):
    """``api.validate`` with the path parameters described."""
    return api.validate(path_parameter_descriptions=PATH_PARAMETERS, **kwargs)

#: Model key (as spectree names it) -> request model, for the error messages.
_MODELS: dict[str, type[BaseModel]] = {}
for _m in (RoundIn, NewRoundIn, EditRoundIn, NewSessionIn, UndoIn, RulesIn, DetectIn):
    _MODELS[api.naming_strategy(_m)] = _m


def document(server: str) -> dict[str, Any]:
    """The OpenAPI document of ``/api/v1``, with ``server`` (``http://host/api/v1``) as its server:
    generated by spectree from the routes and the models above."""
    spec = api.spec
    prefix = "/api/v1"
    paths = {p.removeprefix(prefix) or "/": ops for p, ops in spec["paths"].items()}
    return {**spec, "servers": [{"url": server}], "paths": paths}
