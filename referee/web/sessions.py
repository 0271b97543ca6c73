"""The screens: home, new session, scoreboard, round entry, editing, undo, export and import.

Each session has two unguessable links: ``/s/<view token>`` (read-only, for the
table) and ``/s/<edit token>`` (the scorekeeper's).  Edit routes opened with a
viewer token answer 403.  Views parse the form, call the rules core, save
through ``referee.store`` and render; a POST that changes something redirects
with 303; an ``HX-Request`` gets the screen's fragment.  The round form's other steps
(Score, the hand pickers, the tile style, "every card left") keep the form as a draft
and redirect (303) to the same page with ``?step=<id>``, so Back and Reload never
re-post a form (``_to_step``).
"""

from __future__ import annotations

import csv
import functools
import hashlib
import io
import json
import re
import secrets
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from itsdangerous import BadSignature, URLSafeSerializer
from markupsafe import Markup
from werkzeug.datastructures import MultiDict

from referee import api, families, store
from referee.cards import CARD_IDS, month_label
from referee.errors import RefereeError
from referee.names import repeated_name, repeated_name_message
from referee.web import get_db, privacy
from referee.web.art import PICKER_COOKIE, PICKER_MODES
from referee.web.board import (
    Board,
    amount_formatter,
    build_board,
    extra_round,
    first_to_target_choices,
    holds_nothing,
    option_value,
    replay_error,
    round_input,
    session_rules,
    stored_round,
    without_context,
)
from referee.web.chart import legend as chart_legend
from referee.web.chart import totals_chart
from referee.web.forms import (
    CALL_ROWS,
    MAX_NAME,
    MAX_NAME_UNITS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_SESSION_NAME,
    SessionForm,
    cards_entered,
    check_preset,
    cut_name,
    dekiyaku_choices,
    entry_form,
    name_length,
    name_too_long,
    option_fields,
    option_number_error,
    parse_session_form,
    parse_totals_form,
    seat_range,
    shown_value,
    unknown_seats,
    yaku_names,
)
from referee.web.headers import download

bp = Blueprint("sessions", __name__)
#: Boards by (viewer token, rev), and their rendered fragments by (..., role):
#: every phone polls, but a change is computed and rendered once.
_BOARDS: OrderedDict[tuple[str, int], Board] = OrderedDict()
_FRAGMENTS: OrderedDict[tuple[str, int, str], Markup] = OrderedDict()
EXPORT_FORMAT = "hanafuda-referee/session-v1"


# ---- helpers ----------------------------------------------------------------


def _cached(cache: OrderedDict, key: tuple, make: Callable[[], Any]) -> Any:
    """``cache[key]``, made on first use; the oldest of more than 256 entries are dropped."""
    value = cache.get(key)
    if value is None:
        value = cache[key] = make()
        while len(cache) > 256:
            cache.popitem(last=False)
    return value


def board_of(sess: store.Session) -> Board:
    """The session's standings, recomputed once per change."""
    return _cached(_BOARDS, (sess.view_token, sess.rev), lambda: build_board(sess, store.rounds_of(get_db(), sess.id)))


def board_html(sess: store.Session, role: str) -> Markup:
    """The rendered board fragment (``partials/board.html``) for this rev and role."""
    return _cached(
        _FRAGMENTS,
        (sess.view_token, sess.rev, role),
        lambda: Markup(render_template("partials/board.html", **_board_context(sess, role))),
    )


def load(token: str, *, edit: bool = False) -> tuple[store.Session, str]:
    """The session a link opens and its role; 404 for no session, 403 for a viewer on an edit route."""
    try:
        sess, role = store.find_session(get_db(), token)
    except store.NotFoundError:
        abort(404, "No session has this link. Check it, or start a new session from the home page.")
    if edit and role != "edit":
        abort(403)
    return sess, role


def remember_keeper(token: str) -> None:
    """Remember, in this browser's signed cookie, that it keeps the score of a session."""
    privacy.remember(token, "edit")


def sign_nonce(secret_key: str, seed: str) -> str:
    """A round form's one-time token: ``seed`` signed with the app's secret key."""
    return URLSafeSerializer(secret_key, salt="round-form").dumps(seed)


def new_nonce() -> str:
    """A fresh one-time token for a round entry form."""
    return sign_nonce(current_app.secret_key, secrets.token_urlsafe(12))


def nonce_ok(nonce: str | None) -> bool:
    """Whether ``nonce`` is a token this app issued (a missing or forged one is not)."""
    if not nonce or len(nonce) > 200:
        return False
    try:
        URLSafeSerializer(current_app.secret_key, salt="round-form").loads(nonce)
    except BadSignature:
        return False
    return True


def see_other(endpoint: str, **values: Any):
    """Redirect with 303 (POST, then GET)."""
    return redirect(url_for(endpoint, **values), code=303)


# ---- home, new session, import, about ---------------------------------------


@bp.get("/")
def home():
    """The sessions this browser created or opened (all of them for the host), most recent first."""
    listed, kept = privacy.visible_sessions()
    rows = []
    for sess in listed:
        board = board_of(sess)
        rows.append(
            {
                "session": sess,
                "board": board,
                "keeper": sess.edit_token in kept,
                "token": sess.edit_token if sess.edit_token in kept else sess.view_token,
            }
        )
    return render_template("home.html", rows=rows, host=privacy.is_host())


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
        "specs": specs,
        "values": values,
        "presets": presets,
        "max_players": MAX_PLAYERS,
        "max_name_units": MAX_NAME_UNITS,
        "seats_min": seats[0],
        "seats_max": seats[1],
        "option_groups": [{"name": k, "specs": v} for k, v in groups.items()],
        "opt_errors": any(k.startswith("opt.") for k in sf.errors),
    }


