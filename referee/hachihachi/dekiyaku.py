"""Dekiyaku (出来役, captured yaku) in a pile or a hand, and hatto (one card short).

Seed 003 "List of Card-set yakus" and "Rule of Hatto"; RULES.md "Dekiyaku":
akatan 7, aotan 7, nanatan 10 (7 of the 9 non-willow ribbons), shiko 10,
gokou 12 (replaces shiko), inoshikacho 7 by option.  Values stack.  The willow
ribbon is chaff, so the ruleset's nanatan pool leaves it out.  Pure core.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.cards import mask
from referee.explain import mask_ids
from referee.hachihachi.rules import Dekiyaku, HachihachiRules


@dataclass(frozen=True, slots=True)
class DekiyakuHit:
    """A dekiyaku present in a card set, with the cards that make it."""

    dekiyaku: Dekiyaku
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NearMiss:
    """A pile one card short of a dekiyaku (a hatto candidate): the cards that would finish it."""

    dekiyaku: Dekiyaku
    missing: tuple[str, ...]


def find_dekiyaku(rules: HachihachiRules, ids: Iterable[str]) -> tuple[DekiyakuHit, ...]:
    """The dekiyaku in a set of card ids (a pile, or a dealt hand), replacements applied."""
    m = mask(ids)
    hits = [
        DekiyakuHit(d, mask_ids(m & d.pool))
        for d in rules.dekiyaku
        if (m & d.pool).bit_count() >= d.need
    ]
    replaced = {r for h in hits for r in h.dekiyaku.replaces}
    return tuple(h for h in hits if h.dekiyaku.id not in replaced)


def dekiyaku_kan(rules: HachihachiRules, yaku_ids: Iterable[str]) -> int:
    """Value in kan of a player's made dekiyaku (ids); shiko under gokou is not counted.

    Raises ``KeyError`` for an id not in the ruleset.
    """
    ids = set(yaku_ids)
    made = [rules.dekiyaku_by_id(i) for i in ids]
    replaced = {r for d in made for r in d.replaces}
    return sum(d.kan for d in made if d.id not in replaced)


def near_misses(
    rules: HachihachiRules, pile: Sequence[str], taken: Iterable[str] = ()
) -> tuple[NearMiss, ...]:
    """Dekiyaku the pile lacks by exactly one card (hatto candidates).

    ``taken``: cards in other piles; a dekiyaku whose missing cards are all
    taken is out of reach and not listed.
    """
    m = mask(pile)
    gone = mask(taken)
    have = {h.dekiyaku.id for h in find_dekiyaku(rules, pile)}
    out = []
    for d in rules.dekiyaku:
        if d.id in have or (m & d.pool).bit_count() != d.need - 1:
            continue
        free = d.pool & ~m & ~gone
        if free:
            out.append(NearMiss(d, mask_ids(free)))
    return tuple(out)
