"""A Hachi-hachi round as the players report it, validated: who sat, what was dealt and captured.

``make_round`` turns what players type (card names or ids, player names) into a
frozen ``RoundInput`` and raises ``RefereeError`` for every user mistake the
issue lists: hands that are not 7 cards, a field that is not 6 cards or holds
four of a month (a misdeal), a card in two hands or in a hand and the field, a
card in two piles, players who are not seated, and decisions that name
unknown players or yaku.  Settling is ``referee.hachihachi.settlement``.
Pure core.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.cards import BY_ID, count_cards, month_label
from referee.errors import PlayerCountError, RefereeError, RoundFieldError, shown
from referee.hachihachi.deal import FIELD_SIZE, HAND_SIZE
from referee.hachihachi.dropout import Dropout
from referee.hachihachi.field import Multiplier, check_carry, field_multipliers, round_multiplier
from referee.hachihachi.rules import HachihachiRules
from referee.names import printable_name, repeated_name, repeated_name_message
from referee.notation import parse_groups
from referee.wording import yaku_name

#: Decisions after completing a dekiyaku (seed 003 "Stop" / "Continue playing").
DECISIONS = ("stop", "continue")


@dataclass(frozen=True, slots=True)
class DekiyakuCall:
    """A dekiyaku completion as the players state it, in the order it happened.

    ``yaku``: the dekiyaku id completed (``akatan``...); ``decision``: ``stop``
    (the round ends) or ``continue`` (sage: play on for another dekiyaku);
    ``liable``: the opponent who threw the completing card from hand and pays
    this dekiyaku alone (option ``liable_thrower``), or None.
    """

    player: str
    yaku: str
    decision: str
    liable: str | None = None


@dataclass(frozen=True)
class RoundInput:
    """A validated round.

    ``players``: everyone seated, in seating (= play) order; ``dealer``: the
    oya (親) who dealt; ``active``: the players who play, first in play order
    first (the dealer, or the next seated player if the dealer dropped out);
    ``multiplier``: the round's field multiplier and carry-over queue;
    ``hands``: active player -> dealt 7 cards (absent when not reported);
    ``dropped``: players who sat out; ``dekiyaku``: the stated completions,
    or None when not stated; ``hatto``: players stated hatto; ``piles``:
    active player -> captured cards.
    """

    players: tuple[str, ...]
    dealer: str
    active: tuple[str, ...]
    multiplier: Multiplier
    field: tuple[str, ...] = ()
    hands: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    dropped: tuple[Dropout, ...] = ()
    mizuten: bool = False
    dekiyaku: tuple[DekiyakuCall, ...] | None = None
    hatto: tuple[str, ...] = ()
    piles: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    @property
    def oya(self) -> str:
        """The first active player in play order (the dealer unless they dropped out)."""
        return self.active[0]


def _seated(players: Sequence[str], who: str, what: str) -> None:
    if who not in players:
        raise RefereeError(
            "unknown-player", f"{what} {shown(who)} is not seated; players are {list(players)}"
        )


def _four_of_a_month(ids: Sequence[str]) -> int | None:
    counts = Counter(BY_ID[c].month for c in ids)
    return next((m for m, n in counts.items() if n == 4), None)


def _dropout(player: str, raw: Dropout | Mapping) -> tuple[int, bool, Sequence[str]]:
    if isinstance(raw, Dropout):
        return raw.order, raw.forced, raw.hand
    if not isinstance(raw, Mapping):
        raise RefereeError("bad-round", f"dropped.{player} is {shown(raw)}; expected an object")
    order = raw.get("order", 0) or 0
    forced = raw.get("forced", False)
    hand = raw.get("hand", ())
    if isinstance(order, bool) or not isinstance(order, int) or order < 0:
        raise RefereeError("bad-round", f"dropped.{player}.order is {shown(order)}; expected 1, 2, 3...")
    if not isinstance(forced, bool):
        raise RefereeError(
            "bad-round", f"dropped.{player}.forced is {shown(forced)}; expected true or false"
        )
    if not isinstance(hand, list | tuple):
        raise RefereeError(
            "bad-round", f"dropped.{player}.hand is {shown(hand)}; expected a list of cards"
        )
    return order, forced, hand


def _active_and_dropped(
    players: tuple[str, ...], dealer: str, dropped: Mapping
) -> tuple[tuple[str, ...], list[tuple[str, int, bool, Sequence[str]]]]:
    start = players.index(dealer)
    seating = players[start:] + players[:start]
    raw = {p: _dropout(p, dropped[p]) for p in dropped}
    if raw and len(players) <= 3:
        raise RefereeError(
            "bad-round",
            f"with {len(players)} players nobody drops out, but dropped lists {sorted(raw)}",
        )
    active = tuple(p for p in seating if p not in raw)
    if len(active) not in (2, 3):
        raise RefereeError(
            "player-count",
            f"{len(active)} players are active ({', '.join(active)}); "
            "a round is played by 3 (or 2)",
        )
    voluntary = [p for p in seating if p in raw and not raw[p][1]]
    forced = [p for p in seating if p in raw and raw[p][1]]
    if forced and len(active) != 3:
        raise RefereeError(
            "bad-round",
            f"{', '.join(forced)} cannot be forced out: only {len(active)} "
            "players joined (a player is forced out once three have joined)",
        )
    # Calls go round from the dealer: once three have joined, everyone after is forced out.
    third = seating.index(active[2]) if len(active) == 3 else len(seating)
    late = [p for p in voluntary if seating.index(p) > third]
    early = [p for p in forced if seating.index(p) < third]
    if late:
        raise RefereeError(
            "bad-round",
            f"{', '.join(late)} came after three players had joined, so "
            "they were forced out: mark them as forced out, not as dropping out",
        )
    if early:
        raise RefereeError(
            "bad-round",
            f"{', '.join(early)} chose before three players had joined, so "
            "they dropped out by choice: mark them as dropping out, not as forced out",
        )
    orders = [raw[p][0] for p in voluntary]
    if any(orders):
        if sorted(orders) != list(range(1, len(voluntary) + 1)):
            raise RoundFieldError(
                "bad-round",
                f"drop-out orders are {orders}; expected each of "
                f"1..{len(voluntary)} once for {', '.join(voluntary)}",
                field="dropped", rule="order", value=tuple(orders), limit=len(voluntary), players=tuple(voluntary),
            )
        by_order = sorted(voluntary, key=lambda p: raw[p][0])
        if by_order != voluntary:
            raise RoundFieldError(
                "bad-round",
                f"drop-out orders {orders} do not follow the seating from "
                f"the dealer ({', '.join(seating)}), in which the calls are made",
                field="dropped", rule="seating", value=tuple(orders), players=seating,
            )
    out = [(p, k, False, raw[p][2]) for k, p in enumerate(voluntary, 1)]
    out += [(p, 0, True, raw[p][2]) for p in forced]
    return active, out


def check_players(rules: HachihachiRules, players: tuple[str, ...]) -> None:
    """Seated players: distinct non-empty names (compared by ``referee.names.name_key``: "A" and
    "a " are one player, as in the web app), as many as the ruleset seats.

    Raises ``RefereeError``: ``bad-round`` or ``player-count``.
    """
    if not all(printable_name(p) for p in players):
        raise RefereeError(
            "bad-round", f"players must be distinct names (printable, not blank), got {list(players)}"
        )
    twin = repeated_name(players)
    if twin is not None:
        raise RefereeError("bad-round", repeated_name_message(*twin))
    if len(players) not in rules.options.players:
        raise PlayerCountError(
            f"{rules.title or rules.name} seats {min(rules.options.players)} to {max(rules.options.players)} "
            f"players, got {len(players)}",
            rules.title or rules.name, tuple(sorted(rules.options.players)), tuple(players),
        )


def make_round(
    rules: HachihachiRules,
    *,
    players: Sequence[str],
    dealer: str | None = None,
    field: Sequence[str] | None = None,
    multiplier: int | None = None,
    carry: Sequence[int] = (),
    hands: Mapping[str, Sequence[str]] | None = None,
    dropped: Mapping[str, Dropout | Mapping] | None = None,
    mizuten: bool = False,
    dekiyaku: Sequence[DekiyakuCall | Mapping] | None = None,
    hatto: Sequence[str] = (),
    piles: Mapping[str, Sequence[str]] | None = None,
) -> RoundInput:
    """Validate a reported round (card tokens as ``referee.notation`` reads them).

    ``multiplier`` states the field's multiplier (1, 2 or 4; products of them
    with ``field_multiplier = stack``) when the field cards are not given.
    ``dekiyaku`` entries are ``DekiyakuCall`` or ``{"player", "yaku",
    "decision"}``.  Raises ``RefereeError``: ``player-count``,
    ``unknown-player``, ``unknown-card``, ``duplicate-card``, ``too-many-cards``,
    ``card-count`` (a hand not 7 cards, a field not 6), ``misdeal``,
    ``bad-round`` or ``bad-decision``.

    Three ``bad-round`` refusals are ``referee.errors.RoundFieldError``, by ``(field, rule)``:
    ``("multiplier", "choice")``, a stated multiplier outside ``limit`` (the values option
    ``field_multiplier`` allows; RULES.md "Field multiplier"); ``("dropped", "order")``, drop-out call
    orders (``value``, in seating order) that do not number ``players`` (who dropped out by choice)
    1 to ``limit`` once each; ``("dropped", "seating")``, orders that do not follow ``players``, the
    seating from the dealer, in which the calls are made (RULES.md "4 to 6 players", seed 003 "Bidding phase").
    """
    players = tuple(players)
    warnings: list[str] = []
    check_players(rules, players)
    dealer = players[0] if dealer is None else dealer
    _seated(players, dealer, "dealer")
    hands = dict(hands or {})
    dropped = dict(dropped or {})
    piles = dict(piles or {})
    for what, group in (("hand", hands), ("dropped player", dropped), ("pile", piles)):
        for p in group:
            _seated(players, p, what)
    active, drops = _active_and_dropped(players, dealer, dropped)
    forced = frozenset(d[0] for d in drops if d[2])
    for p in piles:
        if p not in active:
            raise RefereeError("bad-round", f"{p} {_sat_out(p, forced)}, so has no pile")
    # Hands and field share the deal: one deck, no card twice.
    groups: dict[str, list[str]] = {}
    for p in players:
        drop = next((d for d in drops if d[0] == p), None)
        cards = list(drop[3]) if drop and drop[3] else list(hands.get(p, ()))
        if cards:
            groups[p] = cards
    if field:
        groups["(field)"] = list(field)
    dealt = parse_groups(groups, what="hand")
    field_ids = dealt.pop("(field)", ())
    for p, ids in dealt.items():
        if len(ids) != HAND_SIZE:
            raise RefereeError(
                "card-count", f"hand {p} has {count_cards(len(ids))}; a dealt hand holds {HAND_SIZE}"
            )
    for p in active:
        if p not in dealt:
            warnings.append(f"no hand reported for {p}: teyaku not scored")
    reads_field = [t.id for t in rules.teyaku if t.group == "field"]
    if reads_field and dealt and not field:
        warnings.append(f"no field cards reported: {', '.join(reads_field)} (read from the field) not checked")
    if field:
        if len(field_ids) != FIELD_SIZE:
            raise RefereeError(
                "card-count",
                f"the field has {count_cards(len(field_ids))}; a dealt field holds {FIELD_SIZE}",
            )
        month = _four_of_a_month(field_ids)
        if month is not None:
            raise RefereeError(
                "misdeal",
                f"misdeal: the field holds all four cards of {month_label(month)}; "
                "deal again (nothing is settled)",
            )
    own, brights = field_multipliers(rules, field_ids)
    carry = check_carry(rules, tuple(carry))
    if multiplier is not None:
        own = _stated(rules, multiplier, own if field else None)
    elif not field:
        warnings.append("no field and no multiplier given: a small field (×1) is assumed")
    mult = round_multiplier(rules, own, carry, brights)
    if mizuten and dealer not in active:
        raise RefereeError(
            "bad-round",
            f"the dealer {dealer} called Mizuten, so must play; but dealer is listed as dropped",
        )
    pile_ids = parse_groups({p: list(piles.get(p, ())) for p in active}, what="pile")
    calls = None if not dekiyaku else tuple(_call(rules, players, active, c, forced) for c in dekiyaku)
    for h in hatto:
        _seated(players, h, "hatto player")
        if h not in active:
            raise RefereeError("bad-decision", f"hatto player {h} {_sat_out(h, forced)} of this round")
    return RoundInput(
        players=players,
        dealer=dealer,
        active=active,
        multiplier=mult,
        field=field_ids,
        hands={p: dealt[p] for p in active if p in dealt},
        dropped=tuple(Dropout(p, k, forced, dealt.get(p, ())) for p, k, forced, _ in drops),
        mizuten=bool(mizuten),
        dekiyaku=calls,
        hatto=tuple(dict.fromkeys(hatto)),
        piles=pile_ids,
        warnings=tuple(warnings),
    )


def _stated(rules: HachihachiRules, value: int, own: tuple[int, ...] | None) -> tuple[int, ...]:
    values = sorted(set(rules.field_values.values()))
    if rules.options.field_multiplier == "stack":
        ok = {1}
        for _ in range(len(rules.field_values)):
            ok |= {a * v for a in ok for v in values}
    else:
        ok = {1, *values}
    if isinstance(value, bool) or not isinstance(value, int) or value not in ok:
        raise RoundFieldError("bad-round", f"multiplier is {shown(value)}; expected one of {sorted(ok)}",
                              field="multiplier", rule="choice", value=value, limit=tuple(sorted(ok)))
    if own is not None:
        field_value = 1
        for v in own:
            field_value = (
                field_value * v
                if rules.options.field_multiplier == "stack"
                else max(field_value, v)
            )
        if field_value != value:
            raise RefereeError(
                "bad-round",
                f"multiplier {value} disagrees with the field, which makes "
                f"×{field_value}; give one or the other",
            )
        return own
    return (value,) if value > 1 else ()


def _sat_out(player: str, forced: frozenset[str]) -> str:
    """How ``player`` sat the round out, in words: "was forced out" (after three had joined) or "dropped out"
    (by choice; RULES.md "4 to 6 players")."""
    return "was forced out" if player in forced else "dropped out"


def _call(
    rules: HachihachiRules,
    players: tuple[str, ...],
    active: tuple[str, ...],
    raw: DekiyakuCall | Mapping,
    forced: frozenset[str] = frozenset(),
) -> DekiyakuCall:
    if isinstance(raw, Mapping):
        unknown = set(raw) - {"player", "yaku", "decision", "liable"}
        if unknown:
            raise RefereeError(
                "bad-decision",
                f"dekiyaku entry has unknown keys {sorted(unknown)}; "
                "expected player, yaku, decision, liable",
            )
        raw = DekiyakuCall(
            raw.get("player"), raw.get("yaku"), raw.get("decision", "stop"), raw.get("liable")
        )
    _seated(players, raw.player, "dekiyaku player")
    if raw.player not in active:
        raise RefereeError(
            "bad-decision", f"dekiyaku by {raw.player}, who {_sat_out(raw.player, forced)} ({', '.join(active)} play)"
        )
    ids = [d.id for d in rules.dekiyaku]
    if raw.yaku not in ids:
        raise RefereeError(
            "bad-decision", f"unknown dekiyaku {shown(raw.yaku)}; expected one of {', '.join(ids)}"
        )
    made = rules.dekiyaku_by_id(raw.yaku)
    made_name = yaku_name(made.en, made.ja)  # as the round form's menu names it
    if raw.decision not in DECISIONS:
        raise RefereeError(
            "bad-decision",
            f"decision {shown(raw.decision)} for {raw.player}'s {made_name}; "
            f"expected {' or '.join(DECISIONS)}",
        )
    if raw.liable is not None:
        _seated(players, raw.liable, "liable player")
        if raw.liable == raw.player or raw.liable not in active:
            raise RefereeError(
                "bad-decision",
                f"{raw.liable} is named liable for {raw.player}'s {made_name}; the liable "
                f"player is an opponent who plays this round ({', '.join(active)} play)",
            )
    return raw
