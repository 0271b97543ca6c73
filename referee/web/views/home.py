"""Home and new session: the sessions this browser knows, the new-session form, a rematch, the
host's page and About.

- ``GET /``: the sessions this browser created or opened (every session for the host);
- ``GET|POST /new``: the new-session form, its house-rule options generated from the ruleset's
  option schema (``referee.web.forms.session``); a preset change (htmx) swaps in the options, and an
  option changed swaps in how the game is won under them (``?part=goal``);
- ``POST /s/<edit token>/rematch``: the next game at the same table, once a game is over;
- ``GET|POST /host``: enter the host key to list every session (``referee.web.privacy``);
- ``GET /about``.

A view module: imports no other view module.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, render_template, request, session

from referee import api, families, store
from referee.errors import RefereeError
from referee.ruleset import load_ruleset
from referee.web import privacy
from referee.web.access import load, remember_keeper, see_other
from referee.web.db import get_db
from referee.web.forms.limits import MAX_NAME, MAX_NAME_UNITS, MAX_PLAYERS, MAX_SESSION_NAME, cut_name
from referee.web.forms.options import option_fields, seat_range, shown_value
from referee.web.forms.session import SessionForm, parse_session_form
from referee.web.nonces import form_nonce, new_nonce, posted_nonce
from referee.web.service import session as service
from referee.web.service.rounds import request_digest
from referee.web.service.session import Opened
from referee.web.words import SENT_TWICE

bp = Blueprint("home", __name__)


@bp.get("/")
def home():
    """The sessions this browser created or opened (all of them for the host), most recent first."""
    listed, kept = privacy.visible_sessions()
    rows = []
    for sess in listed:
        board = service.board(get_db(), Opened(sess))
        rows.append(
            {
                "session": sess,
                "board": board,
                "keeper": sess.edit_token in kept,
                "token": sess.edit_token if sess.edit_token in kept else sess.view_token,
            }
        )
    deleted = len(privacy.visible_deleted())  # the way to "Deleted sessions", where there are any
    return render_template("home/home.html", rows=rows, host=privacy.is_host(), deleted=deleted)


def _goal(sf: SessionForm) -> str:
    """How the chosen game is won under the form's house rules (the rules' ``goal``, its scoreboard's words);
    the preset's own where those rules do not load."""
    for options in (sf.rules_options, {}):
        try:
            return getattr(load_ruleset(sf.ruleset, options), "goal", "")
        except RefereeError:
            continue
    return ""


def _form_context(sf: SessionForm) -> dict[str, Any]:
    try:
        info, specs = option_fields(sf.ruleset)
    except RefereeError as e:
        sf.errors.setdefault("ruleset", e.message)
        sf.ruleset = families.DEFAULT_RULESET
        info, specs = option_fields(sf.ruleset)
    presets = []
    for name in api.preset_names():
        try:
            presets.append((name, api.ruleset_json(name)["title"]))
        except (RefereeError, ImportError):
            continue  # a family whose module is not installed yet
    values = {s["key"]: sf.options.get(s["key"], shown_value(s, s["default"])) for s in specs}
    seats = seat_range(specs, families.get(info["game"]).seats)
    groups: dict[str, list[dict[str, Any]]] = {}
    for spec in specs:
        if spec["key"] not in ("target", "players"):
            groups.setdefault(spec.get("group") or "Other", []).append(spec)
    return {
        "form": sf,
        "info": info,
        # how the chosen game is won, as its scoreboard's subtitle says it (web.board: the rules' goal)
        "goal": _goal(sf),
        "specs": specs,
        "values": values,
        "presets": presets,
        "max_players": MAX_PLAYERS,
        # A player's name box holds MAX_NAME characters; app.js counts them as players do (an emoji is one) and
        # lifts the box's UTF-16 count up to MAX_NAME_UNITS, so a name of emoji is never cut in half.
        "max_name": MAX_NAME,
        "max_name_units": MAX_NAME_UNITS,
        "max_session_name": MAX_SESSION_NAME,
        "seats_min": seats[0],
        "seats_max": seats[1],
        "option_groups": [{"name": k, "specs": v} for k, v in groups.items()],
        "opt_errors": any(k.startswith("opt.") for k in sf.errors),
        "nonce": form_nonce(),
    }


