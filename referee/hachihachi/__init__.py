"""Hachi-hachi (八八, "Eighty-eight"): round settlement and game ledger in kan and mon.

Pure core: imports nothing outside the standard library and ``referee``'s core modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.hachihachi.json_io import round_kwargs, rules_from
from referee.hachihachi.money import format_mon, parse_money
from referee.hachihachi.round import DekiyakuCall, RoundInput, make_round
from referee.hachihachi.rules import HachihachiRules
from referee.hachihachi.settlement import RoundResult, settle


def settle_round(rules: HachihachiRules, **round_fields: Any) -> RoundResult:
    """Validate and settle one round: ``make_round`` keyword arguments in, ``RoundResult`` out."""
    return settle(rules, make_round(rules, **round_fields))


def settle_round_json(data: Mapping[str, Any]) -> dict:
    """Settle a round object (docs/HACHIHACHI.md "Round input") and return the "Round output" dict.

    Raises ``RefereeError`` for any user mistake.
    """
    rules = rules_from(data)
    return settle_round(rules, **round_kwargs(data)).to_json()


__all__ = [
    "DekiyakuCall",
    "HachihachiRules",
    "RoundInput",
    "RoundResult",
    "format_mon",
    "make_round",
    "parse_money",
    "settle",
    "settle_round",
    "settle_round_json",
]
