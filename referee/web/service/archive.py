"""A session as JSON and back: the Export JSON button, the API, ``hanafuda-referee export``
(one session or ``--all``) and Import.

A session export is ``{"format": "hanafuda-referee/session-v1", "name", "exported", "game":
{ruleset, options, players, dealer, rounds}, "totals", "next_dealer", "winner"}``, whose ``game``
is a valid ``hanafuda-referee game`` input (``export_data``).  The archive is ``{"format":
"hanafuda-referee/sessions-v1", "exported": time, "sessions": [session export, ...]}``, so the
home page's Import and ``hanafuda-referee import`` take an archive or a single export alike.
``session_from_export`` checks a session to create, whole, before anything is stored (the API's
new session goes through it too), its card-list house rules as card ids (``ruleset.canonical_options``), every
house rule the rules refuse named at once (``service.rules.check_rule_options``: a ``ruleset.RefusedOptionsError``).
A session export (``"format"`` set) holds stored rounds: they are replayed as the scoreboard replays
them, so a round an edit or a rules change left "not counted" (the game already over, say) comes back
as the data it is; a bare ``game`` (the API's new session, a hand-written file) is played as new
rounds, and a round after the end is refused.  An archive imports every session it can and names
those it cannot (``sessions_to_create``).

Part of the service: imports no Flask and no view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from referee import api, families, store
from referee.errors import RefereeError
from referee.names import repeated_name, repeated_name_message
from referee.ruleset import canonical_options
from referee.web.board import replay
from referee.web.forms.limits import (
    MAX_NAME,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_SESSION_NAME,
    cut_name,
    name_length,
    name_too_long,
)
from referee.web.forms.options import check_preset
from referee.web.round_shape import stored_round
from referee.web.service.rules import check_rule_options
from referee.web.service.session import Opened, board

if TYPE_CHECKING:
    from sqlite_utils import Database

EXPORT_FORMAT = "hanafuda-referee/session-v1"
ARCHIVE_FORMAT = "hanafuda-referee/sessions-v1"


def export_data(db: Database, sess: store.Session) -> dict[str, Any]:
    """A session as JSON: ``game`` is a valid ``hanafuda-referee game`` input."""
    rounds = store.rounds_of(db, sess.id)
    standings = board(db, Opened(sess))
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
        "totals": standings.totals,
        "next_dealer": standings.dealer,
        "winner": standings.winner,
    }


#: What Import takes, said when it is given something else.
_TAKES = "Import takes a file saved with a scoreboard's “Export JSON” (or the command line's export)."
#: Keys of a round's JSON (the round form's "Advanced" box, the ``score`` command's input), not a session's.
_ROUND_KEYS = frozenset({"piles", "totals", "hands", "stopped_by", "field"})


def session_from_export(data: Any) -> dict[str, Any]:
    """The session to create from an export (or a bare ``game`` CLI input).

    Raises ``RefereeError('bad-round')`` naming what is wrong.
    """
    return _checked_session(data)[0]


def _checked_session(data: Any) -> tuple[dict[str, Any], list[str]]:
    """``session_from_export`` and, for a session export, the rounds kept as not counted
    ("round 3: the game is over: ..."), as the scoreboard will show them."""
    if not isinstance(data, dict):
        raise RefereeError("bad-round", f"This is not a session export: it is JSON, but not an object ({{...}}). "
                                        f"{_TAKES}")
    game = data.get("game", data)
    if not isinstance(game, dict) or not isinstance(game.get("players"), list):
        what = "a round's JSON, not a session's" if isinstance(game, dict) and _ROUND_KEYS & game.keys() else (
            'no "game" with its "players"')
        raise RefereeError("bad-round", f"This is not a session export: it has {what}. {_TAKES}")
    rounds = game.get("rounds") or []
    if not isinstance(rounds, list) or not all(isinstance(r, dict) for r in rounds):
        raise RefereeError("bad-round", '"rounds" must be a list of round objects')
    ruleset = game.get("ruleset") or families.DEFAULT_RULESET
    if not isinstance(ruleset, str):
        raise RefereeError("bad-ruleset", '"ruleset" must be a preset name (a string)')
    options = game.get("options") or {}
    if not isinstance(options, dict):
        raise RefereeError("bad-ruleset", '"options" must be an object of option names to values, e.g. {"target": 600}')
    check_preset(ruleset)
    check_rule_options(ruleset, options)  # every refused option at once: canonical_options would say the first
    options = canonical_options(ruleset, options)  # card lists as ids, as the new-session form stores them
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
    whole = {"ruleset": ruleset, "options": options, "players": players, "dealer": dealer, "rounds": stored}
    not_counted: list[str] = []
    if data.get("format") == EXPORT_FORMAT:
        # Stored rounds, not rounds being played: a round the board keeps as not counted is data.
        rules = api.load_from_json(whole)
        _, rows = replay(families.of(rules), rules, whole, stored)
        not_counted = [f"round {i}: {row.error}" for i, row in enumerate(rows, 1) if row.error is not None]
    else:
        # Plays the game once: the player count, the dealer and every round are checked before anything is stored.
        api.game_json(whole)
    return {
        "name": name,
        "ruleset": ruleset,
        "family": info["game"],
        "options": options,
        "players": players,
        "dealer": dealer,
        "rounds": stored,
    }, not_counted




def export_all(db: Database) -> dict[str, Any]:
    """Every session of the database, oldest first, as one importable archive."""
    sessions = sorted(store.list_sessions(db), key=lambda s: s.id)
    return {
        "format": ARCHIVE_FORMAT,
        "exported": datetime.now(UTC).isoformat(timespec="seconds"),
        "sessions": [export_data(db, s) for s in sessions],
    }


@dataclass
class Batch:
    """What an import will create: ``sessions`` (each for ``create_all``), ``refused`` (an
    archive's sessions that cannot be imported, each "session 2 ('Name'): why") and
    ``not_counted`` (rounds imported as the scoreboard keeps them, not counted: "round 3: why")."""

    sessions: list[dict[str, Any]]
    refused: list[str] = field(default_factory=list)
    not_counted: list[str] = field(default_factory=list)


def sessions_to_create(data: Any) -> Batch:
    """The sessions to create from an archive or from one session export, each checked whole.

    An archive imports every session it can; those it cannot are named in ``refused``.  Raises
    ``RefereeError`` for a single export that is wrong, an archive that is not one, or an
    archive none of whose sessions can be imported (naming each, by number and name).
    """
    if not (isinstance(data, dict) and data.get("format") == ARCHIVE_FORMAT):
        made, not_counted = _checked_session(data)
        return Batch([made], not_counted=not_counted)
    entries = data.get("sessions")
    if not isinstance(entries, list):
        raise RefereeError("bad-round", 'an archive needs "sessions": [session export, ...]')
    batch = Batch([])
    for i, entry in enumerate(entries, 1):
        name = entry.get("name") if isinstance(entry, dict) else None
        label = f"session {i}" + (f" ({str(name)[:40]!r})" if isinstance(name, str) else "")
        try:
            made, not_counted = _checked_session(entry)
        except RefereeError as e:
            batch.refused.append(f"{label}: {e.message}")
            code = e.code
        else:
            batch.sessions.append(made)
            batch.not_counted += [f"{label} {note}" for note in not_counted]
    if batch.refused and not batch.sessions:
        raise RefereeError(code, "; ".join(batch.refused))
    return batch


def create_all(db: Database, created: list[dict[str, Any]], form_token: str | None = None) -> list[store.Session]:
    """Create the sessions in one transaction (all or none).  With ``form_token`` (the import
    form's one-time token), a form posted again gets the sessions it created, none new."""
    return store.create_sessions_once(db, form_token, created)[0]