@bp.route("/new", methods=["GET", "POST"])
def new_session():
    """The new-session form; its house-rule options come from the ruleset's option schema."""
    if request.method == "GET":
        # A preset change (htmx) sends the form as typed: the names stay, the options are the new preset's.
        sf, _ = parse_session_form(request.args)
        if request.args.get("part") == "goal" and request.headers.get("HX-Request") == "true":
            # An option changed (htmx): how the game is won under the options as they now stand.
            return render_template("home/partials/goal.html", goal=_goal(sf))
        sf.errors, sf.options, sf.rules_options = {}, {}, {}
        if request.headers.get("HX-Request") == "true":
            return render_template("home/partials/options.html", **_form_context(sf))
        return render_template("home/new_session.html", **_form_context(sf))
    sf, created = parse_session_form(request.form)
    if request.form.get("action") == "reload":  # no-JS "Load this ruleset's options"
        sf.errors = {}
        sf.options, sf.rules_options = {}, {}
        return render_template("home/new_session.html", **_form_context(sf))
    shown = request.form.get("options_shown")
    if shown and shown != sf.ruleset and "ruleset" not in sf.errors:
        # The preset changed without JavaScript: the options on the page were another preset's.
        sf.errors = {
            "form": "The game changed, so its house rules are shown now with their defaults. "
            "Check them and press Create session again."
        }
        sf.options, sf.rules_options = {}, {}
        return render_template("home/new_session.html", **_form_context(sf)), 409
    if created is None:
        return render_template("home/new_session.html", **_form_context(sf)), 422
    # The form's one-time token: the same form posted again (a double tap) gets the session it made;
    # the form changed since (Back, other details, Create again) creates nothing and says so.
    try:
        made, fresh = store.create_sessions_once(get_db(), posted_nonce(), [created], request_digest(created))
    except store.SessionKeyReusedError:
        sf.errors["form"] = ("This form already created a session, with other details than these, so nothing "
                             "new was created (that session is on Home). Your details are kept below: press "
                             "Create session to make a new session with them.")
        return render_template("home/new_session.html", **{**_form_context(sf), "nonce": new_nonce()}), 409
    except store.StoreUnavailableError as e:
        sf.errors["form"] = e.message  # the form comes back as typed
        return render_template("home/new_session.html", **_form_context(sf)), 503
    sess = made[0]
    remember_keeper(sess.edit_token)
    if fresh:
        flash("Session created. Share the viewer link or QR code with the table.")
    else:
        flash(f"Session created. Share the viewer link or QR code with the table. {SENT_TWICE}")
    return see_other("scoreboard.scoreboard", token=sess.edit_token)


@bp.post("/s/<token>/rematch")
def rematch(token: str):
    """A new session for the next game at the same table: the same seats in play order, the same
    rules, and the oya the finished game names next.  Only once the game is over (else 409).
    One rematch per game: a second tap, or another phone, is sent to the one already started."""
    opened = load(token, edit=True)
    sess = opened.session
    board = service.board(get_db(), opened)
    if not board.over:
        abort(409, "This game is still being played: a rematch starts once it is over.")
    name = cut_name(f"{sess.name} · rematch", MAX_SESSION_NAME)
    try:
        new, created = store.create_rematch(get_db(), sess, name=name, ruleset=sess.ruleset, family=sess.family,
                                            options=sess.options, players=sess.players, dealer=board.dealer)
    except store.StoreUnavailableError as e:
        flash(e.message)
        return see_other("scoreboard.scoreboard", token=token)
    remember_keeper(new.edit_token)
    if created:
        flash(f"Rematch: the same players and rules; {board.dealer} deals first.")
    else:  # a second tap, or another phone: the one rematch already started
        flash("This game's rematch had already started: here it is.")
    return see_other("scoreboard.scoreboard", token=new.edit_token)


@bp.route("/host", methods=["GET", "POST"])
def host():
    """The host's page: enter the host key (or follow the link ``serve`` printed) to list every session."""
    given = request.form.get("key") if request.method == "POST" else request.args.get("key")
    if request.form.get("action") == "leave":
        session.pop("host", None)
        flash("This browser no longer lists every session.")
        return see_other("home.home")
    if given is None:
        return render_template("home/host.html", wrong=False, host=privacy.is_host())
    if not privacy.key_ok(given.strip()):
        return render_template("home/host.html", wrong=True, host=False), 403
    privacy.mark_host()
    flash("Host mode: this browser lists every session on this server.")
    return see_other("home.home")


@bp.get("/about")
def about():
    """What the app is and how a table uses it (licences and credits: ``/credits``)."""
    return render_template("home/about.html")
