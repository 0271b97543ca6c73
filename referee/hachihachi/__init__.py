"""Hachi-hachi (八八, "Eighty-eight"): round settlement and game ledger in kan and mon.

Pure core: imports nothing outside the standard library and ``referee``'s core modules.
"""

from __future__ import annotations

from referee.hachihachi.game import GameResult, play_game
from referee.hachihachi.json_io import play_game_json, settle_round, settle_round_json, suggest_json
from referee.hachihachi.money import format_mon, parse_money
from referee.hachihachi.round import DekiyakuCall, RoundInput, make_round
from referee.hachihachi.rules import HachihachiRules
from referee.hachihachi.settlement import RoundResult, settle
from referee.hachihachi.suggest import Suggestion, suggest

__all__ = [
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
