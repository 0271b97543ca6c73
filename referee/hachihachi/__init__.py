"""Hachi-hachi (八八, "Eighty-eight"): round settlement and game ledger in kan and mon.

``FAMILY`` is the family's entry in ``referee.families``.
Pure core: imports nothing outside the standard library and ``referee``'s core modules.
"""

from __future__ import annotations

from referee.family import Family, Words
from referee.hachihachi import describe, json_io
from referee.hachihachi.deal import check_piles
from referee.hachihachi.game import GameResult, play_game
from referee.hachihachi.json_io import play_game_json, settle_round, settle_round_json, suggest_json
from referee.hachihachi.money import format_mon, parse_money
from referee.hachihachi.round import DekiyakuCall, RoundInput, make_round
from referee.hachihachi.rules import HachihachiRules, from_table
from referee.hachihachi.settlement import RoundResult, settle
from referee.hachihachi.suggest import Suggestion, suggest


def _format_amount(mon: int, rules: HachihachiRules) -> str:
    return format_mon(mon, rules.options.mon_per_kan)


FAMILY = Family(
    name="hachihachi",
    title="Hachi-hachi (八八)",
    from_table=from_table,
    make_round=make_round,
    score_round=settle,
    play_game=play_game,
    score_json=json_io.round_json,
    game_json=json_io.game_json,
    round_keys=json_io.GAME_ROUND_KEYS,
    entry_form="money",
    board="ledger",
    unit="mon",
    next_round=json_io.next_round,
    format_amount=_format_amount,
    suggest_json=suggest_json,
    card_points=lambda card: card.hachihachi_points,
    deck_check=check_piles,
    describe=describe.describe,
    yaku_made=json_io.yaku_made,
    words=Words(void="", money=("kan", "mon")),  # no fuke: a round always pays
)

__all__ = [
    "FAMILY",
    "DekiyakuCall",
    "GameResult",
    "HachihachiRules",
    "RoundInput",
    "RoundResult",
    "Suggestion",
    "format_mon",
    "make_round",
    "parse_money",
    "play_game",
    "play_game_json",
    "settle",
    "settle_round",
    "settle_round_json",
    "suggest",
    "suggest_json",
]
