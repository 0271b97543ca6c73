"""How a Hachi-hachi ruleset settles, in players' words (``referee.describe``).

Every sentence is made from the loaded ruleset (options, teyaku and dekiyaku
tables), so a new preset or a house rule is described by itself.  Rule sources:
RULES.md "Hachi-hachi"; seed 003; docs/HACHIHACHI.md for the decisions.  Pure core.
"""

from __future__ import annotations

from referee.cards import month_label
from referee.explain import mask_ids
from referee.hachihachi.money import format_mon
from referee.hachihachi.rules import Dekiyaku, HachihachiRules, Teyaku
from referee.hachihachi.special import DECK_POINTS, PAR
from referee.wording import (
    HowItScores,
    Section,
    YakuEntry,
    card_name,
    card_values,
    counts,
    months_words,
    need_words,
    option_entries,
    words,
)

_KINDS = (("bright", "bright", "brights"), ("animal", "animal", "animals"), ("ribbon", "ribbon", "ribbons"),
          ("chaff", "chaff", "chaff"))


def _kan(n: int) -> str:
    return f"{n} kan"


def _half_kan(halves: int) -> str:
    whole, half = divmod(halves, 2)
    return f"{whole}{'.5' if half else ''} kan"


def _shape(shape: tuple[int, ...]) -> str:
    return "+".join(map(str, shape))


def _teyaku(rules: HachihachiRules, t: Teyaku) -> YakuEntry:
    o = rules.options
    notes = []
    if t.group == "a":
        shapes = words([_shape(s) for s in sorted(t.shapes, reverse=True)], "or")
        notes.append(f"Group A: the 7 dealt cards fall into months as {shapes}.")
        if t.standing == 0:
            notes.append("No triplet is a standing triplet.")
        elif t.standing > 0:
            are = "is a standing triplet" if t.standing == 1 else "are standing triplets"
            notes.append(f"{t.standing} of the triplets {are}.")
    else:
        need = []
        for kind, one, many in _KINDS:
            lo, hi = t.kinds[kind]
            if (lo, hi) == (0, 7):
                continue
            if lo == hi:
                need.append(f"no {one}" if lo == 0 else f"{lo} {one if lo == 1 else many}")
            else:
                need.append(f"{lo} or more {many}" if hi == 7 else f"{lo} to {hi} {many}")
        notes.append(f"Group B: the 7 dealt cards hold {words(need)}.")
    if t.bonus == "capture-month":
        notes.append(f"+{_kan(o.bonus_kan)} when the player also captures all four cards of each triplet month.")
    elif t.bonus == "points":
        notes.append(f"+{_kan(o.bonus_kan)} when the player captures {o.bonus_points} card points or more.")
    return YakuEntry(t.id, t.en, t.ja, _kan(t.kan), notes=tuple(notes))


def _dekiyaku(rules: HachihachiRules, d: Dekiyaku) -> YakuEntry:
    pool = mask_ids(d.pool)
    notes = []
    if d.replaces:
        names = [f"{x.en} ({x.id})" for x in rules.dekiyaku if x.id in d.replaces] or list(d.replaces)
        notes.append(f"It replaces {words(names)}.")
    return YakuEntry(d.id, d.en, d.ja, _kan(d.kan), pool, need_words(d.need, len(pool)), tuple(notes))


def _overview(rules: HachihachiRules) -> list[str]:
    o = rules.options
    m = o.mon_per_kan
    ante = rules.ante_kan()
    basis = ("a player who gains an amount is paid it shared between the players who pay (half from each of two)"
             if o.payment_basis == "split" else "a player who gains an amount is paid it by each player who pays")
    return [
        f"For {counts(o.players)} seated players; 3 play each round (or 2 when only two sit). With 4 or more "
        "seated, the others drop out of the round.",
        f"Money is counted in kan (貫) and mon (文): 1 kan = {m} mon. Paying 5 mon shows as "
        f"{format_mon(-5, m)}, since the mon part is never negative.",
        f"A game is {o.rounds} rounds. Each player starts at minus {_kan(ante)}, the ante; the antes make the "
        "jackpot, which the highest total takes after the last round (tied winners split it).",
        f"Every payment goes from one player to another, so each round sums to zero. Payment basis: {basis}.",
        "The round's winner (the dekiyaku maker, else the most card points) deals next and takes the drop-out fees.",
    ]


def _field(rules: HachihachiRules) -> list[str]:
    o = rules.options
    x2 = [card_name(c) for c, v in rules.field_values.items() if v == 2]
    x4 = [card_name(c) for c, v in rules.field_values.items() if v == 4]
    lines = ["The six cards dealt face up decide the round's multiplier, which multiplies every payment."]
    if x2:
        lines.append(f"A big field (大場) is ×2: {words(x2, 'or')} on the field.")
    if x4:
        lines.append(f"A grand field (絶場) is ×4: {words(x4, 'or')} on the field.")
    if o.field_multiplier == "stack":
        lines.append("Several such brights multiply together.")
    else:
        lines.append("With several such brights, the highest applies now and the others wait for the next "
                     "rounds (×4 first); a round that starts with a waiting multiplier uses it, and its own "
                     "field's multipliers join the queue.")
    return lines


