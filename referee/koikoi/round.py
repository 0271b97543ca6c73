"""Score one Koi-Koi round, with every point and every multiplier explained.

KOIKOI-RULES.md "The round" and "Lucky hands": the stopper (勝負, ``stopped_by``) scores
their yaku total times the factors, each computed from that total and this round's
``calls`` only (so a koi-koi never carries into the next round); the other player scores
0.  Hands that ran out score by option ``exhausted``, never multiplied; a lucky hand in a
dealt hand wins the round at the deal.  Each player's explanation lines sum to their
``round_score``: a multiplier is a line of its own ("×2: 7 points or more") worth what it
adds.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from referee.cards import count_cards, mask
from referee.errors import PlayerCountError, RefereeError, given, one_of_the_players, shown
from referee.explain import Line, PlayerLines
from referee.koikoi.rules import KoikoiRules
from referee.koikoi.teyaku import find_teyaku
from referee.koikoi.yaku import find_yaku
from referee.names import printable_name, repeated_name, repeated_name_message
from referee.notation import parse_groups
from referee.option_names import house_rule
from referee.wording import yaku_name

#: Cards in a dealt hand (two players: eight each).
HAND_SIZE = 8
#: The one call the referee records: koi-koi (こいこい, "come on": play on for more).
CALLS = ("koikoi",)
#: The yaku total from which option ``seven_plus_double`` doubles.
SEVEN = 7


@dataclass(frozen=True)
class Call:
    """A call in a round, in the order made: ``player`` called ``call`` (``koikoi``)."""

    player: str
    call: str = "koikoi"


@dataclass(frozen=True)
class RoundInput:
    """A round as the players report it, validated: card ids, the calls in order.

    ``stopped_by`` is the player who stopped (None: the hands ran out); ``month`` is the
    round's month (1-12, None when not given); ``warnings`` are what validation noticed
    (odd piles, short hands).
    """

    players: tuple[str, str]
    dealer: str
    piles: Mapping[str, tuple[str, ...]]
    hands: Mapping[str, tuple[str, ...]]
    calls: tuple[Call, ...]
    stopped_by: str | None
    month: int | None
    warnings: tuple[str, ...] = ()

    @cached_property
    def masks(self) -> dict[str, int]:
        """Player -> 48-bit mask of their pile."""
        return {p: mask(self.piles[p]) for p in self.players}

    def calls_by(self, player: str) -> int:
        """How many times ``player`` called koi-koi this round."""
        return sum(1 for c in self.calls if c.player == player)


def _table(value: object, key: str, players: tuple[str, ...]) -> dict[str, list]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(v, list | tuple) for v in value.values()):
        raise RefereeError("bad-round", f"\"{key}\" must map each player to a list of cards, {given(value)}")
    for p in value:
        if p not in players:
            raise RefereeError("unknown-player", f"{key} for unknown player {p!r}; players are {list(players)}")
    return {p: list(v) for p, v in value.items()}


def _player(value: object, key: str, players: tuple[str, ...], index: int | None = None) -> str:
    return one_of_the_players(value, key, players, field=None if index is None else "calls.player", index=index)


def check_players(players: object) -> tuple[str, str]:
    """Exactly two distinct (by ``referee.names.name_key``), printable, non-blank names.
    Raises ``RefereeError`` (``bad-round``, ``player-count`` naming ``players`` and the count)."""
    if not isinstance(players, list | tuple) or not all(
        printable_name(p) for p in players
    ):
        raise RefereeError("bad-round", f"\"players\" must be a list of names (printable, not blank), {given(players)}")
    if len(players) != 2:
        raise PlayerCountError(f"Koi-Koi is for exactly 2 players; \"players\" has {len(players)}: {list(players)}",
                               "Koi-Koi", (2,), tuple(players))
    twin = repeated_name(players)
    if twin is not None:
        raise RefereeError("bad-round", repeated_name_message(*twin))
    return (players[0], players[1])


def check_month(month: object) -> int | None:
    """A month number 1-12 (or None).  Raises ``RefereeError('bad-round')``."""
    if month is None:
        return None
    if isinstance(month, bool) or not isinstance(month, int) or not 1 <= month <= 12:
        raise RefereeError("bad-round", f"\"month\" is {shown(month)}; expected a month number, 1 to 12")
    return month


def _calls(value: object, players: tuple[str, ...]) -> tuple[Call, ...]:
    if value is None:
        return ()
    if not isinstance(value, list | tuple):
        raise RefereeError("bad-round", f"\"calls\" must be a list of {{\"player\", \"call\"}} in order, "
                           f"{given(value)}")
    out = []
    for i, c in enumerate(value, 1):
        if isinstance(c, Call):
            c = {"player": c.player, "call": c.call}
        if not isinstance(c, Mapping) or set(c) - {"player", "call"}:
            raise RefereeError("bad-round", f"call {i} is {shown(c)}; expected "
                               "{\"player\": name, \"call\": \"koikoi\"}")
        call = c.get("call", "koikoi")
        if call not in CALLS:
            raise RefereeError("bad-round", f"call {i} is {shown(call)}; the calls are {', '.join(CALLS)}")
        out.append(Call(_player(c.get("player"), f"calls[{i - 1}].player", players, i - 1), call))
    return tuple(out)


def make_round(
    rules: KoikoiRules,
    players: Sequence[str],
    piles: Mapping[str, Sequence[str]] | None = None,
    hands: Mapping[str, Sequence[str]] | None = None,
    calls: Sequence[Mapping | Call] = (),
    stopped_by: str | None = None,
    dealer: str | None = None,
    month: int | None = None,
) -> RoundInput:
    """Validate a reported round and turn card tokens into ids.

    Raises ``RefereeError``: ``player-count`` (not exactly two players), ``unknown-player``,
    ``unknown-card``, ``duplicate-card`` (a card in two piles or two hands, naming both
    players), ``bad-round`` (a hand of more than eight cards, a bad call, a bad month, no
    month under tsukifuda).  Rule source: KOIKOI-RULES.md "The round" and "JSON".

    A name that is not one of ``players`` is a ``referee.errors.RoundFieldError`` (code ``unknown-player``, rule
    ``not-a-player``; ``referee.errors.one_of_the_players``) of field ``dealer``, ``stopped_by`` or
    ``calls.player`` (koi-koi call ``index`` + 1; the message names ``calls[index].player``).
    """
    players = check_players(players)
    dealer = players[0] if dealer is None else _player(dealer, "dealer", players)
    month = check_month(month)
    if month is None and any(y.round_month for y in rules.yaku):
        raise RefereeError("bad-round", f"\"month\" is missing; the {house_rule(rules.options, 'tsukifuda')} scores "
                           "the cards of the round's month, so give it (1 to 12)")
    pile_table = _table(piles, "piles", players)
    hand_table = _table(hands, "hands", players)
    pile_ids = parse_groups({p: pile_table.get(p, ()) for p in players}, what="pile")
    hand_ids = parse_groups({p: hand_table[p] for p in players if p in hand_table}, what="hand")
    warnings = [f"odd pile for {p} ({count_cards(len(ids))}): captured piles are even (pairs)"
                for p, ids in pile_ids.items() if len(ids) % 2]
    for p, ids in hand_ids.items():
        if len(ids) > HAND_SIZE:
            raise RefereeError("bad-round", f"hand {p} has {len(ids)} cards; a dealt hand holds {HAND_SIZE}")
        if len(ids) < HAND_SIZE:
            warnings.append(f"short hand for {p} ({count_cards(len(ids))}): a dealt hand holds {HAND_SIZE}")
    stopper = None if stopped_by is None else _player(stopped_by, "stopped_by", players)
    return RoundInput(players, dealer, pile_ids, {p: hand_ids.get(p, ()) for p in players},
                      _calls(calls, players), stopper, month, tuple(warnings))


@dataclass(frozen=True)
class PlayerRound:
    """One player's round.

    ``yaku`` and ``lucky_hands`` are their lines, scoring or not; ``yaku_total`` is the sum
    of their yaku; ``round_score`` is what the round adds to their total and the sum of
    ``lines``.
    """

    player: str
    yaku: tuple[Line, ...]
    lucky_hands: tuple[Line, ...]
    yaku_total: int
    round_score: int
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class RoundResult(PlayerLines):
    """A scored round.

    ``outcome``: ``stopped`` (a player stopped), ``hands-ran-out``, ``lucky-hands`` (won
    at the deal) or ``entered-totals`` (scored on paper, ``referee.koikoi.totals``);
    ``winner``: the player who scored (None: a draw); ``multiplier``: the winner's product
    of factors (1 when none); ``next_dealer``: the oya of the next round.
    """

    players: tuple[PlayerRound, ...]
    dealer: str
    month: int | None
    stopped_by: str | None
    calls: tuple[Call, ...]
    outcome: str
    winner: str | None
    multiplier: int
    next_dealer: str
    warnings: tuple[str, ...]

    def to_json(self) -> dict:
        """The public JSON shape (KOIKOI-RULES.md "JSON", "Round result")."""
        return {
            "players": {
                p.player: {
                    "yaku": [_score_json(y) for y in p.yaku],
                    "lucky_hands": [_score_json(t) for t in p.lucky_hands],
                    "yaku_total": p.yaku_total,
                    "round_score": p.round_score,
                }
                for p in self.players
            },
            "dealer": self.dealer,
            "month": self.month,
            "stopped_by": self.stopped_by,
            "calls": [{"player": c.player, "call": c.call} for c in self.calls],
            "outcome": self.outcome,
            "entered_totals": self.outcome == "entered-totals",
            "winner": self.winner,
            "multiplier": self.multiplier,
            "next_dealer": self.next_dealer,
            "warnings": list(self.warnings),
            "explanation": [line.to_json() for line in self.explanation],
        }


def _score_json(line: Line) -> dict:
    return {"id": line.code, "name": line.en, "name_ja": line.ja, "points": line.points, "cards": list(line.cards)}


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def factors(rules: KoikoiRules, rnd: RoundInput, scorer: str, total: int) -> list[tuple[int, str, str, str]]:
    """The stopper's multipliers, in order: ``(factor, code, en, ja)``, from the yaku total and
    this round's calls only.  Rule source: KOIKOI-RULES.md "The round"."""
    o = rules.options
    out = []
    if o.seven_plus_double and total >= SEVEN:
        out.append((2, "seven-plus", f"×2: {SEVEN} points or more", f"{SEVEN}点以上"))
    other = next(p for p in rnd.players if p != scorer)
    for rule, who, code, whose, whose_ja in (
        (o.opponent_koikoi, other, "opponent-koikoi", f"{other} called koi-koi", "相手のこいこい"),
        (o.own_koikoi, scorer, "own-koikoi", f"{scorer}'s own koi-koi", "自分のこいこい"),
    ):
        n = rnd.calls_by(who)
        if rule == "off" or not n:
            continue
        if rule == "once":
            out.append((2, code, f"×2: {whose}" + ("" if n == 1 else f" ({n} calls, doubled once)"), whose_ja))
        elif rule == "per-call":
            out.append((1 + n, code, f"×{1 + n}: {whose} {_times(n)} (×(1 + calls))", whose_ja))
        else:
            out += [(2, code, f"×2: {whose}, call {k} of {n}", whose_ja) for k in range(1, n + 1)]
    return out


