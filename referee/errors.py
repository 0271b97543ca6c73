"""Errors a user can cause, each with a stable code.

Part of the pure rules core: standard library only.  The CLI prints
``RefereeError`` as one line and exits 2; the web app shows it as a message.
Programming and configuration mistakes raise plain ``ValueError``.
"""

from __future__ import annotations

import json
from typing import Any

#: Longest value ``shown`` writes before cutting it short.
SHOWN_MAX = 80


def shown(value: Any) -> str:
    """A value from the user's input as they wrote it, for a message: strings quoted as before
    (``'Aki'``), ``true``/``false``, JSON for lists and objects, and ``missing`` for null or a
    key left out, never Python's ``None`` or ``True``.  Cut short past ``SHOWN_MAX`` characters."""
    if value is None:
        return "missing"
    if isinstance(value, str):
        text = repr(value)
    else:
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            text = repr(value)
    return text if len(text) <= SHOWN_MAX else text[: SHOWN_MAX - 1] + "…"


def given(value: Any) -> str:
    """What was given, after "must be ...": ``got [1, 2]``, or ``but it is missing``."""
    return "but it is missing" if value is None else f"got {shown(value)}"


class RefereeError(ValueError):
    """A user-caused problem with a round, a card list or a ruleset.

    ``code`` is one of:
    ``unknown-card``, ``duplicate-card``, ``too-many-cards``, ``player-count``,
    ``unknown-player``, ``misdeal``, ``bad-ruleset``, ``bad-round``, ``game-over``,
    ``missing-decision``, ``card-count``; and for Hachi-hachi ``pile-points`` (piles
    settled on card points do not fit the deal played: all 48 cards / 264
    points with three players, at most 34 cards with two), ``bad-decision``
    (a stated dekiyaku, stop/continue or hatto that the cards or the order
    contradict) and ``bad-money`` (money text that is not ``-1 kan 7 mon``); ``bad-totals``
    (a round of entered totals with a missing, extra or impossible amount; ``referee.totals``);
    for Koi-Koi ``no-yaku`` (a player who stopped holds no yaku); and for Go-Stop
    ``below-stop-points`` (the player who stopped holds fewer points than option ``stop_points``).

    ``round_number``: in a game, the number (from 1) of the round the error is
    about, when it is about one; ``None`` otherwise.  The message then starts
    with ``round N: ``.  A game raises a round's error as ``in_round(N)`` of it, so that
    the copy keeps its class and parts (``RoundFieldError``, ``DuplicateCardError``...).
    """

    def __init__(self, code: str, message: str, *, round_number: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.round_number = round_number

    def __str__(self) -> str:
        return self.message

    def in_round(self, number: int) -> RefereeError:
        """This error as a game raises it for its round ``number`` (from 1): a copy of the same class, with the
        same code and parts, whose message starts with ``round N: `` and whose ``round_number`` is ``number``."""
        return self._copy(f"round {number}: {self.message}", number)

    def without_round_number(self) -> RefereeError:
        """This error as it reads beside its round, as a form shows it: a copy of the same class, with the same
        code and parts, whose message does not start with ``round N: `` (``without_round_number``) and whose
        ``round_number`` is ``None``."""
        return self._copy(without_round_number(self.message), None)

    def _copy(self, message: str, round_number: int | None) -> RefereeError:
        # Not copy.copy: it would call the class with ``args`` (the message alone), which no subclass takes.
        out = type(self).__new__(type(self))
        out.__dict__.update(self.__dict__)
        out.args, out.message, out.round_number = (message,), message, round_number
        return out


def without_round_number(message: str) -> str:
    """``message`` less the ``round N: `` a game's error starts with (``RefereeError.in_round``), if it does."""
    head, sep, rest = message.partition(": ")
    return rest if sep and head.startswith("round ") and head[6:].isdigit() else message


class PlayerCountError(RefereeError):
    """``player-count``: a game given a number of players it does not seat.

    The message, for the command line and the API, is the family's own; the parts let a form say it in players'
    words: ``game`` (its title), ``allowed`` (the counts it seats, ascending) and ``players`` (the names given).
    """

    def __init__(self, message: str, game: str, allowed: tuple[int, ...], players: tuple[str, ...]) -> None:
        super().__init__("player-count", message)
        self.game, self.allowed, self.players = game, tuple(allowed), tuple(players)


class RoundFieldError(RefereeError):
    """One field of a round (a key of the round JSON) holds a value the rules refuse.

    The message, for the command line and the API, is the family's own and names the JSON's key (``"gos" of Aki
    is 13; expected a whole number 0 to 12``).  The parts let a form say it at its own field in its own words,
    never by reading the message: ``field`` (the key: ``gos``, ``instant.cards``, ``multiplier``...), ``rule``
    (the kind of refusal, as the family names it where it raises: ``(field, rule)`` names one message),
    ``player`` (the player the value is about, or None), ``value`` (what was given, as the round held it),
    ``limit`` (what the rule allows: the most, the values allowed; or None), ``players`` (the players the
    refusal names in order, or ``()``), ``counts`` (a count per player, or empty), ``index`` (for a field of each
    entry of a list, ``calls.player``: the entry's position from 0, or None) and ``cards`` (the card ids the refusal
    names, in the deck's order, or ``()``).

    ``round_number`` is a :class:`RefereeError`'s: :meth:`RefereeError.in_round` gives the copy, with these parts,
    that a game raises for its round N.
    """

    def __init__(self, code: str, message: str, *, field: str, rule: str, player: str | None = None,
                 value: Any = None, limit: Any = None, players: tuple[str, ...] = (),
                 counts: dict[str, int] | None = None, index: int | None = None, cards: tuple[str, ...] = (),
                 round_number: int | None = None) -> None:
        super().__init__(code, message, round_number=round_number)
        self.field, self.rule, self.player, self.value, self.limit = field, rule, player, value, limit
        self.players, self.counts, self.index, self.cards = tuple(players), dict(counts or {}), index, tuple(cards)


def one_of_the_players(value: Any, key: str, players: tuple[str, ...], *, field: str | None = None,
                       index: int | None = None) -> str:
    """``value`` when it is one of ``players`` (a round's field naming a player: ``stopped_by``, ``dealer``...).

    Raises an ``unknown-player`` :class:`RoundFieldError` otherwise, its message naming ``key`` (the JSON's key,
    ``calls[0].player``), its parts: ``field`` (the key, or the given ``field`` for an entry of a list,
    ``calls.player``, with its ``index``), rule ``not-a-player``, ``value`` and ``players``."""
    if value not in players:
        raise RoundFieldError("unknown-player", f"\"{key}\" is {shown(value)}; expected one of the players "
                              f"{list(players)}", field=field or key, rule="not-a-player", value=value,
                              players=players, index=index)
    return value


def check_keys(data, known: frozenset[str], what: str) -> None:
    """Refuse a JSON object (``data``, a mapping) with keys outside ``known``: a ``bad-round``
    :class:`RefereeError` naming the unknown keys and the expected ones; ``what`` names the
    object ("round", "game")."""
    unknown = sorted(set(data) - known)
    if unknown:
        raise RefereeError(
            "bad-round", f"unknown key(s) in the {what}: {', '.join(unknown)}; expected {', '.join(sorted(known))}"
        )


def game_rounds(data, known: frozenset[str]) -> list:
    """The ``rounds`` list of a game object ``data`` (a mapping) whose keys must lie in ``known``
    (:func:`check_keys`); a ``bad-round`` :class:`RefereeError` when it is not a list."""
    check_keys(data, known, "game")
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise RefereeError("bad-round", f"\"rounds\" must be a list of rounds, {given(rounds)}")
    return rounds
