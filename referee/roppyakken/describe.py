"""How a Roppyakken-family ruleset scores, in players' words (``referee.describe``).

Every sentence is made from the loaded ruleset (options applied, yaku and teyaku
compiled from the file), so a new preset or a house rule is described by itself.
Rule sources: RULES.md "Roppyakken (六百間) and its family"; seed 000.  Pure core.
"""

from __future__ import annotations

from referee.cards import BY_ID
from referee.explain import mask_ids
from referee.roppyakken.rules import RoppyakkenRules, Teyaku, Yaku
from referee.wording import (
    HowItScores,
    Section,
    YakuEntry,
    card_values,
    counts,
    months_words,
    need_words,
    option_entries,
    words,
)

#: ``rain_spoils_viewing`` choices in words.
RAIN = {
    "any-willow": "any willow card in the same pile voids it",
    "unless-crane": "any willow card in the same pile voids it, unless the pile also holds Pine with Crane",
}


def _pts(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def _names(rules: RoppyakkenRules, ids) -> list[str]:
    by_id = {y.id: y for y in (*rules.yaku, *rules.teyaku)}
    return [f"{by_id[i].en} ({i})" if i in by_id else i for i in ids]


def _yaku(rules: RoppyakkenRules, y: Yaku) -> YakuEntry:
    o = rules.options
    pool = mask_ids(y.pool)
    notes = []
    if y.require:
        notes.append(f"It must include {words([BY_ID[c].name for c in mask_ids(y.require)])}.")
    if y.extra_points:
        extra = [BY_ID[c].name for c in mask_ids(y.extra)]
        more = "each card past the first " + str(y.need) if y.need < len(pool) else ""
        per = words([x for x in (more, words(extra, "or") and f"each of {words(extra, 'or')}") if x], "and for")
        cap = f", up to {_pts(y.max_points)}" if y.max_points else ""
        notes.append(f"Add {_pts(y.extra_points)} for {per}{cap}.")
    if y.replaces:
        notes.append(f"It replaces {words(_names(rules, y.replaces))}: they are not scored with it.")
    if y.chaff_upgrade:
        notes.append(f"It turns one 0-point chaff of the pile into a {y.chaff_upgrade}-point card.")
    if y.instant_win:
        notes.append("Holding it at the end of a round wins the game at once"
                     + (", even in a round that fuke voids." if y.beats_fuke else "."))
    if y.exact_void:
        spoilers = words([BY_ID[c].name for c in mask_ids(y.exact_void)], "or")
        notes.append(f"It is void if the pile also holds {spoilers}.")
    if y.exact_max:
        notes.append(f"It is void with more than {y.exact_max} of these cards.")
    if y.viewing and o.rain_spoils_viewing in RAIN:
        notes.append(f"A viewing yaku: {RAIN[o.rain_spoils_viewing]}.")
    value = _pts(y.points) if y.points or not y.chaff_upgrade else "no points of its own"
    return YakuEntry(y.id, y.en, y.ja, value, pool, need_words(y.need, len(pool)), tuple(notes))


def _teyaku(rules: RoppyakkenRules, t: Teyaku) -> YakuEntry:
    if t.rule == "all-zero":
        what = "every card of the dealt hand is worth 0 points"
    else:
        sets = {1: "one month", 2: "each of two months", 3: "each of three months"}.get(t.sets, f"{t.sets} months")
        what = f"the dealt hand holds {t.size} cards of {sets}"
    notes = [f"Scored when {what}."]
    if t.month_points:
        special = [f"{months_words([m])}: {_pts(p)}" for m, p in sorted(t.month_points.items())]
        notes.append(f"Worth more in {words(special)}.")
    if t.replaces:
        notes.append(f"It replaces {words(_names(rules, t.replaces))}.")
    return YakuEntry(t.id, t.en, t.ja, _pts(t.points), notes=tuple(notes))


def _goal(rules: RoppyakkenRules) -> list[str]:
    o = rules.options
    lines = [f"For {counts(o.players)} players. Scores are in points."]
    if o.rounds and o.winner == "most-times-over-target":
        lines.append(f"A game is {o.rounds} scored rounds. Each time a player's total reaches {o.target} counts "
                     "once, and that total starts again from 0; whoever did it most often wins (a tie: the higher "
                     "total, then another round).")
    elif o.rounds:
        lines.append(f"A game is {o.rounds} scored rounds (a void round is dealt again and does not count); the "
                     "highest total wins, and a tie at the top plays another round.")
    else:
        lines.append(f"The game ends after the round in which a player's total reaches {o.target} points; the "
                     "highest total wins, and a tie at the top plays another round.")
    if o.match_games > 1:
        lines.append(f"A match is best of {o.match_games} games: totals start again from 0 after each game, and "
                     f"the first to win {o.match_games // 2 + 1} games wins the match.")
    instant = sorted((y for y in rules.yaku if y.instant_win), key=lambda y: y.instant_win)
    if instant:
        first, *rest = instant
        then = f"; then {words([f'{y.en} ({y.id})' for y in rest], 'or')}" if rest else ""
        lines.append(f"Holding {first.en} ({first.id}) at the end of a round wins the game at once{then}.")
    else:
        lines.append("No yaku ends the game at once: only the totals count.")
    lines.append("The round's highest scorer deals next (the oya); on a tie, the tied player first in play "
                 "order from the current oya. After a void round the same oya deals again.")
    return lines


def _fuke(rules: RoppyakkenRules) -> list[str]:
    f = rules.options.fuke
    if not f.enabled:
        return ["No fuke here: every round counts."]
    count = "card points"
    if f.excluded_months:
        count += f" without the cards of {months_words(f.excluded_months)}"
    if f.count_yaku:
        count += " plus yaku"
    return [
        f"After scoring, each player's fuke count is their {count}; lucky hands never count.",
        f"If anyone's count is {f.threshold} or less, the round is void: nobody scores, lucky hands included, "
        "and the same oya deals again.",
    ]


def _settlement(rules: RoppyakkenRules) -> list[str]:
    o = rules.options
    if o.settlement == "difference":
        return ["Only the round's top scorer adds anything: their score minus the second-highest score. "
                "Everyone else adds 0 (a tie at the top adds nothing)."]
    if o.settlement == "round-up":
        n = o.round_up_to
        example = 3 * n + n // 5
        return [f"Each round score is rounded up to a multiple of {n}: {example} becomes {4 * n}, "
                f"{4 * n} stays {4 * n} and 0 stays 0."]
    return ["Each player adds their round score to their total."]


def _lucky(rules: RoppyakkenRules) -> list[str]:
    o = rules.options
    lines = []
    if o.lucky_hands and rules.teyaku:
        lines.append("Lucky hands are scored from the cards each player was dealt (enter them under “Dealt "
                     "hands”). They are added to the round score; fuke voids them too.")
    else:
        lines.append("Lucky hands are not scored here.")
    if o.hand_four_misdeal:
        lines.append("Four cards of one month in a dealt hand is a misdeal: deal again.")
    else:
        four = any(t.rule == "month-sets" and t.size == 4 for t in rules.teyaku)
        lines.append("Four cards of one month in a dealt hand is no misdeal; it counts as "
                     + ("a four-card lucky hand." if four else "three of that month."))
    lines.append("Four cards of one month on the field at the deal is "
                 + ("a misdeal: deal again." if o.field_four_misdeal else "no misdeal: the dealer takes them."))
    return lines


def describe(rules: RoppyakkenRules) -> HowItScores:
    """How ``rules`` scores: overview, card points, yaku, lucky hands, fuke, settlement, options."""
    upgrades = any(y.chaff_upgrade for y in rules.yaku)
    sections = (
        Section("overview", "The game", tuple(_goal(rules))),
        Section("card-points", "Card points", (
            *card_values("roppyakken_points"),
            "The 48 cards hold 490 points. A player's round score is their card points plus their yaku plus "
            "their lucky hands." + (" A chaff upgraded by a yaku counts as a card." if upgrades else ""),
        )),
        Section("yaku", "Yaku (役): sets of captured cards", (
            "Each yaku below is scored by the player whose pile holds its cards. Yaku stack unless one "
            "replaces another.",
        ), tuple(_yaku(rules, y) for y in rules.yaku)),
        Section("teyaku", "Lucky hands (teyaku, 手役)", tuple(_lucky(rules)),
                tuple(_teyaku(rules, t) for t in rules.teyaku) if rules.options.lucky_hands else ()),
        Section("fuke", "Fuke (吹き消し): the void round", tuple(_fuke(rules))),
        Section("settlement", "What a round adds", tuple(_settlement(rules))),
    )
    return HowItScores(rules.name, rules.title, rules.description, "Roppyakken family", "points",
                       sections, option_entries(rules.options))
