"""The scoreboard as plain data: a session's rounds replayed through the rules core.

``build_board(session, rounds)`` recomputes the whole game from the stored round
inputs every time (totals, each round's oya, void rounds, the winner), so an
edit, a delete or an undo is always reflected in every later round.  A round
the core rejects (the game already over, a card error after an edit) is shown
with its message and does not count.

Every family is replayed through its game JSON (``Family.game_json``, found in
``referee.families``); the family's ``board`` kind picks how a round reads:
``points`` (each player's ``round_score``) or ``ledger`` (money: each round's
``net`` in mon, with antes, carried multipliers and the jackpot).

Must not import Flask or write to the database.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee import families
from referee.cards import month_label
from referee.errors import RefereeError, without_round_number
from referee.family import Family
from referee.ruleset import load_ruleset
from referee.store import RoundRow, Session
from referee.web.round_shape import stored_round
from referee.wording import words


@dataclass
class RoundView:
    """One row of the rounds table.

    ``scores``: player -> points (or mon) this round; ``lines``: the explanation
    lines (``{player, code, en, ja, points, cards}``); ``error``: why the round
    does not count, if it does not; ``context``: what the round needs from the game
    before it to be scored alone (``Family.next_round``); ``month``: the round's
    month as players name it, where the game has months (Koi-Koi); ``made``: player ->
    the yaku they made (``Family.yaku_made``), for the player pages.
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
    context: dict[str, Any] = field(default_factory=dict)
    month: str = ""
    made: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    saved: str = ""


def extra_round(number: int, planned: int) -> int:
    """Which extra round round ``number`` (1-based) is, past ``planned`` rounds: 0 for a planned
    round (or a game without planned rounds), 1 for the first round after them, and so on."""
    return number - planned if planned and number > planned else 0


@dataclass
class Board:
    """A session's standings.

    ``unit`` is ``points`` or ``mon``; ``progress`` is player -> 0..100 (percent
    of the target); ``dealer`` the oya of the next round; ``winner`` is set when
    the game (or match) is over, ``draw`` when it ended level; ``winners`` lists who won
    (tied Hachi-hachi winners share); ``context`` is what the next round needs from the
    game (``Family.next_round``).
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
    draw: bool = False
    context: dict[str, Any] = field(default_factory=dict)
    winners: tuple[str, ...] = ()
    ante: str = ""
    #: Once a money game is over: each player's share of the jackpot (mon), which ``totals`` include.
    jackpot_shares: dict[str, int] = field(default_factory=dict)
    #: How a void round is marked (``Family.void_badge``).
    void_badge: str = "fuke · void"
    #: How the game is won (or, without an end, that it has none), as the session's rules say it (the rules'
    #: ``goal``; "" where they have none).
    goal: str = ""
    #: The players level at the top whose tie alone keeps the game going (the game result's ``level``: the rules
    #: play another round for it, RULES.md "Instant wins and the end of the game", KOIKOI-RULES.md ``tie``).
    level: tuple[str, ...] = ()
    #: Whether reaching ``target`` ends the game (the rules' ``ends_at_target``): only then does the board show
    #: each player's "to go" and progress bar toward it; a game of fixed rounds shows its round count instead.
    ends_at_target: bool = False
    #: The points the game is won by reaching (the rules' ``goal_target``: a game played to the target, or
    #: counting times over it), which the chart draws; None where no target decides (a game of fixed rounds won
    #: by the total, a family without a target).
    goal_target: int | None = None
    #: The rounds the game is played over (the rules' option ``rounds``), None where they do not end it (a game
    #: played to the target, Go-Stop).
    goal_rounds: int | None = None

    def level_line(self) -> str:
        """Why the game goes on where its rules would have ended it, as the board says it: "Ben and Chie are
        level on 830: another round decides."; "" when no tie at the top keeps it going."""
        if not self.level or self.over:
            return ""
        return f"{words(list(self.level))} are level on {self.shown[self.level[0]]}: another round decides."

    def ranking(self) -> list[tuple[int, str]]:
        """(rank, player), best total first; tied players share a rank (1, 1, 3), seat order between them."""
        order = sorted(self.players, key=lambda p: -self.totals.get(p, 0))
        out: list[tuple[int, str]] = []
        for i, p in enumerate(order):
            tied = out and self.totals.get(out[-1][1], 0) == self.totals.get(p, 0)
            out.append((out[-1][0] if tied else i + 1, p))
        return out

    def round_count(self) -> str:
        """Where a game of planned rounds stands, as players say it, never "round 0": nothing before any
        round (the goal beside it, the rules' ``goal``, says "after 12 rounds"); "round 4 of 12 next"
        while it goes on (the round "Enter round 4" adds); past the planned rounds (a level game played
        off, KOIKOI-RULES.md option ``tie = extra-round``) "extra round 1 next, after 12 rounds"; once
        over "all 12 rounds played" (or "5 of 12 rounds played", "12 rounds and 1 extra round played");
        a game of one round says "1 round" ("1 round played"); "" without planned rounds."""
        planned, played = self.rounds_planned, self.rounds_played
        if not planned:
            return ""
        rounds = f"{planned} round{'s' if planned > 1 else ''}"  # a game of one round (Koi-Koi ``rounds = 1``)
        if self.over:
            extra = extra_round(played, planned)
            if extra:
                return f"{rounds} and {extra} extra round{'s' if extra > 1 else ''} played"
            if played == planned:
                return f"all {rounds} played" if planned > 1 else f"{rounds} played"
            return f"{played} of {rounds} played"
        if not played:
            return ""  # the goal says "after 12 rounds": "12 rounds to play" would say it twice
        extra = extra_round(played + 1, planned)
        if extra:
            return f"extra round {extra} next, after {rounds}"
        return f"round {played + 1} of {planned} next"

    def to_go(self, player: str) -> int | None:
        """Points the player still needs to reach the target (0 once there); None without a target, or where
        the target does not end the game (``ends_at_target``: a game of fixed rounds)."""
        if not self.target or not self.ends_at_target:
            return None
        return max(0, self.target - self.totals.get(player, 0))

    @property
    def leader(self) -> str | None:
        """The player with the highest total, or None on a tie or with no rounds."""
        if not self.rounds or not self.totals:
            return None
        top = max(self.totals.values())
        leaders = [p for p, t in self.totals.items() if t == top]
        return leaders[0] if len(leaders) == 1 else None

    @property
    def over(self) -> bool:
        """True once the game has ended: a winner, or a draw."""
        return self.winner is not None or self.draw


