"""The validator: spectree checks every request body against its model before a view runs, and
writes the OpenAPI document from the same models and routes.

A request that breaks a schema gets 422 ``{"error": "bad-request", "message": ...}``; the
message names the field and says what it must be, in the words of the field's description
(``"players" must be 2 to 6 players' names ...``): a required field missing, JSON or a form's part
(the photo of ``/detect``).  A body that is not a JSON object (on a form route, not
``multipart/form-data``) gets 400.
Must not import the views.
"""

from __future__ import annotations

import json
from typing import Any

from flask import abort, current_app, request
from pydantic import BaseModel
from spectree import Response, SpecTree
from spectree.model_adapter.pydantic_adapter import PydanticModelAdapter
from spectree.plugins.flask_plugin import FlaskPlugin

from referee.web.errors import error_response
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
from referee.web.schemas.outputs import ErrorOut

_WORDS = {
    400: "Bad request: the body is not a JSON object",
    401: "Authorization: Bearer with a key that is not this server's host key",
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


def responses(
    ok: dict[int, type[BaseModel] | None],
    *errors: int,
    words: dict[int, str] | None = None,
    **special: type[BaseModel],
) -> Response:
    """A spectree ``Response``: the success models, then each error status with the Error model
    (or the model given as ``HTTP_409=...``), described in ``_WORDS`` or in the route's own
    ``words`` (what that status means on it)."""
    codes: dict[str, Any] = {f"HTTP_{status}": model for status, model in ok.items()}
    for status in errors:
        key = f"HTTP_{status}"
        codes[key] = (special.get(key, ErrorOut), (words or {}).get(status, _WORDS[status]))
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


def multipart_body() -> None:
    """Abort with 400 unless the request's body is ``multipart/form-data`` (the encoding of a form
    that carries a file), as :func:`body_object` does for a body that is not a JSON object."""
    if request.mimetype != "multipart/form-data":
        abort(error_response(400, "expected a multipart/form-data body, with the photo as its file field \"image\"",
                             "bad-request"))


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
    """spectree's Flask plugin with the app's own errors: a body that is not a JSON object (or, on
    a form route, not multipart/form-data) is a 400, not an empty body that then breaks the schema
    (422), and responses are checked against their models only under test."""

    def request_validation(self, req, query, json, form, headers, cookies):
        if json is not None and req.method not in ("GET", "DELETE"):
            body_object()
        if form is not None and req.method not in ("GET", "DELETE"):
            multipart_body()
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
    key = (meta.json or meta.form or meta.query) if meta is not None else None
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
for _m in (RoundIn, NewRoundIn, EditRoundIn, NewSessionIn, UndoIn, RulesIn, SetRulesIn, DetectIn, DeleteRoundQuery,
           DeleteSessionQuery, RestoreIn):
    _MODELS[api.naming_strategy(_m)] = _m


def document(server: str) -> dict[str, Any]:
    """The OpenAPI document of ``/api/v1``, with ``server`` (``http://host/api/v1``) as its server:
    generated by spectree from the routes and the models above."""
    spec = api.spec
    prefix = "/api/v1"
    paths = {p.removeprefix(prefix) or "/": ops for p, ops in spec["paths"].items()}
    return {**spec, "servers": [{"url": server}], "paths": paths}
