"""Dekiyaku decisions: who completed what, in which order, stop or continue, and hatto.

Seed 003 "Rule of Continue playing" and "Rule of Hatto"; FudaWiki "Scoring When
Dekiyaku Are Present".  The players state the completions in order
(``DekiyakuCall``); this module checks them against the piles and turns them
into gains: who is paid, how much (mon before the multiplier) and by whom.

- ``stop``: the stopper scores every dekiyaku they made.  A player whose
  ``continue`` was overtaken by another's completion has their yaku voided and
  pays alone; otherwise a hatto player (one card short) is spared and the
  other loser pays alone.
- Hands exhausted after ``continue``: ``exhausted_dekiyaku = last-continuer``
  (seed: the continuer scores half) or ``everyone-half`` (FudaWiki: every maker
  is paid half by each opponent; the first continuer wins).
- Liability (法度, option ``liable_thrower``; FudaWiki "Dekiyaku", the liability
  note): a call that names ``liable`` has that opponent pay, alone, what the
  call's dekiyaku adds to the stopper's value (every payer's share), whatever
  hatto or an overtaken continue would say.  It applies when a player stops.

Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from referee.cards import mask
from referee.errors import RefereeError
from referee.explain import mask_ids
from referee.hachihachi.dekiyaku import DekiyakuHit, dekiyaku_kan, near_misses
from referee.hachihachi.money import kan
from referee.hachihachi.round import DekiyakuCall, RoundInput
from referee.hachihachi.rules import HachihachiRules
from referee.option_names import house_rule
from referee.wording import yaku_name


@dataclass(frozen=True)
class Gain:
    """``receiver`` gains ``mon`` (before the multiplier) from ``payers``, paying for ``covers``."""

    receiver: str
    mon: int
    payers: tuple[str, ...]
    covers: int
    en: str
    ja: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    """How dekiyaku ended the round: its ``winner``, the gains, and whether by a stop."""

    winner: str
    gains: tuple[Gain, ...]
    by_stop: bool


def _label(rules: HachihachiRules, ids) -> tuple[str, str]:
    made = [rules.dekiyaku_by_id(i) for i in ids]
    return (" + ".join(d.en for d in made), "・".join(d.ja for d in made))


def named(rules: HachihachiRules, ids) -> str:
    """Dekiyaku ids as a message names them, as the round form's menu does: "Poetry Ribbons 赤短, Blue Ribbons 青短"."""
    return ", ".join(yaku_name(d.en, d.ja) for d in map(rules.dekiyaku_by_id, ids))


def check_calls(rules: HachihachiRules, rnd: RoundInput, calls: tuple[DekiyakuCall, ...]) -> None:
    """Each claimed dekiyaku is in the claimant's pile, once, and nothing follows a stop.

    Raises ``RefereeError('bad-decision')``.
    """
    seen: set[tuple[str, str]] = set()
    for i, c in enumerate(calls):
        if i and calls[i - 1].decision == "stop":
            raise RefereeError(
                "bad-decision",
                f"{calls[i - 1].player} stopped, so the round ended; "
                f"{c.player}'s {named(rules, [c.yaku])} cannot come after",
            )
        if (c.player, c.yaku) in seen:
            raise RefereeError("bad-decision", f"{c.player} completes {named(rules, [c.yaku])} twice")
        seen.add((c.player, c.yaku))
        d = rules.dekiyaku_by_id(c.yaku)
        have = mask(rnd.piles[c.player]) & d.pool
        if have.bit_count() < d.need:
            lacking = mask_ids(d.pool & ~have)
            raise RefereeError(
                "bad-decision",
                f"{c.player} claims {named(rules, [c.yaku])}, but their pile has "
                f"{have.bit_count()} of the {d.need} cards needed (missing from: "
                f"{', '.join(lacking)})",
            )


