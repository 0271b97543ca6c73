"""Player names: how two typed names are compared, and how a typed name is tidied.

"Aki", "aki " and "ＡＫＩ" (full-width) are one player; "Aki" and "Akira" are two.
Every place that compares names (a session's seats, the saved names offered on
the new-session form, the player pages) calls ``name_key``; nothing compares
raw strings.  Pure core: standard library only.
"""

from __future__ import annotations

import unicodedata

__all__ = ["clean_name", "name_key", "same_name"]


def clean_name(name: str) -> str:
    """A typed name as it is stored and shown: trimmed, inner runs of whitespace made one space.

    Case, width and script are kept as typed ("ＡＫＩ" stays full-width).
    Raises ``TypeError`` for a non-string.
    """
    if not isinstance(name, str):
        raise TypeError(f"a name must be a string, got {type(name).__name__}")
    return " ".join(name.split())


def name_key(name: str) -> str:
    """The comparison key of a name: NFKC, casefold, NFKC again, trimmed, whitespace runs as one space.

    ``name_key("  ＡＫＩ ") == name_key("aki") == "aki"``; ``name_key("Straße") ==
    name_key("STRASSE")``.  Casefolding can leave a string that is not NFKC, hence
    the second normalisation (Unicode's compatibility caseless match, simplified).
    Raises ``TypeError`` for a non-string.
    """
    text = unicodedata.normalize("NFKC", clean_name(name))
    return " ".join(unicodedata.normalize("NFKC", text.casefold()).split())


def same_name(a: str, b: str) -> bool:
    """Whether two typed names are the same player (see ``name_key``)."""
    return name_key(a) == name_key(b)
