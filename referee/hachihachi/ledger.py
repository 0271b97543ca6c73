"""Payments between players, and the explanation lines that go with them.

Every payment of a Hachi-hachi round is one player paying another a whole
number of mon (RULES.md: "All points are paid from one player to another.
There is no central bank").  ``Book`` collects a round's payments and writes
one explanation line per player and reason, so each player's net is the sum
of their lines and the round sums to zero by construction.

Payment basis (RULES.md "Payment basis"): when a player gains X mon from some
payers, ``split`` shares X among them (each share rounded half away from
zero, the receiver gets what they pay) and ``each`` takes X from every payer.
When one payer pays alone for others (hatto, a failed "continue"), they pay
what all of them would have paid.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.explain import Line
from referee.hachihachi.money import shares


@dataclass(frozen=True, slots=True)
class Payment:
    """One payment: ``frm`` pays ``to`` ``mon`` (> 0) for ``reason`` (a code), with a ``label``."""

    frm: str
    to: str
    mon: int
    reason: str
    label: str

    def to_json(self) -> dict:
        """``{"from", "to", "mon", "reason", "label"}``."""
        return {
            "from": self.frm,
            "to": self.to,
            "mon": self.mon,
            "reason": self.reason,
            "label": self.label,
        }


class Book:
    """A round's payments and lines, in the order they are settled (a builder; results are tuples).

    ``multiplier`` applies to every amount given in ``gain`` and ``pay``.
    """

    def __init__(self, basis: str, multiplier: int) -> None:
        if basis not in ("split", "each"):
            raise ValueError(f"payment basis must be 'split' or 'each', got {basis!r}")
        self.basis = basis
        self.multiplier = multiplier
        self.payments: list[Payment] = []
        self.lines: list[Line] = []

    def gain(
        self,
        receiver: str,
        mon: int,
        payers: Sequence[str],
        *,
        code: str,
        en: str,
        ja: str,
        cards: Sequence[str] = (),
        covers: int = 0,
        scaled: bool = True,
    ) -> dict[str, int]:
        """``receiver`` gains ``mon`` (× multiplier unless ``scaled`` is false) from ``payers``.

        ``covers``: how many payers would normally pay; a smaller ``payers``
        list pays for them all.  Returns payer -> mon paid.
        """
        payers = [p for p in payers if p != receiver]
        if not payers:
            return {}
        amount = mon * self.multiplier if scaled else mon
        normal = covers or len(payers)
        total = amount if self.basis == "split" else amount * normal
        share = shares(total, len(payers))
        if share == 0:
            return {}
        paid = dict.fromkeys(payers, share)
        for p in payers:
            self._payment(p, receiver, share, code, en)
        self.lines.append(Line(receiver, code, en, ja, share * len(payers), tuple(cards)))
        for p in payers:
            self.lines.append(Line(p, code, f"{en} (pays {receiver})", ja, -share, tuple(cards)))
        return paid

    def pay(
        self,
        payer: str,
        receiver: str,
        mon: int,
        *,
        code: str,
        en: str,
        ja: str,
        cards: Sequence[str] = (),
        scaled: bool = True,
    ) -> None:
        """``payer`` pays ``receiver`` a fixed ``mon`` (× multiplier unless ``scaled`` is false)."""
        amount = mon * self.multiplier if scaled else mon
        if amount == 0 or payer == receiver:
            return
        if amount < 0:
            payer, receiver, amount = receiver, payer, -amount
        self._payment(payer, receiver, amount, code, en)
        self.lines.append(Line(receiver, code, f"{en} (from {payer})", ja, amount, tuple(cards)))
        self.lines.append(Line(payer, code, f"{en} (pays {receiver})", ja, -amount, tuple(cards)))

    def settle_nets(
        self, nets: Mapping[str, int], order: Sequence[str], *, code: str, label: str
    ) -> None:
        """Pay out nets that sum to zero (card settlement): losers pay winners, in ``order``.

        Writes payments only; the caller writes one line per player.
        Raises ``ValueError`` if the nets do not sum to zero.
        """
        if sum(nets.values()):
            raise ValueError(f"nets must sum to zero, got {dict(nets)}")
        owe = [[p, -nets[p]] for p in order if nets.get(p, 0) < 0]
        due = [[p, nets[p]] for p in order if nets.get(p, 0) > 0]
        i = 0
        for winner, left in due:
            while left:
                payer, can = owe[i]
                amount = min(can, left)
                self._payment(payer, winner, amount, code, label)
                owe[i][1] -= amount
                left -= amount
                if not owe[i][1]:
                    i += 1

    def line(self, line: Line) -> None:
        """Add a line whose money moves in payments written elsewhere (``settle_nets``)."""
        self.lines.append(line)

    def _payment(self, frm: str, to: str, mon: int, code: str, label: str) -> None:
        self.payments.append(Payment(frm, to, mon, code, label))

    def net(self, players: Sequence[str]) -> dict[str, int]:
        """Player -> net mon of the payments so far (every player listed)."""
        out = dict.fromkeys(players, 0)
        for p in self.payments:
            out[p.frm] -= p.mon
            out[p.to] += p.mon
        return out