@bp.route("/new", methods=["GET", "POST"])
def new_session():
    """The new-session form; its house-rule options come from the ruleset's option schema."""
    if request.method == "GET":
        # A preset change (htmx) sends the form as typed: the names stay, the options are the new preset's.
        sf, _ = parse_session_form(request.args)
        sf.errors, sf.options = {}, {}
        if request.headers.get("HX-Request") == "true":
            return render_template("partials/options.html", **_form_context(sf))
        return render_template("new_session.html", **_form_context(sf))
    sf, created = parse_session_form(request.form)
    if request.form.get("action") == "reload":  # no-JS "Load this ruleset's options"
        sf.errors = {}
        sf.options = {}
        return render_template("new_session.html", **_form_context(sf))
    shown = request.form.get("options_shown")
    if shown and shown != sf.ruleset and "ruleset" not in sf.errors:
        # The preset changed without JavaScript: the options on the page were another preset's.
        sf.errors = {
            "form": "The game changed, so its house rules are shown now with their defaults. "
            "Check them and press Create session again."
        }
        sf.options = {}
        return render_template("new_session.html", **_form_context(sf)), 409
    if created is None:
        return render_template("new_session.html", **_form_context(sf)), 422
    try:
        sess = store.create_session(get_db(), **created)
    except store.StoreUnavailableError as e:
        sf.errors["form"] = e.message  # the form comes back as typed
        return render_template("new_session.html", **_form_context(sf)), 503
    remember_keeper(sess.edit_token)
    flash("Session created. Share the viewer link or QR code with the table.")
    return see_other("sessions.scoreboard", token=sess.edit_token)


def session_from_export(data: Any) -> dict[str, Any]:
    """The session to create from an export (or a bare ``game`` CLI input).

    Raises ``RefereeError('bad-round')`` naming what is wrong.
    """
    if not isinstance(data, dict):
        raise RefereeError("bad-round", "expected a JSON object (a session export)")
    game = data.get("game", data)
    if not isinstance(game, dict) or not isinstance(game.get("players"), list):
        raise RefereeError("bad-round", 'expected a session export with "game": {"players": [...], ...}')
    rounds = game.get("rounds") or []
    if not isinstance(rounds, list) or not all(isinstance(r, dict) for r in rounds):
        raise RefereeError("bad-round", '"rounds" must be a list of round objects')
    ruleset = game.get("ruleset") or families.DEFAULT_RULESET
    if not isinstance(ruleset, str):
        raise RefereeError("bad-ruleset", '"ruleset" must be a preset name (a string)')
    options = game.get("options") or {}
    if not isinstance(options, dict):
        raise RefereeError("bad-ruleset", '"options" must be an object of option names to values, e.g. {"target": 600}')
    if error := option_number_error(options):
        raise RefereeError("bad-ruleset", f'"options": {error}')
    check_preset(ruleset)
    info = api.ruleset_json(ruleset, options)
    players = game["players"]
    if not all(isinstance(p, str) and p.strip() for p in players):
        raise RefereeError("bad-round", '"players" must be names (non-empty strings), in play order')
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise RefereeError("player-count", f"a session has 2 to {MAX_PLAYERS} players, got {len(players)}")
    twin = repeated_name(players)
    if twin is not None:
        raise RefereeError("bad-round", repeated_name_message(*twin))
    long = [p for p in players if name_too_long(p)]
    if long:
        why = f"player name {cut_name(long[0], 20)!r}... has {name_length(long[0])} characters; keep player names to "
        why += f"{MAX_NAME}"
        why += " characters"
        raise RefereeError("bad-round", why)
    if len(rounds) > MAX_ROUNDS:
        raise RefereeError("bad-round", f"a session holds at most {MAX_ROUNDS} rounds, got {len(rounds)}")
    name = data.get("name") or game.get("name") or "Imported session"
    if not isinstance(name, str):
        raise RefereeError("bad-round", f'"name" must be a string of at most {MAX_SESSION_NAME} characters')
    if len(name) > MAX_SESSION_NAME:
        raise RefereeError("bad-round", f'"name" has {len(name)} characters; at most {MAX_SESSION_NAME} characters')
    dealer = game.get("dealer") or players[0]
    if dealer not in players:
        raise RefereeError("unknown-player", f'"dealer" must be one of the players, got {str(dealer)[:40]!r}')
    # An export is stored rounds: one made before endings were explicit keeps its meaning (store m011).
    upgrade = families.get(info["game"]).explicit_ending or dict
    stored = [upgrade(stored_round(info["game"], r)) for r in rounds]
    # Plays the game once: the player count, the dealer and every round are checked before anything is stored.
    api.game_json({"ruleset": ruleset, "options": options, "players": players, "dealer": dealer, "rounds": stored})
    return {
        "name": name,
        "ruleset": ruleset,
        "family": info["game"],
        "options": options,
        "players": players,
        "dealer": dealer,
        "rounds": stored,
    }


class EmptyImportError(Exception):
    """The import form came with no file and no text."""


@bp.post("/import")
def import_session():
    """Create a session from a JSON export (file upload or pasted text), or every session of an
    ``export --all`` archive."""
    upload = request.files.get("file")
    text = upload.read().decode("utf-8", errors="replace") if upload and upload.filename else ""
    text = text or request.form.get("text", "")
    from referee.web import archive  # it imports this module

    try:
        if not text.strip():
            raise EmptyImportError
        batch = archive.sessions_to_create(json.loads(text))
    except EmptyImportError:
        message = "Nothing to import: choose a file saved with a scoreboard's “Export JSON”, or paste its text."
    except json.JSONDecodeError as e:
        message = (f"That is not valid JSON ({e.msg}, line {e.lineno}, column {e.colno}). Import takes a file saved "
                   "with a scoreboard's “Export JSON” (a CSV export is for spreadsheets and cannot be imported).")
    except RecursionError:
        message = "That JSON is nested too deeply to be a session export."
    except RefereeError as e:  # before ValueError, its base class: the rules' own words
        message = e.message
    except ValueError as e:  # e.g. a number longer than Python's integer digit limit
        message = f"That JSON has a value that cannot be read ({e})."
    except ImportError as e:
        message = f"This game's scoring module is not installed ({e.name})."
    else:
        try:
            made = archive.create_all(batch)
        except store.StoreUnavailableError as e:
            return render_template("import.html", message=e.message, text=text), 503
        for sess in reversed(made):
            remember_keeper(sess.edit_token)
        if len(made) != 1:
            flash(f"Imported {len(made)} sessions.")
            return see_other("sessions.home")
        n = len(batch[0]["rounds"])
        flash(f"Imported {n} round{'' if n == 1 else 's'}.")
        return see_other("sessions.scoreboard", token=made[0].edit_token)
    return render_template("import.html", message=message, text=text), 422


@bp.get("/import")
def import_form():
    """The import form."""
    return render_template("import.html", message=None, text="")


