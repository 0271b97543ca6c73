"""Money in Hachi-hachi: integer mon, shown as kan and mon.

1 kan (貫) = ``mon_per_kan`` mon (文): 12 by default, 10 by option
(RULES.md "Hachi-hachi"; seed 003 "The units of scoring are kan and mon").
Money is always an ``int`` count of mon, never a float: half a kan is
``mon_per_kan // 2`` mon (6 or 5).  Display follows seed 003: mon is always 0 or
more, so paying 5 mon shows as ``-1 kan 7 mon`` at 12 mon per kan.

Pure core: standard library and ``referee.errors`` only.
"""

from __future__ import annotations

import re

from referee.errors import RefereeError

_TEXT = re.compile(
    r"^\s*(?:(?P<kan>[+-]?\d+)\s*kan(?:\s+(?P<mon>\d+)\s*mon)?|(?P<only>[+-]?\d+)\s*mon)\s*$",
    re.IGNORECASE,
)


def _check_rate(mon_per_kan: int) -> None:
    if isinstance(mon_per_kan, bool) or not isinstance(mon_per_kan, int) or mon_per_kan < 2:
        raise ValueError(f"mon_per_kan must be an integer of at least 2, got {mon_per_kan!r}")


def format_mon(mon: int, mon_per_kan: int = 12) -> str:
    """``mon`` (int) as ``"<kan> kan <mon> mon"`` with 0 <= mon < mon_per_kan.

    ``format_mon(-5) == "-1 kan 7 mon"``; ``format_mon(30) == "2 kan 6 mon"``.
    Raises ``ValueError`` for a non-integer amount or rate.
    """
    _check_rate(mon_per_kan)
    if isinstance(mon, bool) or not isinstance(mon, int):
        raise ValueError(f"mon must be an int, got {mon!r}")
    kan, rest = divmod(mon, mon_per_kan)
    return f"{kan} kan {rest} mon"


def parse_money(text: str, mon_per_kan: int = 12) -> int:
    """Parse ``"-1 kan 7 mon"``, ``"3 kan"`` or ``"-5 mon"`` into mon (int).

    ``kan`` is signed and ``mon`` (after kan) is added, as ``format_mon`` writes
    it; the mon part must be below ``mon_per_kan``.  Raises
    ``RefereeError('bad-money')`` for anything else.
    """
    _check_rate(mon_per_kan)
    m = _TEXT.match(text) if isinstance(text, str) else None
    if m is None:
        raise RefereeError(
            "bad-money", f"cannot read {text!r} as money; expected e.g. '-1 kan 7 mon'"
        )
    if m["only"] is not None:
        return int(m["only"])
    rest = int(m["mon"] or 0)
    if rest >= mon_per_kan:
        raise RefereeError(
            "bad-money", f"{text!r}: the mon part is {rest}; expected less than {mon_per_kan}"
        )
    return int(m["kan"]) * mon_per_kan + rest


def kan(amount: int, mon_per_kan: int) -> int:
    """``amount`` kan in mon."""
    return amount * mon_per_kan


def half_kan(halves: int, mon_per_kan: int) -> int:
    """``halves`` half-kan in mon (mon_per_kan is even for 10 and 12)."""
    if mon_per_kan % 2:
        raise ValueError(f"half kan needs an even mon_per_kan, got {mon_per_kan}")
    return halves * (mon_per_kan // 2)


def round_half_away(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded to an int, halves away from zero (no floats)."""
    if denominator <= 0:
        raise ValueError(f"denominator must be positive, got {denominator}")
    q, r = divmod(abs(numerator), denominator)
    if 2 * r >= denominator:
        q += 1
    return q if numerator >= 0 else -q


def shares(total: int, payers: int) -> int:
    """One payer's share of ``total`` mon split among ``payers``: rounded half away from zero.

    RULES.md "Rounding": the receiver gets exactly what the payers pay, so the
    caller credits ``share * payers``, not ``total``.
    """
    return round_half_away(total, payers)
