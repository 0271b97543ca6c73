"""A Koi-Koi game: a round per month, running totals, the dealer, the end and the tie.

KOIKOI-RULES.md "The game": option ``rounds`` (default 12; 1 to 12); round n is month n,
which tsukifuda uses.  The first dealer comes from the input; later dealers follow the
round rule (the player who scored deals; nobody: option ``draw_dealer``).  Totals are the
sum of round scores; after the last round the higher total wins, and option ``tie``
settles equal totals: ``draw``, ``dealer`` (the next dealer wins) or ``extra-round`` (one
more round at a time until the totals differ; extra rounds go on through the months,
round 13 being month 1 again: docs/KOIKOI.md).  Nothing of a round, a koi-koi call
included, carries into the next.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee import totals as entered
from referee.errors import RefereeError, given
from referee.koikoi.round import RoundResult, check_players, make_round, score_round
from referee.koikoi.rules import KoikoiRules
from referee.koikoi.totals import score_totals

#: Keys of one round in a game's ``rounds`` list (KOIKOI-RULES.md "JSON", "Game input").
ROUND_KEYS = frozenset({"piles", "hands", "calls", "stopped_by", "totals", "void"})


#: What a played round that does not say how it ended is told (the web form asks the same).
ENDING_MISSING = ("\"stopped_by\" is missing: say how the round ended, with the player who stopped (勝負), "
                  "or \"stopped_by\": null when the hands ran out")


def ending_missing(data: Mapping[str, Any]) -> bool:
    """Whether a played round says neither who stopped nor that the hands ran out: ``stopped_by``
    is required (a player, or null), except for a round won at the deal on a lucky hand (dealt
    hands, no pile: KOIKOI-RULES.md "Lucky hands").  Entered totals say nothing of it."""
    if "stopped_by" in data or "totals" in data:
        return False
    piles, hands = data.get("piles") or {}, data.get("hands") or {}
    at_deal = isinstance(piles, Mapping) and isinstance(hands, Mapping) and not any(piles.values()) and any(
        hands.values())
    return not at_deal


def check_ending(data: Mapping[str, Any]) -> None:
    """Refuse a played round that does not say how it ended (``ending_missing``), so that a forgotten
    stopper is never scored as "the hands ran out" (docs/KOIKOI.md "JSON").  Raises
    ``RefereeError('bad-round')`` naming the field."""
    if ending_missing(data):
        raise RefereeError("bad-round", ENDING_MISSING)


def explicit_ending(data: Mapping[str, Any]) -> dict[str, Any]:
    """A round stored before endings were explicit, with its old meaning said: no ``stopped_by``
    was "the hands ran out" (``stopped_by: null``)."""
    return {**data, "stopped_by": None} if ending_missing(data) else dict(data)


def month_of_round(number: int) -> int:
    """The month (1-12) of round ``number`` (1-based): round n is month n, and an extra round
    after the twelfth goes on from month 1 (docs/KOIKOI.md)."""
    if number < 1:
        raise ValueError(f"round numbers start at 1, got {number}")
    return (number - 1) % 12 + 1


@dataclass(frozen=True)
class GameRound:
    """A played round: its number and month, its dealer, its result and the totals after it."""

    number: int
    month: int
    dealer: str
    result: RoundResult
    totals: Mapping[str, int]


@dataclass(frozen=True)
class GameResult:
    """A game so far.

    ``totals``: points per player; ``next_dealer``: the oya of the next round; ``complete``:
    the game has ended; ``winner``: the higher total (or the tie rule's pick) once complete,
    None while the game goes on or on a draw; ``draw``: it ended level; ``level``: the players,
    level after the last planned round, whom option ``tie = extra-round`` gives another round
    (empty otherwise).
    """

    rules: KoikoiRules
    players: tuple[str, str]
    rounds: tuple[GameRound, ...]
    totals: Mapping[str, int]
    next_dealer: str
    complete: bool
    winner: str | None
    draw: bool
    level: tuple[str, ...] = ()

    def to_json(self) -> dict:
        """The public JSON shape (KOIKOI-RULES.md "JSON", game result)."""
        return {
            "ruleset": self.rules.name,
            "players": list(self.players),
            "rounds_planned": self.rules.options.rounds,
            "rounds_played": len(self.rounds),
            "rounds": [
                {"round": r.number, **r.result.to_json(), "month": r.month, "dealer": r.dealer,
                 "totals": dict(r.totals)}
                for r in self.rounds
            ],
            "totals": dict(self.totals),
            "complete": self.complete,
            "winner": self.winner,
            "draw": self.draw,
            "level": list(self.level),
            "next_dealer": self.next_dealer,
        }


def _end(rules: KoikoiRules, players: tuple[str, str], totals: Mapping[str, int], played: int,
         next_dealer: str) -> tuple[bool, str | None, bool]:
    """(complete, winner, draw) after ``played`` rounds."""
    if played < rules.options.rounds:
        return False, None, False
    a, b = players
    if totals[a] != totals[b]:
        return True, a if totals[a] > totals[b] else b, False
    tie = rules.options.tie
    if tie == "dealer":
        return True, next_dealer, False
    if tie == "extra-round":
        return False, None, False
    return True, None, True


def play_game(
    rules: KoikoiRules,
    players: Sequence[str],
    rounds: Sequence[Mapping[str, Any]],
    dealer: str | None = None,
) -> GameResult:
    """Play rounds given as ``{"piles", "hands", "calls", "stopped_by"}`` (or entered ``totals``,
    ``referee.koikoi.totals``) from the start.

    Raises ``RefereeError``, naming the round: ``game-over`` for a round after the game
    has ended, ``bad-round`` for a round that is not such an object, and the errors of
    ``make_round`` and ``score_round`` as ``RefereeError.in_round`` of them: the same class and
    parts (a ``RoundFieldError`` keeps its field and rule), the message and ``round_number`` naming
    the round.
    """
    players = check_players(players)
    state = make_round(rules, players, dealer=dealer, month=1)  # validates the players and the dealer
    dealer = state.dealer
    totals = dict.fromkeys(players, 0)
    played: list[GameRound] = []
    complete, winner, draw = _end(rules, players, totals, 0, dealer)
    for i, r in enumerate(rounds, 1):
        if complete:
            ended = f"{winner} won" if winner else "it ended in a draw"
            raise RefereeError("game-over", f"round {i}: the game is over ({ended} after {i - 1} rounds); "
                               "start a new game")
        if not isinstance(r, Mapping):
            raise RefereeError("bad-round", f"round {i}: expected a round object with some of "
                               f"{', '.join(sorted(ROUND_KEYS))}, {given(r)}")
        unknown = sorted(set(r) - ROUND_KEYS)
        if unknown:
            raise RefereeError("bad-round", f"round {i}: unknown key(s) {', '.join(unknown)}; "
                               f"expected {', '.join(sorted(ROUND_KEYS))}")
        month = month_of_round(i)
        try:
            if "totals" in r:  # entered totals, scored on paper
                entered.refuse_cards(r, also=("calls", "stopped_by"))
                result = score_totals(rules, players, r["totals"], dealer, month, r.get("void", False))
            elif "void" in r:
                raise RefereeError("bad-round", "\"void\" is only for a round of entered totals")
            else:
                rnd = make_round(rules, players, r.get("piles"), r.get("hands"), r.get("calls") or (),
                                 r.get("stopped_by"), dealer, month)
                check_ending(r)
                result = score_round(rules, rnd)
        except RefereeError as e:
            raise e.in_round(i) from None
        for p, s in result.scores.items():
            totals[p] += s
        played.append(GameRound(i, month, dealer, result, dict(totals)))
        dealer = result.next_dealer
        complete, winner, draw = _end(rules, players, totals, i, dealer)
    level = players if not complete and len(played) >= rules.options.rounds else ()  # tie = extra-round
    return GameResult(rules, players, tuple(played), totals, dealer, complete, winner, draw, level)
