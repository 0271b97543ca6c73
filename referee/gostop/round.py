"""Score one Go-Stop round: point lines, go, every factor and every payment explained.

GOSTOP-RULES.md "Points from captures", "Go and stop", "Settlement factors", "Instant wins, ppeok,
nagari" and "Players and money".  Each loser's share is ``(base + go points) × the factors to all
losers × that loser's own factors``, in points (점); money is points × option ``point_value``.
Explanation lines are money (``Line.points`` = 점 × ``point_value``; the JSON adds ``jeom``): a loser's
lines are their own point lines, a ``not-scored`` line taking them back, then their share line by
line (the winner's point lines, the go points, each factor worth what it adds), negative; the
winner's lines are each share, positive.  Every player's lines sum to their money
(``round_score``), and a round's money sums to zero.  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.errors import RefereeError
from referee.explain import Line, PlayerLines
from referee.gostop import factors as fx
from referee.gostop.inputs import THREE_PPEOK, RoundInput, next_carry
from referee.gostop.points import SAKE_CUP, Tally, point_lines, tally
from referee.gostop.rules import GostopRules
from referee.option_names import house_rule

#: Outcomes of a round (GOSTOP-RULES.md "JSON").
OUTCOMES = ("stopped", "nagari", "chongtong", "three-ppeok")


@dataclass(frozen=True)
class PlayerRound:
    """One player's round: ``points`` (their point lines, scoring or not; 점), ``base`` (their sum),
    ``pi`` (pi value), ``animals``, ``sake_cup`` (``pi``/``animal`` for its holder, else None),
    ``net`` (점 won or lost) and ``round_score`` (money: ``net`` × stake, the sum of ``lines``, which
    are money)."""

    player: str
    points: tuple[Line, ...]
    base: int
    pi: int
    animals: int
    sake_cup: str | None
    net: int
    round_score: int
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Payment:
    """``payer`` pays ``payee`` ``points`` (money: × stake) for ``reason``: ``round`` (a loser's
    share), ``dokbak`` (another loser's share), ``ppeok``, ``chongtong``, ``three-ppeok``."""

    payer: str
    payee: str
    points: int
    money: int
    reason: str


@dataclass(frozen=True)
class RoundResult(PlayerLines):
    """A scored round (GOSTOP-RULES.md "JSON", round result).

    ``score``: the winner's base + go points (an instant win: its points; a nagari: 0);
    ``multiplier``: each loser's total factor on their own share; ``payments``; the next round's
    ``next_nagari_carry`` and ``next_dealer``.
    """

    players: tuple[PlayerRound, ...]
    dealer: str
    outcome: str
    winner: str | None
    score: int
    multiplier: Mapping[str, int]
    payments: tuple[Payment, ...]
    nagari_carry: int
    next_nagari_carry: int
    next_dealer: str
    point_value: int
    warnings: tuple[str, ...]

    @property
    def money(self) -> dict[str, int]:
        """Player -> money this round (sums to zero)."""
        return {p.player: p.round_score for p in self.players}

    def to_json(self) -> dict[str, Any]:
        """The public JSON shape (GOSTOP-RULES.md "JSON", round result)."""
        pv = self.point_value
        return {
            "players": {
                p.player: {
                    "points": [{"id": y.code, "name": y.en, "name_ko": y.ja, "points": y.points, "cards": list(y.cards)}
                               for y in p.points],
                    "base": p.base, "pi": p.pi, "animals": p.animals, "sake_cup": p.sake_cup,
                    "net": p.net, "round_score": p.round_score, "money": p.round_score,
                }
                for p in self.players
            },
            "dealer": self.dealer,
            "outcome": self.outcome,
            "void": self.outcome == "nagari",
            "instant_win": self.outcome if self.outcome in ("chongtong", "three-ppeok") else None,
            "winner": self.winner,
            "score": self.score,
            "multiplier": dict(self.multiplier),
            "payments": [{"from": x.payer, "to": x.payee, "points": x.points, "money": x.money, "reason": x.reason}
                         for x in self.payments],
            "money": self.money,
            "point_value": pv,
            "nagari_carry": self.nagari_carry,
            "next_nagari_carry": self.next_nagari_carry,
            "next_dealer": self.next_dealer,
            "warnings": list(self.warnings),
            "explanation": [{**line.to_json(), "ko": line.ja, "jeom": line.points // pv} for line in self.explanation],
        }


def _share(rules: GostopRules, rnd: RoundInput, winner: str, loser: str, wlines: tuple[Line, ...],
           tallies: Mapping[str, Tally], common: list[fx.Factor], gobak: bool) -> tuple[list[Line], int, int]:
    """A loser's share, line by line, as the loser's (negative) lines: (lines, points, multiplier)."""
    gos = rnd.gos_of(winner)
    lines = [Line(loser, y.code, f"{winner}'s {y.en} ({y.points}점)", y.ja, -y.points, y.cards) for y in wlines]
    running = sum(y.points for y in wlines)
    gp = fx.go_points(rules, gos)
    if gp:
        lines.append(Line(loser, "go-points", f"{winner} called go {fx.times_words(gos)}: +{gp}", f"{gos}고", -gp))
        running += gp
    times = 1
    for f in (*common, *fx.own(rules, rnd, winner, loser, tallies, wlines, gobak)):
        lines.append(Line(loser, f.code, f.en, f.ko, -running * (f.times - 1)))
        running *= f.times
        times *= f.times
    return lines, running, times


def _ppeok_runs(rules: GostopRules, rnd: RoundInput) -> dict[str, tuple[int, ...]]:
    """Player -> the points each other player pays them for each ppeok of the unbroken run from
    their first turn (option ``ppeok_payouts``, in run order; a run longer than the payouts pays 0 for
    the rest), for the players whose run pays anything."""
    out = {}
    payouts = rules.options.ppeok_payouts
    for p, turns in rnd.ppeok.items():
        run = 0
        while run < len(turns) and turns[run] == run + 1:
            run += 1
        each = tuple(payouts[i] if i < len(payouts) else 0 for i in range(run))
        if sum(each):
            out[p] = each
    return out


def _ppeok(rules: GostopRules, rnd: RoundInput) -> dict[str, int]:
    """Player -> the points each other player pays them for ppeok: the unbroken run of ppeok from
    their first turn, each paying its payout (option ``ppeok_payouts``), never multiplied."""
    return {p: sum(each) for p, each in _ppeok_runs(rules, rnd).items()}


def _turns(turns: Sequence[int]) -> str:
    """``turn 1``, ``turns 1 and 2``, ``turns 1, 2 and 4``."""
    if len(turns) == 1:
        return f"turn {turns[0]}"
    return f"turns {', '.join(map(str, turns[:-1]))} and {turns[-1]}"


def _ppeok_words(entered: Sequence[int], each: Sequence[int]) -> str:
    """What a player's ppeok line says: the turns entered, those paid (the run from the first turn)
    when fewer, and each turn's payout: ``ppeok on turns 1 and 2 (3 + 6 = 9점)``."""
    paid = " + ".join(map(str, each)) + (f" = {sum(each)}" if len(each) > 1 else "")
    said = f"ppeok on {_turns(entered)}"
    if len(each) < len(entered):
        said += f", paid for {_turns(entered[:len(each)])}, the unbroken run from the first turn"
    return f"{said} ({paid}점)"


def _score(rules: GostopRules, rnd: RoundInput, cup: Mapping[str, bool]) -> RoundResult:
    """Score the round with the sake cup placed as ``cup`` says (holder -> as pi)."""
    o = rules.options
    pv = o.point_value
    tallies = {p: tally(rules, rnd.piles[p], rnd.bonus.get(p, ()), cup.get(p, False)) for p in rnd.players}
    own_lines = {p: point_lines(rules, p, tallies[p]) for p in rnd.players}
    base = {p: sum(y.points for y in own_lines[p]) for p in rnd.players}
    lines: dict[str, list[Line]] = {p: [] for p in rnd.players}
    payments: list[Payment] = []
    warnings = list(rnd.warnings)
    multiplier: dict[str, int] = {}
    three = next((p for p, t in rnd.ppeok.items() if len(t) == THREE_PPEOK), None)
    winner, score = None, 0

    def pay(payer: str, payee: str, points: int, reason: str) -> None:
        if points:
            payments.append(Payment(payer, payee, points, points * pv, reason))

    def flat(who: str, points: int, code: str, en: str, ko: str) -> None:
        """An instant win: every other player pays ``points`` × the nagari carry."""
        for p in rnd.players:
            if p == who:
                continue
            owed = [Line(p, code, en, ko, -points)]
            if rnd.nagari_carry > 1:
                owed.append(Line(p, "nagari", f"×{rnd.nagari_carry} 나가리: carried from the void rounds before",
                                 "나가리", -points * (rnd.nagari_carry - 1)))
            lines[p] += owed
            lines[who] += [Line(who, x.code, f"from {p}: {x.en}", x.ja, -x.points) for x in owed]
            multiplier[p] = rnd.nagari_carry
            pay(p, who, points * rnd.nagari_carry, code)

    if rnd.instant is not None:
        outcome, winner, score = rnd.instant.type, rnd.instant.player, o.chongtong_points
        flat(winner, score, "chongtong", f"총통 chongtong: {winner} was dealt all four cards of a month", "총통")
    elif three is not None:
        outcome, winner, score = "three-ppeok", three, o.three_ppeok_points
        flat(winner, score, "three-ppeok", f"3뻑: {winner} made three ppeok", "삼뻑")
    elif rnd.stopped_by is not None:
        outcome, winner = "stopped", rnd.stopped_by
        if base[winner] < o.stop_points:
            raise RefereeError("below-stop-points", f"{winner} stopped with {base[winner]} points; stopping takes "
                               f"{o.stop_points} ({house_rule(o, 'stop_points')})")
        score = base[winner] + fx.go_points(rules, rnd.gos_of(winner))
        common = fx.common(rules, rnd, winner, tallies[winner])
        payer, gobak, notes = fx.dokbak_payer(rules, rnd, winner)
        warnings += notes
        wlines = tuple(y for y in own_lines[winner] if y.points)
        for loser in rnd.players:
            if loser == winner:
                continue
            owed, points, times = _share(rules, rnd, winner, loser, wlines, tallies, common, loser in gobak)
            multiplier[loser] = times
            lines[loser] += owed
            transfer = payer is not None and payer != loser
            # The winner's lines name who pays: under dokbak another loser pays this loser's share.
            source = f"from {payer}, paying {loser}'s share (독박 dokbak)" if transfer else f"from {loser}"
            lines[winner] += [Line(winner, x.code, f"{source}: {x.en}", x.ja, -x.points) for x in owed]
            if transfer:
                lines[loser].append(Line(loser, "dokbak", f"독박: {payer} pays {loser}'s share", "독박", points))
                lines[payer].append(Line(payer, "dokbak", f"독박: {payer} pays {loser}'s share", "독박", -points))
                pay(payer, winner, points, "dokbak")
            else:
                pay(loser, winner, points, "round")
    else:
        outcome = "nagari"
        paid = "only the ppeok payouts are paid" if _ppeok(rules, rnd) else "nobody pays"
        warnings.append(f"나가리 (nagari): nobody stopped; {paid}, {rnd.dealer} deals again and the next round "
                        f"is ×{next_carry(rnd.nagari_carry, o.nagari_cap)}")
    if outcome == "three-ppeok" and rnd.gos:
        warnings.append("gos do not count when three ppeok end the round")
    for p, each in _ppeok_runs(rules, rnd).items():
        pts, said = sum(each), _ppeok_words(rnd.ppeok[p], each)
        for q in rnd.players:
            if q != p:
                lines[q].append(Line(q, "ppeok-payout", f"뻑: {p}'s {said}", "뻑", -pts))
                lines[p].append(Line(p, "ppeok-payout", f"뻑: from {q}, {said}", "뻑", pts))
                pay(q, p, pts, "ppeok")
    players = []
    for p in rnd.players:
        taken = []
        if base[p] and (p != winner or outcome != "stopped"):  # only a stopper's own points are paid
            why = "not scored: " + ("a loser's points do not count" if outcome == "stopped" and winner else
                                    "nagari, nobody stopped" if outcome == "nagari" else f"{outcome} ended the round")
            taken = [Line(p, "not-scored", why, "득점 없음", -base[p])]
        shown = (*own_lines[p], *taken) if p != winner or outcome != "stopped" else ()
        plines = tuple(x._replace(points=x.points * pv) for x in (*shown, *lines[p]))
        net = sum(x.points for x in plines) // pv
        holder = SAKE_CUP in rnd.piles[p]
        players.append(PlayerRound(p, own_lines[p], base[p], tallies[p].pi, tallies[p].animal_count,
                                   ("pi" if cup.get(p) else "animal") if holder else None, net, net * pv, plines))
    nagari = outcome == "nagari"
    return RoundResult(
        tuple(players), rnd.dealer, outcome, winner, score, multiplier, tuple(payments), rnd.nagari_carry,
        next_carry(rnd.nagari_carry, o.nagari_cap) if nagari else 1, rnd.dealer if nagari else winner,
        pv, tuple(warnings),
    )


def score_round(rules: GostopRules, rnd: RoundInput) -> RoundResult:
    """Score a validated round (``referee.gostop.inputs.make_round``).

    The sake cup (option ``sake_cup`` = ``choice``, no ``sake_cup`` given) goes where it earns its
    holder most money if they won, where it costs them least if they lost; a tie is an animal.
    Raises ``RefereeError``: ``below-stop-points`` (the stopper's base is below option
    ``stop_points``), ``bad-round`` (two go-calling losers without ``last_go``).
    Rule source: GOSTOP-RULES.md "Cards", "Go and stop", "Settlement factors", "Players and money".
    """
    o = rules.options
    holder = next((p for p in rnd.players if SAKE_CUP in rnd.piles[p]), None)
    if holder is None or o.sake_cup != "choice" or holder in rnd.sake_cup:
        as_pi = o.sake_cup == "pi" or rnd.sake_cup.get(holder) == "pi" if holder else False
        return _score(rules, rnd, {holder: as_pi} if holder else {})
    tried: list[RoundResult] = []
    error: RefereeError | None = None
    for as_pi in (False, True):
        try:
            tried.append(_score(rules, rnd, {holder: as_pi}))
        except RefereeError as e:
            error = error or e
    if not tried:
        assert error is not None
        raise RefereeError(error.code, error.message + " (with the sake cup as an animal or as a pi)")
    best = max(tried, key=lambda r: r.money[holder])  # max keeps the first (animal) on a tie
    note = f"{holder}'s sake cup counts as {'a pi (쌍피)' if best.player(holder).sake_cup == 'pi' else 'an animal'}"
    if len(tried) == 2 and tried[0].money[holder] != tried[1].money[holder]:
        note += (", where it earns them more" if best.winner == holder else ", where it costs them less")
    return replace(best, warnings=(*best.warnings, note))
