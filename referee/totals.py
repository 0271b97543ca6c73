"""Entered totals: a round that a table scored on paper, given as each player's amount.

Some tables count their cards themselves and only want the running totals, the
oya and the winner kept for them.  Such a round is ``{"totals": {player: amount}}``
instead of piles (README "JSON formats"); each family scores it through its own
core like any other round (``referee.roppyakken.totals``,
``referee.hachihachi.totals``), with one explanation line per player, coded
``entered-total``, whose points equal the amount entered.

This module holds what every family shares: reading the ``totals`` object.
Pure core: standard library and ``referee`` only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.errors import RefereeError, given, shown

#: The explanation line code of an entered total.
CODE = "entered-total"
#: Its labels.
EN = "Entered total (scored on paper)"
JA = "手入力の合計"
#: The largest amount one round may enter, in the family's unit (points or mon).
MAX_AMOUNT = 99_999
#: Round keys that say what was dealt or captured: a totals round has none of them.
CARD_KEYS = ("piles", "hands", "field")


def read_totals(
    totals: object,
    players: Sequence[str],
    *,
    unit: str,
    parse: Callable[[Any], int] | None = None,
) -> dict[str, int]:
    """Each player's entered amount, in play order: ``{player: int}``.

    ``totals`` maps every player to an integer (or, with ``parse``, to what
    ``parse`` reads, e.g. ``"-1 kan 7 mon"``); ``unit`` names the unit in messages.
    Raises ``RefereeError``: ``bad-totals`` (not an object, a player missing, a
    value that is not a whole number, or one beyond ±``MAX_AMOUNT``, said as too big and
    naming the limit: whole-number text of any length and numbers such as 1e30 too) or
    ``unknown-player``.
    """
    if not isinstance(totals, Mapping):
        raise RefereeError("bad-totals", f"\"totals\" must map each player to their {unit}, {given(totals)}")
    for p in totals:
        if p not in players:
            raise RefereeError("unknown-player", f"totals for unknown player {p!r}; players are {list(players)}")
    missing = [p for p in players if p not in totals]
    if missing:
        raise RefereeError(
            "bad-totals", f"no total entered for {', '.join(missing)}; enter every player's {unit} (0 if none)"
        )
    out = {}
    for p in players:
        value = totals[p]
        if isinstance(value, str) and _LONG_WHOLE.fullmatch(value.strip()):
            raise _too_big(p, value.strip(), unit)  # whole, but longer than any amount (a form keeps it as text)
        if isinstance(value, str) and parse is not None:
            value = parse(value)
        if isinstance(value, float) and not math.isnan(value) and abs(value) > MAX_AMOUNT:
            raise _too_big(p, value, unit)  # 1e30 in JSON: too big before it is not whole
        if isinstance(value, bool) or not isinstance(value, int):
            raise RefereeError("bad-totals", f"{p}'s total is {shown(value)}; expected a whole number of {unit}")
        if abs(value) > MAX_AMOUNT:
            raise _too_big(p, value, unit)
        out[p] = value
    return out


#: Whole-number text with more digits than ``MAX_AMOUNT`` (leading zeros aside): too big, not "not whole".
_LONG_WHOLE = re.compile(rf"[+-]?0*[1-9]\d{{{len(str(MAX_AMOUNT))},}}")


def _too_big(player: str, value: object, unit: str) -> RefereeError:
    """``bad-totals`` for an amount beyond ±``MAX_AMOUNT``, naming the limit (a long number shortened)."""
    try:
        text = str(value)
    except ValueError:  # an int over Python's digit limit for str()
        text = "a number of over 4300 digits"
    digits = len(text.lstrip("+-"))
    shown = text if len(text) <= 15 or not text.lstrip("+-").isdigit() else f"{text[:8]}… ({digits} digits)"
    return RefereeError(
        "bad-totals", f"{player}'s total is {shown}, too big: a round's {unit} are at most {MAX_AMOUNT} either way"
    )


def refuse_cards(data: Mapping[str, Any], also: Sequence[str] = ()) -> None:
    """Raise ``RefereeError('bad-totals')`` when a totals round also gives cards (or ``also`` keys)."""
    given = [k for k in (*CARD_KEYS, *also) if _has_any(data.get(k))]
    if given:
        raise RefereeError(
            "bad-totals",
            f"a round of entered totals has no cards or calls, but this one also gives {', '.join(given)}; "
            "send either the totals or the cards",
        )


def _has_any(value: Any) -> bool:
    """Whether a round key holds something: a card table with a card, a non-empty list, a true value."""
    if isinstance(value, Mapping):
        return any(_has_any(v) for v in value.values())
    return bool(value)


def first_from(players: Sequence[str], dealer: str, candidates) -> str:
    """The first of ``candidates`` in play order starting from ``dealer`` (the dealer first)."""
    start = list(players).index(dealer)
    order = [*players[start:], *players[:start]]
    return next(p for p in order if p in candidates)