def resolve(
    rules: HachihachiRules, rnd: RoundInput, calls: tuple[DekiyakuCall, ...], warnings: list[str]
) -> Outcome:
    """The outcome of checked calls (see the module docstring); appends warnings.

    Raises ``RefereeError('bad-decision')`` when the stopper is named hatto.
    """
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

    def gain(
        p: str,
        ids: list[str],
        payers: tuple[str, ...],
        covers: int,
        half: bool,
        how: str,
        how_ja: str,
        value_kan: int | None = None,
    ) -> Gain:
        pool = 0
        for i in ids:
            pool |= rules.dekiyaku_by_id(i).pool
        en, ja = _label(rules, ids)
        whole = dekiyaku_kan(rules, ids) if value_kan is None else value_kan
        value = kan(whole, mpk) // (2 if half else 1)
        return Gain(
            p,
            value,
            payers,
            covers,
            f"Dekiyaku {en}, {how}",
            f"出来役 {ja} {how_ja}",
            mask_ids(mask(rnd.piles[p]) & pool),
        )

    def payers_for(w: str, use_hatto: bool) -> tuple[tuple[str, ...], int, str]:
        opponents = tuple(p for p in rnd.active if p != w)
        debtors = tuple(p for p in nullified if p != w)
        if debtors:
            return debtors, len(opponents), f"; {', '.join(debtors)} continued and pays alone"
        not_hatto = tuple(p for p in opponents if p not in rnd.hatto)
        if use_hatto and 0 < len(not_hatto) < len(opponents):
            hatto = ", ".join(p for p in opponents if p in rnd.hatto)
            return not_hatto, len(opponents), f"; {hatto} hatto, {', '.join(not_hatto)} pays alone"
        return opponents, len(opponents), ""

    w = last.player
    liable = {(c.player, c.yaku): c.liable for c in calls if c.liable}
    if liable and not rules.options.liable_thrower:
        warnings.append(
            "a liable player is named, but this ruleset does not play liability "
            f"({house_rule(rules.options, 'liable_thrower')}): everyone pays their usual share"
        )
        liable = {}
    if last.decision == "stop":
        if w in rnd.hatto:
            raise RefereeError(
                "bad-decision", f"{w} made the dekiyaku and stopped, so cannot be hatto"
            )
        payers, covers, why = payers_for(w, True)
        gains = []
        normal = list(made[w])
        # Each liable call pays alone what its dekiyaku adds, in the order they were made.
        for k, y in enumerate(made[w]):
            thrower = liable.get((w, y))
            if thrower is None:
                continue
            added = dekiyaku_kan(rules, made[w][: k + 1]) - dekiyaku_kan(rules, made[w][:k])
            normal.remove(y)
            if added:
                how = f"stop; {thrower} threw the card that completed it and pays alone (liability)"
                gains.append(gain(w, [y], (thrower,), covers, False, how, "勝負 法度", added))
        rest = dekiyaku_kan(rules, made[w]) - sum(
            dekiyaku_kan(rules, made[w][: k + 1]) - dekiyaku_kan(rules, made[w][:k])
            for k, y in enumerate(made[w])
            if (w, y) in liable
        )
        if normal and rest:
            gains.insert(0, gain(w, normal, payers, covers, False, f"stop{why}", "勝負", rest))
        return Outcome(w, tuple(gains), True)
    if liable:
        warnings.append(
            "liability only applies when a player stops; the hands ran out, so it is ignored"
        )
    if rnd.hatto:
        warnings.append(
            "hatto only counts when a player stops; the round ran out of cards, so it is ignored"
        )
    if rules.options.exhausted_dekiyaku == "everyone-half":
        gains = []
        for p in rnd.active:
            if made_all[p]:
                opponents = tuple(q for q in rnd.active if q != p)
                gains.append(
                    gain(
                        p,
                        made_all[p],
                        opponents,
                        len(opponents),
                        True,
                        "half (hands exhausted)",
                        "半額",
                    )
                )
        return Outcome(calls[0].player, tuple(gains), False)
    payers, covers, why = payers_for(w, False)
    return Outcome(
        w,
        (
            gain(
                w, made[w], payers, covers, True, f"half (continued, hands exhausted){why}", "半額"
            ),
        ),
        False,
    )


def decide(
    rules: HachihachiRules,
    rnd: RoundInput,
    pile_hits: Mapping[str, tuple[DekiyakuHit, ...]],
    warnings: list[str],
) -> Outcome | None:
    """The dekiyaku outcome of a round, or None when no dekiyaku ended it.

    Without stated calls: piles with dekiyaku for two or more players raise
    ``RefereeError('missing-decision')`` (the order is never guessed); one
    player's dekiyaku are taken as completed and stopped, with a warning.
    """
    calls = rnd.dekiyaku
    holders = [p for p in rnd.active if pile_hits[p]]
    if calls is None and len(holders) >= 2:
        held = "; ".join(f"{p}: {named(rules, [h.dekiyaku.id for h in pile_hits[p]])}" for p in holders)
        raise RefereeError(
            "missing-decision",
            f"the piles hold dekiyaku for {len(holders)} players "
            f"({held}); say who completed which first, and stop or continue",
        )
    if calls is None and holders:
        p = holders[0]
        ids = [h.dekiyaku.id for h in pile_hits[p]]
        calls = tuple(
            DekiyakuCall(p, y, "continue" if i < len(ids) - 1 else "stop")
            for i, y in enumerate(ids)
        )
        warnings.append(
            f"{p}'s pile holds {named(rules, ids)} and no decision was stated: "
            f"taken as completed by {p}, who stopped"
        )
    if not calls:
        if rnd.hatto:
            warnings.append("hatto is stated but no dekiyaku ended the round; it is ignored")
        return None
    check_calls(rules, rnd, calls)
    outcome = resolve(rules, rnd, calls, warnings)
    claimed = {(c.player, c.yaku) for c in calls}
    for p in rnd.active:
        for h in pile_hits[p]:
            if (p, h.dekiyaku.id) not in claimed:
                warnings.append(f"{p}'s pile holds {named(rules, [h.dekiyaku.id])}, which no decision mentions")
    if outcome.by_stop:
        for h in rnd.hatto:
            taken = [c for q in rnd.active if q != h for c in rnd.piles[q]]
            if not near_misses(rules, rnd.piles[h], taken):
                warnings.append(
                    f"{h} is stated hatto, but their pile is not one card short of a dekiyaku"
                )
    return outcome
