"""Settlement factors (GOSTOP-RULES.md "Go and stop", "Settlement factors", "Players and money").

Every factor is a ``Factor``: its multiplier, its code and its words, so that the round can
write it as its own explanation line worth what it adds ("×2 피박: C holds 4 pi").  Factors to
all losers come first (go, shake, bomb, meong-tta, nagari), then each loser's own (pi-bak,
gwang-bak, meong-bak, go-bak), in that order.  ``dokbak_payer`` says who pays every loser's share
with three players.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from referee.cards import BY_ID, ids_of
from referee.errors import RefereeError, shown
from referee.explain import Line
from referee.gostop.inputs import RoundInput
from referee.gostop.points import Tally
from referee.gostop.rules import GostopRules

#: Gos from which the go factor multiplies ("Go and stop").
GO_FACTOR_FROM = 3
#: Animals from which the winner's meong-tta doubles ("Settlement factors").
MEONG_TTA = 7
#: Every bak and go-bak doubles.
BAK = 2


class Factor(NamedTuple):
    """One multiplier: ``times`` (×2...), ``code`` (``go``, ``pi-bak``...), ``en`` and ``ko`` words."""

    times: int
    code: str
    en: str
    ko: str


def go_points(rules: GostopRules, gos: int) -> int:
    """Points the winner's ``gos`` add to the base (option ``go_points``)."""
    return gos if rules.options.go_points == "every" else min(gos, 2)


def go_times(rules: GostopRules, gos: int) -> int:
    """The go factor of ``gos`` gos (option ``go_factor``): 1 below three."""
    if gos < GO_FACTOR_FROM:
        return 1
    return 2 ** (gos - 2) if rules.options.go_factor == "doubling" else gos - 1


def times_words(n: int) -> str:
    """``once``, ``2 times``."""
    return "once" if n == 1 else f"{n} times"


def _animal_line(rules: GostopRules, lines: Sequence[Line]) -> bool:
    """Whether the winner scored a line made of animals (yeol, godori): offline meong-bak."""
    animal_ids = {y.id for y in rules.yaku if y.count == "animal" or (
        y.rule == "cards" and y.pool and all(BY_ID[c].kind == "animal" for c in ids_of(y.pool)))}
    return any(line.code in animal_ids for line in lines)


def common(rules: GostopRules, rnd: RoundInput, winner: str, tally: Tally) -> list[Factor]:
    """The factors on every loser's share, in order: go, shakes, bombs, meong-tta, nagari."""
    o = rules.options
    out = []
    gos = rnd.gos_of(winner)
    if go_times(rules, gos) > 1:
        out.append(Factor(go_times(rules, gos), "go", f"×{go_times(rules, gos)} {gos}고: {winner} called go {gos} "
                          "times", f"{gos}고"))
    n = rnd.shakes.get(winner, 0)
    out += [Factor(2, "shake", f"×2 흔들기: {winner} shook" + (f" ({k} of {n})" if n > 1 else ""), "흔들기")
            for k in range(1, n + 1)]
    n = rnd.bombs.get(winner, 0) if o.bomb_doubles else 0
    out += [Factor(2, "bomb", f"×2 폭탄: {winner} bombed" + (f" ({k} of {n})" if n > 1 else ""), "폭탄")
            for k in range(1, n + 1)]
    if o.meongbak == "winner-seven" and tally.animal_count >= MEONG_TTA:
        out.append(Factor(2, "meong-tta", f"×2 멍따: {winner} holds {tally.animal_count} animals", "멍따"))
    if rnd.nagari_carry > 1:
        out.append(Factor(rnd.nagari_carry, "nagari", f"×{rnd.nagari_carry} 나가리: carried from the void rounds "
                          "before", "나가리"))
    return out


def own(rules: GostopRules, rnd: RoundInput, winner: str, loser: str, tallies: Mapping[str, Tally],
        winner_lines: Sequence[Line], gobak: bool) -> list[Factor]:
    """One loser's own factors, in order: pi-bak, gwang-bak, meong-bak, go-bak (``gobak``: this
    loser's share is doubled for the go they called)."""
    o = rules.options
    t = tallies[loser]
    codes = {line.code for line in winner_lines}
    out = []
    pi_line = any(y.count == "pi" and y.id in codes for y in rules.yaku)
    if pi_line and t.pi <= o.pibak_max and not (o.pibak_zero_exempt and t.pi == 0):
        out.append(Factor(BAK, "pi-bak", f"×2 피박: {loser} holds {t.pi} pi", "피박"))
    bright_line = any(y.rule == "brights" and y.id in codes for y in rules.yaku)
    if bright_line and not t.brights:
        out.append(Factor(BAK, "gwang-bak", f"×2 광박: {loser} holds no bright", "광박"))
    if o.meongbak == "loser-none" and not t.animal_count and _animal_line(rules, winner_lines):
        out.append(Factor(BAK, "meong-bak", f"×2 멍박: {loser} holds no animal", "멍박"))
    if gobak:
        n = rnd.gos_of(loser)
        out.append(Factor(BAK, "go-bak", f"×2 고박: {loser} called go {times_words(n)} and lost", "고박"))
    return out


def dokbak_payer(rules: GostopRules, rnd: RoundInput, winner: str) -> tuple[str | None, set[str], list[str]]:
    """(who pays every loser's share, the losers whose own share is ×2 go-bak, warnings).

    Matgo: a loser who called go is go-bak.  Three players (option ``dokbak``): the loser who
    called go pays all (``pays-all``; ``pays-all-double`` doubles that loser's own share too);
    ``double``: no transfer, each go-calling loser's own share ×2.  Both losers called go:
    ``last_go`` names the payer.  A declared ``dokbak`` (feeding the winner) pays all when no loser
    called go; go-bak wins over it.  Raises ``RefereeError('bad-round')`` for two go-calling
    losers without ``last_go`` naming one of them.
    """
    losers = [p for p in rnd.players if p != winner]
    callers = [p for p in losers if rnd.gos_of(p)]
    warnings: list[str] = []
    if len(rnd.players) == 2:
        return None, set(callers), warnings
    mode = rules.options.dokbak
    if callers and rnd.dokbak is not None and rnd.dokbak not in callers:
        warnings.append(f"dokbak was declared for {rnd.dokbak}, but {' and '.join(callers)} called go and lost: "
                        "go-bak wins over it")
    if mode == "double":
        if callers:
            return None, set(callers), warnings
        return rnd.dokbak, set(), warnings
    if len(callers) == 2:
        if rnd.last_go not in callers:
            raise RefereeError("bad-round", f"both losers, {callers[0]} and {callers[1]}, called go: say which called "
                               f"last in \"last_go\" (that player pays dokbak); it is {shown(rnd.last_go)}")
        payer = rnd.last_go
    elif callers:
        payer = callers[0]
    else:
        return rnd.dokbak, set(), warnings
    return payer, {payer} if mode == "pays-all-double" else set(), warnings
