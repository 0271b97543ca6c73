"""Round settlement: what a round adds to each player's total.

RULES.md "Presets": ``plain`` adds each round score; ``difference`` (Yukbaek)
gives the top scorer (top - second) and everyone else 0; ``round-up`` (Sambong)
rounds each score up to a multiple of ``round_up_to`` (exact multiples stay).
Pure core.
"""

from __future__ import annotations

import math


def settle(rule: str, scores: dict[str, int], round_up_to: int = 100) -> dict[str, int]:
    """Settled round scores (points) from raw round scores, same keys.

    Raises ``ValueError`` for an unknown rule (a ruleset bug, caught at load time).
    """
    if rule == "plain":
        return dict(scores)
    if rule == "round-up":
        return {p: math.ceil(s / round_up_to) * round_up_to for p, s in scores.items()}
    if rule == "difference":
        ranked = sorted(scores.values(), reverse=True)
        second = ranked[1] if len(ranked) > 1 else 0
        top = ranked[0]
        tops = [p for p, s in scores.items() if s == top]
        return {p: (top - second if p in tops and len(tops) == 1 else 0) for p in scores}
    raise ValueError(f"settlement rule {rule!r}; expected plain, difference or round-up")
