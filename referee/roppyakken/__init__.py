"""Roppyakken (六百間, "Six Hundred") and its family: rules, yaku, teyaku, fuke, rounds, games.

``FAMILY`` is the family's entry in ``referee.families``.
Pure core: imports nothing outside the standard library and ``referee``'s core modules.
"""

from referee.family import Family
from referee.roppyakken import describe, game, json_io, round, rules

FAMILY = Family(
    name="roppyakken",
    title="Roppyakken (六百間) and its family",
    from_table=rules.from_table,
    make_round=round.make_round,
    score_round=round.score_round,
    play_game=game.play_game,
    score_json=json_io.round_json,
    game_json=json_io.game_json,
    round_keys=game.ROUND_KEYS,
    entry_form="picker",
    board="points",
    game_summary=json_io.game_summary,
    describe=describe.describe,
    yaku_made=json_io.yaku_made,
)
