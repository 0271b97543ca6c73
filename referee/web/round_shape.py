"""The shape of a round as a session stores it, and the full round object it scores as.

A stored round holds only the round's own keys (``Family.round_keys``): the session's keys
(ruleset, options, players), a request's bookkeeping and the game context (Koi-Koi's month,
Go-Stop's carried nagari) are the session's and the game's to add back (``round_input``).  The
web form, the API, import and the scoreboard's replay all store rounds through ``stored_round``.

Pure: must not import Flask, nor the store but for its types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from referee import families
from referee.errors import shown
from referee.family import Family

if TYPE_CHECKING:
    from referee.store import Session

#: Keys of a round object that belong to the session, never stored with a round.
SESSION_KEYS = ("ruleset", "options", "players")
#: Keys of a request that are bookkeeping, never stored with a round.
REQUEST_KEYS = ("version", "form_token")


#: Round keys whose null is an answer, kept when stored: ``stopped_by: null`` says nobody stopped
#: (Go-Stop's nagari, Koi-Koi's hands running out), which the JSON must say (docs/GOSTOP.md "JSON").
NULL_ANSWERS = frozenset({"stopped_by"})


def _family(family: str | Family) -> Family:
    return family if isinstance(family, Family) else families.get(family)


def stored_round(family: str | Family, data: Mapping[str, Any]) -> dict[str, Any]:
    """What a session stores of a round object: the keys of one round of the family's game
    (``Family.round_keys``), without the session's keys, a request's bookkeeping or empty values
    (but for ``NULL_ANSWERS``).

    Other keys are kept, so that the core names them in its error.  ``dealer`` is kept only
    where a game round may state it (it is checked against the oya before this).  ``family``:
    its name, or the family itself (as looked up once).
    """
    keys = _family(family).round_keys
    out = {}
    for k, v in data.items():
        if k in SESSION_KEYS or k in REQUEST_KEYS or (k == "dealer" and k not in keys):
            continue
        if (v is None and not (k in NULL_ANSWERS and k in keys)) or (isinstance(v, list | dict) and not v):
            continue
        out[k] = v
    return out


#: What a round must hold, whatever its family: the captured piles, the dealt hands (a Koi-Koi
#: round can end at the deal on a lucky hand, KOIKOI-RULES.md), totals entered on paper, or an
#: instant win stated at the deal (Go-Stop's chongtong, GOSTOP-RULES.md) or ppeok payouts.
ROUND_CONTENT = ("piles", "totals", "hands", "instant", "ppeok")


def holds_nothing(data: Mapping[str, Any], players: Sequence[str] | None = None) -> bool:
    """Whether a round object has no card and no entered total: ``{}``, ``{"piles": {}}`` or piles
    (hands, totals) that name players with no card each.  Such a round is refused (web form and API).
    A name not in ``players``, or a value that is no list (``{"A": null}``), counts as content, so
    that the core names it as it does for the CLI; so does a round that says how it ended
    (``NULL_ANSWERS``: ``stopped_by``, even null: a nagari or a draw with no cards)."""
    if any(k in data for k in NULL_ANSWERS):
        return False
    for key in ROUND_CONTENT:
        value = data.get(key)
        if isinstance(value, Mapping):
            if players is not None and any(k not in players for k in value):
                return False
            if any(not (isinstance(v, list | dict) and not v) for v in value.values()):
                return False
        elif value:
            return False
    return True


def no_card(data: Mapping[str, Any], family: str | Family, players: Sequence[str]) -> bool:
    """Whether a round from a cards form holds no card and no total (``holds_nothing``: a pile of a name not in
    ``players`` is something, for the core to name), which no game scores: a
    stopper named with no card counts as nothing too (a stop needs a yaku or points), while a round that says
    nobody stopped (``stopped_by`` null: Koi-Koi's hands ran out, Go-Stop's nagari) is a draw without cards.  A
    round of a game whose rounds say how they ended (``Family.round_keys``) that does not say it is not: that
    game's own words ask who stopped first."""
    if "stopped_by" in data:
        rest = {k: v for k, v in data.items() if k != "stopped_by"}
        return data["stopped_by"] is not None and holds_nothing(rest, players)
    return "stopped_by" not in _family(family).round_keys and holds_nothing(data, players)


def without_context(family: str | Family, data: Mapping[str, Any],
                    context: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    """A round object without the keys of its game context (``RoundView.context``: Koi-Koi's
    ``month``) that a stored round does not keep, and a message when one differs from the
    game's value (it may be repeated, as the ``score`` input has it, but must match)."""
    keys = _family(family).round_keys
    out = dict(data)
    for key, value in context.items():
        if key not in keys and key in out and out.pop(key) != value:
            return out, f'"{key}" is {shown(data[key])}, but this round\'s {key} is {value!r} (leave it out)'
    return out, None


def round_input(session: Session, data: Mapping[str, Any], dealer: str,
                context: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The full round object (``score`` CLI shape) of a stored round: the session's keys, the
    round's dealer, what it needs from the game before it (``context``), then its own keys."""
    return {
        "ruleset": session.ruleset,
        "options": session.options,
        "players": list(session.players),
        "dealer": dealer,
        **(context or {}),
        **data,
    }
