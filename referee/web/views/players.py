"""Players across sessions: the names a browser has used, and a page per player with history and stats.

Privacy is the home page's rule, ``referee.web.privacy.visible_sessions``: a browser sees
only the sessions it created or opened (the host, every session), so a player's page on a
shared server never shows another table's games.  Names are compared with
``referee.names.name_key`` ("Aki" and "aki " are one player).

- ``/players``: the players of the sessions this browser knows, with their stats;
- ``/players/<key>``: one player's sessions (any family), rounds played, average
  round score per unit (points; kan and mon), yaku made and wins; void rounds (fuke, nagari:
  ``RoundView.void``) are left out of all of them, except that one which still paid someone (a
  nagari's ppeok payouts) counts as a round played, as the session's total counts it;
- ``saved_player_names()`` (a template global): the names offered on the new-session form.

Stats read the standings the scoreboard replays (``referee.web.service.session.board``), so
they follow edits and undo.  Views only read.  A view module: imports no other view module.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Flask, abort, render_template, url_for

from referee.names import clean_name, name_key
from referee.web import privacy
from referee.web.board import Board, amount_formatter
from referee.web.db import get_db
from referee.web.errors import error_response
from referee.web.service import session as service
from referee.web.service.session import Opened

bp = Blueprint("players", __name__)


@dataclass
class Tally:
    """A player's numbers in one unit (points, or mon): rounds counted, their sum, the best round.

    ``fmt`` writes an amount as the family does (``2 kan 6 mon``); points are plain numbers.
    """

    unit: str
    fmt: Callable[[int], str] = str
    rounds: int = 0
    total: int = 0
    best: int | None = None
    entered: int = 0

    def add(self, score: int, entered: bool) -> None:
        self.rounds += 1
        self.total += score
        self.best = score if self.best is None else max(self.best, score)
        self.entered += entered

    @property
    def average(self) -> float | None:
        """Mean round score (``None`` before any round)."""
        return self.total / self.rounds if self.rounds else None

    def shown_average(self) -> str:
        """The mean as players read it: points to one decimal, money to the nearest mon."""
        if self.average is None:
            return ""
        if self.unit == "points":
            return f"{self.average:.1f}".removesuffix(".0")
        return self.fmt(round(self.average))

    def shown_best(self) -> str:
        """The best round as players read it."""
        return "" if self.best is None else self.fmt(self.best)


@dataclass
class PlayerStats:
    """One player across the sessions a browser knows.

    ``name``: the spelling used most recently; ``sessions``: rows for the history table
    (``{session, title, seat, link, shown, rounds, won, over, draw, leader}``); ``tallies``: unit ->
    ``Tally``; ``yaku``: (id, name, local name, its language) -> times made (the local name is
    Japanese, or Go-Stop's Korean: ``Family.local_language``); ``voids``: the void rounds of the
    games played, in their words (``Words.void``: fuke, nagari; none in Koi-Koi or Hachi-hachi);
    ``wins``: sessions won; ``finished``: sessions whose game is over (won, or drawn).
    """

    key: str
    name: str
    sessions: list[dict[str, Any]] = field(default_factory=list)
    tallies: dict[str, Tally] = field(default_factory=dict)
    yaku: Counter = field(default_factory=Counter)
    voids: list[str] = field(default_factory=list)
    wins: int = 0
    finished: int = 0

    @property
    def rounds(self) -> int:
        """Rounds played, every unit together."""
        return sum(t.rounds for t in self.tallies.values())


def _add_session(stats: PlayerStats, opened: Opened, seat: str, board: Board, link: str) -> None:
    sess = opened.session
    # A family no longer registered has a stand-in (``board.session_family``): the default words.
    words, lang = opened.family.words, opened.family.local_language
    if words.void and words.void not in stats.voids:
        stats.voids.append(words.void)
    tally = stats.tallies.get(board.unit)
    if tally is None:
        fmt = amount_formatter(sess) if board.unit != "points" else str
        tally = stats.tallies[board.unit] = Tally(board.unit, fmt)
    played = 0
    for v in board.rounds:
        # A void round (``RoundView.void``, from the round's result: fuke, nagari) is no round anyone
        # played for points: its yaku are not made, and it counts in no tally (rounds, average, best)
        # unless it still paid someone (a Go-Stop nagari's ppeok 뻑 payouts), which the session's total holds.
        if v.error or seat not in v.scores or (v.void and not any(v.scores.values())):
            continue
        played += 1
        tally.add(v.scores[seat], any(line.get("code") == "entered-total" for line in v.lines))
        for y in [] if v.void else v.made.get(seat, []):
            stats.yaku[(y["id"], y["name"], y["name_ja"], lang)] += 1
    won = seat in board.winners
    stats.wins += won
    stats.finished += board.over  # a winner, or a draw (a level Koi-Koi game)
    stats.sessions.append(
        {
            "session": sess,
            "title": board.title,
            "seat": seat,
            "link": link,
            "shown": board.shown.get(seat, ""),
            "unit": board.unit,
            "rounds": played,
            "won": won,
            "over": board.over,
            "draw": board.draw,
            "leader": board.leader == seat,
        }
    )


def player_stats() -> dict[str, PlayerStats]:
    """Every player of the sessions this browser knows, by ``name_key``, most recently seen first."""
    out: dict[str, PlayerStats] = {}
    listed, kept = privacy.visible_sessions()
    for sess in listed:
        opened = Opened(sess)
        board = service.board(get_db(), opened)  # the scoreboard's cache of replayed standings
        # The link this browser uses for a session: the scorekeeper's if it keeps the score.
        link = sess.edit_token if sess.edit_token in kept else sess.view_token
        for seat in sess.players:
            key = name_key(seat)
            stats = out.setdefault(key, PlayerStats(key, clean_name(seat)))
            _add_session(stats, opened, seat, board, link)
    return out


def saved_player_names() -> list[str]:
    """The names used in this browser's sessions, one spelling per player, most recent first."""
    seen: dict[str, str] = {}
    for sess in privacy.visible_sessions()[0]:
        for seat in sess.players:
            seen.setdefault(name_key(seat), clean_name(seat))
    return list(seen.values())


@bp.get("/players")
def index():
    """The players of the sessions this browser created or opened."""
    return render_template("players/players.html", players=list(player_stats().values()))


@bp.get("/players/<path:key>")
def player(key: str):
    """One player's history and stats, across the sessions this browser knows."""
    stats = player_stats().get(name_key(key))
    if stats is None:
        abort(error_response(404, "No player of that name in the sessions this browser created or opened. "
                             "Players lists the ones it knows.", back=url_for("players.index"), back_label="Players"))
    return render_template("players/player.html", p=stats)


def init_app(app: Flask) -> None:
    """Register the blueprint and ``saved_player_names`` for the templates."""
    app.register_blueprint(bp)
    app.jinja_env.globals.update(saved_player_names=saved_player_names)
