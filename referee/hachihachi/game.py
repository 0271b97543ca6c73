"""A Hachi-hachi game: the ledger over 6 or 12 rounds, antes, the jackpot and standings.

Seed 003 "Initial Setup" and "Final Scoring"; RULES.md "Hachi-hachi": each
player starts at minus the ante (5 kan for 12 rounds, 3 for 6), the jackpot is
the sum of the antes and goes to the player with the highest total at the end;
tied winners split it (a remainder of mon goes one each to the tied winners in
seating order).  The winner of a round deals the next, and the carry-over
queue of field multipliers passes from round to round.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.errors import RefereeError
from referee.hachihachi.money import format_mon, kan
from referee.hachihachi.round import check_players, make_round
from referee.hachihachi.rules import HachihachiRules
from referee.hachihachi.settlement import RoundResult, settle
from referee.hachihachi.totals import settle_totals


@dataclass(frozen=True)
class GameResult:
    """A game so far.

    ``totals``: mon per player after the antes and every round (before the
    jackpot); ``final``: totals plus jackpot shares once ``complete``, else the
    totals; ``jackpot``: the antes' sum in mon; ``winners``: the players
    sharing the jackpot (empty until complete).  ``final`` sums to zero.
    """

    ruleset: str
    mon_per_kan: int
    players: tuple[str, ...]
    rounds_planned: int
    ante: int
    rounds: tuple[RoundResult, ...]
    totals: Mapping[str, int]
    jackpot: int
    winners: tuple[str, ...]
    jackpot_shares: Mapping[str, int]
    final: Mapping[str, int]
    complete: bool
    next_dealer: str
    carry: tuple[int, ...]
    warnings: tuple[str, ...]

    def standings(self) -> list[dict]:
        """Players by ``final`` mon, highest first: ``{"rank", "player", "mon", "text"}``."""
        order = sorted(self.players, key=lambda p: (-self.final[p], self.players.index(p)))
        out = []
        for i, p in enumerate(order):
            rank = out[-1]["rank"] if out and self.final[p] == out[-1]["mon"] else i + 1
            out.append(
                {
                    "rank": rank,
                    "player": p,
                    "mon": self.final[p],
                    "text": format_mon(self.final[p], self.mon_per_kan),
                }
            )
        return out

    def to_json(self) -> dict:
        """The public JSON shape (docs/HACHIHACHI.md "Game output")."""
        m = self.mon_per_kan
        running = dict.fromkeys(self.players, -self.ante)
        ledger = []
        for i, r in enumerate(self.rounds, 1):
            for p in self.players:
                running[p] += r.net.get(p, 0)
            ledger.append(
                {
                    "round": i,
                    "dealer": r.dealer,
                    "multiplier": r.multiplier.value,
                    "outcome": r.outcome,
                    "winner": r.winner,
                    "net": dict(r.net),
                    "totals": dict(running),
                    "totals_text": {p: format_mon(v, m) for p, v in running.items()},
                    "result": r.to_json(),
                }
            )
        return {
            "ruleset": self.ruleset,
            "mon_per_kan": m,
            "players": list(self.players),
            "rounds_planned": self.rounds_planned,
            "rounds_played": len(self.rounds),
            "complete": self.complete,
            "ante": self.ante,
            "jackpot": self.jackpot,
            "winner": ", ".join(self.winners) or None,
            "winners": list(self.winners),
            "jackpot_shares": dict(self.jackpot_shares),
            "standings": self.standings(),
            "next_dealer": self.next_dealer,
            "carry": list(self.carry),
            "warnings": list(self.warnings),
            "rounds": ledger,
        }


def split_jackpot(jackpot: int, winners: Sequence[str]) -> dict[str, int]:
    """Shares of the jackpot (mon) among tied winners; the remainder goes 1 mon each, in order."""
    base, rest = divmod(jackpot, len(winners))
    return {p: base + (1 if i < rest else 0) for i, p in enumerate(winners)}


def play_game(
    rules: HachihachiRules,
    players: Sequence[str],
    rounds: Sequence[Mapping[str, Any]],
    dealer: str | None = None,
) -> GameResult:
    """Settle a game's rounds in order and keep the ledger.

    ``rounds``: ``make_round`` keyword arguments without ``players``, or
    ``settle_totals`` ones (with ``totals``) for a round entered as totals (a
    round's ``dealer`` and ``carry`` default to the previous round's winner
    and queue).  Raises ``RefereeError('game-over')`` for more rounds than
    ``options.rounds`` (naming the first round too many), and any error of
    ``make_round``/``settle`` with the round's number in the message and in
    ``round_number`` (``RefereeError.in_round``: the same class and parts).
    """
    players = tuple(players)
    check_players(rules, players)
    o = rules.options
    if len(rounds) > o.rounds:
        raise RefereeError(
            "game-over",
            f"round {o.rounds + 1}: the game is over; a game of {rules.name} has {o.rounds} "
            f"rounds and {len(rounds)} were given",
            round_number=o.rounds + 1,
        )
    ante = kan(rules.ante_kan(), o.mon_per_kan)
    dealer = players[0] if dealer is None else dealer
    carry: tuple[int, ...] = ()
    totals = dict.fromkeys(players, -ante)
    results = []
    warnings = []
    for i, raw in enumerate(rounds, 1):
        kwargs = dict(raw)
        if kwargs.pop("players", None) not in (None, list(players), players):
            raise RefereeError(
                "bad-round",
                f"round {i}: players differ from the game's {list(players)}",
                round_number=i,
            )
        stated = kwargs.get("dealer")
        if stated is not None and stated != dealer:
            warnings.append(
                f"round {i}: dealer {stated} stated; the previous winner {dealer} should deal"
            )
        kwargs.setdefault("dealer", dealer)
        if kwargs.get("carry") is None:
            kwargs["carry"] = carry
        elif tuple(kwargs["carry"]) != carry:
            warnings.append(
                f"round {i}: carry {list(kwargs['carry'])} stated; the queue was {list(carry)}"
            )
        try:
            if "totals" in kwargs:  # entered totals (referee.hachihachi.totals)
                result = settle_totals(rules, players=players, **kwargs)
            else:
                result = settle(rules, make_round(rules, players=players, **kwargs))
        except RefereeError as e:
            raise e.in_round(i) from None
        results.append(result)
        warnings.extend(f"round {i}: {w}" for w in result.warnings)
        for p in players:
            totals[p] += result.net.get(p, 0)
        dealer, carry = result.next_dealer, result.multiplier.carry
    jackpot = ante * len(players)
    complete = len(results) == o.rounds
    winners: tuple[str, ...] = ()
    shares: dict[str, int] = {}
    final = dict(totals)
    if complete:
        best = max(totals.values())
        winners = tuple(p for p in players if totals[p] == best)
        shares = split_jackpot(jackpot, winners)
        for p, s in shares.items():
            final[p] += s
    return GameResult(
        ruleset=rules.name,
        mon_per_kan=o.mon_per_kan,
        players=players,
        rounds_planned=o.rounds,
        ante=ante,
        rounds=tuple(results),
        totals=totals,
        jackpot=jackpot,
        winners=winners,
        jackpot_shares=shares,
        final=final,
        complete=complete,
        next_dealer=dealer,
        carry=carry,
        warnings=tuple(warnings),
    )
