"""A Go-Stop round of entered totals: points (점) as the table settled them on paper.

README "Entered totals": ``{"totals": {player: 점}}`` instead of piles, summing to zero; money is
points × option ``point_value``.  The player with the most points (the first from the dealer on
a tie) won and deals next.  ``void``: a nagari (나가리): every total 0, the dealer stays and the
next round carries the nagari multiplier as any nagari does.  Cards are not known, so no point
line or factor is seen.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee import totals as entered
from referee.errors import RefereeError, shown
from referee.explain import Line
from referee.gostop.inputs import make_round, next_carry
from referee.gostop.round import PlayerRound, RoundResult
from referee.gostop.rules import GostopRules

#: Round keys that a round of entered totals may not have beside them.
REFUSED = ("bonus", "sake_cup", "gos", "last_go", "stopped_by", "shakes", "bombs", "ppeok", "instant", "dokbak")


def score_totals(rules: GostopRules, players: Sequence[str], totals: Mapping, dealer: str | None = None,
                 void: object = False, nagari_carry: int | None = None) -> RoundResult:
    """Score a round given as ``{player: 점}``.

    Returns a ``RoundResult`` with ``outcome`` ``entered-totals`` (``nagari`` when ``void``) and one
    ``entered-total`` line per player, worth their money.  Raises ``RefereeError``: the player and
    dealer errors of ``make_round``; ``bad-totals`` (a missing or non-integer total, totals that
    do not sum to zero, points in a void round).
    """
    rnd = make_round(rules, players, {}, dealer=dealer, nagari_carry=nagari_carry)
    if not isinstance(void, bool):
        raise RefereeError("bad-totals", f"\"void\" is {shown(void)}; expected true (나가리: nobody stopped) or false")
    points = entered.read_totals(totals, rnd.players, unit="points (점)")
    if sum(points.values()):
        raise RefereeError("bad-totals", f"the totals sum to {sum(points.values())}, not 0: what the losers pay, "
                           f"the winner receives ({', '.join(f'{p} {v}' for p, v in points.items())})")
    scored = [p for p, v in points.items() if v]
    if void and scored:
        raise RefereeError("bad-totals", f"a nagari (나가리) pays nothing, but {scored[0]}'s total is "
                           f"{points[scored[0]]}; enter 0 for everyone, or untick it")
    pv = rules.options.point_value
    start = rnd.players.index(rnd.dealer)
    order = [*rnd.players[start:], *rnd.players[:start]]
    winner = max(order, key=lambda p: points[p]) if scored else None
    out = tuple(PlayerRound(p, (), 0, 0, 0, None, points[p], points[p] * pv,
                            (Line(p, entered.CODE, f"{entered.EN}: {points[p]}점", "직접 입력", points[p] * pv),))
                for p in rnd.players)
    nagari = winner is None
    warnings = ("나가리 (nagari): nobody stopped (entered totals)",) if nagari else ()
    return RoundResult(out, rnd.dealer, "nagari" if void else "entered-totals", winner, 0, {}, (),
                       rnd.nagari_carry, next_carry(rnd.nagari_carry, rules.options.nagari_cap) if nagari else 1,
                       rnd.dealer if nagari else winner, pv, warnings)


def refuse_play(data: Mapping) -> None:
    """``bad-totals`` when a totals round also gives cards or what happened in play."""
    entered.refuse_cards(data, also=REFUSED)
