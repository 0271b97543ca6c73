"""Score one Roppyakken-family round, with every point explained.

Order (RULES.md "Card points and the round", "Fuke", "Instant wins"):
card points and chaff upgrades, yaku, lucky hands (teyaku), fuke, instant
wins, settlement.  ``RoundResult`` holds each player's lines; a player's
``round_score`` is the sum of their lines.  Pure core.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from referee.cards import CARDS, count_cards, mask, month_label
from referee.errors import PlayerCountError, RefereeError, given, shown
from referee.explain import Line, PlayerLines, mask_ids
from referee.names import printable_name, repeated_name, repeated_name_message
from referee.notation import parse_groups
from referee.roppyakken.fuke import excluded_mask, fuke_count, fuke_players
from referee.roppyakken.rules import RoppyakkenRules
from referee.roppyakken.settlement import settle
from referee.roppyakken.teyaku import find_teyaku, months_with
from referee.roppyakken.yaku import find_yaku

#: Most cards one dealt hand can hold (the 10-card two-player deal).
MAX_HAND = 10
#: Most cards a deal puts on the field (8 for two players, 6 for three).
MAX_FIELD = 8
_KIND_LINES = (  # kind, code, en, ja
    ("bright", "cards:hikari", "Brights (hikari)", "光札"),
    ("animal", "cards:tane", "Animals (tane)", "タネ札"),
    ("ribbon", "cards:tanzaku", "Ribbons (tanzaku)", "短冊札"),
    ("chaff", "cards:kasu", "Chaff (kasu)", "カス札"),
)
_LABELS = {(en, n): f"{en} ×{n}" for _, _, en, _ in _KIND_LINES for n in range(25)}
_KIND_MASK = {k: sum(c.bit for c in CARDS if c.kind == k) for k, *_ in _KIND_LINES}
_KIND_MASKS = tuple((code, en, ja, _KIND_MASK[kind]) for kind, code, en, ja in _KIND_LINES)
_M50 = sum(c.bit for c in CARDS if c.roppyakken_points == 50)
_M10 = sum(c.bit for c in CARDS if c.roppyakken_points == 10)
assert all(c.roppyakken_points in (0, 10, 50) for c in CARDS)
_ZERO_CHAFF = tuple(c.bit for c in CARDS if c.kind == "chaff" and c.roppyakken_points == 0)


@dataclass(frozen=True)
class RoundInput:
    """A round as the players report it: card ids, already validated.

    ``players`` in play order; ``piles``/``hands`` map every player to card ids
    (empty when not given); ``field`` is the deal's field, if given.
    """

    players: tuple[str, ...]
    dealer: str
    piles: Mapping[str, tuple[str, ...]]
    hands: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    field: tuple[str, ...] = ()
    #: Player -> 48-bit mask of their pile (computed from ``piles``).
    masks: Mapping[str, int] = dataclasses.field(init=False, repr=False, compare=False)
    #: Player -> 48-bit mask of their dealt hand, 0 when not given (computed from ``hands``).
    hand_masks: Mapping[str, int] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Computed once here: scoring reads them for every player (cached_property takes a lock on 3.11).
        object.__setattr__(self, "masks", {p: mask(self.piles.get(p, ())) for p in self.players})
        object.__setattr__(self, "hand_masks", {p: mask(self.hands.get(p, ())) for p in self.players})


def check_players(players: object) -> tuple[str, ...]:
    """Players as a tuple of distinct, non-blank names without control characters; names are
    compared as ``referee.names.name_key`` does ("A" and "a " are one player, as in the web app).

    Raises ``RefereeError('bad-round')``.
    """
    if not isinstance(players, list | tuple) or not all(
        printable_name(p) for p in players
    ):
        raise RefereeError("bad-round", f"\"players\" must be a list of names (printable, not blank), {given(players)}")
    twin = repeated_name(players)
    if twin is not None:
        raise RefereeError("bad-round", repeated_name_message(*twin))
    return tuple(players)


def check_card_table(table: object, key: str, players: tuple[str, ...]) -> dict[str, list]:
    """A ``{player: [card, ...]}`` table, type-checked, with every owner a player.

    Raises ``RefereeError`` (``bad-round``, ``unknown-player``).
    """
    if not isinstance(table, Mapping) or not all(isinstance(v, list | tuple) for v in table.values()):
        raise RefereeError("bad-round", f"\"{key}\" must map each player to a list of cards, {given(table)}")
    for p in table:
        if p not in players:
            raise RefereeError("unknown-player", f"{key} for unknown player {p!r}; players are {list(players)}")
    return {p: list(v) for p, v in table.items()}


def _month_four(ids: Sequence[str]) -> list[int]:
    """The months whose four cards are all among ``ids``, in order."""
    fours = months_with(mask(ids), 4)
    return [m for m in range(1, 13) if fours >> 4 * (m - 1) & 1] if fours else []


def make_round(
    rules: RoppyakkenRules,
    players: Sequence[str],
    piles: Mapping[str, Sequence[str]],
    hands: Mapping[str, Sequence[str]] | None = None,
    dealer: str | None = None,
    field: Sequence[str] = (),
) -> RoundInput:
    """Validate a reported round and turn card tokens into ids.

    Raises ``RefereeError`` with code ``player-count`` (a count the ruleset does
    not allow), ``unknown-player``, ``unknown-card``, ``duplicate-card`` (a card
    in two piles, or in two hands, naming both players), ``too-many-cards``,
    ``bad-round`` (a hand of more than 10 cards) or ``misdeal`` (four of a month
    in a hand or on the field, when the ruleset calls it one).
    """
    players = check_players(players)
    allowed = rules.options.players
    if len(players) not in allowed:
        counts = ", ".join(map(str, allowed[:-1])) + f" or {allowed[-1]}" if len(allowed) > 1 else str(allowed[0])
        raise PlayerCountError(f"{rules.title or rules.name} is for {counts} players, got {len(players)}",
                               rules.title or rules.name, tuple(sorted(allowed)), tuple(players))
    dealer = players[0] if dealer is None else dealer
    hands = check_card_table(hands or {}, "hands", players)
    piles = check_card_table(piles, "piles", players)
    if not isinstance(field, list | tuple):
        raise RefereeError("bad-round", f"\"field\" must be a list of cards, {given(field)}")
    if len(field) > MAX_FIELD:
        raise RefereeError("bad-round", f"the field has {len(field)} cards; a deal puts at most {MAX_FIELD} there")
    if dealer not in players:
        raise RefereeError("unknown-player", f"dealer {shown(dealer)} is not a player; players are {list(players)}")
    pile_ids = parse_groups({p: piles.get(p, ()) for p in players}, what="pile")
    groups = {f"hand {p}": hands[p] for p in players if p in hands}
    if field:
        groups["the field"] = field
    dealt = parse_groups(groups, what="")
    field_ids = dealt.pop("the field", ())
    hand_ids = {p: dealt[f"hand {p}"] for p in players if p in hands}
    for p, ids in hand_ids.items():
        if len(ids) > MAX_HAND:
            raise RefereeError("bad-round", f"hand {p} has {len(ids)} cards; a dealt hand holds at most {MAX_HAND}")
        if rules.options.hand_four_misdeal and (fours := _month_four(ids)):
            raise RefereeError("misdeal", f"misdeal: hand {p} holds all four cards of {month_label(fours[0])}; "
                               "deal again")
    if rules.options.field_four_misdeal and (fours := _month_four(field_ids)):
        raise RefereeError("misdeal", f"misdeal: the field holds all four cards of {month_label(fours[0])}; "
                           "deal again")
    return RoundInput(players, dealer, pile_ids, hand_ids, field_ids)


def score_json(line: Line) -> dict:
    """A yaku or lucky-hand line as ``{"id", "name", "name_ja", "points", "cards"}``."""
    return {"id": line.code, "name": line.en, "name_ja": line.ja, "points": line.points,
            "cards": list(line.cards)}


@dataclass(frozen=True)
class PlayerRound:
    """One player's round.

    ``yaku`` and ``lucky_hands`` are their explanation lines (``code`` is the
    yaku or teyaku id).  ``card_points`` include chaff upgrades; ``raw_score`` = card points + yaku +
    lucky hands; ``round_score`` is what the round adds to the total (0 in a void
    round; settled in Yukbaek and Sambong) and equals the sum of ``lines``.
    ``later_lines``: the lines after the card points (all the lines when ``card_kinds`` is
    empty); ``card_kinds``: the card-point lines as ``(code, label, ja, points, mask)``,
    turned into ``Line``s (with their card ids) only when ``lines`` is read: re-scoring a
    long history reads the numbers alone.
    """

    player: str
    cards: tuple[str, ...]
    card_points: int
    yaku: tuple[Line, ...]
    lucky_hands: tuple[Line, ...]
    fuke_count: int
    raw_score: int
    round_score: int
    later_lines: tuple[Line, ...] = ()
    card_kinds: tuple[tuple[str, str, str, int, int], ...] = ()

    @cached_property
    def lines(self) -> tuple[Line, ...]:
        """Every explanation line of the player, in order: card points by kind, chaff upgrades,
        yaku, lucky hands, fuke, settlement.  They sum to ``round_score``."""
        cards = tuple(Line(self.player, code, label, ja, pts, mask_ids(m))
                      for code, label, ja, pts, m in self.card_kinds)
        return cards + self.later_lines


@dataclass(frozen=True)
class RoundResult(PlayerLines):
    """A scored round.

    ``void``: fuke voided it (``fuke_by`` names the players at or below the
    threshold); ``instant_win``: the player who wins the game at once, or None;
    ``next_dealer``: the oya of the next round; ``entered``: the round is entered
    totals (``referee.roppyakken.totals``), not cards.
    """

    players: tuple[PlayerRound, ...]
    dealer: str
    next_dealer: str
    void: bool
    fuke_by: tuple[str, ...]
    instant_win: str | None
    warnings: tuple[str, ...]
    entered: bool = False

    def to_json(self) -> dict:
        """The public JSON shape (README "Round result")."""
        return {
            "players": {
                p.player: {
                    "card_points": p.card_points,
                    "yaku": [score_json(y) for y in p.yaku],
                    "lucky_hands": [score_json(t) for t in p.lucky_hands],
                    "fuke_count": p.fuke_count,
                    "raw_score": p.raw_score,
                    "round_score": p.round_score,
                }
                for p in self.players
            },
            "dealer": self.dealer,
            "next_dealer": self.next_dealer,
            "void": self.void,
            "fuke_by": list(self.fuke_by),
            "instant_win": self.instant_win,
            "warnings": list(self.warnings),
            "entered_totals": self.entered,
            "explanation": [line.to_json() for line in self.explanation],
        }


def pile_points(m: int) -> int:
    """Roppyakken card points (RULES.md "Card points") of a 48-bit mask."""
    return 50 * (m & _M50).bit_count() + 10 * (m & _M10).bit_count()


def _card_kinds(pile: int) -> tuple[tuple[tuple[str, str, str, int, int], ...], int]:
    """The card-point lines of a pile as ``(code, label, ja, points, mask)`` per kind, and their total."""
    kinds = []
    total = 0
    for code, en, ja, kind_mask in _KIND_MASKS:
        m = pile & kind_mask
        if not m:
            continue
        pts = pile_points(m)
        total += pts
        kinds.append((code, _LABELS[en, m.bit_count()], ja, pts, m))
    return tuple(kinds), total


def _chaff_upgrades(player: str, pile: int, hits) -> tuple[list[Line], dict[int, int]]:
    """Changara: each yaku with ``chaff_upgrade`` turns one 0-point chaff into a 50-point card."""
    lines: list[Line] = []
    upgraded: dict[int, int] = {}  # card bit -> extra points
    for h in hits:
        if not h.yaku.chaff_upgrade:
            continue
        own = mask(h.cards)
        free = [b for b in _ZERO_CHAFF if pile & b and b not in upgraded]
        free.sort(key=lambda b: (not own & b, b))
        if not free:
            continue
        upgraded[free[0]] = h.yaku.chaff_upgrade
        cid = mask_ids(free[0])[0]
        lines.append(Line(player, "chaff-upgrade", f"Chaff upgrade from {h.yaku.en}",
                          f"{h.yaku.ja}のカス札昇格", h.yaku.chaff_upgrade, (cid,)))
    return lines, upgraded


def _first_from(players: tuple[str, ...], dealer: str, candidates) -> str:
    start = players.index(dealer)
    order = players[start:] + players[:start]
    return next(p for p in order if p in candidates)


def score_round(rules: RoppyakkenRules, rnd: RoundInput) -> RoundResult:
    """Score a validated round (see ``make_round``).

    Returns a ``RoundResult``; raises nothing for a validated round.  Rule
    sources: RULES.md "Roppyakken (六百間) and its family"; seed 000.
    """
    o = rules.options
    warnings: list[str] = []
    excluded = excluded_mask(o.fuke.excluded_months) if o.fuke.enabled else 0
    partial: dict[str, tuple] = {}
    counts: dict[str, int] = {}
    instant: list[tuple[int, bool, str]] = []
    for p in rnd.players:
        ids = rnd.piles.get(p, ())
        if len(ids) % 2:
            warnings.append(f"odd pile for {p} ({count_cards(len(ids))}): captured piles are even (pairs or fours)")
        pile = rnd.masks[p]
        kinds, card_points = _card_kinds(pile)
        hits, notes = find_yaku(rules, pile)
        if notes:
            warnings.extend(f"{p}: {n}" for n in notes)
        lines, upgraded = _chaff_upgrades(p, pile, hits)
        card_points += sum(upgraded.values())
        yaku = tuple(Line(p, h.yaku.id, h.yaku.en, h.yaku.ja, h.points, h.cards) for h in hits)
        lines += yaku
        lucky = tuple(Line(p, t.teyaku.id, t.teyaku.en, t.teyaku.ja, t.points, t.cards)
                      for t in find_teyaku(rules, rnd.hands.get(p, ()), rnd.hand_masks[p]))
        lines += lucky
        yaku_points = sum(h.points for h in hits)
        outside = pile_points(pile & ~excluded)
        outside += sum(v for b, v in upgraded.items() if not b & excluded)
        counts[p] = fuke_count(o.fuke, outside, yaku_points)
        for h in hits:
            if h.yaku.instant_win:
                instant.append((h.yaku.instant_win, h.yaku.beats_fuke, p))
        partial[p] = (ids, card_points, yaku, lucky, lines, kinds)
    fuke_by = fuke_players(o.fuke, counts)
    void = bool(fuke_by)
    # The kinds' points and the other lines: the same numbers the explanation lines carry.
    raw = {p: sum(k[3] for k in v[5]) + sum(line.points for line in v[4]) for p, v in partial.items()}
    live = [(rank, p) for rank, beats, p in instant if beats or not void]
    instant_win = None
    if live:
        best = min(rank for rank, _ in live)
        instant_win = _first_from(rnd.players, rnd.dealer, {p for r, p in live if r == best})
    settled = settle(o.settlement, {p: 0 if void else s for p, s in raw.items()}, o.round_up_to)
    if void:
        next_dealer = rnd.dealer
    else:
        top = max(raw.values())
        next_dealer = _first_from(rnd.players, rnd.dealer, {p for p, s in raw.items() if s == top})
    out = []
    for p in rnd.players:
        ids, card_points, yaku, lucky, lines, kinds = partial[p]
        if void and raw[p]:
            lines.append(Line(p, "fuke", f"Fuke: round void ({', '.join(fuke_by)} at or below "
                              f"{o.fuke.threshold})", "吹き消し", -raw[p]))
        base = 0 if void else raw[p]
        if settled[p] != base:
            en = {"difference": "Settlement: top minus second (Yukbaek)",
                  "round-up": f"Settlement: rounded up to {o.round_up_to} (Sambong)"}[o.settlement]
            lines.append(Line(p, "settlement", en, "精算", settled[p] - base))
        out.append(PlayerRound(p, ids, card_points, yaku, lucky, counts[p], raw[p], settled[p], tuple(lines), kinds))
    if void:
        warnings.append(f"fuke: {', '.join(f'{p} counts {counts[p]}' for p in fuke_by)}; "
                        f"at or below {o.fuke.threshold}, so the round is void and {rnd.dealer} deals again")
    return RoundResult(tuple(out), rnd.dealer, next_dealer, void, fuke_by, instant_win, tuple(warnings))
