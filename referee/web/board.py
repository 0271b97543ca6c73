"""The scoreboard as plain data: a session's rounds replayed through the rules core.

``build_board(session, rounds)`` recomputes the whole game from the stored round
inputs every time (totals, each round's oya, void rounds, the winner), so an
edit, a delete or an undo is always reflected in every later round.  A round
the core rejects (the game already over, a card error after an edit) is shown
with its message and does not count.

Roppyakken family: points, through ``referee.roppyakken.game``.  Hachi-hachi:
mon, each round settled by ``referee.api.score_json`` (the family module is
imported lazily by the core); totals are the sum of each round's ``net``.

Must not import Flask or write to the database.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee import api
from referee.errors import RefereeError
from referee.roppyakken.game import new_game, play_round, target_crossers
from referee.ruleset import load_ruleset
from referee.store import RoundRow, Session

#: Families scored in points by ``referee.roppyakken.game``, whose rounds are entered with the card picker.
PICKER_FAMILIES = ("roppyakken",)
#: Families settled in money (kan and mon) by their own module, through ``referee.api``.
MONEY_FAMILIES = ("hachihachi",)


def format_mon_fallback(mon: int) -> str:
    """``-17 mon``: used when ``referee.hachihachi.money.format_mon`` is not installed."""
    return f"{mon} mon"


def mon_formatter(mon_per_kan: int = 12) -> Callable[[int], str]:
    """The Hachi-hachi money formatter (kan and mon), or a plain mon fallback."""
    try:
        money = importlib.import_module("referee.hachihachi.money")
    except ImportError:
        return format_mon_fallback
    fmt = money.format_mon

    def formatted(mon: int) -> str:
        try:
            return fmt(mon, mon_per_kan)
        except TypeError:
            return fmt(mon)

    return formatted


@dataclass
class RoundView:
    """One row of the rounds table.

    ``scores``: player -> points (or mon) this round; ``lines``: the explanation
    lines (``{player, code, en, ja, points, cards}``); ``error``: why the round
    does not count, if it does not.
    """

    id: int
    number: int
    version: int
    dealer: str
    data: dict[str, Any]
    scores: dict[str, int] = field(default_factory=dict)
    shown: dict[str, str] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)
    void: bool = False
    instant_win: str | None = None
    game_winner: str | None = None
    game: int = 1
    warnings: list[str] = field(default_factory=list)
    lines: list[dict[str, Any]] = field(default_factory=list)
    payments: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


@dataclass
class Board:
    """A session's standings.

    ``unit`` is ``points`` or ``mon``; ``progress`` is player -> 0..100 (percent
    of the target); ``dealer`` the oya of the next round; ``winner`` is set when
    the game (or match) is over.
    """

    family: str
    title: str
    players: tuple[str, ...]
    unit: str
    totals: dict[str, int]
    shown: dict[str, str]
    progress: dict[str, int]
    target: int | None
    dealer: str
    winner: str | None
    wins: dict[str, int]
    rounds: list[RoundView]
    match_games: int = 1
    error: str | None = None
    rounds_planned: int = 0
    rounds_played: int = 0
    carry: list[int] = field(default_factory=list)
    jackpot: str = ""

    @property
    def leader(self) -> str | None:
        """The player with the highest total, or None on a tie or with no rounds."""
        if not self.rounds or not self.totals:
            return None
        top = max(self.totals.values())
        leaders = [p for p, t in self.totals.items() if t == top]
        return leaders[0] if len(leaders) == 1 else None


def session_rules(session: Session):
    """The session's ruleset (raises ``RefereeError`` if its options became invalid)."""
    return load_ruleset(session.ruleset, session.options)


def build_board(session: Session, rounds: Sequence[RoundRow]) -> Board:
    """Replay the session's rounds and return its standings."""
    if session.family in PICKER_FAMILIES:
        return _roppyakken(session, rounds)
    return _money(session, rounds)


def _empty(session: Session, title: str, unit: str, error: str | None) -> Board:
    zero = dict.fromkeys(session.players, 0)
    return Board(
        session.family,
        title,
        session.players,
        unit,
        zero,
        dict.fromkeys(zero, "0"),
        dict(zero),
        None,
        session.dealer,
        None,
        dict(zero),
        [],
        error=error,
    )


def _roppyakken(session: Session, rounds: Sequence[RoundRow]) -> Board:
    try:
        rules = session_rules(session)
        state = new_game(rules, session.players, session.dealer)
    except RefereeError as e:
        return _empty(session, session.ruleset, "points", e.message)
    views = []
    for row in rounds:
        view = RoundView(row.id, row.position, row.version, state.dealer, row.data)
        try:
            state = play_round(
                state,
                row.data.get("piles") or {},
                row.data.get("hands"),
                row.data.get("field") or (),
                row.data.get("first_to_target"),
            )
        except RefereeError as e:
            view.error = e.message
        else:
            played = state.rounds[-1]
            result = played.result
            view.scores = dict(result.scores)
            view.shown = {p: str(s) for p, s in view.scores.items()}
            view.totals = dict(played.totals)
            view.void = result.void
            view.instant_win = result.instant_win
            view.game_winner = played.game_winner
            view.game = played.game
            view.warnings = list(result.warnings)
            view.lines = [line.to_json() for line in result.explanation]
        views.append(view)
    o = rules.options
    target = o.target
    progress = {p: max(0, min(100, round(100 * t / target))) for p, t in state.totals.items()}
    return Board(
        "roppyakken",
        rules.title,
        state.players,
        "points",
        dict(state.totals),
        {p: str(t) for p, t in state.totals.items()},
        progress,
        target,
        state.dealer,
        state.winner,
        dict(state.wins),
        views,
        match_games=o.match_games,
    )


