"""The limits the new-session form, the round forms, the API and import share: players per session,
a name's length as players count it, rounds per session, the largest number a house rule may hold.

Pure: must not import Flask or the store.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import regex

from referee.ruleset import option_path
from referee.schema import FieldError

MAX_PLAYERS = 6
#: Limits shared by the form, the API and import: a player's name, a session's name, rounds per session.
MAX_NAME = 40
#: Bounds on a name in code points and in UTF-16 units (what a browser's ``maxlength`` counts), well
#: above MAX_NAME characters of any script or emoji (👨🏻‍👩🏻‍👧🏻‍👦🏻 is 11 code points, 19 units):
#: the limit players read is MAX_NAME characters as they see them (``name_length``).
MAX_NAME_CODEPOINTS = MAX_NAME * 12
MAX_NAME_UNITS = MAX_NAME * 20
MAX_SESSION_NAME = 100
MAX_ROUNDS = 1000
#: The largest number a house rule may be set to, either way (a target, yaku points, kan, mon...):
#: the presets' largest is 1200, and a score or payment past this would not fit a table's sheet
#: nor stay exact in a JavaScript client.
MAX_OPTION_NUMBER = 1_000_000


def _past_the_bound(value: Any) -> tuple[list[str | int], Any] | None:
    """The first number in ``value`` (looking into lists and tables) past ``MAX_OPTION_NUMBER`` either way
    (NaN too), as (the keys and indexes leading to it, the number); None when there is none."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return None if -MAX_OPTION_NUMBER <= value <= MAX_OPTION_NUMBER else ([], value)  # False for NaN too
    items = value.items() if isinstance(value, Mapping) else enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        if (found := _past_the_bound(v)) is not None:
            return [k, *found[0]], found[1]
    return None


def option_number_refusal(source: str, key: str, value: Any) -> FieldError | None:
    """An option past the bound on numbers (``MAX_OPTION_NUMBER``) refused as the rules refuse a field
    (``referee.ruleset.OptionCheck``, so ``check_options`` says it with every other refused option):
    ``preset roppyakken (with options): field 'options.fuke.threshold' is 2000000; expected a number between
    -1000000 and 1000000``, at the list's entry or the table's field that holds it (``rule`` ``largest``, as
    the forms say it); None within the bound."""
    found = _past_the_bound(value)
    if found is None:
        return None
    where, number = found
    path = option_path(key) + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in where)
    expected = f"a number between {-MAX_OPTION_NUMBER} and {MAX_OPTION_NUMBER}"
    return FieldError(source, path, number, expected, rule="largest")


def name_length(name: str) -> int:
    """A name's length in characters as a reader counts them: grapheme clusters (``regex``'s
    ``\\X``), so 👨‍👩‍👧‍👦 is one character, not 7 code points or 11 UTF-16 units."""
    return len(regex.findall(r"\X", name))


def cut_name(name: str, n: int) -> str:
    """The first ``n`` characters (grapheme clusters) of ``name``: never half an emoji or a letter
    without its accent."""
    return "".join(regex.findall(r"\X", name)[:n])


def shortened(text: str, n: int) -> str:
    """``text`` when it holds at most ``n`` characters (grapheme clusters), else its first ``n - 1``
    and "…": a label that fits, never half an emoji."""
    chars = regex.findall(r"\X", text)
    return text if len(chars) <= n else "".join(chars[: n - 1]) + "…"


def name_too_long(name: str) -> bool:
    """More than MAX_NAME characters (or, whatever they are, more code points than any such name has)."""
    return len(name) > MAX_NAME_CODEPOINTS or name_length(name) > MAX_NAME
