"""The drop-out phase (4 to 6 players): fees into the pot and payments to those who sit out.

RULES.md "4 to 6 players", seed 003 "Bidding phase" and "Scoring for 'Get Out of
Play' players", FudaWiki "The Dropout Phase":

- the k-th player to drop out pays a fee (逃げ料, nige-ryou) of
  ``dropout_fee_half_kan + (k - 1) * dropout_step_half_kan`` half kan (1, 1.5,
  2 ... kan), which goes to the round's winner;
- a player who drops out is paid half their teyaku plus half of any dekiyaku in
  their hand, by the active players;
- a player forced out (追い込み, oikomi: three had already joined) pays no fee
  and is paid FudaWiki's hand compensation instead, by the two non-dealer
  active players: half the teyaku, half the dekiyaku in hand, and
  ``forced_out_card_mon`` mon for each hand card of a ``compensation``
  dekiyaku (gokou, akatan, aotan, inoshikacho when used) not already counted
  in a teyaku or a dekiyaku.

Pure core.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.cards import mask
from referee.explain import mask_ids
from referee.hachihachi.dekiyaku import DekiyakuHit, find_dekiyaku
from referee.hachihachi.money import half_kan, kan
from referee.hachihachi.rules import HachihachiRules
from referee.hachihachi.teyaku import TeyakuHit, find_teyaku


@dataclass(frozen=True, slots=True)
class Dropout:
    """A player who sat out: ``order`` of their drop-out call (1 = first; 0 when forced),
    ``forced`` out, and their dealt ``hand`` (card ids; empty when not reported)."""

    player: str
    order: int
    forced: bool
    hand: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HandValue:
    """What a dropped player's hand is worth: its teyaku, dekiyaku, extra cards and mon (×1)."""

    teyaku: tuple[TeyakuHit, ...]
    dekiyaku: tuple[DekiyakuHit, ...]
    extra_cards: tuple[str, ...]
    mon: int


def dropout_fee(rules: HachihachiRules, k: int) -> int:
    """The fee in mon (before the multiplier) of the k-th voluntary drop-out (k >= 1)."""
    o = rules.options
    return half_kan(o.dropout_fee_half_kan + (k - 1) * o.dropout_step_half_kan, o.mon_per_kan)


def hand_value(
    rules: HachihachiRules, hand: Sequence[str], forced: bool, field: Sequence[str] = ()
) -> HandValue:
    """Half the teyaku plus half the dekiyaku of a dealt hand, plus the forced-out card bonus.

    ``field``: the dealt field, for teyaku that read it (mukou-sanbon).  Amounts in
    mon before the multiplier; half of a kan value is exact because ``mon_per_kan``
    is even.
    """
    teyaku = find_teyaku(rules, hand, field) if len(hand) else ()
    dekiyaku = find_dekiyaku(rules, hand)
    total_kan_mon = kan(
        sum(h.kan for h in teyaku) + sum(h.dekiyaku.kan for h in dekiyaku), rules.mon_per_kan
    )
    mon = total_kan_mon // 2
    extra: tuple[str, ...] = ()
    if forced:
        counted = mask(c for h in teyaku for c in h.cards) | mask(
            c for h in dekiyaku for c in h.cards
        )
        pools = 0
        for d in rules.dekiyaku:
            if d.compensation:
                pools |= d.pool
        extra = mask_ids(mask(hand) & pools & ~counted)
        mon += rules.options.forced_out_card_mon * len(extra)
    return HandValue(teyaku, dekiyaku, extra, mon)