#: Keys of a round object that belong to the session, never stored with a round.
SESSION_KEYS = ("ruleset", "options", "players")


def stored_round(family: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """What a session stores of a round object: its cards (and, for money families, the
    players' statements), without the session's keys or a request's bookkeeping."""
    if family in PICKER_FAMILIES:
        return {k: data[k] for k in ("piles", "hands", "field", "first_to_target") if data.get(k)}
    return {k: v for k, v in data.items() if k not in (*SESSION_KEYS, "version", "form_token")}


def _without_round_number(message: str) -> str:
    head, sep, rest = message.partition(": ")
    return rest if sep and head.startswith("round ") and head[6:].isdigit() else message


def _money(session: Session, rounds: Sequence[RoundRow]) -> Board:
    """Hachi-hachi: the game ledger of ``api.game_json`` (antes, carry-over, jackpot), in mon.

    A round the core rejects is left out of the game and shown with its message;
    the rounds after it are settled without it.
    """
    try:
        info = api.ruleset_json(session.ruleset, session.options)
    except (RefereeError, ImportError) as e:
        return _empty(session, session.ruleset, "mon", str(e))
    per_kan = next((int(o["default"]) for o in info["options"] if o["key"] == "mon_per_kan"), 12)
    fmt = mon_formatter(per_kan)
    game = {
        "ruleset": session.ruleset,
        "options": session.options,
        "players": list(session.players),
        "dealer": session.dealer,
    }
    try:
        last = api.game_json({**game, "rounds": []})
    except (RefereeError, ImportError) as e:
        return _empty(session, info["title"], "mon", str(e))
    valid: list[dict[str, Any]] = []
    views = []
    for row in rounds:
        view = RoundView(row.id, row.position, row.version, last.get("next_dealer", session.dealer), row.data)
        try:
            out = api.game_json({**game, "rounds": [*valid, stored_round(session.family, row.data)]})
        except RefereeError as e:
            view.error = _without_round_number(e.message)
        else:
            valid.append(stored_round(session.family, row.data))
            last = out
            # Each game round is a ledger entry with its round result inside.
            entry = out["rounds"][-1]
            result = entry["result"]
            view.dealer = entry["dealer"]
            view.scores = {p: int(entry["net"].get(p, 0)) for p in session.players}
            view.shown = {p: fmt(m) for p, m in view.scores.items()}
            view.totals = dict(entry["totals"])
            view.warnings = list(result.get("warnings", []))
            view.lines = list(result.get("explanation", []))
            view.payments = list(result.get("payments", []))
            view.extra = {"multiplier": entry.get("multiplier"), "winner": entry.get("winner")}
        views.append(view)
    standings = {s["player"]: s["mon"] for s in last.get("standings", [])}
    totals = {p: standings.get(p, 0) for p in session.players}
    complete = bool(last.get("complete"))
    planned = int(last.get("rounds_planned") or 0)
    played = int(last.get("rounds_played") or 0)
    board = Board(
        session.family,
        info["title"],
        session.players,
        "mon",
        totals,
        {p: fmt(m) for p, m in totals.items()},
        dict.fromkeys(session.players, 0),
        None,
        last.get("next_dealer", session.dealer),
        ", ".join(last.get("winners", [])) if complete else None,
        dict.fromkeys(session.players, 0),
        views,
    )
    board.rounds_planned, board.rounds_played = planned, played
    board.carry = list(last.get("carry", []))
    board.jackpot = fmt(int(last.get("jackpot", 0)))
    return board


def money_round(session: Session, data: Mapping[str, Any], dealer: str, carry: Sequence[int] = ()) -> dict[str, Any]:
    """A stored Hachi-hachi round completed with the session's keys, the dealer and the carry queue."""
    out = {
        **data,
        "ruleset": session.ruleset,
        "options": session.options,
        "players": list(session.players),
        "dealer": data.get("dealer") or dealer,
    }
    if "carry" not in data and carry:
        out["carry"] = list(carry)
    return out


def option_value(session: Session, key: str, default: Any = None) -> Any:
    """The session's effective value of a ruleset option (its override, else the preset's default)."""
    try:
        info = api.ruleset_json(session.ruleset, session.options)
    except (RefereeError, ImportError):
        return default
    return next((o["default"] for o in info["options"] if o["key"] == key), default)


def first_to_target_choices(session: Session, board: Board, number: int, result: Mapping[str, Any] | None) -> list[str]:
    """The players the round entry asks "who reached the target first?" about: those whose total crosses
    the target with round ``number``'s ``result`` (a round result object), when two or more do and the
    ruleset plays ``first_to_target_wins`` (``referee.roppyakken.game.target_crossers``).  Else empty."""
    if session.family not in PICKER_FAMILIES or not result or result.get("void") or "players" not in result:
        return []
    totals = dict.fromkeys(session.players, 0)
    for view in reversed(board.rounds[: max(0, number - 1)]):
        if view.totals:
            if not view.game_winner:
                totals = dict(view.totals)
            break
    try:
        rules = session_rules(session)
    except RefereeError:
        return []
    scores = {p: int(v.get("round_score", 0)) for p, v in result["players"].items()}
    return list(target_crossers(rules, totals, scores))


def round_input(session: Session, data: Mapping[str, Any], dealer: str) -> dict[str, Any]:
    """The full round JSON (``score`` CLI shape) of a stored Roppyakken-family round."""
    out = {
        "ruleset": session.ruleset,
        "options": session.options,
        "players": list(session.players),
        "dealer": dealer,
        "piles": data.get("piles") or {},
    }
    if data.get("hands"):
        out["hands"] = data["hands"]
    if data.get("field"):
        out["field"] = data["field"]
    return out
