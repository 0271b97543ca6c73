"""Explanation lines: every point of a score, with its reason and its cards.

A score is the sum of its lines; tests check it.  Pure core.
"""

from __future__ import annotations

from typing import NamedTuple

from referee.cards import CARDS


class Line(NamedTuple):
    """One reason for points (immutable).

    ``code``: a stable machine code (``cards:hikari``, a yaku or teyaku id,
    ``chaff-upgrade``, ``fuke``, ``settlement``...); ``en``/``ja``: labels;
    ``points``: signed points (or mon, in Hachi-hachi); ``cards``: card ids.
    A named tuple rather than a frozen dataclass: a round builds about twenty,
    and a tuple is built four times faster (scripts/bench_scoring.py).
    """

    player: str
    code: str
    en: str
    ja: str
    points: int
    cards: tuple[str, ...] = ()

    def to_json(self) -> dict:
        """The public JSON shape of a line."""
        return {"player": self.player, "code": self.code, "en": self.en, "ja": self.ja,
                "points": self.points, "cards": list(self.cards)}


class PlayerLines:
    """What a round result with per-player results offers (Roppyakken and Koi-Koi ``RoundResult``).

    Mixed into a frozen dataclass whose ``players`` is a tuple of per-player results, each with
    ``player`` (a name), ``round_score`` (points) and ``lines`` (:class:`Line`s, summing to it).
    """

    players: tuple

    def player(self, name: str):
        """The result of one player; ``KeyError`` if absent."""
        for p in self.players:
            if p.player == name:
                return p
        raise KeyError(name)

    @property
    def scores(self) -> dict[str, int]:
        """Player -> round_score (points)."""
        return {p.player: p.round_score for p in self.players}

    @property
    def explanation(self) -> tuple[Line, ...]:
        """Every line of every player, in play order."""
        return tuple(line for p in self.players for line in p.lines)


def _byte_table(offset: int) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(CARDS[offset + i].id for i in range(8) if b >> i & 1) for b in range(256))


#: For each byte of a 48-bit mask, the ids of every byte value: scoring's hot path.
_BYTES = tuple((shift, _byte_table(shift)) for shift in range(0, 48, 8))


def mask_ids(m: int) -> tuple[str, ...]:
    """Card ids of a 48-bit mask in deck order."""
    out: tuple[str, ...] = ()
    for shift, table in _BYTES:
        b = m >> shift & 255
        if b:
            out += table[b]
    return out
