"""Point lines from a captured pile (GOSTOP-RULES.md "Points from captures").

``tally`` counts a pile the way Go-Stop counts it (brights, animals, ribbons, pi value with
ssangpi, bonus cards and the sake cup where it went); ``point_lines`` reads every active line of
the ruleset from it.  All lines stack except the bright (gwang) group, where only the line worth
most scores.  Pure core.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.cards import BY_ID, CARDS, mask
from referee.explain import Line, mask_ids
from referee.gostop.rules import GostopRules, Yaku

#: The sake cup (국진): an animal or a ssangpi, never both ("Cards").
SAKE_CUP = "chrysanthemum-sake-cup"
#: The rain gwang (비광).
RAIN_GWANG = "willow-rain-man"
#: The willow ribbon (비띠): never in a dan; counted as a ribbon by option.
WILLOW_RIBBON = "willow-ribbon"
#: Pi value of a ssangpi and of the sake cup played as pi.
SSANGPI = 2

_KIND = {k: mask(c.id for c in CARDS if c.kind == k) for k in ("bright", "animal", "ribbon", "chaff")}


@dataclass(frozen=True)
class Tally:
    """What one pile counts for: ``brights``, ``animals``, ``ribbons`` (masks of the cards that
    count), ``pi`` (pi value, 점 units of the pi line: chaff 1, ssangpi 2, bonus cards by value,
    the sake cup 2 as pi), ``pi_cards`` (the chaff and cup counted, for the explanation), ``bonus``
    (the bonus cards' values) and ``pile`` (the mask of every card held)."""

    brights: int
    animals: int
    ribbons: int
    pi: int
    pi_cards: tuple[str, ...]
    bonus: tuple[int, ...]
    pile: int = 0

    @property
    def animal_count(self) -> int:
        """Animals held (the sake cup only when it is an animal)."""
        return self.animals.bit_count()


def tally(rules: GostopRules, pile: Sequence[str], bonus: Sequence[int] = (), cup_as_pi: bool = False) -> Tally:
    """Count a pile of card ids with its bonus cards (pi values).  ``cup_as_pi``: the sake cup, if
    held, is a ssangpi instead of an animal."""
    m = mask(pile)
    cup = BY_ID[SAKE_CUP].bit
    animals = m & _KIND["animal"]
    chaff = m & _KIND["chaff"]
    ribbons = m & _KIND["ribbon"]
    if not rules.options.willow_ribbon_counts:
        ribbons &= ~BY_ID[WILLOW_RIBBON].bit
    pi = sum(SSANGPI if cid in rules.ssangpi else 1 for cid in mask_ids(chaff))
    pi_cards = mask_ids(chaff)
    if cup_as_pi and m & cup:
        animals &= ~cup
        pi += SSANGPI
        pi_cards = (*pi_cards, SAKE_CUP)
    return Tally(m & _KIND["bright"], animals, ribbons, pi + sum(bonus), pi_cards, tuple(bonus), m)


def _count(y: Yaku, t: Tally) -> tuple[int, tuple[str, ...], str]:
    """(points, cards, what) of a count line."""
    if y.count == "pi":
        n, cards = t.pi, t.pi_cards
        what = f"pi value {n}" + (f" (bonus {'+'.join(map(str, t.bonus))})" if t.bonus else "")
    else:
        held = t.animals if y.count == "animal" else t.ribbons
        n, cards = held.bit_count(), mask_ids(held)
        what = f"{n} {'animals' if y.count == 'animal' else 'ribbons'}"
    if n < y.need:
        return 0, (), what
    return y.points + (n - y.need) * y.extra_points, cards, what


def _brights(y: Yaku, t: Tally) -> int:
    n = t.brights.bit_count()
    rain = bool(t.brights & BY_ID[RAIN_GWANG].bit)
    if y.rain == "without":
        n -= rain
    if y.rain == "with" and not rain:
        return 0
    if y.rain == "with" and n != y.need:
        return 0  # rainy three is three brights in all, the rain gwang one of them
    if n < y.need:
        return 0
    return y.dry_points if y.dry_points is not None and not rain else y.points


def point_lines(rules: GostopRules, player: str, t: Tally) -> tuple[Line, ...]:
    """Every point line ``player`` scores from tally ``t``, in file order, points in 점 (``Line.ja``:
    the Korean name).  In a group only the line worth most scores (the first on a tie)."""
    hits: list[tuple[Yaku, int, tuple[str, ...], str]] = []
    for y in rules.yaku:
        if y.rule == "brights":
            pts, cards, what = _brights(y, t), mask_ids(t.brights), f"{t.brights.bit_count()} brights"
        elif y.rule == "cards":
            held = t.pile & y.pool
            pts = y.points if y.pool and held == y.pool else 0
            cards, what = mask_ids(y.pool), ""
        else:
            pts, cards, what = _count(y, t)
        if pts:
            hits.append((y, pts, cards, what))
    best: dict[str, int] = {}
    for y, pts, _, _ in hits:
        if y.group and pts > best.get(y.group, -1):
            best[y.group] = pts
    out, taken = [], set()
    for y, pts, cards, what in hits:
        if y.group:
            if pts != best[y.group] or y.group in taken:
                continue
            taken.add(y.group)
        out.append(Line(player, y.id, f"{y.en}: {what}" if what else y.en, y.ja, pts, cards))
    return tuple(out)
