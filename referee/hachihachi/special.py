"""Special yaku (特殊役, tokushu-yaku), checked when no dekiyaku ended the round.

RULES.md "Special yaku", seed 003 "List of Special-scoring yakus", FudaWiki
"Scoring With No Dekiyaku": All Eights (総八, every active player at exactly
88), Double Eights (二八, 168 or more card points: +1 kan per point past 168)
and Sixteen Chaff (素十六, 16 or more chaff, willow included: +2 kan per chaff
past 16).  All Eights and Double Eights take precedence over Sixteen Chaff.
Only with three active players.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.hachihachi.deal import DECK_POINTS
from referee.hachihachi.rules import HachihachiRules
from referee.hachihachi.teyaku import chaff_count

#: The par each of three players is settled against: a third of the deck's 264 points.
PAR = DECK_POINTS // 3


@dataclass(frozen=True, slots=True)
class SpecialHit:
    """A special yaku: ``id`` (all-eights, double-eights, sixteen-chaff), maker, value in kan."""

    id: str
    en: str
    ja: str
    player: str
    kan: int
    detail: str


def find_special(
    rules: HachihachiRules,
    play_order: Sequence[str],
    piles: Mapping[str, Sequence[str]],
    points: Mapping[str, int],
) -> SpecialHit | None:
    """The special yaku of a round settled on card points, or None.

    ``play_order``: the active players, first in play order first.
    """
    s = rules.options.special
    if len(play_order) != 3:
        return None
    if all(points[p] == PAR for p in play_order):
        return SpecialHit(
            "all-eights",
            "All Eights",
            "総八",
            play_order[0],
            s.all_eights_kan,
            f"every player at {PAR}",
        )
    for p in play_order:
        if points[p] >= s.double_points:
            k = s.double_kan + (points[p] - s.double_points) * s.double_step_kan
            return SpecialHit("double-eights", "Double Eights", "二八", p, k, f"{points[p]} points")
    for p in play_order:
        n = chaff_count(rules, piles[p])
        if n >= s.chaff_min:
            k = s.chaff_kan + (n - s.chaff_min) * s.chaff_step_kan
            return SpecialHit("sixteen-chaff", "Sixteen Chaff", "素十六", p, k, f"{n} chaff")
    return None
