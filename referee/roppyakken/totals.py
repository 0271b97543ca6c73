"""A Roppyakken-family round of entered totals: each player's points as the table scored them on paper.

The points are what each player adds to their total this round (after fuke and
settlement, which the table has already applied), so they are 0 or more.  The
round then goes through the game like any other (``referee.roppyakken.game``):
the totals grow, the target ends the game, and the highest entered total deals
next (RULES.md "Instant wins and the end of the game"; ties: the first in play
order from the oya, so a round entered as all zeros, as after fuke, leaves the
oya dealing again).  Cards are not known, so no yaku, fuke or instant win is
seen.  A round that the table's fuke voided is entered as all zeros with ``void``: the
same oya deals again and it does not count toward a fixed number of rounds.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee import totals as entered
from referee.errors import RefereeError, shown
from referee.explain import Line
from referee.roppyakken.round import PlayerRound, RoundResult, make_round
from referee.roppyakken.rules import RoppyakkenRules


def score_totals(
    rules: RoppyakkenRules, players, totals: Mapping, dealer: str | None = None, void: object = False
) -> RoundResult:
    """Score a round given as ``{player: points}``.

    ``void``: the table's fuke voided the round (every total must be 0): the same oya
    deals again and, in a game of fixed ``rounds``, it does not count.
    Returns a ``RoundResult`` with ``entered`` set, whose every player has one
    ``entered-total`` line equal to their points, no cards and no yaku; their
    ``raw_score``, ``round_score`` and ``fuke_count`` are the points entered.
    Raises ``RefereeError``: the player and dealer errors of ``make_round``,
    ``bad-totals`` (a missing or non-integer total, a negative one, one beyond
    ``referee.totals.MAX_AMOUNT``, a void round with points, ``void`` not true or
    false) and ``unknown-player``.
    """
    rnd = make_round(rules, players, {}, dealer=dealer)  # the player count and the dealer
    if not isinstance(void, bool):
        raise RefereeError("bad-totals", f"\"void\" is {shown(void)}; expected true (fuke voided the round) or false")
    points = entered.read_totals(totals, rnd.players, unit="points")
    negative = [p for p, v in points.items() if v < 0]
    if negative:
        p = negative[0]
        raise RefereeError(
            "bad-totals", f"{p}'s total is {points[p]}; a round adds 0 or more points to each player"
        )
    scored = [p for p, v in points.items() if v]
    if void and scored:
        p = scored[0]
        raise RefereeError("bad-totals", f"a void round (fuke) adds nothing, but {p}'s total is {points[p]}; "
                           "enter 0 for everyone, or untick void")
    out = []
    for p in rnd.players:
        line = Line(p, entered.CODE, entered.EN, entered.JA, points[p])
        out.append(PlayerRound(p, (), 0, (), (), points[p], points[p], points[p], (line,)))
    if void:
        return RoundResult(tuple(out), rnd.dealer, rnd.dealer, True, (), None, (), entered=True)
    top = max(points.values())
    next_dealer = entered.first_from(rnd.players, rnd.dealer, {p for p, v in points.items() if v == top})
    return RoundResult(tuple(out), rnd.dealer, next_dealer, False, (), None, (), entered=True)
