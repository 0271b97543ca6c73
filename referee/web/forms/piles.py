"""The round form's pile steps and what differs between two versions of a round.

The steps act on a round's data (``{"piles": {player: [card ids]}, ...}``) in place: every card
in no pile goes to one seat ("every card left"), a pile is cleared, and the cleared cards are put
back ("Undo").  ``round_diff`` lists what two versions of a round hold differently (the conflict
and "round taken" pages).  Pure: must not import Flask or the store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.cards import CARD_IDS


def give_rest(data: dict[str, Any], players: Sequence[str], seat: str) -> None:
    """Put every card in no pile into seat ``seat``'s pile (the "every card left" button)."""
    if not seat.isdigit() or int(seat) >= len(players):
        return
    piles = data.setdefault("piles", {})
    player = players[int(seat)]
    if player not in piles:
        return  # a Hachi-hachi drop-out has no pile
    held = {c for cards in piles.values() for c in cards}
    piles[player] = [*piles[player], *(c for c in CARD_IDS if c not in held)]


#: Round form steps on one pile (``<step>-<seat>``): every card left to it, clear it, put the cleared cards back.
PILE_STEPS = ("rest-", "clear-", "unclear-")


def rest_seats(data: Mapping[str, Any], players: Sequence[str]) -> set[int]:
    """Seats where "every card in no pile goes to X" makes sense: the last pile, every other
    playing pile holding cards already (a drop-out holds none), and some card in no pile."""
    piles = data.get("piles") or {}
    seated = [i for i, p in enumerate(players) if p in piles]
    held = sum(len(piles[players[i]]) for i in seated)
    if held >= len(CARD_IDS):
        return set()
    return {i for i in seated if all(piles[players[j]] for j in seated if j != i)}


def clear_pile(data: dict[str, Any], players: Sequence[str], seat: str) -> dict[int, list[str]]:
    """Empty seat ``seat``'s pile; returns ``{seat: the cards it held}`` (for "Undo")."""
    piles = data.get("piles") or {}
    if not seat.isdigit() or int(seat) >= len(players) or players[int(seat)] not in piles:
        return {}
    held = list(piles[players[int(seat)]])
    piles[players[int(seat)]] = []
    return {int(seat): held} if held else {}


def put_back(data: dict[str, Any], players: Sequence[str], seat: str, cards: Sequence[str]) -> None:
    """Put cleared ``cards`` back into seat ``seat``'s pile (those no other pile took since)."""
    piles = data.get("piles") or {}
    if not seat.isdigit() or int(seat) >= len(players) or players[int(seat)] not in piles:
        return
    held = {c for cs in piles.values() for c in cs}
    player = players[int(seat)]
    piles[player] = [*piles[player], *(c for c in dict.fromkeys(cards) if c in CARD_IDS and c not in held)]


def round_diff(players: Sequence[str], mine: dict[str, Any], theirs: dict[str, Any] | None) -> list[dict[str, Any]]:
    """What differs between two versions of a round, per pile and hand: ``[{player, what,
    only_mine, only_theirs}]`` (card ids), only where they differ."""
    if theirs is None:
        return []
    out = []
    for what in ("piles", "hands"):
        for p in players:
            a = (mine.get(what) or {}).get(p) or []
            b = (theirs.get(what) or {}).get(p) or []
            only_mine = [c for c in a if c not in b]
            only_theirs = [c for c in b if c not in a]
            if only_mine or only_theirs:
                out.append({"player": p, "what": what[:-1], "only_mine": only_mine, "only_theirs": only_theirs})
    return out
