"""How a ruleset scores, in players' words, generated from the ruleset itself.

``how_it_scores(rules)`` turns a loaded ruleset (a preset file, with any house-rule
options applied) into a ``referee.wording.HowItScores``: titled sections of plain sentences,
the yaku with their cards and values, and every option with its value in words.  Each
family writes its own (``Family.describe``, in the family's ``describe.py``, built from
``referee.wording``); nothing here or there is written per preset, so a new preset file is
described by itself.

Reads the family registry (``referee.families``) from above: no module the registry lists
imports this one.  Pure core: standard library and ``referee`` only.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from referee import families
from referee.wording import HowItScores, Section, option_entries

__all__ = ["HowItScores", "generic", "how_it_scores"]


def how_it_scores(rules: Any) -> HowItScores:
    """Describe a loaded ruleset (``referee.ruleset.load_ruleset``) through its family's describer.

    A family without one (``Family.describe`` is None) gets its description and options only
    (``generic``).  Raises ``RefereeError('bad-ruleset')`` for a family not in the registry.
    """
    describe = families.of(rules).describe
    return generic(rules) if describe is None else describe(rules)


def generic(rules: Any) -> HowItScores:
    """The least a ruleset says of itself: its description and its options in words."""
    overview = Section("overview", "The game", (rules.description or rules.title,))
    options = option_entries(rules.options) if dataclasses.is_dataclass(getattr(rules, "options", None)) else ()
    return HowItScores(rules.name, rules.title, rules.description, rules.game, "", (overview,), options)