def session_rules(session: Session):
    """The session's ruleset (raises ``RefereeError`` if its options became invalid)."""
    return load_ruleset(session.ruleset, session.options)


@dataclass(frozen=True)
class SessionRules:
    """A session's rules loaded once (``load_rules``): the rules object and its family, or the
    ``RefereeError`` that kept the rules from loading (options that became invalid, a game no longer
    registered) beside the session's family (``session_family``: a stand-in for one not registered)."""

    rules: Any = None
    family: Family | None = None
    error: RefereeError | None = None

    def require(self) -> Any:
        """The rules object; raises the ``RefereeError`` that kept it from loading."""
        if self.error is not None:
            raise self.error
        return self.rules


def installed(session: Session) -> bool:
    """Whether the session's game family is registered on this install (``referee.families``); a
    session of a family removed since stays in the database, and its pages still show."""
    return session.family in families.REGISTRY


def not_installed(session: Session) -> RefereeError:
    """Why a session whose family is not registered here (``installed``) cannot be scored, in players'
    words: ``bad-ruleset``, naming the game as the session stored it."""
    rules = "" if session.ruleset == session.family else f" (rules “{session.ruleset}”)"
    return RefereeError(
        "bad-ruleset",
        f"This session's game, “{session.family}”{rules}, is not installed on this referee: its rounds are kept "
        "as they were saved, but they cannot be scored here, so they do not count, and no round can be saved. "
        "Export JSON keeps the whole session, to score it where the game is installed.",
    )


def session_family(session: Session) -> Family:
    """The session's game family; for one not registered here (``installed``), a stand-in that shows
    its pages in the default words, has no entry form (``forms.rounds.entry_form`` refuses it: its
    rounds are entered as JSON) and refuses to score (``not_installed``)."""
    try:
        return families.get(session.family)
    except RefereeError:
        why = not_installed(session)

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise why

    return Family(name=session.family, title=session.family, from_table=refuse, make_round=refuse,
                  score_round=refuse, play_game=refuse, score_json=refuse, game_json=refuse, round_keys=frozenset())


