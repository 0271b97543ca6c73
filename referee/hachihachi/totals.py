"""A Hachi-hachi round of entered totals: each seated player's net as the table settled it on paper.

Amounts are in mon (an integer) or written as the results write them (``"-1 kan
7 mon"`` = -5 mon, ``"3 kan"``; ``referee.hachihachi.money.parse_money``), and
they must sum to zero: every mon one player receives another pays (RULES.md
"Hachi-hachi": "All points are paid from one player to another").  The round
then goes through the game ledger like any other (``referee.hachihachi.game``):
the totals, the antes and the jackpot, the rounds left.  Its winner, who takes
the pot and deals next, is the stated ``winner`` or else the highest amount
(ties: the first in play order from the dealer).  The field is not known: the
round is played at the head of the carry-over queue, which it consumes, and
queues nothing of its own.  The payments shown are who pays whom to reach
these nets (losers pay winners in play order).  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee import totals as entered
from referee.errors import RefereeError, shown
from referee.explain import Line
from referee.hachihachi.field import Multiplier, check_carry
from referee.hachihachi.ledger import Book
from referee.hachihachi.money import format_mon, parse_money
from referee.hachihachi.round import check_players
from referee.hachihachi.rules import HachihachiRules
from referee.hachihachi.settlement import RoundResult

#: Keys of a totals round object (besides ``ruleset`` and ``options``).
TOTALS_KEYS = ("players", "dealer", "carry", "totals", "winner")
#: The ``outcome`` of a totals round.
OUTCOME = "entered-totals"


def settle_totals(
    rules: HachihachiRules,
    *,
    players: Sequence[str],
    totals: Mapping[str, Any],
    dealer: str | None = None,
    carry: Sequence[int] = (),
    winner: str | None = None,
) -> RoundResult:
    """Settle a round given as ``{player: amount}`` (every seated player; mon or money text).

    Returns a ``RoundResult`` with ``outcome = "entered-totals"``, one
    ``entered-total`` line per player equal to their net, and payments that
    reach those nets.  Raises ``RefereeError``: ``bad-round`` / ``player-count``
    (the seats), ``unknown-player`` (a dealer, winner or total for someone not
    seated), ``bad-money`` (text that is not money), ``bad-totals`` (a missing
    amount, or amounts that do not sum to zero).
    """
    players = tuple(players)
    check_players(rules, players)
    dealer = players[0] if dealer is None else dealer
    for who, what in ((dealer, "dealer"), (winner, "winner")):
        if who is not None and who not in players:
            raise RefereeError("unknown-player", f"{what} {shown(who)} is not seated; players are {list(players)}")
    mpk = rules.mon_per_kan
    net = entered.read_totals(totals, players, unit="mon", parse=lambda text: parse_money(text, mpk))
    total = sum(net.values())
    if total:
        raise RefereeError(
            "bad-totals",
            f"the amounts entered sum to {format_mon(total, mpk)} ({total:+d} mon); a Hachi-hachi round sums to "
            "zero, since every mon one player receives another pays. Check each amount and its sign",
        )
    carry = check_carry(rules, tuple(carry))
    multiplier = Multiplier(carry[0] if carry else 1, carry[1:], (), (), bool(carry))
    if winner is None:
        top = max(net.values())
        winner = entered.first_from(players, dealer, {p for p, v in net.items() if v == top})
    book = Book(rules.options.payment_basis, 1)
    book.settle_nets(net, players, code=entered.CODE, label="Entered totals")
    for p in players:
        book.line(Line(p, entered.CODE, entered.EN, entered.JA, net[p]))
    return RoundResult(
        ruleset=rules.name,
        mon_per_kan=mpk,
        players=players,
        dealer=dealer,
        active=players,
        multiplier=multiplier,
        outcome=OUTCOME,
        card_points={},
        teyaku={},
        dekiyaku={},
        special=None,
        payments=tuple(book.payments),
        lines=tuple(book.lines),
        net=book.net(players),
        winner=winner,
        next_dealer=winner,
        warnings=(),
    )


def totals_kwargs(data: Mapping[str, Any]) -> dict[str, Any]:
    """``settle_totals`` keyword arguments from a round object with ``totals``.

    Raises ``RefereeError('bad-totals')`` when it also gives cards or calls, or a key a
    totals round does not take.
    """
    entered.refuse_cards(data, also=("multiplier", "dropped", "mizuten", "dekiyaku", "hatto"))
    unknown = [k for k in data if k not in (*TOTALS_KEYS, "ruleset", "options", *entered.CARD_KEYS,
                                            "multiplier", "dropped", "mizuten", "dekiyaku", "hatto")]
    if unknown:
        raise RefereeError(
            "bad-round", f"unknown round keys {unknown}; a round of totals takes {', '.join(TOTALS_KEYS)}"
        )
    players = data.get("players")
    if not isinstance(players, list):
        raise RefereeError("bad-round", f"players is {shown(players)}; expected a list of player names")
    carry = data.get("carry") or []
    if not isinstance(carry, list):
        raise RefereeError("bad-round", f"carry is {shown(carry)}; expected a list of queued multipliers")
    out: dict[str, Any] = {"players": players, "totals": data.get("totals"), "carry": carry}
    for key in ("dealer", "winner"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise RefereeError("bad-round", f"{key} is {shown(value)}; expected a player name")
        out[key] = value
    return out
