"""Settle one Hachi-hachi round: every payment in mon, with its reason, summing to zero.

The order is the issue's and RULES.md "Hachi-hachi":

1. the field multiplier (already in ``RoundInput.multiplier``);
2. the drop-out phase: payments to players who sat out (fees go to the winner, step 8);
3. Mizuten (不見転): the dealer's blind-play bet, judged on their card points;
4. teyaku (手役) from each active player's dealt hand, and their "+1 kan" bonuses;
5. dekiyaku (出来役) with stop/continue and hatto (八当);
6. special yaku (Sixteen Chaff, Double Eights, All Eights), which refund the
   round's teyaku and cancel Mizuten and the bonuses;
7. card settlement: (points - 88) × multiplier in mon each (two players: the
   loser pays the difference × multiplier);
8. the round winner takes the pot of drop-out fees and deals next.

Rule decisions where the sources are silent are listed in docs/HACHIHACHI.md.
Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from referee.cards import BY_ID, CARD_IDS, mask
from referee.errors import RefereeError
from referee.explain import Line, mask_ids
from referee.hachihachi.dekiyaku import DekiyakuHit, dekiyaku_kan, find_dekiyaku, near_misses
from referee.hachihachi.dropout import dropout_fee, hand_value
from referee.hachihachi.field import Multiplier
from referee.hachihachi.ledger import Book, Payment
from referee.hachihachi.money import format_mon, kan
from referee.hachihachi.round import DekiyakuCall, RoundInput
from referee.hachihachi.rules import HachihachiRules
from referee.hachihachi.special import DECK_POINTS, PAR, SpecialHit, find_special
from referee.hachihachi.teyaku import TeyakuHit, bonus_met, find_teyaku


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


@dataclass(frozen=True)
class _Gain:
    receiver: str
    mon: int
    payers: tuple[str, ...]
    covers: int
    en: str
    ja: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class _Dekiyaku:
    winner: str
    gains: tuple[_Gain, ...]
    by_stop: bool


def pile_points(ids) -> int:
    """Hachi-hachi card points of a pile (20, 10, 5, 1; RULES.md)."""
    return sum(BY_ID[c].hachihachi_points for c in ids)


def _label(rules: HachihachiRules, ids) -> tuple[str, str]:
    made = [rules.dekiyaku_by_id(i) for i in ids]
    return (" + ".join(f"{d.en} ({d.id})" for d in made), "・".join(d.ja for d in made))


def _check_calls(rules: HachihachiRules, rnd: RoundInput, calls: tuple[DekiyakuCall, ...]) -> None:
    seen: set[tuple[str, str]] = set()
    for i, c in enumerate(calls):
        if i and calls[i - 1].decision == "stop":
            raise RefereeError(
                "bad-decision",
                f"{calls[i - 1].player} stopped, so the round ended; "
                f"{c.player}'s {c.yaku} cannot come after",
            )
        if (c.player, c.yaku) in seen:
            raise RefereeError("bad-decision", f"{c.player} completes {c.yaku} twice")
        seen.add((c.player, c.yaku))
        d = rules.dekiyaku_by_id(c.yaku)
        have = mask(rnd.piles[c.player]) & d.pool
        if have.bit_count() < d.need:
            lacking = mask_ids(d.pool & ~have)
            raise RefereeError(
                "bad-decision",
                f"{c.player} claims {c.yaku}, but their pile has "
                f"{have.bit_count()} of the {d.need} cards needed (missing from: "
                f"{', '.join(lacking)})",
            )


def _resolve(
    rules: HachihachiRules, rnd: RoundInput, calls: tuple[DekiyakuCall, ...], warnings: list[str]
) -> _Dekiyaku:
    """Seed 003 "Rule of Continue playing" and "Rule of Hatto"; FudaWiki "Scoring When Dekiyaku"."""
    mpk = rules.mon_per_kan
    made: dict[str, list[str]] = {p: [] for p in rnd.active}
    made_all: dict[str, list[str]] = {p: [] for p in rnd.active}
    nullified: list[str] = []
    open_continue: str | None = None
    for c in calls:
        if open_continue is not None and open_continue != c.player:
            # Another player completed first: the continuer's yaku are void and they owe alone.
            if open_continue not in nullified:
                nullified.append(open_continue)
            made[open_continue] = []
            open_continue = None
        made[c.player].append(c.yaku)
        made_all[c.player].append(c.yaku)
        if c.decision == "continue":
            open_continue = c.player
    last = calls[-1]

    def cards_of(p: str, ids) -> tuple[str, ...]:
        pool = 0
        for i in ids:
            pool |= rules.dekiyaku_by_id(i).pool
        return mask_ids(mask(rnd.piles[p]) & pool)

    def payers_for(w: str, use_hatto: bool) -> tuple[tuple[str, ...], int, str]:
        opponents = tuple(p for p in rnd.active if p != w)
        debtors = tuple(p for p in nullified if p != w)
        if debtors:
            return debtors, len(opponents), f"; {', '.join(debtors)} continued and pays alone"
        if use_hatto:
            not_hatto = tuple(p for p in opponents if p not in rnd.hatto)
            if 0 < len(not_hatto) < len(opponents):
                hatto = ", ".join(p for p in opponents if p in rnd.hatto)
                return (
                    not_hatto,
                    len(opponents),
                    f"; {hatto} hatto, {', '.join(not_hatto)} pays alone",
                )
        return opponents, len(opponents), ""

    if last.decision == "stop":
        w = last.player
        if w in rnd.hatto:
            raise RefereeError(
                "bad-decision", f"{w} made the dekiyaku and stopped, so cannot be hatto"
            )
        payers, covers, why = payers_for(w, True)
        en, ja = _label(rules, made[w])
        gain = _Gain(
            w,
            kan(dekiyaku_kan(rules, made[w]), mpk),
            payers,
            covers,
            f"Dekiyaku {en}, stop{why}",
            f"出来役 {ja} 勝負",
            cards_of(w, made[w]),
        )
        return _Dekiyaku(w, (gain,), True)
    if rnd.hatto:
        warnings.append(
            "hatto only counts when a player stops; the round ran out of cards, so it is ignored"
        )
    if rules.options.exhausted_dekiyaku == "everyone-half":
        gains = []
        for p in rnd.active:
            if made_all[p]:
                en, ja = _label(rules, made_all[p])
                opponents = tuple(q for q in rnd.active if q != p)
                gains.append(
                    _Gain(
                        p,
                        kan(dekiyaku_kan(rules, made_all[p]), mpk) // 2,
                        opponents,
                        len(opponents),
                        f"Dekiyaku {en}, half (hands exhausted)",
                        f"出来役 {ja} 半額",
                        cards_of(p, made_all[p]),
                    )
                )
        return _Dekiyaku(calls[0].player, tuple(gains), False)
    w = last.player
    payers, covers, why = payers_for(w, False)
    en, ja = _label(rules, made[w])
    gain = _Gain(
        w,
        kan(dekiyaku_kan(rules, made[w]), mpk) // 2,
        payers,
        covers,
        f"Dekiyaku {en}, half (continued, hands exhausted){why}",
        f"出来役 {ja} 半額",
        cards_of(w, made[w]),
    )
    return _Dekiyaku(w, (gain,), False)


def _check_full_deck(rnd: RoundInput, points: Mapping[str, int]) -> None:
    held = set()
    for p in rnd.active:
        held |= set(rnd.piles[p])
    total = sum(points.values())
    if total != DECK_POINTS or len(held) != len(CARD_IDS):
        missing = [c for c in CARD_IDS if c not in held]
        diff = DECK_POINTS - total
        how = f"{diff} missing" if diff > 0 else f"{-diff} extra"
        raise RefereeError(
            "pile-points",
            f"the piles hold {total} of {DECK_POINTS} points ({how}); "
            f"a round settled on card points needs all 48 cards. Cards in no pile: "
            f"{', '.join(missing) or 'none'}",
        )


def settle(rules: HachihachiRules, rnd: RoundInput) -> RoundResult:
    """Settle a validated round (see ``referee.hachihachi.round.make_round``).

    Raises ``RefereeError``: ``missing-decision`` (two piles hold dekiyaku and
    no order is stated), ``bad-decision`` (a claimed dekiyaku is not in the
    pile, a call after a stop, the stopper named hatto) and ``pile-points``
    (a round settled on card points whose piles do not hold all 48 cards).
    """
    o = rules.options
    mpk = o.mon_per_kan
    warnings = list(rnd.warnings)
    active = rnd.active
    two = len(active) == 2
    mult = rnd.multiplier.value
    points = {p: pile_points(rnd.piles[p]) for p in active}
    pile_hits = {p: find_dekiyaku(rules, rnd.piles[p]) for p in active}

    calls = rnd.dekiyaku
    if calls is None:
        holders = [p for p in active if pile_hits[p]]
        if len(holders) >= 2:
            held = "; ".join(
                f"{p}: {', '.join(h.dekiyaku.id for h in pile_hits[p])}" for p in holders
            )
            raise RefereeError(
                "missing-decision",
                f"the piles hold dekiyaku for {len(holders)} players "
                f"({held}); say who completed which first, and stop or continue",
            )
        if holders:
            p = holders[0]
            ids = [h.dekiyaku.id for h in pile_hits[p]]
            calls = tuple(
                DekiyakuCall(p, y, "continue" if i < len(ids) - 1 else "stop")
                for i, y in enumerate(ids)
            )
            warnings.append(
                f"{p}'s pile holds {', '.join(ids)} and no decision was stated: "
                f"taken as completed by {p}, who stopped"
            )
    deki = None
    if calls:
        _check_calls(rules, rnd, calls)
        deki = _resolve(rules, rnd, calls, warnings)
        claimed = {(c.player, c.yaku) for c in calls}
        for p in active:
            for h in pile_hits[p]:
                if (p, h.dekiyaku.id) not in claimed:
                    warnings.append(f"{p}'s pile holds {h.dekiyaku.id}, which no decision mentions")
        if deki.by_stop:
            taken = {p: [c for q in active if q != p for c in rnd.piles[q]] for p in active}
            for h in rnd.hatto:
                if not near_misses(rules, rnd.piles[h], taken[h]):
                    warnings.append(
                        f"{h} is stated hatto, but their pile is not one card short of a dekiyaku"
                    )
    elif rnd.hatto:
        warnings.append("hatto is stated but no dekiyaku ended the round; it is ignored")

    special = None
    if deki is None:
        _check_full_deck(rnd, points)
        special = None if two else find_special(rules, active, rnd.piles, points)
    if deki is not None:
        outcome, winner = "dekiyaku", deki.winner
    elif special is not None:
        outcome, winner = "special", special.player
    else:
        outcome = "cards"
        winner = max(active, key=lambda p: (points[p], -active.index(p)))

    book = Book(o.payment_basis, mult)
    # 2. Drop-out phase: payments to players who sat out.
    non_dealers = active[1:]
    for d in rnd.dropped:
        if not d.hand:
            warnings.append(
                f"no hand reported for {d.player}, who dropped out: nothing paid for it"
            )
            continue
        v = hand_value(rules, d.hand, d.forced)
        parts = [h.teyaku.id for h in v.teyaku] + [h.dekiyaku.id for h in v.dekiyaku]
        if d.forced:
            parts += (
                [f"{len(v.extra_cards)} card(s) × {o.forced_out_card_mon} mon"]
                if v.extra_cards
                else []
            )
            book.gain(
                d.player,
                v.mon,
                non_dealers,
                code="forced-out",
                en=f"Forced out: hand compensation ({', '.join(parts) or 'nothing'})",
                ja="追い込み 手当",
                cards=v.extra_cards + tuple(c for h in v.teyaku for c in h.cards),
            )
        elif v.mon:
            book.gain(
                d.player,
                v.mon,
                active,
                code="dropout-hand",
                en=f"Dropped out: half of hand yaku ({', '.join(parts)})",
                ja="降り 手役半額",
                cards=tuple(c for h in v.teyaku for c in h.cards),
            )
    # 3. Mizuten (not with two players; cancelled by a special yaku).
    if rnd.mizuten and not two and special is None:
        dealer = rnd.dealer
        if points[dealer] >= o.mizuten_points:
            for p in rnd.players:
                if p != dealer:
                    book.pay(
                        p,
                        dealer,
                        kan(o.mizuten_kan, mpk),
                        code="mizuten",
                        en=f"Mizuten made ({points[dealer]} points)",
                        ja="不見転 成功",
                    )
        else:
            for p in (q for q in active if q != dealer):
                book.pay(
                    dealer,
                    p,
                    kan(o.mizuten_kan, mpk),
                    code="mizuten",
                    en=f"Mizuten failed ({points[dealer]} points)",
                    ja="不見転 失敗",
                )
    # 4. Teyaku and their "+1 kan" bonuses.
    teyaku: dict[str, tuple[TeyakuHit, ...]] = {}
    refunds: list[tuple[str, dict[str, int], str]] = []
    for p in active:
        if p not in rnd.hands:
            continue
        hits = find_teyaku(rules, rnd.hands[p])
        teyaku[p] = hits
        others = [q for q in active if q != p]
        for h in hits:
            paid = book.gain(
                p,
                kan(h.kan, mpk),
                others,
                code="teyaku",
                en=f"Teyaku {h.teyaku.en} ({h.teyaku.id}) {h.kan} kan",
                ja=f"手役 {h.teyaku.ja}",
                cards=h.cards,
            )
            refunds.append((p, paid, h.teyaku.id))
        if two or special is not None:
            continue
        for h in hits:
            if bonus_met(rules, h, rnd.piles[p], points[p]):
                why = (
                    "captured the whole month"
                    if h.teyaku.bonus == "capture-month"
                    else f"{points[p]} points"
                )
                book.gain(
                    p,
                    kan(o.bonus_kan, mpk),
                    others,
                    code="teyaku-bonus",
                    en=f"Teyaku bonus for {h.teyaku.id}: {why}",
                    ja=f"{h.teyaku.ja} 加算",
                    cards=h.cards,
                )
    # 5. Dekiyaku.
    if deki is not None:
        for g in deki.gains:
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
    # 6. Special yaku, and the teyaku refunds they cause.
    if special is not None:
        book.gain(
            special.player,
            kan(special.kan, mpk),
            [q for q in active if q != special.player],
            code=f"special:{special.id}",
            en=f"{special.en} ({special.detail}) {special.kan} kan",
            ja=special.ja,
        )
        for receiver, paid, tid in refunds:
            for payer, amount in paid.items():
                book.pay(
                    receiver,
                    payer,
                    amount,
                    scaled=False,
                    code="teyaku-refund",
                    en=f"Teyaku {tid} refunded ({special.en})",
                    ja="手役 返済",
                )
    # 7. Card settlement.
    if outcome == "cards":
        if two:
            a, b = sorted(active, key=lambda p: (-points[p], active.index(p)))
            diff = (points[a] - points[b]) * mult
            if diff:
                book.pay(
                    b,
                    a,
                    diff,
                    scaled=False,
                    code="cards",
                    en=f"Card points {points[a]} against {points[b]}, ×{mult}",
                    ja="札の点",
                )
        else:
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
    # 8. The winner takes the pot of drop-out fees.
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
    net = book.net(rnd.players)
    return RoundResult(
        ruleset=rules.name,
        mon_per_kan=mpk,
        players=rnd.players,
        dealer=rnd.dealer,
        active=active,
        multiplier=rnd.multiplier,
        outcome=outcome,
        card_points=points,
        teyaku=teyaku,
        dekiyaku={p: pile_hits[p] for p in active},
        special=special,
        payments=tuple(book.payments),
        lines=tuple(book.lines),
        net=net,
        winner=winner,
        next_dealer=winner,
        warnings=tuple(warnings),
    )