def load_rules(session: Session) -> SessionRules:
    """Load the session's ruleset and look its family up, once (the functions below take the result)."""
    if not installed(session):  # before the ruleset, whose file may still name the game
        return SessionRules(family=session_family(session), error=not_installed(session))
    try:
        rules = session_rules(session)
        return SessionRules(rules, families.of(rules))
    except RefereeError as e:
        return SessionRules(family=session_family(session), error=e)


def amount_formatter(session: Session, loaded: SessionRules | None = None) -> Callable[[int], str]:
    """How the web writes an amount of the session's family; plain numbers if its rules fail to load.

    Points are plain numbers.  Other units (Hachi-hachi's kan and mon) carry their sign in front
    of the whole amount, as said at the table: -17 mon is ``"−1 kan 5 mon"``, 168 is
    ``"+14 kan 0 mon"``, 0 is ``"0 kan 0 mon"`` (the JSON's ``net_text`` keeps the core's floor
    form, ``"-2 kan 7 mon"``); an amount read as two numbers signs each (``Family.sign_amount``:
    Go-Stop's ``"−8,000 (−80점)"``).
    """
    loaded = loaded or load_rules(session)
    return str if loaded.error is not None else _formatter(loaded.rules, loaded.family)


def rules_amount_formatter(ruleset: str, options: Mapping[str, Any]) -> Callable[[int], str]:
    """``amount_formatter`` for a ruleset and options that need not be a session's (the What if
    page's other rules); plain numbers if they fail to load."""
    try:
        rules = load_ruleset(ruleset, options)
        family = families.of(rules)
    except RefereeError:
        return str
    return _formatter(rules, family)


def _formatter(rules: Any, family: Family) -> Callable[[int], str]:
    if family.unit == "points":
        return lambda amount: family.format_amount(amount, rules)

    def signed(amount: int) -> str:
        sign = "+" if amount > 0 else "\u2212" if amount < 0 else ""
        if family.sign_amount is not None:  # more than one number (Go-Stop's money and 점): a sign on each
            return family.sign_amount(abs(amount), rules, sign)
        return sign + family.format_amount(abs(amount), rules)

    return signed


def _unscored(session: Session, rounds: Sequence[RoundRow], title: str, unit: str, error: str, why: str) -> Board:
    """The board of a session that cannot be replayed (``error``): totals at zero, and its rounds as
    saved, none counting (``why``), so the rounds table and the exports still list them."""
    zero = dict.fromkeys(session.players, 0)
    views = [RoundView(r.id, r.position, r.version, "", r.data, error=why, saved=r.updated) for r in rounds]
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
        views,
        error=error,
    )


_ROUND_PREFIX = re.compile(r"round (\d+): ")


@dataclass
class _Row:
    """A stored round after the replay: its game entry, or the error that left it out; the
    game's rounds before it (``before``) give its dealer and context."""

    entry: dict[str, Any] | None
    error: str | None
    before: int


def replay(family: Family, rules: Any, game: Mapping[str, Any],
           stored: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[_Row]]:
    """Play the stored rounds as one game; a round the core rejects is left out and the
    rounds after it are played without it.

    Returns the game result of the rounds that count and, per stored round, its entry
    or its error.  One pass when every round counts; each rejected round costs one more
    pass (all the rounds after a game-over, one), or, when the error does not name its
    round, a pass per round.  Raises
    ``RefereeError`` when the game itself is invalid (players, dealer, options).
    """
    kept = list(range(len(stored)))
    errors: dict[int, str] = {}
    while True:
        try:
            out = family.game_json(rules, {**game, "rounds": [stored[i] for i in kept]})
            break
        except RefereeError as e:
            m = _ROUND_PREFIX.match(e.message)
            n = int(m.group(1)) if m else 0
            if not 1 <= n <= len(kept):
                return _replay_each(family, rules, game, stored)
            # After a game-over every later round is over too: one more pass, not one per round.
            for i in kept[n - 1 :] if e.code == "game-over" else kept[n - 1 : n]:
                errors[i] = e.message[m.end():]
            kept = [i for i in kept if i not in errors]
    rows: list[_Row] = []
    played = 0
    for i in range(len(stored)):
        if i in errors:
            rows.append(_Row(None, errors[i], played))
        else:
            rows.append(_Row(out["rounds"][played], None, played))
            played += 1
    return out, rows


