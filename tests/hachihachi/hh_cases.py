"""Shared card sets for the Hachi-hachi tests, checked by hand (see each comment)."""

from __future__ import annotations

from referee.hachihachi import settle_round
from referee.ruleset import load_ruleset

# A full deal of captured cards with no dekiyaku and no special yaku.
# A: 2 brights 40 + 3 animals 30 + 3 ribbons 15 + 8 chaff = 93
# B: 2 brights 40 + 3 animals 30 + 3 ribbons 15 + 8 chaff = 93
# C: 1 bright 20 + 3 animals 30 + 4 ribbons 20 + 8 chaff = 78      (264 in all)
PILE_A = [
    "pine-crane",
    "cherry-curtain",
    "plum-bush-warbler",
    "wisteria-cuckoo",
    "iris-bridge",
    "pine-poetry-ribbon",
    "wisteria-ribbon",
    "iris-ribbon",
    "pine-chaff-1",
    "pine-chaff-2",
    "plum-chaff-1",
    "plum-chaff-2",
    "cherry-chaff-1",
    "cherry-chaff-2",
    "wisteria-chaff-1",
    "wisteria-chaff-2",
]
PILE_B = [
    "pampas-moon",
    "willow-rain-man",
    "bush-clover-boar",
    "pampas-geese",
    "chrysanthemum-sake-cup",
    "plum-poetry-ribbon",
    "bush-clover-ribbon",
    "peony-blue-ribbon",
    "iris-chaff-1",
    "iris-chaff-2",
    "peony-chaff-1",
    "peony-chaff-2",
    "bush-clover-chaff-1",
    "bush-clover-chaff-2",
    "pampas-chaff-1",
    "pampas-chaff-2",
]
PILE_C = [
    "paulownia-phoenix",
    "peony-butterflies",
    "maple-deer",
    "willow-swallow",
    "cherry-poetry-ribbon",
    "chrysanthemum-blue-ribbon",
    "maple-blue-ribbon",
    "willow-ribbon",
    "chrysanthemum-chaff-1",
    "chrysanthemum-chaff-2",
    "maple-chaff-1",
    "maple-chaff-2",
    "willow-lightning",
    "paulownia-chaff-1",
    "paulownia-chaff-yellow",
    "paulownia-chaff-2",
]
PILES = {"A": PILE_A, "B": PILE_B, "C": PILE_C}

# Hands dealt at the start (independent of the piles) and a field with no bright.
HAND_KARASU = [
    "pine-chaff-1",
    "plum-chaff-1",
    "cherry-chaff-1",
    "wisteria-chaff-1",
    "iris-chaff-1",
    "peony-chaff-1",
    "maple-chaff-1",
]  # empty hand, 4 kan
HAND_HANEKEN = [
    "pine-crane",
    "pine-chaff-2",
    "pine-poetry-ribbon",
    "plum-bush-warbler",
    "plum-chaff-2",
    "cherry-curtain",
    "cherry-chaff-2",
]  # 3+2+2, 7 kan
HAND_NOTHING = [
    "wisteria-cuckoo",
    "iris-bridge",
    "peony-butterflies",
    "bush-clover-boar",
    "pampas-moon",
    "chrysanthemum-sake-cup",
    "maple-deer",
]  # 1 bright 6 animals: none
FIELD_SMALL = [
    "wisteria-ribbon",
    "iris-ribbon",
    "peony-blue-ribbon",
    "bush-clover-ribbon",
    "pampas-geese",
    "chrysanthemum-blue-ribbon",
]


def rules(name: str = "hachihachi", **options):
    """A preset with dotted-key options."""
    return load_ruleset(name, options)


def settle(name: str = "hachihachi", options: dict | None = None, **round_fields):
    """Settle a round with the given preset; players default to A, B, C with A dealing."""
    round_fields.setdefault("players", ["A", "B", "C"])
    round_fields.setdefault("dealer", "A")
    return settle_round(rules(name, **(options or {})), **round_fields)


def by_reason(result, reason: str) -> dict[str, int]:
    """Net mon per player of the payments with one reason code."""
    out: dict[str, int] = {}
    for p in result.payments:
        if p.reason == reason:
            out[p.frm] = out.get(p.frm, 0) - p.mon
            out[p.to] = out.get(p.to, 0) + p.mon
    return out


def check_books(result) -> None:
    """The invariants every round keeps: zero sum, whole positive payments, lines = net."""
    assert sum(result.net.values()) == 0
    assert all(isinstance(p.mon, int) and p.mon > 0 for p in result.payments)
    for player, net in result.net.items():
        assert sum(line.points for line in result.lines if line.player == player) == net

# Two active players (issue 12's example): 14 cards are never drawn, so the piles hold at most 34.
# A: 3 brights 60 + 3 animals 30 + 2 ribbons 10 + 8 chaff = 108 (16 cards, no dekiyaku)
# B: 1 bright 20 + 2 animals 20 + 3 ribbons 15 + 6 chaff = 61 (12 cards, no dekiyaku)
TWO_A = [
    "pine-crane",
    "cherry-curtain",
    "pampas-moon",
    "plum-bush-warbler",
    "wisteria-cuckoo",
    "iris-bridge",
    "pine-poetry-ribbon",
    "wisteria-ribbon",
    "pine-chaff-1",
    "pine-chaff-2",
    "plum-chaff-1",
    "plum-chaff-2",
    "cherry-chaff-1",
    "cherry-chaff-2",
    "wisteria-chaff-1",
    "wisteria-chaff-2",
]
TWO_B = [
    "willow-rain-man",
    "bush-clover-boar",
    "maple-deer",
    "iris-ribbon",
    "peony-blue-ribbon",
    "bush-clover-ribbon",
    "iris-chaff-1",
    "iris-chaff-2",
    "peony-chaff-1",
    "peony-chaff-2",
    "bush-clover-chaff-1",
    "bush-clover-chaff-2",
]
