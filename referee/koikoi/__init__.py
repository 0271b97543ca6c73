"""Koi-Koi (こいこい): two players, a round per month; yaku, koi-koi calls and their multipliers.

Modules: ``rules.py`` (the ruleset schema), ``yaku.py``, ``teyaku.py`` (lucky hands),
``round.py`` (one round, every point and multiplier explained), ``game.py`` (months,
totals, dealer, tie), ``totals.py`` (rounds entered as totals), ``json_io.py`` (JSON in and
out), ``describe.py`` (the Help page).  Rule source: shared/KOIKOI-RULES.md;
decisions where it is silent: docs/KOIKOI.md.  ``FAMILY`` is the family's entry in
``referee.families``.  Pure core: standard library and ``referee``'s core modules only.
"""

from referee.family import Family, Words
from referee.koikoi import describe, game, json_io, round, rules

FAMILY = Family(
    name="koikoi",
    title="Koi-Koi (こいこい)",
    from_table=rules.from_table,
    make_round=round.make_round,
    score_round=round.score_round,
    play_game=game.play_game,
    score_json=json_io.round_json,
    game_json=json_io.game_json,
    round_keys=game.ROUND_KEYS,
    entry_form="calls",
    board="points",
    next_round=json_io.next_round,
    describe=describe.describe,
    yaku_made=json_io.yaku_made,
    explicit_ending=game.explicit_ending,
    # No fuke in Koi-Koi: a round of zeros is one nobody won; option draw_dealer names the next oya.
    entered_void="Nobody scored this round (both 0: a draw, or the hands ran out)",
    words=Words(void=""),  # no fuke: a round nobody won scores 0
    seats=(2,),  # KOIKOI-RULES.md "The round": exactly two players, not an option
)