def _replay_each(family: Family, rules: Any, game: Mapping[str, Any],
                 stored: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[_Row]]:
    """``replay`` one round at a time (an error that does not name its round, e.g. too many rounds)."""
    out = family.game_json(rules, {**game, "rounds": []})
    valid: list[Mapping[str, Any]] = []
    rows: list[_Row] = []
    for data in stored:
        try:
            attempt = family.game_json(rules, {**game, "rounds": [*valid, data]})
        except RefereeError as e:
            rows.append(_Row(None, without_round_number(e.message), len(valid)))
        else:
            rows.append(_Row(attempt["rounds"][-1], None, len(valid)))
            valid.append(data)
            out = attempt
    return out, rows


def _dealer_before(out: Mapping[str, Any], played: int) -> str:
    """The dealer of the round after the first ``played`` rounds of a game result."""
    rounds = out["rounds"]
    return rounds[played]["dealer"] if played < len(rounds) else out["next_dealer"]


def _game_with(session: Session, family: Family, board: Board, data: Mapping[str, Any],
               round_id: int | None) -> dict[str, Any]:
    """The session's game object whose last round is ``data`` (a stored-shape round): after the rounds that
    count before round ``round_id``, or after every round that counts when ``round_id`` is None."""
    before = []
    for v in board.rounds:
        if round_id is not None and v.id == round_id:
            break
        if v.error is None:
            before.append(stored_round(family, v.data))
    return {"ruleset": session.ruleset, "options": session.options, "players": list(session.players),
            "dealer": session.dealer, "rounds": [*before, stored_round(family, data)]}


def replay_error(session: Session, board: Board, data: Mapping[str, Any],
                 round_id: int | None = None, loaded: SessionRules | None = None) -> RefereeError | None:
    """Why the board could not replay ``data`` (a stored-shape round) as the next round, or, with
    ``round_id``, in place of that round; None when it can.  The one check a save passes, from
    the API and the round form alike: the board plays the rounds that count through
    ``Family.game_json``, which may be stricter than scoring the round alone (a Roppyakken round
    of dealt hands only scores, but a game round needs its piles), so a round saved is a round
    the scoreboard shows.  The error is the game's, of the same class and parts (a ``RoundFieldError`` keeps
    its field and rule, so a form still says it in its words), but its message does not name a round number
    (``RefereeError.without_round_number``)."""
    loaded = loaded or load_rules(session)
    if loaded.error is not None:
        return loaded.error
    rules, family = loaded.rules, loaded.family
    try:
        family.game_json(rules, _game_with(session, family, board, data, round_id))
    except RefereeError as e:
        if round_id is not None and e.code == "game-over":
            # An edit of a round the rounds before it had already ended the game (the rules changed, an earlier
            # edit): it does not count wherever its cards, and is kept "not counted" as before (``after_the_end``).
            return None
        return e.without_round_number()
    return None


def game_end(session: Session, board: Board, data: Mapping[str, Any], round_id: int | None = None,
             loaded: SessionRules | None = None) -> str | None:
    """What round ``data`` (a stored-shape round: the next round, or with ``round_id`` in that round's place)
    says where it ends the game, in place of a next dealer, since no next round is played: "The game is over:
    Chiyo wins." ("The match is over: …" for a match of games; "…: a draw."; tied winners "Aki and Ben win").
    None while the game goes on after it, and where the board cannot replay it (the page says why)."""
    loaded = loaded or load_rules(session)
    if loaded.error is not None:
        return None
    rules, family = loaded.rules, loaded.family
    try:
        out = family.game_json(rules, _game_with(session, family, board, data, round_id))
    except RefereeError:
        return None
    fmt = _formatter(rules, family) if family.unit != "points" else str
    ended = BOARDS[family.board].board(session, family, rules, out, [], fmt)
    if not ended.over:
        return None
    what = "match" if ended.match_games > 1 else "game"
    if not ended.winners:
        return f"The {what} is over: a draw."
    names = " and ".join(ended.winners)
    return f"The {what} is over: {names} win{'s' if len(ended.winners) == 1 else ''}."