@bp.get("/about")
def about():
    """What the app is and how a table uses it (licences and credits: ``/credits``)."""
    return render_template("about.html")


# ---- scoreboard -------------------------------------------------------------


def _board_context(sess: store.Session, role: str) -> dict[str, Any]:
    db = get_db()
    board = board_of(sess)
    return {
        "s": sess,
        "role": role,
        "board": board,
        "undo": store.latest_change(db, sess.id) if role == "edit" else None,
        "poll": current_app.config["POLL_SECONDS"],
        "money": amount_formatter(sess),
        "is_money": board.unit != "points",
        "chart": totals_chart(board, _axis_label(sess, board), _axis_unit(sess, board)),
        "chart_legend": chart_legend(board.players),
    }


def _axis_unit(sess: store.Session, board: Board) -> int:
    """What the chart's axis steps are multiples of: 1 point, or one kan in mon."""
    return int(sess.options.get("mon_per_kan", 12)) if board.unit == "mon" else 1


def _axis_label(sess: store.Session, board: Board) -> Callable[[int], str]:
    """The chart's axis values: points as they are, kan and mon in kan, other money with its
    thousands (Go-Stop's ``20,000``, as the totals write it)."""
    if board.unit == "points":
        return str
    if board.unit != "mon":
        return lambda amount: f"{amount:,}"
    per_kan = _axis_unit(sess, board)
    return lambda mon: f"{mon // per_kan} kan"


@bp.get("/s/<token>")
def scoreboard(token: str):
    """Totals, progress toward the target, the oya, the rounds, the winner; kept live by polling."""
    sess, role = load(token)
    privacy.remember(token, role)
    if request.headers.get("HX-Request") == "true":
        return board_html(sess, role)
    view_url = url_for("sessions.scoreboard", token=sess.view_token, _external=True)
    return render_template(
        "scoreboard.html",
        s=sess,
        role=role,
        board_html=board_html(sess, role),
        view_url=view_url,
        first_visit=role == "edit" and not board_of(sess).rounds,
    )


@bp.post("/s/<token>/rematch")
def rematch(token: str):
    """A new session for the next game at the same table: the same seats in play order, the same
    rules, and the oya the finished game names next.  Only once the game is over (else 409)."""
    sess, _ = load(token, edit=True)
    board = board_of(sess)
    if not board.over:
        abort(409, "This game is still being played: a rematch starts once it is over.")
    name = cut_name(f"{sess.name} · rematch", MAX_SESSION_NAME)
    try:
        new = store.create_session(get_db(), name=name, ruleset=sess.ruleset, family=sess.family,
                                   options=sess.options, players=sess.players, dealer=board.dealer)
    except store.StoreUnavailableError as e:
        flash(e.message)
        return see_other("sessions.scoreboard", token=token)
    remember_keeper(new.edit_token)
    flash(f"Rematch: the same players and rules; {board.dealer} deals first.")
    return see_other("sessions.scoreboard", token=new.edit_token)


@bp.get("/s/<token>/poll")
def poll(token: str):
    """The board fragment when the session changed since ``rev``, else 204 (htmx then keeps the page)."""
    sess, role = load(token)
    if request.args.get("rev") == str(sess.rev):
        return "", 204
    return board_html(sess, role)


@bp.get("/s/<token>/qr.svg")
def qr(token: str):
    """A QR code of the viewer link."""
    sess, _ = load(token)
    buf = io.BytesIO()
    segno.make(url_for("sessions.scoreboard", token=sess.view_token, _external=True)).save(
        buf, kind="svg", scale=5, border=2, xmldecl=False
    )
    return Response(buf.getvalue(), mimetype="image/svg+xml")


# ---- round entry ------------------------------------------------------------


