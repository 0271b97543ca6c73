"""A Go-Stop evening: rounds in a row, money totals, the dealer and the nagari carry.

GOSTOP-RULES.md "Instant wins, ppeok, nagari" and "JSON" (game input): the referee carries the
nagari multiplier (×2 after each nagari in a row, up to option ``nagari_cap``; a round's own
``nagari_carry`` must then agree or be left out) and the dealer (the winner deals; after a
nagari the same dealer).  Totals are money (점 × stake).  The game has no end of its own: the
table stops when it likes.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.errors import RefereeError, given, shown
from referee.gostop.inputs import THREE_PPEOK, check_players, make_round
from referee.gostop.round import RoundResult, score_round
from referee.gostop.rules import GostopRules
from referee.gostop.totals import refuse_play, score_totals

#: Keys of one round in a game's ``rounds`` list (GOSTOP-RULES.md "JSON", round input).
#: ``totals`` and ``void``: a round of entered totals (``referee.gostop.totals``).
ROUND_KEYS = frozenset({"piles", "bonus", "sake_cup", "gos", "last_go", "stopped_by", "shakes", "bombs",
                        "ppeok", "instant", "dokbak", "nagari_carry", "totals", "void"})
#: Keys passed to ``make_round`` by name (all of ``ROUND_KEYS`` but the piles and entered totals).
_NAMED = tuple(sorted(ROUND_KEYS - {"piles", "totals", "void"}))


#: What a played round that does not say how it ended is told (the web form asks the same).
ENDING_MISSING = ("\"stopped_by\" is missing: say how the round ended, with the player who stopped (스톱), "
                  "or \"stopped_by\": null when nobody stopped (나가리, a nagari that doubles the next round)")


def ending_missing(data: Mapping[str, Any]) -> bool:
    """Whether a played round says neither who stopped nor that nobody did: ``stopped_by`` is
    required (a player, or null for a nagari), unless ``instant`` (chongtong) or three ppeok in
    ``ppeok`` ended it.  Entered totals say nothing of it."""
    if "stopped_by" in data or "totals" in data or data.get("instant") is not None:
        return False
    ppeok = data.get("ppeok")
    return not (isinstance(ppeok, Mapping) and any(isinstance(t, list | tuple) and len(t) == THREE_PPEOK
                                                   for t in ppeok.values()))


def check_ending(data: Mapping[str, Any]) -> None:
    """Refuse a played round that does not say how it ended (``ending_missing``): without this a
    forgotten stopper would be scored as a nagari and double the next round (docs/GOSTOP.md
    "JSON").  Raises ``RefereeError('bad-round')`` naming the field."""
    if ending_missing(data):
        raise RefereeError("bad-round", ENDING_MISSING)


def explicit_ending(data: Mapping[str, Any]) -> dict[str, Any]:
    """A round stored before endings were explicit, with its old meaning said: no ``stopped_by``
    was a nagari (``stopped_by: null``)."""
    return {**data, "stopped_by": None} if ending_missing(data) else dict(data)


def score_data(rules: GostopRules, players: Sequence[str], data: Mapping[str, Any], dealer: str | None) -> RoundResult:
    """Score a round object's keys (the unknown ones are the caller's to refuse): played, or entered totals."""
    if "totals" in data:
        refuse_play(data)
        return score_totals(rules, players, data["totals"], dealer, data.get("void", False),
                            data.get("nagari_carry"))
    if "void" in data:
        raise RefereeError("bad-round", "\"void\" is only for a round of entered totals")
    rnd = make_round(rules, players, data.get("piles"), dealer=dealer, **{k: data.get(k) for k in _NAMED})
    check_ending(data)  # after the cards and players are checked, which name more
    return score_round(rules, rnd)


@dataclass(frozen=True)
class GameRound:
    """A played round: its number, dealer, result and the money totals after it."""

    number: int
    dealer: str
    result: RoundResult
    totals: Mapping[str, int]


@dataclass(frozen=True)
class GameResult:
    """A game so far: ``totals`` (money per player), the ``next_dealer`` and ``next_nagari_carry``."""

    rules: GostopRules
    players: tuple[str, ...]
    rounds: tuple[GameRound, ...]
    totals: Mapping[str, int]
    next_dealer: str
    next_nagari_carry: int

    def to_json(self) -> dict[str, Any]:
        """The public JSON shape (GOSTOP-RULES.md "JSON", game result)."""
        return {
            "ruleset": self.rules.name,
            "players": list(self.players),
            "point_value": self.rules.options.point_value,
            "rounds_played": len(self.rounds),
            "rounds": [{"round": r.number, **r.result.to_json(), "dealer": r.dealer, "totals": dict(r.totals)}
                       for r in self.rounds],
            "totals": dict(self.totals),
            "winner": None,
            "next_dealer": self.next_dealer,
            "next_nagari_carry": self.next_nagari_carry,
        }


def play_game(rules: GostopRules, players: Sequence[str], rounds: Sequence[Mapping[str, Any]],
              dealer: str | None = None) -> GameResult:
    """Play rounds (objects with some of ``ROUND_KEYS``) from the start.

    Raises ``RefereeError`` naming the round: ``bad-round`` for a round that is not such an object,
    an unknown key, or a ``nagari_carry`` that differs from the one the referee carries; and the
    errors of ``make_round`` and ``score_round`` as ``RefereeError.in_round`` of them (the same
    class and parts, the message and ``round_number`` naming the round).
    """
    players = check_players(rules, players)
    dealer = make_round(rules, players, dealer=dealer).dealer
    totals = dict.fromkeys(players, 0)
    carry = 1
    played: list[GameRound] = []
    for i, r in enumerate(rounds, 1):
        try:
            if not isinstance(r, Mapping):
                raise RefereeError("bad-round", f"expected a round object with some of {', '.join(sorted(ROUND_KEYS))}"
                                   f", {given(r)}")
            unknown = sorted(set(r) - ROUND_KEYS)
            if unknown:
                raise RefereeError("bad-round", f"unknown key(s) {', '.join(unknown)}; expected "
                                   f"{', '.join(sorted(ROUND_KEYS))}")
            stated = r.get("nagari_carry")
            if stated is not None and stated != carry:
                raise RefereeError("bad-round", f"\"nagari_carry\" is {shown(stated)}, but the referee carries "
                                   f"×{carry} into this round (leave it out)")
            result = score_data(rules, players, {**r, "nagari_carry": carry}, dealer)
        except RefereeError as e:
            raise e.in_round(i) from None
        for p, m in result.money.items():
            totals[p] += m
        played.append(GameRound(i, dealer, result, dict(totals)))
        dealer, carry = result.next_dealer, result.next_nagari_carry
    return GameResult(rules, players, tuple(played), totals, dealer, carry)
