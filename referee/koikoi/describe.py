"""How a Koi-Koi ruleset scores, in players' words (``referee.describe``, the Help pages).

Every sentence is made from the loaded ruleset (options applied, yaku and lucky hands
compiled from the file), so a new preset or a house rule is described by itself.
Anchors: ``overview``, ``yaku`` (and ``y-<id>`` per yaku and lucky hand, from the Help
template), ``teyaku``, ``stopping``, ``multipliers``, ``hands-ran-out``, ``game``.
Rule source: KOIKOI-RULES.md; decisions: docs/KOIKOI.md.  Pure core.
"""

from __future__ import annotations

from referee.cards import BY_ID, month_label
from referee.explain import mask_ids
from referee.koikoi.game import month_of_round
from referee.koikoi.round import SEVEN
from referee.koikoi.rules import KoikoiRules, Teyaku, Yaku
from referee.koikoi.yaku import KIND_MASK
from referee.wording import HowItScores, Section, YakuEntry, need_words, option_entries, words

_KIND = {"bright": "brights", "animal": "animals", "ribbon": "ribbons", "chaff": "chaff"}
_SAKE = {
    "both": "The sake cup (Chrysanthemum with Sake Cup) is an animal and also counts as one chaff.",
    "animal": "The sake cup (Chrysanthemum with Sake Cup) counts as an animal only.",
    "either": "The sake cup (Chrysanthemum with Sake Cup) counts as an animal or as one chaff, whichever "
              "scores more (the animal on a tie).",
    "two-chaff": "The sake cup (Chrysanthemum with Sake Cup) is an animal and also counts as two chaff.",
}
_RAIN = {
    "rain-man": "the Rain Man (Willow with Rain Man) in the same pile voids it",
    "rain-or-lightning": "the Rain Man or the Willow lightning in the same pile voids it",
    "any-willow": "any willow card in the same pile voids it",
}
_FACTOR = {
    "once": "×2 if {who} called koi-koi at least once",
    "per-call": "×(1 + calls) for {who}'s koi-koi calls: ×2 for one, ×3 for two",
    "double-per-call": "×2 for each koi-koi call {who} made: ×2, ×4, ×8",
}
_EXHAUSTED = {
    "nobody": "nobody scores",
    "dealer": "the dealer (oya) scores {oyaken} (oya-ken, 親権), whatever the yaku",
    "higher": "the player with the higher yaku total scores it (a tie: the dealer); nothing is multiplied",
    "last-caller": "the last player who called koi-koi scores their yaku total; nothing is multiplied",
}
_TIE = {
    "draw": "the game is a draw",
    "dealer": "the dealer of the next round wins",
    "extra-round": "one more round is played at a time until the totals differ ({first_extra})",
}


