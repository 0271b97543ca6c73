"""Other rules for a session: what if it had been played with another preset or other options
(the What if page, the API's ``/rescore``), and fixing a rule afterwards (the What if page's
Apply, the API's ``PUT /rules``).

``compare`` re-scores the whole history round by round (``referee.rescore``); ``change_rules``
saves new rules through ``referee.store.set_rules``: the change is logged, the scoreboard
re-scores every round from its input, and Undo restores the old rules.

Part of the service: imports no Flask and no view.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from referee import api, store
from referee.errors import RefereeError
from referee.presets import load_table
from referee.rescore import replay, rescore
from referee.ruleset import canonical_options, check_options, load_ruleset
from referee.web.board import installed, not_installed
from referee.web.forms.limits import option_number_refusal
from referee.web.service.rounds import request_digest

if TYPE_CHECKING:
    from sqlite_utils import Database

#: The "before" side of a session's what-ifs, by (viewer token, rev): computed once per change.
_BEFORE: OrderedDict[tuple[str, int], tuple[dict, list]] = OrderedDict()


def session_game(db: Database, sess: store.Session) -> dict[str, Any]:
    """The session as a game object (``referee.rescore``, README "Game input")."""
    return {
        "ruleset": sess.ruleset,
        "options": sess.options,
        "players": list(sess.players),
        "dealer": sess.dealer,
        "rounds": [r.data for r in store.rounds_of(db, sess.id)],
    }


def check_rule_options(ruleset: str, options: dict[str, Any]) -> None:
    """Raise ``ruleset.RefusedOptionsError`` naming every option of ``options`` refused, at once: a number past
    the bound any rule may hold (``forms.limits.option_number_refusal``), a mistyped key (no such field) and
    each value the rules refuse (``ruleset.check_options``); the refusal about no option otherwise."""
    check_options(ruleset, options, option_number_refusal)


def compare(db: Database, sess: store.Session, ruleset: str, options: dict[str, Any]) -> dict[str, Any]:
    """The what-if of a session under ``ruleset`` and ``options`` (``referee.rescore.rescore``); the
    session's own side is replayed once per revision.  Raises ``RefereeError`` (``board.not_installed``
    for a game no longer registered; ``ruleset.RefusedOptionsError`` naming every option refused:
    ``check_rule_options``)."""
    if not installed(sess):
        raise not_installed(sess)
    check_rule_options(ruleset, options)  # every refused option at once: canonical_options would say the first
    options = canonical_options(ruleset, options)  # the "after" side says card lists by id, as they are stored
    game = session_game(db, sess)
    key = (sess.view_token, sess.rev)
    before = _BEFORE.get(key)
    if before is None:
        before = _BEFORE[key] = replay(game)
        while len(_BEFORE) > 32:
            _BEFORE.popitem(last=False)
    return rescore(game, ruleset, options, before=before)


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
    """``Roppyakken (六百間) with target=300, fuke.threshold=40``: a preset by the title players pick it
    by (the new-session list; its name where it has none) and its overrides, in one line."""
    try:
        title = api.ruleset_json(ruleset)["title"]
    except (RefereeError, ImportError, KeyError):
        title = ruleset
    shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items())
    return title + (f" with {shown}" if shown else "")


#: The value fields a ruleset's tables score with, in the order an example takes them.
_VALUE_FIELDS = ("points", "kan", "mon")


def rule_field_examples(ruleset: str, most: int = 2) -> list[str]:
    """``KEY=VALUE`` lines of ``ruleset``'s own rule fields (the What if page's hint): the first entry with a value
    of each of its tables (``yaku``, ``teyaku``, ``dekiyaku`` ...), at its value there, such as
    ``yaku.shiko.points=600``; at most ``most``, none for a ruleset that does not load."""
    try:
        table, _ = load_table(ruleset)
    except (RefereeError, ImportError):
        return []
    out = []
    for name, entries in table.items():
        if name == "options" or not isinstance(entries, dict):
            continue
        for yid, entry in entries.items():
            found = next((f for f in _VALUE_FIELDS if isinstance(entry, dict) and type(entry.get(f)) is int), None)
            if found:
                out.append(f"{name}.{yid}.{found}={entry[found]}")
                break
    return out[:most]


def check_rules(db: Database, sess: store.Session, ruleset: str, options: dict[str, Any]) -> None:
    """Raise ``RefereeError`` unless ``ruleset`` and ``options`` load and score this session's
    history (``referee.rescore.rescore``; ``check_rule_options`` first, naming every option refused): the
    check before the rules are changed."""
    if not installed(sess):
        raise not_installed(sess)
    check_rule_options(ruleset, options)
    rescore(session_game(db, sess), ruleset, options)


def change_rules(db: Database, sess: store.Session, ruleset: str, options: dict[str, Any],
                 form_token: str | None = None, digest: str | None = None) -> store.Session:
    """Change the session's rules (logged, undoable: ``store.set_rules``), card-list house rules stored as card
    ids however they were given (``ruleset.canonical_options``); returns the session as saved.
    ``form_token``: the rules form's one-time token (an API client's idempotency key), so the same form sent
    again changes nothing more; ``digest``: what names its request (default: the rules as stored).
    Raises ``RefereeError`` for rules that do not load, ``store.ChangeTokenUsedError`` for a form sent again."""
    options = canonical_options(ruleset, options)
    if digest is None:
        digest = request_digest({"ruleset": ruleset, "options": options})
    return store.set_rules(db, sess.id, ruleset, options, f"change rules to {describe_rules(ruleset, options)}",
                           form_token, digest)