def after_the_end(board: Board, round_id: int) -> str | None:
    """Why round ``round_id`` does not count when the game ended before it, in players' words ("the game ended
    in round 2: Chiyo won"); None for a round the game played (counted, or refused for its own cards)."""
    view = next((v for v in board.rounds if v.id == round_id), None)
    counted = [v.number for v in board.rounds if v.error is None]
    if view is None or view.error is None or not board.over or not counted or view.number < max(counted):
        return None
    ended = f"{board.winner} won" if board.winner else "a draw"
    return f"the game ended in round {max(counted)}: {ended}"


def build_board(session: Session, rounds: Sequence[RoundRow], loaded: SessionRules | None = None) -> Board:
    """Replay the session's rounds and return its standings."""
    loaded = loaded or load_rules(session)
    if loaded.error is not None:
        why = "its game is not installed here" if not installed(session) else "the session's rules did not load"
        return _unscored(session, rounds, session.ruleset, "points", loaded.error.message, why)
    rules, family = loaded.rules, loaded.family
    game = {
        "ruleset": session.ruleset,
        "options": session.options,
        "players": list(session.players),
        "dealer": session.dealer,
    }
    try:
        out, rows = replay(family, rules, game, [stored_round(family, r.data) for r in rounds])
    except RefereeError as e:
        return _unscored(session, rounds, rules.title, family.unit, e.message, "the game could not be replayed")
    fmt = _formatter(rules, family) if family.unit != "points" else str
    views = []
    for row, played in zip(rounds, rows, strict=True):
        view = RoundView(
            row.id, row.position, row.version, _dealer_before(out, played.before), row.data, saved=row.updated
        )
        view.context = family.next_round({**out, "rounds": out["rounds"][: played.before]})
        if played.error is not None:
            view.error = played.error
        else:
            BOARDS[family.board].round_view(view, played.entry, session.players, fmt)
            if family.yaku_made is not None:
                view.made = family.yaku_made(rules, played.entry)
        views.append(view)
    board = BOARDS[family.board].board(session, family, rules, out, views, fmt)
    board.void_badge = family.void_badge
    return board


def _points_round(view: RoundView, entry: Mapping[str, Any], players: Sequence[str], fmt) -> None:
    view.dealer = entry["dealer"]
    view.scores = {p: int(entry["players"][p]["round_score"]) for p in players}
    view.shown = {p: fmt(s) for p, s in view.scores.items()}
    view.totals = dict(entry["totals"])
    view.void = bool(entry.get("void"))
    view.instant_win = entry.get("instant_win")
    view.game_winner = entry.get("game_winner")
    view.game = entry.get("game", 1)
    view.warnings = list(entry.get("warnings", []))
    view.lines = list(entry.get("explanation", []))
    if entry.get("month"):
        view.month = month_label(entry["month"])
    view.extra = {k: entry[k] for k in ("multiplier", "winner") if k in entry}


def _points_board(session: Session, family: Family, rules: Any, out: Mapping[str, Any],
                  views: list[RoundView], fmt) -> Board:
    """Running points (Roppyakken family, Koi-Koi): progress toward the target where there is one."""
    o = rules.options
    target = getattr(o, "target", None)
    totals = {p: int(out["totals"][p]) for p in session.players}
    progress = dict.fromkeys(session.players, 0)
    if target:
        progress = {p: max(0, min(100, round(100 * t / target))) for p, t in totals.items()}
    board = Board(
        family.name,
        rules.title,
        session.players,
        family.unit,
        totals,
        {p: fmt(t) for p, t in totals.items()},
        progress,
        target,
        out["next_dealer"],
        out.get("winner"),
        dict(out.get("wins") or dict.fromkeys(session.players, 0)),
        views,
        match_games=getattr(o, "match_games", 1),
    )
    board.rounds_planned = int(out.get("rounds_planned") or 0)
    board.rounds_played = int(out.get("rounds_played") or 0)
    board.draw = bool(out.get("draw"))
    board.context = family.next_round(out)
    board.winners = (out["winner"],) if out.get("winner") else ()
    board.goal = getattr(rules, "goal", "")
    board.level = tuple(out.get("level") or ())
    board.ends_at_target = bool(target) and getattr(rules, "ends_at_target", False)
    board.goal_target = getattr(rules, "goal_target", None)
    board.goal_rounds = getattr(o, "rounds", 0) or None
    return board


