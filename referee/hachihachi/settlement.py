"""Settle one Hachi-hachi round: every payment in mon, with its reason, summing to zero.

The order is the issue's and RULES.md "Hachi-hachi":

1. the field multiplier (already in ``RoundInput.multiplier``);
2. the drop-out phase: payments to players who sat out (fees go to the winner, step 8);
3. Mizuten (不見転): the dealer's blind-play bet, judged on their card points;
4. teyaku (手役) from each active player's dealt hand, and their "+1 kan" bonuses;
5. dekiyaku (出来役) with stop/continue and hatto (one card short);
6. special yaku (Sixteen Chaff, Double Eights, All Eights), which refund the
   round's teyaku and cancel Mizuten and the bonuses;
7. card settlement: (points - 88) × multiplier in mon each (two players: the
   loser pays the difference × multiplier);
8. the round winner takes the pot of drop-out fees and deals next.

Rule decisions where the sources are silent are listed in docs/HACHIHACHI.md.
Pure core.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from referee.cards import BY_ID, month_label
from referee.explain import Line
from referee.hachihachi.deal import check_piles
from referee.hachihachi.decisions import decide
from referee.hachihachi.dekiyaku import DekiyakuHit, find_dekiyaku
from referee.hachihachi.dropout import dropout_fee, hand_value
from referee.hachihachi.field import Multiplier
from referee.hachihachi.ledger import Book, Payment
from referee.hachihachi.money import format_mon, kan
from referee.hachihachi.round import RoundInput
from referee.hachihachi.rules import HachihachiRules
from referee.hachihachi.special import PAR, SpecialHit, find_special
from referee.hachihachi.teyaku import TeyakuHit, bonus_met, describe, find_teyaku


@dataclass(frozen=True)
class RoundResult:
    """A settled round.

    ``outcome``: ``dekiyaku``, ``special`` or ``cards``; ``card_points``: each
    active player's pile in points; ``payments`` in settlement order;
    ``net``: every seated player's net mon (sums to zero, and equals the sum of
    that player's ``lines``); ``winner`` takes the pot and is ``next_dealer``.
    """

    ruleset: str
    mon_per_kan: int
    players: tuple[str, ...]
    dealer: str
    active: tuple[str, ...]
    multiplier: Multiplier
    outcome: str
    card_points: Mapping[str, int]
    teyaku: Mapping[str, tuple[TeyakuHit, ...]]
    dekiyaku: Mapping[str, tuple[DekiyakuHit, ...]]
    special: SpecialHit | None
    payments: tuple[Payment, ...]
    lines: tuple[Line, ...]
    net: Mapping[str, int]
    winner: str
    next_dealer: str
    warnings: tuple[str, ...]

    def to_json(self) -> dict:
        """The public JSON shape (docs/HACHIHACHI.md "Round output")."""
        m = self.mon_per_kan
        return {
            "ruleset": self.ruleset,
            "mon_per_kan": m,
            "multiplier": self.multiplier.value,
            "carry": list(self.multiplier.carry),
            "field_brights": list(self.multiplier.brights),
            "dealer": self.dealer,
            "active": list(self.active),
            "players": {
                p: {
                    "net": self.net[p],
                    "net_text": format_mon(self.net[p], m),
                    "active": p in self.active,
                    "card_points": self.card_points.get(p),
                }
                for p in self.players
            },
            "outcome": self.outcome,
            "card_points": dict(self.card_points),
            "teyaku": {
                p: [
                    {
                        "id": h.teyaku.id,
                        "name": h.teyaku.en,
                        "name_ja": h.teyaku.ja,
                        "kan": h.kan,
                        "cards": list(h.cards),
                    }
                    for h in hits
                ]
                for p, hits in self.teyaku.items()
            },
            "dekiyaku": {p: [h.dekiyaku.id for h in hits] for p, hits in self.dekiyaku.items()},
            "special": None
            if self.special is None
            else {
                "id": self.special.id,
                "name": self.special.en,
                "name_ja": self.special.ja,
                "player": self.special.player,
                "kan": self.special.kan,
                "detail": self.special.detail,
            },
            "payments": [p.to_json() for p in self.payments],
            "net": dict(self.net),
            "net_text": {p: format_mon(v, m) for p, v in self.net.items()},
            "winner": self.winner,
            "next_dealer": self.next_dealer,
            "warnings": list(self.warnings),
            "explanation": [line.to_json() for line in self.lines],
        }


def pile_points(ids: Iterable[str]) -> int:
    """Hachi-hachi card points of a pile (20, 10, 5, 1; RULES.md)."""
    return sum(BY_ID[c].hachihachi_points for c in ids)


def _check_deck(rnd: RoundInput) -> None:
    """The piles of a round settled on card points fit the deal played (``referee.hachihachi.deal``); raises its
    ``pile-points`` ``RoundFieldError`` (``DeckCheck.refusal``) when they do not."""
    refusal = check_piles(len(rnd.active), rnd.piles).refusal(rnd.active)
    if refusal is not None:
        raise refusal


def _pay_dropouts(rules: HachihachiRules, rnd: RoundInput, book: Book, warnings: list[str]) -> None:
    """Step 2: half the hand yaku to voluntary drop-outs; compensation to forced ones."""
    o = rules.options
    for d in rnd.dropped:
        if not d.hand:
            warnings.append(
                f"no hand reported for {d.player}, who {'was forced out' if d.forced else 'dropped out'}: "
                "nothing paid for it"
            )
            continue
        v = hand_value(rules, d.hand, d.forced, rnd.field)
        parts = [h.teyaku.en for h in v.teyaku] + [h.dekiyaku.en for h in v.dekiyaku]
        parts_ja = "・".join([h.teyaku.ja for h in v.teyaku] + [h.dekiyaku.ja for h in v.dekiyaku])
        shown = tuple(dict.fromkeys(c for h in v.teyaku for c in h.cards))
        if d.forced:
            if v.extra_cards:
                parts.append(f"{len(v.extra_cards)} card(s) × {o.forced_out_card_mon} mon")
            book.gain(
                d.player,
                v.mon,
                rnd.active[1:],
                code="forced-out",
                en=f"Forced out: hand compensation ({', '.join(parts) or 'nothing'})",
                ja=f"追い込み 手当 {parts_ja}".strip(),
                cards=tuple(dict.fromkeys(v.extra_cards + shown)),
            )
        elif v.mon:
            book.gain(
                d.player,
                v.mon,
                rnd.active,
                code="dropout-hand",
                en=f"Dropped out: half of hand yaku ({', '.join(parts)})",
                ja=f"降り 手役半額 {parts_ja}".strip(),
                cards=shown,
            )


def _pay_mizuten(
    rules: HachihachiRules, rnd: RoundInput, book: Book, points: Mapping[str, int]
) -> None:
    """Step 3: at 89+ the dealer takes 1 kan from everyone seated, else pays each active player."""
    o = rules.options
    dealer = rnd.dealer
    stake = kan(o.mizuten_kan, o.mon_per_kan)
    if points[dealer] >= o.mizuten_points:
        for p in rnd.players:
            if p != dealer:
                book.pay(
                    p,
                    dealer,
                    stake,
                    code="mizuten",
                    en=f"Mizuten made ({points[dealer]} points)",
                    ja="不見転 成功",
                )
    else:
        for p in rnd.active:
            if p != dealer:
                book.pay(
                    dealer,
                    p,
                    stake,
                    code="mizuten",
                    en=f"Mizuten failed ({points[dealer]} points)",
                    ja="不見転 失敗",
                )


def _pay_teyaku(
    rules: HachihachiRules, rnd: RoundInput, book: Book, points: Mapping[str, int], bonuses: bool
) -> tuple[dict[str, tuple[TeyakuHit, ...]], list[tuple[str, dict[str, int], str]]]:
    """Step 4: each active player's teyaku, then their "+1 kan" bonuses when ``bonuses``.

    Returns the teyaku per player and what each teyaku payment took from whom (for refunds).
    """
    mpk = rules.mon_per_kan
    teyaku: dict[str, tuple[TeyakuHit, ...]] = {}
    paid: list[tuple[str, dict[str, int], str]] = []
    for p in rnd.active:
        if p not in rnd.hands:
            continue
        hits = find_teyaku(rules, rnd.hands[p], rnd.field)
        teyaku[p] = hits
        others = [q for q in rnd.active if q != p]
        for h in hits:
            taken = book.gain(
                p,
                kan(h.kan, mpk),
                others,
                code="teyaku",
                en=f"Teyaku {describe(h)}",
                ja=f"手役 {h.teyaku.ja}",
                cards=h.cards,
            )
            paid.append((p, taken, h.teyaku.id))
        for h in hits if bonuses else ():
            if bonus_met(rules, h, rnd.piles[p], points[p]):
                why = (
                    "captured all four cards of "
                    + " and ".join(month_label(m) for m in h.triplet_months)
                    if h.teyaku.bonus == "capture-month"
                    else f"{points[p]} points"
                )
                book.gain(
                    p,
                    kan(rules.options.bonus_kan, mpk),
                    others,
                    code="teyaku-bonus",
                    en=f"Teyaku bonus for {h.teyaku.en}: {why}",
                    ja=f"{h.teyaku.ja} 加算",
                    cards=h.cards,
                )
    return teyaku, paid


def _pay_special(
    rules: HachihachiRules,
    rnd: RoundInput,
    book: Book,
    special: SpecialHit,
    teyaku_paid: list[tuple[str, dict[str, int], str]],
) -> None:
    """Step 6: the special yaku, then every teyaku payment reversed exactly (the refund)."""
    book.gain(
        special.player,
        kan(special.kan, rules.mon_per_kan),
        [q for q in rnd.active if q != special.player],
        code=f"special:{special.id}",
        en=f"{special.en} ({special.detail}) {special.kan} kan",
        ja=special.ja,
    )
    for receiver, taken, tid in teyaku_paid:
        for payer, amount in taken.items():
            book.pay(
                receiver,
                payer,
                amount,
                scaled=False,
                code="teyaku-refund",
                en=f"Teyaku {tid} refunded ({special.en})",
                ja="手役 返済",
            )


def _pay_cards(rnd: RoundInput, book: Book, points: Mapping[str, int]) -> None:
    """Step 7: (points - 88) × multiplier each; with two players the loser pays the difference."""
    active, mult = rnd.active, book.multiplier
    if len(active) == 2:
        a, b = sorted(active, key=lambda p: (-points[p], active.index(p)))
        book.pay(
            b,
            a,
            (points[a] - points[b]) * mult,
            scaled=False,
            code="cards",
            en=f"Card points {points[a]} against {points[b]}, ×{mult}",
            ja="札の点",
        )
        return
    nets = {p: (points[p] - PAR) * mult for p in active}
    book.settle_nets(nets, active, code="cards", label="Card points over 88")
    for p in active:
        book.line(
            Line(
                p,
                "cards",
                f"Card points {points[p]} − {PAR} = {points[p] - PAR:+d}, ×{mult}",
                "札の点",
                nets[p],
            )
        )


def _pay_pot(rules: HachihachiRules, rnd: RoundInput, book: Book, winner: str) -> None:
    """Step 8: each voluntary drop-out's fee goes to the round's winner."""
    for d in rnd.dropped:
        if not d.forced:
            book.pay(
                d.player,
                winner,
                dropout_fee(rules, d.order),
                code="dropout-fee",
                en=f"Drop-out fee #{d.order} into the pot",
                ja="逃げ料",
            )


def settle(rules: HachihachiRules, rnd: RoundInput) -> RoundResult:
    """Settle a validated round (see ``referee.hachihachi.round.make_round``).

    Raises ``RefereeError``: ``missing-decision`` (two piles hold dekiyaku and
    no order is stated), ``bad-decision`` (a claimed dekiyaku is not in the
    pile, a call after a stop, the stopper named hatto) and ``pile-points``
    (a round settled on card points whose piles do not fit the deal: all 48 cards with three
    players, at most 34 with two; a ``RoundFieldError`` of field ``piles``, ``DeckCheck.refusal``).
    """
    warnings = list(rnd.warnings)
    active = rnd.active
    two = len(active) == 2
    points = {p: pile_points(rnd.piles[p]) for p in active}
    pile_hits = {p: find_dekiyaku(rules, rnd.piles[p]) for p in active}
    # The outcome decides the winner (and the pot) before anything is paid.
    deki = decide(rules, rnd, pile_hits, warnings)
    special = None
    if deki is None:
        _check_deck(rnd)
        special = None if two else find_special(rules, active, rnd.piles, points)
    if deki is not None:
        outcome, winner = "dekiyaku", deki.winner
    elif special is not None:
        outcome, winner = "special", special.player
    else:
        outcome, winner = "cards", max(active, key=lambda p: (points[p], -active.index(p)))

    book = Book(rules.options.payment_basis, rnd.multiplier.value)
    _pay_dropouts(rules, rnd, book, warnings)
    if rnd.mizuten and not two and special is None:
        _pay_mizuten(rules, rnd, book, points)
    elif rnd.mizuten:  # RULES.md: two players play no Mizuten; a special yaku cancels it
        warnings.append("Mizuten was called, but two players play no Mizuten (FudaWiki): nothing paid for it"
                        if two else f"Mizuten was called, but {special.en} ({special.ja}) cancels Mizuten: "
                        "nothing paid for it")
    teyaku, teyaku_paid = _pay_teyaku(rules, rnd, book, points, bonuses=not two and special is None)
    for g in deki.gains if deki else ():
        book.gain(
            g.receiver,
            g.mon,
            g.payers,
            covers=g.covers,
            code="dekiyaku",
            en=g.en,
            ja=g.ja,
            cards=g.cards,
        )
    if special is not None:
        _pay_special(rules, rnd, book, special, teyaku_paid)
    if outcome == "cards":
        _pay_cards(rnd, book, points)
    _pay_pot(rules, rnd, book, winner)
    return RoundResult(
        ruleset=rules.name,
        mon_per_kan=rules.mon_per_kan,
        players=rnd.players,
        dealer=rnd.dealer,
        active=active,
        multiplier=rnd.multiplier,
        outcome=outcome,
        card_points=points,
        teyaku=teyaku,
        dekiyaku=pile_hits,
        special=special,
        payments=tuple(book.payments),
        lines=tuple(book.lines),
        net=book.net(rnd.players),
        winner=winner,
        next_dealer=winner,
        warnings=tuple(warnings),
    )
