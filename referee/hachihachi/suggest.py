"""What the referee can see for itself, to prompt the players' end-of-round statements.

Seed 003 leaves to the players who completed which dekiyaku first, stop or
continue, who was hatto (はっと, one card short of a dekiyaku) and Mizuten.  The
referee suggests what the cards show: the dekiyaku in each pile, the players
one card short of a dekiyaku whose last card is still free (hatto
candidates), and each dealt hand's teyaku.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from referee.hachihachi.dekiyaku import DekiyakuHit, NearMiss, find_dekiyaku, near_misses
from referee.hachihachi.dropout import hand_value
from referee.hachihachi.round import RoundInput
from referee.hachihachi.rules import HachihachiRules
from referee.hachihachi.teyaku import TeyakuHit, find_teyaku


@dataclass(frozen=True)
class Suggestion:
    """Per active player: ``dekiyaku`` in the pile, ``hatto`` near misses, ``teyaku`` of the hand;
    ``dropped``: per dropped player, the mon (before the multiplier) their hand is paid;
    ``needs_order``: two or more piles hold dekiyaku, so the players must state the order."""

    dekiyaku: Mapping[str, tuple[DekiyakuHit, ...]]
    hatto: Mapping[str, tuple[NearMiss, ...]]
    teyaku: Mapping[str, tuple[TeyakuHit, ...]]
    dropped: Mapping[str, int]
    needs_order: bool

    def to_json(self) -> dict:
        """The JSON shape: ``dekiyaku`` {p: [{id, kan, cards}]}, ``hatto`` {p: [{id, missing}]},
        ``teyaku`` {p: [{id, kan, cards}]}, ``dropped`` {p: mon}, ``needs_order``."""
        return {
            "dekiyaku": {
                p: [
                    {"id": h.dekiyaku.id, "kan": h.dekiyaku.kan, "cards": list(h.cards)}
                    for h in hits
                ]
                for p, hits in self.dekiyaku.items()
            },
            "hatto": {
                p: [{"id": n.dekiyaku.id, "missing": list(n.missing)} for n in ns]
                for p, ns in self.hatto.items()
            },
            "teyaku": {
                p: [{"id": h.teyaku.id, "kan": h.kan, "cards": list(h.cards)} for h in hits]
                for p, hits in self.teyaku.items()
            },
            "dropped": dict(self.dropped),
            "needs_order": self.needs_order,
        }


def suggest(rules: HachihachiRules, rnd: RoundInput) -> Suggestion:
    """Suggestions for a validated round (decisions may be absent)."""
    piles = rnd.piles
    dekiyaku = {p: find_dekiyaku(rules, piles[p]) for p in rnd.active}
    hatto = {
        p: near_misses(rules, piles[p], [c for q in rnd.active if q != p for c in piles[q]])
        for p in rnd.active
    }
    teyaku = {p: find_teyaku(rules, h, rnd.field) for p, h in rnd.hands.items()}
    dropped = {
        d.player: hand_value(rules, d.hand, d.forced, rnd.field).mon for d in rnd.dropped if d.hand
    }
    needs_order = sum(bool(h) for h in dekiyaku.values()) >= 2
    return Suggestion(dekiyaku, hatto, teyaku, dropped, needs_order)
