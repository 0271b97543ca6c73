"""A round's way into a session: scored once with the session's rules, checked as the
scoreboard will replay it, then saved through ``referee.store``.

The round form (``referee.web.round_submit``) and the API (``referee.web.views.api``) call the
same steps, each in the order its answers need (the form scores a round before it is saved, the
API refuses a round of a finished game first), and word the errors in their own way:

- ``score``: the round result object (``hanafuda-referee score``); raises ``RefereeError`` (the
  rules' message and code) or ``ImportError`` (the family's scoring module is not installed);
- ``first_to_target``: the players to ask "who reached the target first?" before a save;
- ``replay_error``: why the board could not replay the round in its place, or None;
- ``add`` and ``update``: the save (an edit to the round as saved saves nothing: ``same_round``);
  ``round_digest`` and ``request_digest`` name a save for its one-time token (the form's, the API's
  ``form_token``).

Part of the service: imports no Flask and no view.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee import store
from referee.errors import RefereeError
from referee.web import board as boards
from referee.web.board import Board
from referee.web.round_shape import round_input
from referee.web.service.session import Opened

if TYPE_CHECKING:
    from sqlite_utils import Database


def score(opened: Opened, data: Mapping[str, Any], dealer: str,
          context: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Score a stored-shape round in its session, as the round after the game that left
    ``context`` (``Board.context``, ``RoundView.context``), with the rules loaded once.
    Raises ``RefereeError``, ``ImportError``."""
    rules = opened.loaded.require()
    return opened.loaded.family.score_json(rules, round_input(opened.session, data, dealer, context))


def first_to_target(opened: Opened, board: Board, number: int, result: Mapping[str, Any] | None) -> list[str]:
    """Who the save must name as first to the target (``board.first_to_target_choices``)."""
    return boards.first_to_target_choices(opened.session, board, number, result, opened.loaded)


def replay_error(opened: Opened, board: Board, data: Mapping[str, Any],
                 round_id: int | None = None) -> RefereeError | None:
    """Why the board could not replay ``data`` as the next round (or in place of ``round_id``);
    None when it can (``board.replay_error``: the one check every save passes)."""
    return boards.replay_error(opened.session, board, data, round_id, opened.loaded)


def game_end(opened: Opened, board: Board, data: Mapping[str, Any], round_id: int | None = None) -> str | None:
    """What round ``data`` says where it ends the game, in place of a next dealer (``board.game_end``)."""
    return boards.game_end(opened.session, board, data, round_id, opened.loaded)


def add(db: Database, opened: Opened, data: Mapping[str, Any], form_token: str | None, digest: str | None,
        expected_position: int | None = None) -> tuple[store.RoundRow, bool]:
    """Save ``data`` as the session's next round: (the round, whether it was created now; False
    when ``form_token`` saved it before).  Raises the store's errors (a round taken, a token spent
    or reused, the database busy)."""
    return store.add_round(db, opened.session.id, data, form_token, digest, expected_position=expected_position)


def update(db: Database, opened: Opened, round_id: int, data: Mapping[str, Any], version: int,
           form_token: str | None = None, digest: str | None = None) -> tuple[store.RoundRow, bool]:
    """Replace a round read at ``version``: (the round as it is now, whether it changed).  The same round
    as saved (``same_round``: its cards and details, in any tap order) is not saved again and logs no change.
    ``form_token``: the edit form's one-time token (an API client's idempotency key), so the same form sent
    again changes nothing more; ``digest``: what names its request (default ``round_digest(data)``: a form's
    token names one round already).  Raises ``store.ChangeTokenUsedError`` for a form sent again (checked
    first), ``store.ConflictError`` when the round changed since."""
    row = store.update_round(db, opened.session.id, round_id, data, version, form_token,
                             round_digest(data) if digest is None else digest, same=same_round)
    return row, row.version != version


def same_round(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two stored-shape rounds are the same round (``round_digest``: piles, hands and field as sets)."""
    return round_digest(a) == round_digest(b)


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


def request_digest(body: Mapping[str, Any]) -> str:
    """What names a request for its ``form_token`` (a round's, or a new session's details): a SHA-256
    of its body without the token (canonical JSON, so key order and spacing do not count; a value JSON
    has no form for, as its text)."""
    rest = {k: v for k, v in body.items() if k != "form_token"}
    text = json.dumps(rest, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()