def score_input(
    sess: store.Session, data: dict[str, Any], dealer: str, context: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Score a stored-shape round input in its session, as the round after the game that left
    ``context`` (``Board.context``, ``RoundView.context``).  Raises ``RefereeError``, ``ImportError``."""
    return api.score_json(round_input(sess, data, dealer, context))


#: Error codes of checks that need every card in the piles: the live preview holds them back until then.
DEFERRED_CHECKS = ("bad-decision", "missing-decision", "pile-points")


def _preview_coded(
    sess: store.Session, data: dict[str, Any], dealer: str, context: Mapping[str, Any] | None = None
) -> tuple[dict | None, str | None, str | None]:
    """(result, error message, error code) of scoring a round input."""
    try:
        return score_input(sess, data, dealer, context), None, None
    except RefereeError as e:
        return None, e.message, e.code
    except ImportError as e:
        return None, f"This game's scoring module is not installed yet ({e.name}).", "not-installed"


def _preview(
    sess: store.Session, data: dict[str, Any], dealer: str, context: Mapping[str, Any] | None = None
) -> tuple[dict | None, str | None]:
    result, error, _code = _preview_coded(sess, data, dealer, context)
    return result, error


def round_digest(data: Mapping[str, Any]) -> str:
    """What names a round form's save for its one-time token: a SHA-256 of the round as stored,
    each pile, hand and the field as a set (the order of taps does not count), so the same form
    sent again is "already saved" and a changed one is refused rather than taken for it."""
    canon = {k: v for k, v in data.items() if not k.startswith("_")}
    for key in ("piles", "hands"):
        if isinstance(canon.get(key), Mapping):
            canon[key] = {p: sorted(map(str, cs)) if isinstance(cs, list) else cs for p, cs in canon[key].items()}
    if isinstance(canon.get("field"), list):
        canon["field"] = sorted(map(str, canon["field"]))
    text = json.dumps(canon, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def give_rest(data: dict[str, Any], players: Sequence[str], seat: str) -> None:
    """Put every card in no pile into seat ``seat``'s pile (the "every card left" button)."""
    if not seat.isdigit() or int(seat) >= len(players):
        return
    piles = data.setdefault("piles", {})
    player = players[int(seat)]
    if player not in piles:
        return  # a Hachi-hachi drop-out has no pile
    held = {c for cards in piles.values() for c in cards}
    piles[player] = [*piles[player], *(c for c in CARD_IDS if c not in held)]


#: Round form steps on one pile (``<step>-<seat>``): every card left to it, clear it, put the cleared cards back.
PILE_STEPS = ("rest-", "clear-", "unclear-")


def rest_seats(data: Mapping[str, Any], players: Sequence[str]) -> set[int]:
    """Seats where "every card in no pile goes to X" makes sense: the last pile, every other
    playing pile holding cards already (a drop-out holds none), and some card in no pile."""
    piles = data.get("piles") or {}
    seated = [i for i, p in enumerate(players) if p in piles]
    held = sum(len(piles[players[i]]) for i in seated)
    if held >= len(CARD_IDS):
        return set()
    return {i for i in seated if all(piles[players[j]] for j in seated if j != i)}


def clear_pile(data: dict[str, Any], players: Sequence[str], seat: str) -> dict[int, list[str]]:
    """Empty seat ``seat``'s pile; returns ``{seat: the cards it held}`` (for "Undo")."""
    piles = data.get("piles") or {}
    if not seat.isdigit() or int(seat) >= len(players) or players[int(seat)] not in piles:
        return {}
    held = list(piles[players[int(seat)]])
    piles[players[int(seat)]] = []
    return {int(seat): held} if held else {}


def put_back(data: dict[str, Any], players: Sequence[str], seat: str, cards: Sequence[str]) -> None:
    """Put cleared ``cards`` back into seat ``seat``'s pile (those no other pile took since)."""
    piles = data.get("piles") or {}
    if not seat.isdigit() or int(seat) >= len(players) or players[int(seat)] not in piles:
        return
    held = {c for cs in piles.values() for c in cs}
    player = players[int(seat)]
    piles[player] = [*piles[player], *(c for c in dict.fromkeys(cards) if c in CARD_IDS and c not in held)]


def _getlist(form: Any, key: str) -> list[str]:
    return form.getlist(key) if hasattr(form, "getlist") else [form[key]] if key in form else []


def _suggestions(
    sess: store.Session, data: dict[str, Any], dealer: str, context: Mapping[str, Any] | None = None
) -> dict | None:
    """What the cards show before the decisions are stated (Hachi-hachi: dekiyaku, hatto
    candidates, teyaku), where the family can tell (``Family.suggest_json``)."""
    try:
        suggest = families.get(sess.family).suggest_json
        return suggest(round_input(sess, data, dealer, context)) if suggest else None
    except RefereeError:
        return None


def _entry(
    sess: store.Session,
    data: dict[str, Any],
    *,
    dealer: str,
    number: int,
    status: int = 200,
    rnd: store.RoundRow | None = None,
    result: dict | None = None,
    error: str | None = None,
    scored: bool = False,
    nonce: str | None = None,
    version: int | None = None,
    tab: str = "0",
    context: Mapping[str, Any] | None = None,
    show_hands: bool = False,
    saved_round: store.RoundRow | None = None,
    cleared: Mapping[int, list[str]] | None = None,
):
    context = context or {}
    if "totals" not in data and not isinstance(data.get("piles"), Mapping):
        data = {**data, "piles": {}}  # a round typed without piles (dealt hands only) still shows its pickers
    owner: dict[str, int] = {}
    for i, p in enumerate(sess.players):
        for c in data.get("piles", {}).get(p, []):
            owner.setdefault(c, i)
    dropped = data.get("dropped") or {}
    hands = {p: (data.get("hands") or {}).get(p) or (dropped.get(p) or {}).get("hand") or [] for p in sess.players}
    hand_owner: dict[str, int | str] = dict.fromkeys(data.get("field") or [], "f")
    for i, p in enumerate(sess.players):
        for c in hands[p]:
            hand_owner.setdefault(c, i)
    if "totals" in data:
        template = "round_totals.html"
    else:
        try:
            template = entry_form(sess.family).template
        except RefereeError:
            template = "round_json.html"
    nonce = nonce if nonce_ok(nonce) else new_nonce()
    draft_id = str(posted().get("draft") or "")
    if not _DRAFT_ID.fullmatch(draft_id):  # one per page: the same page shown again keeps the same one
        draft_id = hashlib.sha256(f"draft:{sess.id}:{nonce}".encode()).hexdigest()[:16]
    ctx = {
        "draft_id": draft_id,
        "s": sess,
        "data": data,
        "dealer": dealer,
        "number": number,
        "rnd": rnd,
        "result": result,
        "error": error,
        "scored": scored,
        "nonce": nonce,
        "version": version,
        "owner": owner,
        "hand_owner": hand_owner,
        "hands": hands,
        "dropped": dropped,
        "count": cards_entered(data),
        "tab": tab,
        "context": context,
        "carry": list(context.get("carry") or ()),
        "round_month": month_label(context["month"]) if context.get("month") else "",
        "call_rows": CALL_ROWS,
        "suggest": _suggestions(sess, data, dealer, context) if data.get("piles") else None,
        "dekiyaku_ids": dekiyaku_choices(sess.ruleset),
        "liable_on": option_value(sess, "liable_thrower", False),
        "first_choices": first_to_target_choices(sess, board_of(sess), number, result),
        "extra_round": extra_round(number, board_of(sess).rounds_planned),
        "data_json": json.dumps({k: v for k, v in data.items() if k != "_text"}, ensure_ascii=False, indent=1),
        "show_hands": show_hands or any(hands.values()),
        "typed": posted(),
        "mon_per_kan": _mon_per_kan(sess),
        "unit": families.get(sess.family).unit,
        "entered_void": families.get(sess.family).entered_void,
        "month_names": [(m, (families.get(sess.family).month_name or month_label)(m)) for m in range(1, 13)],
        "month_rows": month_rows(sess.family),
        "bonus_deck": list(option_value(sess, "bonus_cards", ()) or ()),
        "saved_round": saved_round,
        "cleared": cleared or {},
        "rest_seats": rest_seats(data, sess.players),
        # A round shown as saved: the totals before it, not the current ones (which hold it already).
        **_live_context(sess, rnd or saved_round),
    }
    return render_template(template, **ctx), status


def month_rows(family: str) -> dict[int, list[str]] | None:
    """Month -> [number, name] for the card picker's rows where the family names months its own way
    (``Family.month_name``, written "<number> <name> (<gloss>)": Go-Stop's ``12월 비``); else None."""
    name = families.get(family).month_name
    return {m: name(m).split(" (")[0].split(" ", 1) for m in range(1, 13)} if name else None


def _live_context(sess: store.Session, rnd: store.RoundRow | None = None) -> dict[str, Any]:
    """What the entry page and its live preview share: the money formatter, yaku names, and the
    totals before this round (a new round: the current totals; an edited one: those before it)."""
    board = board_of(sess)
    totals = dict(board.totals)
    view = next((v for v in board.rounds if rnd is not None and v.id == rnd.id and v.totals), None)
    if view is not None:
        totals = {p: view.totals.get(p, 0) - view.scores.get(p, 0) for p in sess.players}
    names = yaku_names(sess.ruleset)
    return {
        "totals": totals,
        "money": amount_formatter(sess),
        "yaku_name": lambda yid: names.get(yid, yid),
        "is_money": board.unit != "points",
    }


def round_words(sess: store.Session) -> dict[str, Any]:
    """What ``partials/round_cards.html`` needs to name a stored round: the money formatter and yaku names."""
    names = yaku_names(sess.ruleset)
    return {"money": amount_formatter(sess), "yaku_name": lambda yid: names.get(yid, yid)}


def _mon_per_kan(sess: store.Session) -> int:
    """Mon in one kan, for a totals form in money (12 when the rules do not count in kan)."""
    try:
        return int(getattr(session_rules(sess), "mon_per_kan", 12))
    except RefereeError:
        return 12


def _round_data(sess: store.Session, context: Mapping[str, Any] | None = None) -> tuple[dict[str, Any], str | None]:
    """The round input from the submitted form: the family's entry form or its JSON box (which
    may repeat the round's game ``context``, e.g. Koi-Koi's month, if it matches)."""
    form = posted()
    text = form.get("round_json", "").strip()
    if form.get("entry") == "totals" and not text:
        return parse_totals_form(form, sess.players, _mon_per_kan(sess)), None
    if not text:
        try:
            entry = entry_form(sess.family)
        except RefereeError:
            entry = None
        if entry is not None:
            return entry.parse(form, sess.players), unknown_seats(form, sess.players)
    try:
        data = json.loads(text or "{}")
    except json.JSONDecodeError as e:
        return {"piles": {}, "_text": text}, (
            f"Nothing was saved: the round is not valid JSON ({e.msg}, line {e.lineno}, column {e.colno})."
        )
    except (RecursionError, ValueError):
        why = "Nothing was saved: the round JSON is nested too deeply or has too long a number."
        return {"piles": {}, "_text": text}, why
    if not isinstance(data, dict):
        kind = {list: "an array", str: "a string", int: "a number", float: "a number"}.get(type(data), "a value")
        return {"piles": {}, "_text": text}, f"Nothing was saved: the round must be a JSON object {{...}}, not {kind}."
    data, mismatch = without_context(sess.family, data, context or {})
    if mismatch:
        return {**data, "_text": text}, f"Nothing was saved: {mismatch}."
    return stored_round(sess.family, data), None


def unanswered(sess: store.Session, data: dict[str, Any]) -> str | None:
    """What the family's entry form still has to be told before the round scores (Koi-Koi: how
    it ended, ``forms.calls_unanswered``); None for the JSON box and the totals pad."""
    form = posted()
    if form.get("round_json", "").strip() or form.get("entry") == "totals":
        return None
    try:
        entry = entry_form(sess.family)
    except RefereeError:
        return None
    return entry.unanswered(form, data) if entry.unanswered else None


def dealer_mismatch(posted: Any, dealer: str, players: Sequence[str]) -> str | None:
    """A message when a posted ``dealer`` is not this round's oya (``None``: none posted, or it matches)."""
    if posted is None or posted == dealer:
        return None
    if not isinstance(posted, str) or posted not in players:
        shown = posted if isinstance(posted, str) else type(posted).__name__
        return (
            f"Nothing was saved: the dealer {str(shown)[:40]!r} is not a player of this session (the oya is {dealer})."
        )
    return (
        f"Nothing was saved: this round's oya is {dealer}, not {posted} (the rounds saved since this page "
        "was opened changed it). Check the cards, then score and save again."
    )


def round_diff(players: Sequence[str], mine: dict[str, Any], theirs: dict[str, Any] | None) -> list[dict[str, Any]]:
    """What differs between two versions of a round, per pile and hand: ``[{player, what,
    only_mine, only_theirs}]`` (card ids), only where they differ."""
    if theirs is None:
        return []
    out = []
    for what in ("piles", "hands"):
        for p in players:
            a = (mine.get(what) or {}).get(p) or []
            b = (theirs.get(what) or {}).get(p) or []
            only_mine = [c for c in a if c not in b]
            only_theirs = [c for c in b if c not in a]
            if only_mine or only_theirs:
                out.append({"player": p, "what": what[:-1], "only_mine": only_mine, "only_theirs": only_theirs})
    return out


def posted() -> Mapping[str, Any]:
    """The round form being handled: the request's, or the one a kept step holds (``?step=``)."""
    kept = g.get("round_form")
    return kept if kept is not None else request.form


def _to_step(sess: store.Session, form: Any):
    """Keep a posted round form (Score, or a step that only redraws the form) and redirect
    (303) to the same page with ``?step=<id>``, which shows it scored: POST, then GET, so
    Back and Reload never re-post the form.  The form is kept as a draft
    (``store.add_photo_draft``, the photo steps' store) with its one-time token, so Save on
    that page still saves once."""
    kept = [(k, v) for k, v in form.items(multi=True) if not k.startswith("as-")]  # corrections: applied
    draft = store.add_photo_draft(get_db(), sess.id, kept, {})
    resp = redirect(url_for(request.endpoint, **(request.view_args or {}), step=draft.id) + "#result", code=303)
    mode = str(form.get("action") or "").removeprefix("picker-")
    if mode in PICKER_MODES:
        resp.set_cookie(PICKER_COOKIE, mode, max_age=365 * 24 * 3600, samesite="Lax")
    return resp


def kept_step(sess: store.Session) -> bool:
    """Load the round form a step kept (``?step=<id>``) for ``posted()``; ``False``: no step asked.
    404 when the step is unknown, another session's or pruned (kept a day, like unsaved photos)."""
    step = request.args.get("step")
    if not step:
        return False
    try:
        draft = store.get_photo_draft(get_db(), sess.id, step)
    except store.NotFoundError:
        abort(404, "This scored round is no longer kept (unsaved rounds are kept for a day). Open the round again.")
    form = MultiDict(draft.form)
    g.round_form = form
    g.photo_state = {
        "photos": store.photos_by_ids(get_db(), sess.id, form.getlist("photo")),
        "errors": draft.errors,
        "form": form,
    }
    return True


def _submit(
    sess: store.Session,
    *,
    number: int,
    dealer: str,
    save: Callable[[dict[str, Any]], str],
    context: Mapping[str, Any] | None = None,
    rnd: store.RoundRow | None = None,
    version: int | None = None,
    closed: str | None = None,
    need_nonce: bool = False,
    saved_round: store.RoundRow | None = None,
):
    """Score a submitted round form, or save it with ``save(data)`` (which returns the flash message).

    An error, a conflict or a locked database gives the form back with every tap kept.
    ``need_nonce``: saving needs the form's one-time token (a new round: a repeated POST saves once).
    ``saved_round``: the round this form's token saved (Back after Save): shown as saved, with no Save.
    """
    form = posted()
    action = form.get("action") or "score"
    if action != "save" and request.method == "POST":
        return _to_step(sess, form)
    if request.method == "GET":  # a kept step shown again: it never saves
        action = "score" if action == "save" else action
    data, error = _round_data(sess, context)
    if action.startswith("rest-") and error is None:
        give_rest(data, sess.players, action.removeprefix("rest-"))
    cleared: dict[int, list[str]] = {}
    if action.startswith("clear-"):
        cleared = clear_pile(data, sess.players, action.removeprefix("clear-"))
    elif action.startswith("unclear-"):
        seat = action.removeprefix("unclear-")
        put_back(data, sess.players, seat, list(_getlist(form, f"cleared-{seat}")))
    error = error or dealer_mismatch(form.get("dealer"), dealer, sess.players) or unanswered(sess, data)
    # A round of no card saves nothing (before the "cards missing" errors); a game whose round can end
    # with nobody scoring by a call (Koi-Koi: the hands ran out) records that draw without its cards.
    if (action == "save" and error is None and not closed and holds_nothing(data)
            and "stopped_by" not in families.get(sess.family).round_keys):
        error = ("Nothing was saved: no points are entered. Enter what each player adds this round (0 if none)."
                 if form.get("entry") == "totals" else
                 "Nothing was saved: no card is entered. Tap each player's cards in (or snap their pile), or use "
                 "“Enter totals only” for a round scored on paper.")
    result = None
    if error is None:
        result, error = _preview(sess, data, dealer, context)
    error = error or closed
    saving = action == "save"
    first = first_to_target_choices(sess, board_of(sess), number, result) if saving and not error else []
    if first and data.get("first_to_target") not in first:
        error = (f"Nothing was saved: {' and '.join(first)} {'both' if len(first) == 2 else 'all'} reach the "
                 "target in this round. Say who got there first (below), then save.")
    # The board must be able to replay what is saved (the API runs the same check, after the same
    # questions).  A form for a round saved already, by this form or another phone, is the store's to
    # answer ("already saved", taken).
    board = board_of(sess)
    if (saving and error is None and (rnd is not None or number == len(board.rounds) + 1)
            and (why := replay_error(sess, board, data, rnd.id if rnd else None))):
        error = f"Nothing was saved: {why.message}"
    if action in ("hands", "draft", *(f"picker-{m}" for m in PICKER_MODES)) or action.startswith(PILE_STEPS):
        # Not a scoring: the form comes back as it was, with the hands open or the other tiles.
        tab = form.get("tab", "0")
        seat = action.partition("-")[2]
        if action.startswith(PILE_STEPS) and seat.isdigit():
            tab = seat
        mode = action.removeprefix("picker-") if action.startswith("picker-") else None
        if mode:
            g.picker_mode = mode
        page, status = _entry(
            sess, data, dealer=dealer, number=number, rnd=rnd, nonce=form.get("nonce"), version=version,
            tab=tab, context=context, show_hands=action == "hands", cleared=cleared,
        )
        resp = make_response(page, status)
        if mode:
            resp.set_cookie(PICKER_COOKIE, mode, max_age=365 * 24 * 3600, samesite="Lax")
        return resp
    again = functools.partial(
        _entry,
        sess,
        data,
        dealer=dealer,
        number=number,
        rnd=rnd,
        result=result,
        scored=True,
        nonce=form.get("nonce"),
        version=version,
        tab=form.get("tab", "0"),
        context=context,
        saved_round=saved_round if request.method == "GET" else None,
    )
    if not saving or error:
        if saving and error:
            _keep_failed_save(sess, form)
        return again(error=error, status=422 if error and saving else 200)
    if need_nonce and not nonce_ok(form.get("nonce")):
        _keep_failed_save(sess, form)
        return again(
            error="Nothing was saved: this form has no valid one-time token (it may come from an old page or another "
            "server). Your cards are kept below; press Save again.",
            status=400,
        )
    try:
        message = save(data)
    except (store.ConflictError, store.RoundTakenError, store.FormTokenReusedError, store.SpentFormTokenError) as e:
        _keep_failed_save(sess, form)
        return _refused(sess, e, data, number=number, rnd=rnd, again=again, nonce=form.get("nonce"))
    except store.StoreUnavailableError as e:
        return again(error=e.message, status=503)
    flash(message)
    return see_other("sessions.scoreboard", token=sess.edit_token)


def _keep_failed_save(sess: store.Session, form: Any) -> None:
    """A Save refused (422, 409, 400) is answered from its POST: keep the form as a draft and name
    its ``?step=`` page in ``g.replace_url``, which ``base.html`` gives ``app.js`` to put in the
    address bar (``history.replaceState``), so Back onto it and Reload are a GET that shows it
    again, never "Confirm Form Resubmission".  The store busy: nothing is kept (the page still is)."""
    if request.method != "POST":
        return
    kept = [(k, v) for k, v in form.items(multi=True) if not k.startswith("as-")]
    try:
        draft = store.add_photo_draft(get_db(), sess.id, kept, {})
    except store.StoreUnavailableError:
        return
    g.replace_url = url_for(request.endpoint, **(request.view_args or {}), step=draft.id)


def _refused(sess: store.Session, e: store.StoreError, data: dict[str, Any], *, number: int,
             rnd: store.RoundRow | None, again: Callable[..., Any], nonce: str | None):
    """The page for a Save the store refused: someone else's edit, a round number taken, a used token."""
    if isinstance(e, store.ConflictError):
        diff = round_diff(sess.players, data, e.current.data if e.current else None)
        page = render_template("conflict.html", s=sess, mine=data, theirs=e.current, number=number, rnd=rnd, diff=diff,
                               **round_words(sess))
        return page, 409
    if isinstance(e, store.RoundTakenError):
        board = board_of(store.get_session(get_db(), sess.id))  # as it is now, with the round saved first
        page = render_template(
            "round_taken.html", s=sess, mine=data, theirs=e.current, number=e.position,
            next_number=e.next_position, next_dealer=board.dealer, over=board.over, nonce=nonce,
            diff=round_diff(sess.players, data, e.current.data if e.current else None), **round_words(sess),
        )
        return page, 409
    if isinstance(e, store.FormTokenReusedError):
        return again(
            error=f"Nothing was saved: this form already saved round {e.position}, with other cards than these. "
            f"Round {e.position} stays as it was saved; to change it, edit round {e.position} from the scoreboard. "
            "Your cards are kept below.",
            status=409,
        )
    return again(
        error="Nothing was saved: this form was saved once already, and that round has since been undone or "
        "deleted. Your cards are kept below; press Save again to save them as a new round.",
        status=409,
        nonce=new_nonce(),
    )


@bp.route("/s/<token>/round/new", methods=["GET", "POST"])
def new_round(token: str):
    """Enter a round: tap cards into piles, score it, save it."""
    sess, _ = load(token, edit=True)
    board = board_of(sess)
    number = len(board.rounds) + 1
    if request.method == "GET" and not kept_step(sess):
        start: dict[str, Any] = {"totals": {}} if request.args.get("entry") == "totals" else {"piles": {}}
        return _entry(sess, start, dealer=board.dealer, number=number, context=board.context)

    # The round number the form was opened for: a round another phone saved since is not saved twice.
    opened_for = str(posted().get("round_number") or "")
    expected = int(opened_for) if opened_for.isdigit() and len(opened_for) < 10 else None

    def save(data: dict[str, Any]) -> str:
        row, created = store.add_round(get_db(), sess.id, data, posted().get("nonce") or None,
                                       round_digest(data), expected_position=expected)
        return f"Round {row.position} saved." if created else f"Round {row.position} was already saved."

    closed = None
    dealer, context = board.dealer, board.context
    # Back after Save: a form whose one-time token saved a round is that round (shown, or saved
    # again: "already saved"), not the next one with another oya.
    saved = store.round_of_form_token(get_db(), sess.id, posted().get("nonce") or "")
    view = next((v for v in board.rounds if v.id == saved), None)
    if view is not None:
        number, dealer, context = view.number, view.dealer, view.context
        if request.method == "GET":
            flash(f"Round {view.number} is saved: this is its form as it was scored. To change the round, "
                  f"use “Edit round {view.number}”.")
    elif (taken := next((v for v in board.rounds if expected is not None and v.number == expected), None)) is not None:
        # Another phone saved this round first: score it as it was opened (its oya, its place);
        # the store refuses the place, and the page offers the next one.
        number, dealer, context = taken.number, taken.dealer, taken.context
    elif board.over:
        ended = f"{board.winner} won" if board.winner else "it ended in a draw"
        closed = f"The game is over: {ended}. Start a new session for the next game."
    shown = store.get_round(get_db(), sess.id, view.id) if view is not None else None
    return _submit(sess, number=number, dealer=dealer, context=context, save=save, closed=closed, need_nonce=True,
                   saved_round=shown)


@bp.post("/s/<token>/round/preview")
def preview(token: str):
    """The live score preview fragment, recomputed as cards are tapped."""
    sess, _ = load(token, edit=True)
    board = board_of(sess)
    context = board.context
    rnd = None
    if request.form.get("round_id", "").isdigit():  # the edit page: that round's place in the game
        view = next((v for v in board.rounds if v.id == int(request.form["round_id"])), None)
        context = view.context if view else context
        rnd = store.get_round(get_db(), sess.id, view.id) if view else None
    data, error = _round_data(sess, context)
    dealer = request.form.get("dealer") or board.dealer
    if dealer not in sess.players:
        error = error or dealer_mismatch(dealer, board.dealer, sess.players)
        dealer = board.dealer
    result, code = None, None
    error = error or unanswered(sess, data)
    if error is None:
        result, error, code = _preview_coded(sess, data, dealer, context)
    count = cards_entered(data)
    # Claims and card points are checked once the piles are in; until then they are not errors.
    deferred = count < 48 and code in DEFERRED_CHECKS
    page = render_template(
        "partials/preview.html",
        s=sess,
        result=result,
        error=None if deferred else error,
        deferred=deferred,
        suggest=_suggestions(sess, data, dealer, context) if error is None or deferred else None,
        count=count,
        data=data,
        dealer=dealer,
        scored=False,
        oob=True,
        **_live_context(sess, rnd),
    )
    resp = make_response(page)
    kept = _keep_typing(sess, rnd)
    if kept:
        resp.headers["HX-Replace-Url"] = kept
    return resp


#: A draft id as the round form carries it (``secrets.token_urlsafe``).
_DRAFT_ID = re.compile(r"[\w-]{8,32}")


def _keep_typing(sess: store.Session, rnd: store.RoundRow | None) -> str | None:
    """Keep the form the live preview got as the page's draft (``store.keep_draft``, one per
    page: the form's ``draft`` field) and return the page's URL showing it (``?step=``), which
    the preview puts in the address bar (``HX-Replace-Url``): Reload, Back after Score, and a tab
    the phone reloads after the camera show every tap.  None when the store is busy (the taps
    stay on the page)."""
    draft_id = request.form.get("draft", "")
    if not _DRAFT_ID.fullmatch(draft_id):
        draft_id = secrets.token_urlsafe(9)
    kept = [(k, v) for k, v in request.form.items(multi=True) if k != "action" and not k.startswith("as-")]
    try:
        draft = store.keep_draft(get_db(), sess.id, draft_id, [*kept, ("action", "draft")])
    except store.StoreUnavailableError:
        return None
    if rnd is not None:
        return url_for("sessions.edit_round", token=sess.edit_token, round_id=rnd.id, step=draft.id)
    return url_for("sessions.new_round", token=sess.edit_token, step=draft.id)


@bp.get("/s/<token>/round/hands")
def hands_fragment(token: str):
    """The dealt hands' pickers (fetched when "Dealt hands" is opened); ``?part=field``: the
    Hachi-hachi field cards' picker."""
    sess, _ = load(token, edit=True)
    return render_template(
        "partials/field_cards.html" if request.args.get("part") == "field" else "partials/hands.html",
        s=sess,
        hands={},
        hand_owner={},
        data={"piles": {}},
    )


def round_or_404(sess: store.Session, round_id: int) -> store.RoundRow:
    """A round of the session, or 404 (also for an id too large to be one)."""
    if not 0 <= round_id < 2**63:
        abort(404, "This session has no such round; it may have been deleted.")
    try:
        return store.get_round(get_db(), sess.id, round_id)
    except store.NotFoundError:
        abort(404, "This session has no such round; it may have been deleted.")


@bp.route("/s/<token>/round/<int:round_id>/edit", methods=["GET", "POST"])
def edit_round(token: str, round_id: int):
    """Edit a saved round; a save over someone else's change shows both versions."""
    sess, _ = load(token, edit=True)
    rnd = round_or_404(sess, round_id)
    board = board_of(sess)
    view = next((v for v in board.rounds if v.id == round_id), None)
    dealer = view.dealer if view else board.dealer
    context = view.context if view else board.context
    if request.method == "GET" and not kept_step(sess):
        return _entry(sess, rnd.data, dealer=dealer, number=rnd.position, rnd=rnd, version=rnd.version, context=context)
    form = posted()
    version = int(form["version"]) if form.get("version", "").isdigit() else -1

    def save(data: dict[str, Any]) -> str:
        store.update_round(get_db(), sess.id, round_id, data, version)
        return f"Round {rnd.position} updated; totals and later dealers recomputed."

    return _submit(sess, number=rnd.position, dealer=dealer, save=save, rnd=rnd, version=version, context=context)


@bp.route("/s/<token>/round/<int:round_id>/delete", methods=["GET", "POST"])
def delete_round(token: str, round_id: int):
    """Confirm, then delete a round."""
    sess, _ = load(token, edit=True)
    rnd = round_or_404(sess, round_id)
    if request.method == "GET":
        return render_template("delete.html", s=sess, rnd=rnd, **round_words(sess))
    try:
        store.delete_round(get_db(), sess.id, round_id)
    except store.NotFoundError:
        abort(404, "This session has no such round; it may have been deleted.")
    flash(f"Round {rnd.position} deleted. “Undo” brings it back.")
    return see_other("sessions.scoreboard", token=token)


@bp.post("/s/<token>/undo")
def undo(token: str):
    """Undo the change the button named (form field ``change``, its id); a second tap of the
    same button undoes nothing more."""
    sess, _ = load(token, edit=True)
    raw = request.form.get("change", "")
    change_id = int(raw) if raw.isdigit() and len(raw) < 19 else None
    try:
        undone = store.undo(get_db(), sess.id, change_id)
    except store.UndoMismatchError as e:
        latest = f" The latest change now is “{e.latest.summary}”." if e.latest else ""
        flash(f"That change was already undone; nothing else was undone.{latest}")
    else:
        flash(f"Undone: {undone}." if undone else "Nothing to undo.")
    return see_other("sessions.scoreboard", token=token)


# ---- export -----------------------------------------------------------------


def export_data(sess: store.Session) -> dict[str, Any]:
    """A session as JSON: ``game`` is a valid ``hanafuda-referee game`` input."""
    rounds = store.rounds_of(get_db(), sess.id)
    board = board_of(sess)
    return {
        "format": EXPORT_FORMAT,
        "name": sess.name,
        "exported": datetime.now(UTC).isoformat(timespec="seconds"),
        "game": {
            "ruleset": sess.ruleset,
            "options": sess.options,
            "players": list(sess.players),
            "dealer": sess.dealer,
            "rounds": [r.data for r in rounds],
        },
        "totals": board.totals,
        "next_dealer": board.dealer,
        "winner": board.winner,
    }


def _filename(sess: store.Session, ext: str) -> str:
    """The download's name: the session's name (any script) without characters a file name cannot hold."""
    safe = "".join("-" if ch in '\\/:*?"<>|' or not ch.isprintable() else ch for ch in sess.name)
    return f"{safe[:60].strip(' .-') or 'session'}.{ext}"


@bp.get("/s/<token>/export.json")
def export_json(token: str):
    """Download the session as JSON."""
    sess, _ = load(token)
    body = json.dumps(export_data(sess), ensure_ascii=False, indent=2)
    return download(body, _filename(sess, "json"), "application/json")


def csv_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run as a formula: text starting with ``= + - @``, a tab
    or a carriage return gets a leading ``'`` (numbers are left as they are)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


@bp.get("/s/<token>/export.csv")
def export_csv(token: str):
    """Download the rounds table as CSV (UTF-8 with a byte order mark, which spreadsheets need to read
    it as UTF-8): one row per round, scores then running totals; in a game
    played by months (Koi-Koi: the game context names the next round's month) a ``month`` column
    names each round's month by its plant ("Pine (松, month 1)")."""
    sess, _ = load(token)
    board = board_of(sess)
    by_month = "month" in board.context or any(v.month for v in board.rounds)
    out = io.StringIO()
    w = csv.writer(out)
    write = lambda row: w.writerow([csv_cell(c) for c in row])  # noqa: E731
    write(
        [
            "round",
            *(["month"] if by_month else []),
            "dealer",
            "void",
            *(f"{p} ({board.unit})" for p in sess.players),
            *(f"{p} total" for p in sess.players),
            "note",
        ]
    )
    for v in board.rounds:
        note = v.error or (f"instant win: {v.instant_win}" if v.instant_win else "")
        write(
            [
                v.number,
                *([v.month] if by_month else []),
                v.dealer,
                "yes" if v.void else "",
                *(v.scores.get(p, "") for p in sess.players),
                *(v.totals.get(p, "") for p in sess.players),
                note,
            ]
        )
    # A byte order mark first: Excel reads a CSV without one in the PC's code page, and 明子 comes out garbled.
    return download("\ufeff" + out.getvalue(), _filename(sess, "csv"), "text/csv")