def _lines(player: str, hits) -> tuple[Line, ...]:
    """Explanation lines of yaku or teyaku hits (a four's month named after the teyaku's name)."""
    return tuple(Line(player, h[0].id, f"{h[0].en}: {h.months}" if getattr(h, "months", "") else h[0].en,
                      h[0].ja, h[1], h[2]) for h in hits)


def score_round(rules: KoikoiRules, rnd: RoundInput) -> RoundResult:
    """Score a validated round (see ``make_round``).

    Raises ``RefereeError``: ``no-yaku`` (the stopper holds no yaku) and ``bad-round`` (a
    lucky hand at the deal with piles, calls or a stopper).  Rule source: KOIKOI-RULES.md
    "The round" and "Lucky hands (teyaku)".
    """
    o = rules.options
    warnings = list(rnd.warnings)
    lucky = {p: _lines(p, find_teyaku(rules, rnd.hands[p])) for p in rnd.players}
    holders = [p for p in rnd.players if lucky[p]]
    if holders:
        return _lucky_round(rules, rnd, lucky, holders, warnings)
    yaku: dict[str, tuple[Line, ...]] = {}
    for p in rnd.players:
        hits, notes = find_yaku(rules, rnd.masks[p], rnd.month)
        yaku[p] = _lines(p, hits)
        warnings += [f"{p}: {n}" for n in notes]
    totals = {p: sum(line.points for line in yaku[p]) for p in rnd.players}
    extra: dict[str, list[Line]] = {p: [] for p in rnd.players}
    scorer, multiplier, outcome = None, 1, "stopped"
    if rnd.stopped_by is not None:
        scorer = rnd.stopped_by
        if not totals[scorer]:
            why = "; ".join(n for n in warnings if n.startswith(f"{scorer}: ") and " void: " in n)
            raise RefereeError("no-yaku", f"{scorer} stopped but holds no yaku; only a player with a yaku may stop"
                               + (f" ({why})" if why else ""))
        running = totals[scorer]
        for factor, code, en, ja in factors(rules, rnd, scorer, totals[scorer]):
            extra[scorer].append(Line(scorer, code, en, ja, running * (factor - 1)))
            running *= factor
            multiplier *= factor
        reason = f"{scorer} stopped: only the stopper scores"
    else:
        outcome = "hands-ran-out"
        scorer, reason = _exhausted(rules, rnd, totals, extra)
    scores = {}
    for p in rnd.players:
        base = sum(line.points for line in (*yaku[p], *extra[p]))
        if p == scorer and o.exhausted == "dealer" and outcome == "hands-ran-out":
            extra[p].insert(0, Line(p, "not-scored", "Oya-ken: the dealer scores oyaken_points, not yaku",
                                    "親権", -totals[p]))
            base -= totals[p]
        if p != scorer and base:
            extra[p].append(Line(p, "not-scored", reason, "得点なし", -base))
            base = 0
        scores[p] = base
    winner = scorer if scorer is not None and scores[scorer] > 0 else None
    next_dealer = next_dealer_after(rules, rnd, winner)
    if winner is None:
        why = _RAN_OUT.get(o.exhausted, "by the house rules")
        warnings.append(f"the hands ran out: nobody scores ({why}); {next_dealer} deals next")
    out = tuple(
        PlayerRound(p, yaku[p], (), totals[p], scores[p], (*yaku[p], *extra[p])) for p in rnd.players
    )
    return RoundResult(out, rnd.dealer, rnd.month, rnd.stopped_by, rnd.calls, outcome, winner,
                       multiplier if winner else 1, next_dealer, tuple(warnings))


