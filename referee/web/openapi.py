"""The OpenAPI 3.1 document of ``/api/v1`` (hand-written; a test checks it names every API route)."""

from __future__ import annotations

from typing import Any

_ERROR = {"$ref": "#/components/schemas/Error"}


def _resp(desc: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"description": desc}
    if schema is not None:
        out["content"] = {"application/json": {"schema": schema}}
    return out


def _errors(*codes: int) -> dict[str, Any]:
    words = {
        400: "Body is not a JSON object",
        403: "Viewer token on an edit route",
        404: "No such session or round",
        409: "Conflict: the round changed since it was read, or the game is over",
        413: "Body too large",
        422: "The round or session is invalid (unknown card, duplicate...)",
        501: "The game's scoring module is not installed",
        503: "Database locked or read-only",
    }
    return {str(c): _resp(words[c], _ERROR) for c in codes}


def document(server: str) -> dict[str, Any]:
    """The OpenAPI document, with ``server`` (``http://host/api/v1``) as its server URL."""
    token = {
        "name": "token",
        "in": "path",
        "required": True,
        "schema": {"type": "string"},
        "description": "The session's viewer token (read) or scorekeeper token (read and write).",
    }
    round_id = {"name": "round_id", "in": "path", "required": True, "schema": {"type": "integer"}}
    body = {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Round"}}},
    }
    sess = {"$ref": "#/components/schemas/Session"}
    rules_body = {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Rules"}}},
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "hanafuda-referee",
            "version": "1",
            "description": "Sessions and rounds of the scoring referee. Round bodies use the round JSON "
            'of `hanafuda-referee score` (README "Round input").',
        },
        "servers": [{"url": server}],
        "paths": {
            "/detect": {  # issue 6
                "post": {
                    "summary": "Detect the cards in a photo (multipart field image); the JSON of detect --json",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "multipart/form-data": {
                                "schema": {
                                    "type": "object",
                                    "properties": {"image": {"type": "string", "format": "binary"}},
                                }
                            }
                        },
                    },
                    "responses": {
                        "200": _resp("{image, detections: [{card, confidence, box, uncertain}]}", {"type": "object"}),
                        "400": _resp("No image field", _ERROR),
                        "413": _resp("Photo too large", _ERROR),
                        "422": _resp(
                            "Not a usable image (empty, truncated, not an image, over 120 MP, HEIC unsupported)", _ERROR
                        ),
                        "503": _resp("Card recognition unavailable (model file missing) or busy", _ERROR),
                        "504": _resp("Detection took too long", _ERROR),
                    },
                }
            },
            "/sessions": {
                "get": {
                    "summary": "List sessions",
                    "responses": {"200": _resp("Sessions", {"type": "object"})},
                },
                "post": {
                    "summary": "Create a session",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewSession"}}},
                    },
                    "responses": {
                        "201": _resp("Created; includes edit_token", sess),
                        **_errors(400, 413, 422, 503),
                    },
                },
            },
            "/sessions/{token}": {
                "get": {
                    "summary": "A session with standings and rounds",
                    "parameters": [token],
                    "responses": {"200": _resp("The session", sess), **_errors(404)},
                }
            },
            "/sessions/{token}/export": {
                "get": {
                    "summary": "Export (a valid `game` CLI input under `game`)",
                    "parameters": [token],
                    "responses": {"200": _resp("Export", {"type": "object"}), **_errors(404)},
                }
            },
            "/sessions/{token}/preview": {
                "post": {
                    "summary": "Score the next round without saving",
                    "parameters": [token],
                    "requestBody": body,
                    "responses": {
                        "200": _resp("Round result", {"type": "object"}),
                        **_errors(400, 404, 422, 501),
                    },
                }
            },
            "/sessions/{token}/rounds": {
                "post": {
                    "summary": "Add a round",
                    "description": "Send a fresh `form_token` (any string of 1 to 200 characters, e.g. a UUID) "
                    "as the idempotency key: a retried request with the same token saves the round once and "
                    "answers 200 with the saved round. Without it, every request saves a new round.",
                    "parameters": [token],
                    "requestBody": body,
                    "responses": {
                        "201": _resp("Saved", {"type": "object"}),
                        "200": _resp("Already saved (same form_token)"),
                        **_errors(400, 403, 404, 409, 422, 503),
                    },
                }
            },
            "/sessions/{token}/rounds/{round_id}": {
                "put": {
                    "summary": "Edit a round (needs its version)",
                    "parameters": [token, round_id],
                    "requestBody": body,
                    "responses": {
                        "200": _resp("Saved", {"type": "object"}),
                        **_errors(400, 403, 404, 409, 422, 503),
                    },
                },
                "delete": {
                    "summary": "Delete a round",
                    "parameters": [token, round_id],
                    "responses": {"204": _resp("Deleted"), **_errors(403, 404, 503)},
                },
            },
            "/sessions/{token}/rescore": {  # issue 12: what if
                "post": {
                    "summary": "What if: re-score the session's history under other rules (saves nothing)",
                    "description": "`options` go on top of the session's own options, or of the new preset's "
                    "defaults when `ruleset` names another preset. The answer compares each round before and "
                    "after (a round the new rules reject, or play after the game is over, has null scores and "
                    "a note) and the final totals and winners; the same JSON as `hanafuda-referee rescore`.",
                    "parameters": [token],
                    "requestBody": rules_body,
                    "responses": {
                        "200": _resp("The comparison", {"$ref": "#/components/schemas/Rescore"}),
                        **_errors(400, 404, 422),
                    },
                }
            },
            "/sessions/{token}/rules": {  # issue 12: fixing a rule afterwards
                "put": {
                    "summary": "Change the session's rules; the history is re-scored and Undo restores them",
                    "description": "Same body as `/rescore`. The rules must load and score every round the "
                    "session can; the change is logged in the session's change log.",
                    "parameters": [token],
                    "requestBody": rules_body,
                    "responses": {
                        "200": _resp("The session with its new standings", sess),
                        **_errors(400, 403, 404, 422, 503),
                    },
                }
            },
            "/openapi.json": {"get": {"summary": "This document", "responses": {"200": _resp("OpenAPI")}}},
        },
        "components": {
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["error", "message"],
                    "properties": {"error": {"type": "string"}, "message": {"type": "string"}},
                },
                "Round": {
                    "type": "object",
                    "description": "Round JSON of the session's game family; session keys may be omitted. "
                    "Roppyakken family: piles, hands, field (README \"Round input\"). Hachi-hachi: field or "
                    "multiplier, hands, dropped, mizuten, dekiyaku, hatto, piles (docs/HACHIHACHI.md). Koi-Koi: "
                    "piles, hands, calls, stopped_by (docs/KOIKOI.md); its month follows from the round's place.",
                    "properties": {
                        "piles": {
                            "type": "object",
                            "additionalProperties": {"type": "array", "items": {"type": "string"}},
                        },
                        "hands": {"type": "object"},
                        "field": {"type": "array", "items": {"type": "string"}},
                        "calls": {
                            "type": "array",
                            "description": "Koi-Koi: the koi-koi calls of this round, in the order made",
                            "items": {
                                "type": "object",
                                "required": ["player"],
                                "properties": {
                                    "player": {"type": "string"},
                                    "call": {"type": "string", "description": "the call made (the default: koi-koi)"},
                                },
                            },
                        },
                        "stopped_by": {
                            "type": ["string", "null"],
                            "description": "Koi-Koi: the player who stopped (勝負); null: the hands ran out",
                        },
                        "month": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": 12,
                            "description": "Koi-Koi: may be repeated, but must be the round's month (round n is "
                            "month n); it is never stored",
                        },
                        "totals": {
                            "type": "object",
                            "additionalProperties": {"type": ["integer", "string"]},
                            "description": 'Entered totals instead of cards (README "Entered totals"): each '
                            "player's points, or Hachi-hachi mon (or money text such as \"-1 kan 7 mon\") "
                            "summing to zero",
                        },
                        "version": {"type": "integer", "description": "PUT: the version you read"},
                        "form_token": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": 200,
                            "description": "POST: the idempotency key; a retry with the same key saves once",
                        },
                    },
                },
                "NewSession": {
                    "type": "object",
                    "required": ["name", "players"],
                    "properties": {
                        "name": {"type": "string"},
                        "ruleset": {
                            "type": "string",
                            "description": "A preset: roppyakken and its variants, hachihachi, koikoi...",
                        },
                        "options": {"type": "object"},
                        "players": {"type": "array", "items": {"type": "string"}},
                        "dealer": {"type": "string"},
                        "rounds": {
                            "type": "array",
                            "items": {"$ref": "#/components/schemas/Round"},
                        },
                    },
                },
                "Session": {"type": "object"},
                "Rules": {
                    "type": "object",
                    "properties": {
                        "ruleset": {
                            "type": "string",
                            "description": "A preset of the same game; default: the session's",
                        },
                        "options": {
                            "type": "object",
                            "description": "Dotted-key overrides, e.g. "
                            '{"fuke.threshold": 40, "teyaku.mukou-sanbon.kan": 2}',
                        },
                    },
                },
                "RescoreSide": {
                    "type": "object",
                    "properties": {
                        "ruleset": {"type": "string"},
                        "options": {"type": "object"},
                        "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
                        "winner": {"type": ["string", "null"]},
                        "mon_per_kan": {"type": "integer"},
                    },
                },
                "Rescore": {
                    "type": "object",
                    "required": ["unit", "before", "after", "rounds"],
                    "properties": {
                        "unit": {"enum": ["points", "mon"]},
                        "before": {"$ref": "#/components/schemas/RescoreSide"},
                        "after": {"$ref": "#/components/schemas/RescoreSide"},
                        "rounds": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "round": {"type": "integer"},
                                    "changed": {"type": "boolean"},
                                    "before": {"type": "object", "description": "{scores, totals, void?, note?}"},
                                    "after": {"type": "object", "description": "{scores, totals, void?, note?}"},
                                },
                            },
                        },
                    },
                },
            }
        },
    }