def _teyaku_lines(rules: HachihachiRules) -> list[str]:
    o = rules.options
    standing = [month_label(m) for m in sorted(o.standing_months)]
    if o.standing_chaff_months:
        standing.append(f"the three chaff of {months_words(o.standing_chaff_months)}")
    lines = [
        "Teyaku (手役) are read from the 7 cards each player was dealt, and paid before play. A hand scores at "
        "most one teyaku of each group, the highest; the two groups stack.",
        "A triplet is three cards of one month; a standing triplet (立三本) is three cards of "
        f"{words(standing, 'or')}." if standing else "A triplet is three cards of one month.",
    ]
    if o.willow_is_chaff:
        lines.append("Willow cards count as chaff for teyaku, dekiyaku and special yaku.")
    return lines


def _dekiyaku_lines(rules: HachihachiRules) -> list[str]:
    o = rules.options
    exhausted = ("the last player to continue scores half of their dekiyaku and wins"
                 if o.exhausted_dekiyaku == "last-continuer"
                 else "every maker is paid half of their dekiyaku by each opponent, and the first to continue wins")
    return [
        "Dekiyaku (出来役) are made from captured cards during play, and their values stack. Whoever completes one "
        "chooses: stop (shoubu, 勝負), which ends the round, or continue (sage, 下げ) for more.",
        "A player who continued and is then overtaken by another's dekiyaku loses theirs and pays alone. A player one "
        "card short of a dekiyaku when another stops is hatto (はっと): the other loser pays alone.",
        f"If the hands run out after a continue, {exhausted}.",
    ]


def _special_lines(rules: HachihachiRules) -> list[str]:
    s = rules.options.special
    return [
        "Only with three players, and only when no dekiyaku ended the round; the maker wins the round. A special "
        "yaku refunds the round's teyaku and cancels Mizuten and the +1 kan bonuses.",
        f"All Eights (総八): every player at exactly {PAR} points: {_kan(s.all_eights_kan)} to the first in "
        "play order.",
        f"Double Eights (二八): {s.double_points} card points or more: {_kan(s.double_kan)}, "
        f"+{_kan(s.double_step_kan)} per point past {s.double_points}.",
        f"Sixteen Chaff (素十六): {s.chaff_min} chaff or more: {_kan(s.chaff_kan)}, "
        f"+{_kan(s.chaff_step_kan)} per chaff past {s.chaff_min}.",
        "All Eights and Double Eights come before Sixteen Chaff.",
    ]


def _cards_lines(rules: HachihachiRules) -> list[str]:
    return [
        *card_values("hachihachi_points"),
        f"The deck holds {DECK_POINTS} points, {PAR} for each of three players. With no dekiyaku and no special "
        f"yaku, each player gets (their points − {PAR}) × the multiplier in mon, paid between the players; with two "
        "players, the loser pays the difference × the multiplier.",
        "Settling on card points needs all 48 cards in the piles.",
    ]


def _dropout_lines(rules: HachihachiRules) -> list[str]:
    o = rules.options
    first, step = o.dropout_fee_half_kan, o.dropout_step_half_kan
    paid_for = words([f"{d.en} ({d.id})" for d in rules.dekiyaku if d.compensation], "or")  # as _dekiyaku names them
    fees = ", ".join(_half_kan(first + k * step) for k in range(3))
    return [
        f"With 4 or more seated, players drop out in turn from the dealer; the fees are {fees}… in order, and go to "
        "the round's winner.",
        "A player who drops out is paid half their teyaku and half of any dekiyaku in their hand by the players.",
        "Once three have joined, the rest are forced out: no fee, and they are paid half their teyaku, half the "
        f"dekiyaku in hand and {o.forced_out_card_mon} mon per further card of {paid_for} in hand.",
    ]


def _mizuten_lines(rules: HachihachiRules) -> list[str]:
    o = rules.options
    return [
        "Mizuten (不見転): the dealer may commit to play before looking at their hand. With "
        f"{o.mizuten_points} card points or more they take {_kan(o.mizuten_kan)} from every other seated player; "
        f"otherwise they pay {_kan(o.mizuten_kan)} to each other player in the round.",
    ]


def describe(rules: HachihachiRules) -> HowItScores:
    """How ``rules`` settles: overview, field, teyaku, dekiyaku, special yaku, card points, drop-outs, Mizuten."""
    sections = (
        Section("overview", "The game", tuple(_overview(rules))),
        Section("field", "The field multiplier (場)", tuple(_field(rules))),
        Section("teyaku", "Teyaku (手役): dealt hands", tuple(_teyaku_lines(rules)),
                tuple(_teyaku(rules, t) for t in rules.teyaku)),
        Section("dekiyaku", "Dekiyaku (出来役): captured sets", tuple(_dekiyaku_lines(rules)),
                tuple(_dekiyaku(rules, d) for d in rules.dekiyaku)),
        Section("special", "Special yaku (特殊役)", tuple(_special_lines(rules))),
        Section("card-points", "Card points", tuple(_cards_lines(rules))),
        Section("drop-outs", "Dropping out (4 to 6 players)", tuple(_dropout_lines(rules))),
        Section("mizuten", "Mizuten (不見転)", tuple(_mizuten_lines(rules))),
    )
    return HowItScores(rules.name, rules.title, rules.description, "Hachi-hachi", "kan and mon",
                       sections, option_entries(rules.options))


__all__ = ["describe"]