def _ledger_round(view: RoundView, entry: Mapping[str, Any], players: Sequence[str], fmt) -> None:
    # Each game round is a ledger entry with its round result inside.
    result = entry["result"]
    view.dealer = entry["dealer"]
    view.scores = {p: int(entry["net"].get(p, 0)) for p in players}
    view.shown = {p: fmt(m) for p, m in view.scores.items()}
    view.totals = dict(entry["totals"])
    view.warnings = list(result.get("warnings", []))
    view.lines = list(result.get("explanation", []))
    view.payments = list(result.get("payments", []))
    multiplier = entry.get("multiplier")
    if entry.get("outcome") == "entered-totals" and multiplier == 1:
        multiplier = None  # no field was entered: "field ×1" would claim one
    view.extra = {"multiplier": multiplier, "winner": entry.get("winner")}


def _ledger_board(session: Session, family: Family, rules: Any, out: Mapping[str, Any],
                  views: list[RoundView], fmt) -> Board:
    """Money (Hachi-hachi): the game ledger (antes, carry-over, jackpot), in mon."""
    standings = {s["player"]: s["mon"] for s in out.get("standings", [])}
    totals = {p: standings.get(p, 0) for p in session.players}
    complete = bool(out.get("complete"))
    board = Board(
        session.family,
        rules.title,
        session.players,
        family.unit,
        totals,
        {p: fmt(m) for p, m in totals.items()},
        dict.fromkeys(session.players, 0),
        None,
        out.get("next_dealer", session.dealer),
        ", ".join(out.get("winners", [])) if complete else None,
        dict.fromkeys(session.players, 0),
        views,
    )
    board.rounds_planned = int(out.get("rounds_planned") or 0)
    board.rounds_played = int(out.get("rounds_played") or 0)
    board.carry = list(out.get("carry", []))
    board.jackpot = fmt(int(out.get("jackpot", 0))).lstrip("+")
    board.ante = fmt(int(out.get("ante", 0))).lstrip("+")
    board.context = family.next_round(out)
    board.winners = tuple(out.get("winners", [])) if complete else ()
    board.goal = getattr(rules, "goal", "")
    board.goal_rounds = board.rounds_planned or None
    if complete:
        shares = out.get("jackpot_shares") or {}
        board.jackpot_shares = {p: int(shares.get(p, 0)) for p in session.players}
    return board


@dataclass(frozen=True)
class BoardKind:
    """How one kind of board (``Family.board``) reads a game result: per round, then the standings."""

    round_view: Callable[[RoundView, Mapping[str, Any], Sequence[str], Callable[[int], str]], None]
    board: Callable[..., Board]


#: The boards, by the kind a family names (``referee.family.BOARDS``).
BOARDS: dict[str, BoardKind] = {
    "points": BoardKind(_points_round, _points_board),
    "ledger": BoardKind(_ledger_round, _ledger_board),
}


def option_value(session: Session, key: str, default: Any = None, loaded: SessionRules | None = None) -> Any:
    """The session's effective value of a top-level ruleset option (its override, else the preset's
    default); ``default`` when the rules have no such option or fail to load."""
    loaded = loaded or load_rules(session)
    return default if loaded.error is not None else getattr(loaded.rules.options, key, default)


def first_to_target_choices(session: Session, board: Board, number: int, result: Mapping[str, Any] | None,
                            loaded: SessionRules | None = None) -> list[str]:
    """The players the round entry asks "who reached the target first?" about: those whose total
    crosses the target with round ``number``'s ``result`` (a round result object), when the rules say
    so (``rules.target_crossers``: two or more cross, under ``first_to_target_wins``).  Else empty."""
    if not result or result.get("void") or "players" not in result:
        return []
    loaded = loaded or load_rules(session)
    if loaded.error is not None:
        return []
    crossers = getattr(loaded.rules, "target_crossers", None)
    if crossers is None:
        return []
    totals = dict.fromkeys(session.players, 0)
    for view in reversed(board.rounds[: max(0, number - 1)]):
        if view.totals:
            if not view.game_winner:
                totals = dict(view.totals)
            break
    scores = {p: int(v.get("round_score", 0)) for p, v in result["players"].items()}
    return list(crossers(totals, scores))
