"""The field multiplier (場の倍率) of a round and its carry-over queue.

RULES.md "Field multiplier" and seed 003 "Setup for each month"; carry-over as
FudaWiki "Multiple Brights Case".  A small field (小場, koba) is ×1; each bright
listed in ``options.field_x2`` makes a big field (大場, ooba, ×2) and each in
``options.field_x4`` a grand field (絶場, zetsuba, ×4).  Any other card, the
willow swallow included, is ×1.

``carry``: the highest multiplier applies now and the others wait in a queue,
×4 first; a round that starts with a queued multiplier uses the queue's head,
and its own field's multipliers join the back of the queue (×4 first).
``stack``: all the field's multipliers are multiplied together and nothing is
queued.  Pure core.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.errors import RefereeError, shown
from referee.hachihachi.rules import HachihachiRules


@dataclass(frozen=True, slots=True)
class Multiplier:
    """A round's multiplier.

    ``value``: the multiplier of every payment this round; ``carry``: the queue
    for the next rounds (head first); ``field``: the field's own multipliers,
    highest first; ``brights``: the field cards that made them;
    ``from_carry``: the value came from the queue.
    """

    value: int
    carry: tuple[int, ...]
    field: tuple[int, ...]
    brights: tuple[str, ...]
    from_carry: bool


def field_multipliers(
    rules: HachihachiRules, field_ids: Sequence[str]
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The multipliers of a dealt field (card ids), highest first, and the brights making them."""
    hits = sorted(
        ((rules.field_values[c], c) for c in field_ids if c in rules.field_values),
        key=lambda vc: -vc[0],
    )
    return tuple(v for v, _ in hits), tuple(c for _, c in hits)


def check_carry(rules: HachihachiRules, carry: Sequence[int]) -> tuple[int, ...]:
    """Validate a carry-over queue: ``RefereeError('bad-round')`` for a value no bright makes."""
    allowed = set(rules.field_values.values())
    for v in carry:
        if isinstance(v, bool) or not isinstance(v, int) or v not in allowed:
            raise RefereeError(
                "bad-round",
                f"carry holds {shown(v)}; expected queued multipliers from {sorted(allowed)}",
            )
    if carry and rules.options.field_multiplier == "stack":
        raise RefereeError(
            "bad-round",
            f"carry is {list(carry)}, but with field_multiplier = stack nothing is carried over",
        )
    return tuple(carry)


def round_multiplier(
    rules: HachihachiRules,
    own: Sequence[int],
    carry: Sequence[int] = (),
    brights: Sequence[str] = (),
) -> Multiplier:
    """The multiplier of a round whose field makes ``own`` (see ``field_multipliers``).

    ``carry`` is the queue left by the previous round.  Raises
    ``RefereeError('bad-round')`` for a bad queue.
    """
    carry = check_carry(rules, carry)
    own = tuple(sorted(own, reverse=True))
    if rules.options.field_multiplier == "stack":
        value = 1
        for v in own:
            value *= v
        return Multiplier(value, (), own, tuple(brights), False)
    if carry:
        return Multiplier(carry[0], carry[1:] + own, own, tuple(brights), True)
    if own:
        return Multiplier(own[0], own[1:], own, tuple(brights), False)
    return Multiplier(1, (), (), tuple(brights), False)
