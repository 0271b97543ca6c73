"""A Koi-Koi round of entered totals: the points as the table scored them on paper.

In Koi-Koi at most one player scores a round (the one who stopped, or whom the
hands-ran-out rule names), so at most one total is above 0.  That player deals
next; a round where nobody scored (all zeros, or ``void``) leaves the dealer to
option ``draw_dealer``.  Cards are not known, so no yaku, multiplier or lucky hand
is seen; the month is still used up (round n is month n).  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee import totals as entered
from referee.errors import RefereeError, shown
from referee.explain import Line
from referee.koikoi.round import PlayerRound, RoundResult, make_round, next_dealer_after
from referee.koikoi.rules import KoikoiRules


def score_totals(rules: KoikoiRules, players, totals: Mapping, dealer: str | None = None,
                 month: int | None = None, void: object = False) -> RoundResult:
    """Score a round given as ``{player: points}`` (``void``: nobody scored; every total must be 0).

    Returns a ``RoundResult`` with ``outcome`` ``entered-totals`` whose every player has one
    ``entered-total`` line equal to their points.  Raises ``RefereeError``: the player and
    dealer errors of ``make_round``, and ``bad-totals`` (a missing, negative or non-integer
    total, two players above 0, points in a void round).
    """
    rnd = make_round(rules, players, {}, dealer=dealer, month=month)
    if not isinstance(void, bool):
        raise RefereeError("bad-totals", f"\"void\" is {shown(void)}; expected true (nobody scored) or false")
    points = entered.read_totals(totals, rnd.players, unit="points")
    for p, v in points.items():
        if v < 0:
            raise RefereeError("bad-totals", f"{p}'s total is {v}; a round adds 0 or more points to each player")
    scored = [p for p, v in points.items() if v]
    if void and scored:
        raise RefereeError("bad-totals", f"a round where nobody scored adds nothing, but {scored[0]}'s total is "
                           f"{points[scored[0]]}; enter 0 for both, or untick it")
    if len(scored) > 1:
        a, b = scored
        raise RefereeError("bad-totals", f"in Koi-Koi only one player scores a round, but {a} has {points[a]} and "
                           f"{b} {points[b]}; enter 0 for the player who did not stop")
    winner = scored[0] if scored else None
    out = tuple(PlayerRound(p, (), (), 0, points[p], (Line(p, entered.CODE, entered.EN, entered.JA, points[p]),))
                for p in rnd.players)
    warnings = () if winner else ("nobody scored this round (entered totals)",)
    return RoundResult(out, rnd.dealer, rnd.month, None, (), "entered-totals", winner, 1,
                       next_dealer_after(rules, rnd, winner), warnings)
