"""Player names: how two typed names are compared, and how a typed name is tidied.

"Aki", "aki " and "ＡＫＩ" (full-width) are one player; "Aki" and "Akira" are two.
Every place that compares names (a session's seats, the saved names offered on
the new-session form, the player pages, the players of every family's round and
game JSON) calls ``name_key``; nothing compares raw strings.  Pure core: standard library only.
"""

from __future__ import annotations

import unicodedata

__all__ = ["clean_name", "name_key", "repeated_name", "repeated_name_message", "same_name"]


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


def repeated_name(names) -> tuple[str, str] | None:
    """The first name that repeats an earlier one by ``name_key``, as ``(earlier, later)``; None
    when every name is a different player.  ``repeated_name(["A", "B", "a "]) == ("A", "a ")``.

    Raises ``TypeError`` for a non-string name.
    """
    seen: dict[str, str] = {}
    for n in names:
        key = name_key(n)
        if key in seen:
            return seen[key], n
        seen[key] = n
    return None


def repeated_name_message(earlier: str, later: str) -> str:
    """The error a repeated name gets, in the web's words: names ignore case, width and spaces."""
    return (f"each player needs a different name; {later[:40]!r} is the same player as {earlier[:40]!r} "
            "(names ignore case, full-width letters and spaces)")