#: Why nobody scores when the hands ran out, by the house rule for it (option ``exhausted``), in players' words.
_RAN_OUT = {
    "nobody": "the house rules score nobody then",
    "dealer": "the dealer's oya-ken is worth 0 here",
    "higher": "neither player made a yaku",
    "last-caller": "nobody called koi-koi",
}


def _exhausted(rules: KoikoiRules, rnd: RoundInput, totals: dict[str, int],
               extra: dict[str, list[Line]]) -> tuple[str | None, str]:
    """Who scores when the hands ran out (option ``exhausted``; never multiplied), and why the other does not."""
    rule = rules.options.exhausted
    if rule == "dealer":
        d = rnd.dealer
        extra[d].append(Line(d, "oyaken", f"Oya-ken: the hands ran out; the dealer scores "
                             f"{rules.options.oyaken_points}", "親権", rules.options.oyaken_points))
        return d, "the hands ran out: the dealer scores (oya-ken)"
    if rule == "higher":
        a, b = rnd.players
        top = a if totals[a] > totals[b] else b if totals[b] > totals[a] else rnd.dealer
        return top, f"the hands ran out: {top}'s higher yaku total scores"
    if rule == "last-caller" and rnd.calls:
        last = rnd.calls[-1].player
        return last, f"the hands ran out: {last}, the last to call koi-koi, scores"
    return None, "the hands ran out: nobody scores"