def _pts(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def _names(rules: KoikoiRules, ids) -> list[str]:
    by_id = {y.id: y for y in rules.yaku}
    return [f"{by_id[i].en} ({i})" if i in by_id else i for i in ids]


def _rival_groups(rules: KoikoiRules) -> list[str]:
    """The groups that hold two yaku or more, in file order: only there do yaku not stack.

    A group of one (tane or tanzaku once ``special_stacks_with_generic`` has taken the special
    yaku out of their groups) has nothing to replace, so it stacks like any other yaku."""
    groups = [y.group for y in rules.yaku if y.group]
    return [g for i, g in enumerate(groups) if groups.count(g) > 1 and g not in groups[:i]]


def _yaku(rules: KoikoiRules, y: Yaku) -> YakuEntry:
    o = rules.options
    notes = []
    if y.kind:
        pool, need = mask_ids(KIND_MASK[y.kind]), f"any {y.need} {_KIND[y.kind]}"
    elif y.round_month:
        pool, need = (), "all 4 cards of the round's month (round n is month n)"
    else:
        pool = mask_ids(y.pool)
        need = need_words(y.need, len(pool))
    if y.require:
        notes.append(f"It must include {words([BY_ID[c].name for c in mask_ids(y.require)])}.")
    if y.extra_past:
        notes.append(f"Add {_pts(y.extra_points)} for each of your {_KIND[y.extra_kind]} past {y.extra_past}.")
    if y.group in _rival_groups(rules):
        notes.append(f"Only the yaku worth most among the {y.group} scores.")
    if y.replaces:
        notes.append(f"It replaces {words(_names(rules, y.replaces))}: they are not scored with it.")
    if y.viewing and o.viewing == "limited":
        notes.append("A viewing: it scores only beside another yaku that is not a viewing.")
    if y.viewing and o.rain_spoils_viewing in _RAIN:
        notes.append(f"A viewing: {_RAIN[o.rain_spoils_viewing]}.")
    return YakuEntry(y.id, y.en, y.ja, _pts(y.points), pool, need, tuple(notes))


def _teyaku(rules: KoikoiRules, t: Teyaku) -> YakuEntry:
    if t.rule == "four":
        what = "the dealt hand holds all four cards of a month"
        notes = [f"Scored when {what}."]
        if not rules.options.teshi_counts_as_pairs:
            notes.append("A four does not also count as two pairs.")
    else:
        notes = [f"Scored when the dealt hand holds {t.pairs} pairs (two cards of a month each)."]
        if rules.options.teshi_counts_as_pairs:
            notes.append("A four counts as two pairs, so four of a month and two pairs score both.")
    return YakuEntry(t.id, t.en, t.ja, _pts(t.points), notes=tuple(notes))


def _stacking(rules: KoikoiRules) -> str:
    """Which yaku do not stack: the groups of two or more (``_rival_groups``)."""
    groups = _rival_groups(rules)
    if not groups:
        return "Every yaku stacks with the others."
    return (f"Yaku of one group ({', '.join('the ' + g for g in groups)}: see each yaku) do not stack: only the "
            "one worth most scores; everything else stacks.")


def _extra_round_month(rules: KoikoiRules) -> str:
    """Which month the first extra round plays (round n is month n, after the twelfth month 1 again)."""
    n = rules.options.rounds + 1
    month = month_of_round(n)
    return f"round {n} is {month_label(month)}" + (" again" if month < n else "")


def _factors(rules: KoikoiRules) -> list[str]:
    o = rules.options
    lines = ["The player who stops scores their yaku total times these factors, each worked out from that total "
             "and this round's koi-koi calls only (a call never carries into the next round):"]
    if o.seven_plus_double:
        lines.append(f"×2 when the yaku total is {SEVEN} points or more.")
    if o.opponent_koikoi != "off":
        lines.append(_FACTOR[o.opponent_koikoi].format(who="the other player") + ".")
    if o.own_koikoi != "off":
        lines.append(_FACTOR[o.own_koikoi].format(who="the stopper") + ".")
    if len(lines) == 1:
        lines.append("None here: the yaku total is the score.")
    else:
        lines.append("The factors multiply, and each shows as a line of its own in the explanation.")
    return lines


def describe(rules: KoikoiRules) -> HowItScores:
    """How ``rules`` scores: overview, yaku, lucky hands, stopping, multipliers, hands that ran out, the game."""
    o = rules.options
    lucky = bool(rules.teyaku)
    sections = (
        Section("overview", "The game", (
            f"For 2 players, {o.rounds} round{'s' if o.rounds != 1 else ''}: round n is month n. Scores are in "
            "points.",
            "A player who makes a yaku either stops (shōbu, 勝負) and scores, or calls koi-koi (こいこい) and plays "
            "on for more, at the risk that the other player stops first.",
            _SAKE[o.sake_cup],
        )),
        Section("yaku", "Yaku (役): sets of captured cards", (
            "Each yaku below is scored from the stopper's pile. " + _stacking(rules),
        ), tuple(_yaku(rules, y) for y in rules.yaku)),
        Section("teyaku", "Lucky hands (teyaku, 手役)", (
            ("A lucky hand in a dealt hand wins the round at the deal: its holder scores it, never doubled, and "
             "deals next; if both players hold one, nobody scores." if lucky else
             "Lucky hands are not scored here."),
        ), tuple(_teyaku(rules, t) for t in rules.teyaku)),
        Section("stopping", "Who scores", (
            "Only the player who stopped scores; the other player scores 0, whatever yaku they hold. The stopper "
            "must hold a yaku.",
            "The player who scored deals next; after a round nobody scored the dealer "
            + ("stays." if o.draw_dealer == "stays" else "passes to the other player."),
        )),
        Section("multipliers", "Multipliers", tuple(_factors(rules))),
        Section("hands-ran-out", "When the hands run out", (
            "If nobody stopped: " + _EXHAUSTED[o.exhausted].format(oyaken=_pts(o.oyaken_points)) + ".",
        )),
        Section("game", "The end of the game", (
            f"After round {o.rounds} the higher total wins; if the totals are level, "
            f"{_TIE[o.tie].format(first_extra=_extra_round_month(rules))}.",
        )),
    )
    return HowItScores(rules.name, rules.title, rules.description, "Koi-Koi", "points", sections,
                       option_entries(rules.options))
