"""How a Go-Stop ruleset scores, in players' words (``referee.describe``, the Help pages).

Every sentence is made from the loaded ruleset (options applied, point lines compiled from the
file), so a new preset or a house file is described by itself.  Anchors: ``overview``, ``yaku``
(and ``y-<id>`` per point line), ``go``, ``factors``, ``instant``, ``money``, ``months``.
Rule source: GOSTOP-RULES.md; decisions: docs/GOSTOP.md.  Pure core.
"""

from __future__ import annotations

from referee.cards import BY_ID
from referee.explain import mask_ids
from referee.gostop.factors import GO_FACTOR_FROM, MEONG_TTA, go_points, go_times
from referee.gostop.hwatu import hwatu_month, month_name
from referee.gostop.points import RAIN_GWANG
from referee.gostop.rules import GostopRules, Yaku
from referee.wording import HowItScores, Section, YakuEntry, option_entries, words

_WHAT = {"animal": "animals (열끗)", "ribbon": "ribbons (띠)", "pi": "pi value (피)"}
_DOKBAK = {
    "pays-all": "pays every loser's share, each worked out with that loser's own baks; the other loser pays nothing",
    "pays-all-double": "pays every loser's share, and their own share is doubled as well",
    "double": "pays only their own share, doubled (no transfer), as in Matgo",
}


def _pts(n: int) -> str:
    return f"{n}점"


def _yaku(rules: GostopRules, y: Yaku) -> YakuEntry:
    notes: list[str] = []
    cards: tuple[str, ...] = ()
    if y.rule == "brights":
        rain = BY_ID[RAIN_GWANG].name
        need = f"{y.need} brights (광)"
        if y.rain == "without":
            need += f", not counting the {rain}"
        if y.rain == "with":
            need = f"exactly {y.need} brights (광), one of them the {rain}"
        if y.dry_points is not None and y.dry_points != y.points:
            notes.append(f"Without the {rain} among them: {_pts(y.dry_points)}.")
        if y.group:
            notes.append("Only the bright line worth most scores.")
    elif y.rule == "cards":
        cards = mask_ids(y.pool)
        need = f"all {len(cards)}"
    else:
        need = f"{y.need} or more {_WHAT[y.count]}"
        notes.append(f"+{y.extra_points} for each one past {y.need}.")
        if y.count == "pi":
            notes.append(f"Pi counts by value: {words([BY_ID[c].name for c in rules.options.ssangpi])} are worth 2 "
                         f"(쌍피); bonus cards by their value ({', '.join(map(str, rules.options.bonus_cards))}).")
        if y.count == "ribbon" and not rules.options.willow_ribbon_counts:
            notes.append("The willow ribbon (비띠) does not count here.")
    return YakuEntry(y.id, y.en, y.ja, _pts(y.points), cards, need, tuple(notes))


def _go(rules: GostopRules) -> tuple[str, ...]:
    o = rules.options
    examples = ", ".join(
        f"{n} go: +{go_points(rules, n)}" + (f" ×{go_times(rules, n)}" if go_times(rules, n) > 1 else "")
        for n in range(1, 6))
    return (
        f"A player with {_pts(o.stop_points)} or more may stop (스톱) and win the round, or call go (고) and play on.",
        f"Only the winner's gos score: {examples}. Go points are added to the base, then everything multiplies; "
        f"the go factor starts at the {GO_FACTOR_FROM}rd go.",
        "A player who called go and then lost is go-bak (고박): "
        + ("their share is doubled." if o.players == (2,) else
           f"with three players they pay dokbak (독박): the go-caller {_DOKBAK[o.dokbak]}. If both losers called "
           "go, the last to call pays. A table may also declare dokbak for a loser who fed the winner."),
    )


def _factors(rules: GostopRules) -> tuple[str, ...]:
    o = rules.options
    out = ["Each factor doubles (or multiplies) what a loser pays and shows as its own line. On every loser:",
           "흔들기 shake: ×2 for each shake by the winner."]
    out.append("폭탄 bomb: ×2 for each bomb by the winner." if o.bomb_doubles else "폭탄 bombs do not double here.")
    if o.meongbak == "winner-seven":
        out.append(f"멍따 meong-tta: ×2 when the winner holds {MEONG_TTA} animals or more.")
    cap = f", at most ×{o.nagari_cap}" if o.nagari_cap else ""
    out.append(f"나가리 nagari: ×2 after a void round, doubling again for each void round in a row{cap}.")
    pibak = f"피박 pi-bak: ×2 on a loser with {o.pibak_max} pi or less when the winner scored pi"
    out.append("On one loser: " + pibak + (" (a loser with no pi at all is spared)." if o.pibak_zero_exempt else "."))
    out.append("광박 gwang-bak: ×2 on a loser with no bright when the winner scored a bright line.")
    if o.meongbak == "loser-none":
        out.append("멍박 meong-bak: ×2 on a loser with no animal when the winner scored animals or godori.")
    return tuple(out)


def describe(rules: GostopRules) -> HowItScores:
    """How ``rules`` scores: overview, point lines, go and stop, factors, instant wins, money, months."""
    o = rules.options
    seats = " or ".join(map(str, o.players))
    ppeok = (", ".join(_pts(p) for p in o.ppeok_payouts) if o.ppeok_payouts else "nothing")
    sections = (
        Section("overview", "The game", (
            f"For {seats} players. Capture cards by month; the point lines below add up, and the winner is paid "
            f"by each loser in points (점) × the stake ({o.point_value} per point, 점당).",
            "The sake cup (국진) counts as " + {"choice": "an animal or a double pi (쌍피), as its holder chooses "
                                              "(the referee picks the better one when not told)",
                                              "animal": "an animal", "pi": "a double pi (쌍피)"}[o.sake_cup] + ".",
        )),
        Section("yaku", "Points from captures (점)", ("Every line stacks except the bright lines.",),
                tuple(_yaku(rules, y) for y in rules.yaku)),
        Section("go", "Go (고) and stop (스톱)", _go(rules)),
        Section("factors", "Doubling (박)", _factors(rules)),
        Section("instant", "Instant wins, ppeok and nagari", (
            f"총통 chongtong (all four cards of a month dealt): each other player pays {_pts(o.chongtong_points)}.",
            f"뻑 ppeok from a player's first turn in a row: each other player pays {ppeok} (never doubled, paid even "
            "in a nagari).",
            f"3뻑 three ppeok end the round: each other player pays {_pts(o.three_ppeok_points)}.",
            "Instant wins end the round (the game goes on) and take only the nagari multiplier. 나가리 nagari: "
            "nobody stopped; no round score is paid (ppeok payouts stand), the dealer deals again, and the next "
            "round is doubled.",
        )),
        Section("money", "Money", (
            "Each loser pays (base + go points) × the factors on every loser × their own factors, times the stake. "
            "The winner deals next. A round's money always sums to zero.",
        )),
        Section("months", "Hwatu months (월)", (
            "Go-Stop numbers the months of the hwatu deck: "
            + ", ".join(month_name(m) for m in sorted(range(1, 13), key=hwatu_month)) + ".",
        )),
    )
    return HowItScores(rules.name, rules.title, rules.description, "Go-Stop", "점", sections,
                       option_entries(rules.options))