def _lucky_round(rules: KoikoiRules, rnd: RoundInput, lucky: dict[str, tuple[Line, ...]],
                 holders: list[str], warnings: list[str]) -> RoundResult:
    """A lucky hand at the deal: the holder wins and scores it (never doubled); both: a draw."""
    shown = ", ".join(f"{p}: {', '.join(yaku_name(t.en, t.ja) for t in lucky[p])}" for p in holders)
    played = [k for k, v in (("piles", any(rnd.piles.values())), ("calls", rnd.calls),
                             ("stopped_by", rnd.stopped_by)) if v]
    if played:
        raise RefereeError("bad-round", f"a lucky hand ends the round at the deal ({shown}), so "
                           f"{', '.join(played)} must be empty; leave out the hands if the round was played")
    winner = holders[0] if len(holders) == 1 else None
    out = []
    for p in rnd.players:
        lines = list(lucky[p])
        total = sum(t.points for t in lines)
        if winner is None and total:
            lines.append(Line(p, "not-scored", "Both players hold a lucky hand: a draw", "両者手役: 引き分け",
                              -total))
        score = sum(line.points for line in lines)
        out.append(PlayerRound(p, (), lucky[p], 0, score, tuple(lines)))
    if winner is None:
        warnings.append(f"both players hold a lucky hand ({shown}): the round is a draw")
    return RoundResult(tuple(out), rnd.dealer, rnd.month, None, (), "lucky-hands", winner, 1,
                       next_dealer_after(rules, rnd, winner), tuple(warnings))


def next_dealer_after(rules: KoikoiRules, rnd: RoundInput, winner: str | None) -> str:
    """The player who scored deals next; nobody: option ``draw_dealer``."""
    if winner is not None:
        return winner
    if rules.options.draw_dealer == "passes":
        return next(p for p in rnd.players if p != rnd.dealer)
    return rnd.dealer


