"""Go-Stop (고스톱) and Matgo (맞고): Korea's hwatu game, scored from the captured piles.

Modules: ``rules.py`` (the ruleset schema), ``hwatu.py`` (Korean month numbers and names),
``points.py`` (point lines from a pile), ``inputs.py`` (a reported round, validated),
``factors.py`` (go, shakes, bombs, baks, dokbak), ``round.py`` (one round, every point, factor
and payment explained), ``game.py`` (rounds in a row: money totals, dealer, nagari carry),
``json_io.py`` (JSON in and out), ``describe.py`` (the Help page).  Rule source:
shared/GOSTOP-RULES.md; decisions where it is silent: docs/GOSTOP.md.  ``FAMILY`` is the family's
entry in ``referee.families``.  Pure core: standard library and ``referee``'s core modules only.
"""

from referee.family import Family, Words
from referee.gostop import describe, game, hwatu, inputs, json_io, round, rules


def _points(amount: int, rules_: rules.GostopRules) -> str:
    """Money as 점 (points): whole, or to two decimals without trailing zeros (``850`` is ``8.5``)."""
    pv = rules_.options.point_value
    if amount % pv == 0:
        return f"{amount // pv:,}"
    return f"{amount / pv:,.2f}".rstrip("0").rstrip(".")


def _money(amount: int, rules_: rules.GostopRules) -> str:
    """Money as the table says it, with its points: ``2,400 (24점)``.  An amount that is not whole
    points (a player's average round, ``850``) keeps its count too, to two decimals without trailing
    zeros: ``850 (8.5점)`` (at the usual stake of 100 a won is a hundredth of a point, so it is exact)."""
    return f"{amount:,} ({_points(amount, rules_)}점)"


def _signed_money(size: int, rules_: rules.GostopRules, sign: str) -> str:
    """``_money`` of ``size`` with ``sign`` on the money and on its points alike: ``−8,000 (−80점)``,
    ``+8,000 (+80점)`` (the two numbers are one amount)."""
    return f"{sign}{size:,} ({sign}{_points(size, rules_)}점)"


FAMILY = Family(
    name="gostop",
    title="Go-Stop (고스톱)",
    from_table=rules.from_table,
    make_round=inputs.make_round,
    score_round=round.score_round,
    play_game=game.play_game,
    score_json=json_io.round_json,
    game_json=json_io.game_json,
    # The nagari carry is the referee's to carry in a session: a stored round never keeps it.
    round_keys=game.ROUND_KEYS - {"nagari_carry"},
    entry_form="piles",
    board="points",
    unit="money",  # points (점) × the stake (option point_value)
    next_round=json_io.next_round,
    format_amount=_money,
    sign_amount=_signed_money,
    describe=describe.describe,
    yaku_made=json_io.yaku_made,
    explicit_ending=game.explicit_ending,
    entered_void="나가리 (nagari): nobody stopped; no round score is paid (ppeok payouts stand)",
    month_name=hwatu.month_name,
    void_badge="나가리 · nagari",
    # Korean tables call the dealer 선 (seon); money is 점 × the stake (점당).
    words=Words(dealer="seon", dealer_native="선", lang="ko", kinds=("광", "열", "띠", "피"), void="nagari",
                money=("점", "점당")),
    void_text=("나가리 (nagari): nobody stopped, so no round score is paid (ppeok payouts stand); the same dealer "
               "deals again and the next round is doubled."),
    # GOSTOP-RULES.md "Instant wins": chongtong and 3뻑 end the round; the game has no end of its own.
    instant_text="{winner} wins the round at once ({instant_win}): each other player pays; the game goes on.",
    local_language="ko",  # point lines' local names are Korean (name_ko; name_ja kept)
    odd_piles_warn=False,  # GOSTOP-RULES.md "Cards": odd piles are normal (steals)
)
