"""The "What if…" screen: a session's whole history re-scored under another preset or other options,
round by round, with the final totals side by side; the scorekeeper can then apply the new rules.

``GET /s/<token>/what-if`` shows the rules form (a preset of the session's game, its house-rule
options, and free ``KEY=VALUE`` lines for any ruleset field) and, once submitted, the comparison
from ``referee.rescore``.  ``POST`` (scorekeeper link only) changes the session's rules through
``referee.store.set_rules``: the change is logged, the scoreboard re-scores every round from its
input, and Undo restores the old rules.  Works without JavaScript (a GET form, then POST and 303).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from flask import Blueprint, flash, render_template, request
from werkzeug.datastructures import MultiDict

from referee import api, store
from referee.errors import RefereeError
from referee.rescore import replay, rescore
from referee.ruleset import load_ruleset
from referee.web import get_db
from referee.web.board import rules_amount_formatter
from referee.web.forms import check_preset, option_fields, parse_extra_options, parse_option_fields, shown_value
from referee.web.sessions import load, see_other

bp = Blueprint("what_if", __name__)
#: The "before" side of a session's what-ifs, by (viewer token, rev): computed once per change.
_BEFORE: OrderedDict[tuple[str, int], tuple[dict, list]] = OrderedDict()


def session_game(sess: store.Session) -> dict[str, Any]:
    """The session as a game object (``referee.rescore``, README "Game input")."""
    return {
        "ruleset": sess.ruleset,
        "options": sess.options,
        "players": list(sess.players),
        "dealer": sess.dealer,
        "rounds": [r.data for r in store.rounds_of(get_db(), sess.id)],
    }


def compare(sess: store.Session, ruleset: str, options: dict[str, Any]) -> dict[str, Any]:
    """The what-if of a session under ``ruleset`` and ``options`` (``referee.rescore.rescore``); the
    session's own side is replayed once per revision.  Raises ``RefereeError``."""
    game = session_game(sess)
    key = (sess.view_token, sess.rev)
    before = _BEFORE.get(key)
    if before is None:
        before = _BEFORE[key] = replay(game)
        while len(_BEFORE) > 32:
            _BEFORE.popitem(last=False)
    return rescore(game, ruleset, options, before=before)


def _presets(family: str) -> list[tuple[str, str]]:
    """(name, title) of the presets that can re-score this session's rounds (the same game)."""
    out = []
    for name in api.preset_names():
        try:
            info = api.ruleset_json(name)
        except (RefereeError, ImportError):
            continue
        if info["game"] == family:
            out.append((name, info["title"]))
    return out


def _requested(sess: store.Session, form: MultiDict) -> dict[str, Any]:
    """The rules the form asks for: ``ruleset``, ``options`` (differences from the preset's defaults
    plus the extra lines), the form's ``values`` as typed, the ``extra`` text, ``errors`` and whether
    the form was ``submitted``."""
    ruleset = form.get("ruleset") or sess.ruleset
    errors: dict[str, str] = {}
    try:
        check_preset(ruleset)
    except RefereeError as e:
        errors["ruleset"] = e.message
        ruleset = sess.ruleset
    info, specs = option_fields(ruleset)
    keys = {s["key"] for s in specs}
    submitted = form.get("options_shown") == ruleset
    if submitted:
        options, typed, errors_ = parse_option_fields(form, specs, shown=True)
        errors.update(errors_)
    else:  # first view, or another preset picked: its defaults, or the session's own options
        own = sess.options if ruleset == sess.ruleset else {}
        options, typed = {k: v for k, v in own.items() if k in keys}, {}
    if "extra" in form:
        extra = form.get("extra", "")
    else:
        own = sess.options if ruleset == sess.ruleset else {}
        extra = "\n".join(f"{k}={json.dumps(v)}" for k, v in own.items() if k not in keys)
    try:
        options.update(parse_extra_options(extra))
    except RefereeError as e:
        errors["extra"] = e.message
    values = {s["key"]: typed.get(s["key"], shown_value(s, options.get(s["key"], s["default"]))) for s in specs}
    return {"ruleset": ruleset, "info": info, "specs": specs, "options": options, "values": values,
            "extra": extra, "errors": errors, "submitted": submitted or "ruleset" in form or "extra" in form}


def same_rules(sess: store.Session, ruleset: str, options: dict[str, Any]) -> bool:
    """True when ``ruleset`` and ``options`` score exactly as the session's own rules: applying them
    again (a double tap on Apply, a retried PUT) changes and logs nothing, so one Undo still restores
    the rules before the fix."""
    if (ruleset, dict(options)) == (sess.ruleset, dict(sess.options)):
        return True
    try:
        return load_ruleset(ruleset, options) == load_ruleset(sess.ruleset, sess.options)
    except RefereeError:
        return False


def describe_rules(ruleset: str, options: dict[str, Any]) -> str:
    """``roppyakken (target=300, fuke.threshold=40)``: a ruleset and its overrides in one line."""
    shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items())
    return ruleset + (f" ({shown})" if shown else "")


@bp.route("/s/<token>/what-if", methods=["GET", "POST"])
def page(token: str):
    """GET: the rules form and, once submitted, the round-by-round comparison.  POST: apply the rules."""
    sess, role = load(token, edit=request.method == "POST")
    form = request.form if request.method == "POST" else request.args
    req = _requested(sess, MultiDict(form))
    result, error, status = None, None, 200
    if req["submitted"] and not req["errors"]:
        try:
            result = compare(sess, req["ruleset"], req["options"])
        except RefereeError as e:
            error, status = e.message, 422
    elif req["errors"]:
        status = 422
    if request.method == "POST" and result is not None and same_rules(sess, req["ruleset"], req["options"]):
        flash("The session is already scored with these rules: nothing changed.")
        return see_other("sessions.scoreboard", token=token)
    if request.method == "POST" and result is not None:
        summary = f"change rules to {describe_rules(req['ruleset'], req['options'])}"
        store.set_rules(get_db(), sess.id, req["ruleset"], req["options"], summary)
        flash(f"Rules changed to {describe_rules(req['ruleset'], req['options'])}: every round was re-scored. "
              "Undo brings the old rules back.")
        return see_other("sessions.scoreboard", token=token)
    shown = {"before": rules_amount_formatter(sess.ruleset, sess.options),
             "after": rules_amount_formatter(req["ruleset"], req["options"])}
    return render_template(
        "what_if.html", s=sess, role=role, req=req, form=req, presets=_presets(sess.family),
        result=result, error=error, now=describe_rules(sess.ruleset, sess.options), shown=shown,
    ), status
