"""What-if re-scoring: a saved game played again under another preset or other options.

``rescore(game, ruleset, options)`` plays a game object (README "Game input"; a session export
holds one under ``"game"``) twice, as it was and under the new rules, through the family-agnostic
entry point ``referee.api.game_summary`` (``game_json`` without the explanation lines), and
compares them round by round::

    {"unit": "points" | "mon" | "money",
     "before": {"ruleset", "options", "totals", "winner", "mon_per_kan"?},
     "after":  {... the same ...},
     "rounds": [{"round": n, "changed": bool,   # the round's own result: scores, void, note
                 "before": {"scores": {player: n}, "totals": {player: n}, "void"?, "note"?},
                 "after":  {...}}]}

``scores`` is what the round adds to each player (points, or mon in Hachi-hachi); ``totals`` the
running totals after it.  A round the rules reject is left out of that side's game, as the
scoreboard does, and gets ``scores``/``totals`` null and a ``note`` (the error, or "not played"
once the game is over), so a history still compares when the new rules end the game sooner.

Pure core: standard library and ``referee`` only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee import api, families
from referee.errors import RefereeError, given, without_round_number
from referee.ruleset import check_options

GAME_KEYS = ("ruleset", "options", "players", "dealer", "rounds")


def game_of(data: Any) -> dict[str, Any]:
    """The game object of a session export (``{"game": {...}}``) or of a bare game input.

    Raises ``RefereeError('bad-round')``.
    """
    game = data.get("game", data) if isinstance(data, Mapping) else None
    if not isinstance(game, Mapping) or not isinstance(game.get("rounds"), list):
        raise RefereeError("bad-round", 'expected a session export ({"game": {...}}) or a game object with "rounds"')
    return {k: game[k] for k in GAME_KEYS if k in game}


def merged_options(game: Mapping[str, Any], ruleset: str | None, overrides: Mapping[str, Any]) -> tuple[str, dict]:
    """The what-if ruleset and options: ``overrides`` on top of the game's own options when the
    ruleset stays the same, else on top of the new preset's defaults.  Returns (ruleset, options)."""
    before = game.get("ruleset") or families.DEFAULT_RULESET
    options = game.get("options") or {}
    if not isinstance(options, Mapping):
        raise RefereeError("bad-ruleset", f'"options" must be an object, {given(options)}')
    if ruleset is None or ruleset == before:
        return before, {**options, **overrides}
    return ruleset, dict(overrides)


def _round_of(e: RefereeError) -> int | None:
    """The round an error is about: its ``round_number``, else a ``round N: `` prefix."""
    if e.round_number is not None:
        return e.round_number
    head, sep, _ = e.message.partition(": ")
    return int(head[6:]) if sep and head.startswith("round ") and head[6:].isdigit() else None


def replay(game: Mapping[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play a game object as the scoreboard does and return (summary, one side per round).

    A round the core rejects is left out with its message as ``note``; rounds after the game is
    over are ``not played``.  Raises ``RefereeError`` when the game itself is invalid (ruleset,
    options, players).
    """
    rounds = list(game.get("rounds") or [])
    keep = list(range(len(rounds)))
    notes: dict[int, str] = {}
    while True:
        try:
            out = api.game_summary({**game, "rounds": [rounds[i] for i in keep]})
            break
        except RefereeError as e:
            k = _round_of(e)
            if k is None or not 1 <= k <= len(keep):
                raise
            if e.code == "game-over":
                for i in keep[k - 1:]:
                    notes[i] = "not played: the game was already over"
                keep = keep[: k - 1]
            else:
                notes[keep.pop(k - 1)] = without_round_number(e.message)
    played = dict(zip(keep, out["rounds"], strict=True))
    sides = []
    for i in range(len(rounds)):
        entry = played.get(i)
        if entry is None:
            sides.append({"scores": None, "totals": None, "note": notes[i]})
            continue
        side: dict[str, Any] = {"scores": entry["scores"], "totals": entry["totals"]}
        if entry["void"]:
            side["void"] = True
        sides.append(side)
    summary: dict[str, Any] = {
        "ruleset": out["ruleset"],
        "options": dict(game.get("options") or {}),
        "totals": out["totals"],
        "winner": out["winner"],
    }
    if "mon_per_kan" in out:
        summary["mon_per_kan"] = out["mon_per_kan"]
    return summary, sides


def rescore(
    game: Mapping[str, Any],
    ruleset: str | None = None,
    options: Mapping[str, Any] | None = None,
    before: tuple[dict[str, Any], list[dict[str, Any]]] | None = None,
) -> dict:
    """Re-score ``game`` (a game object, see ``game_of``) under ``ruleset`` (default: its own) with
    ``options`` as the complete option overrides of the new side (see ``merged_options`` for the
    command line's "on top of the game's" reading).  ``before``: ``replay(game)`` when the caller
    already has it (the web app keeps it per session revision).  Returns the what-if object
    (module docstring).

    Raises ``RefereeError``: ``bad-ruleset`` (unknown preset, bad options: every one the new rules refuse
    at once, ``ruleset.RefusedOptionsError``; a ruleset of another family than the game's rounds) and the
    game-level errors of ``referee.api.game_json``.
    """
    game = game_of(game)
    before_rules = game.get("ruleset") or families.DEFAULT_RULESET
    after = {**game, "ruleset": ruleset or before_rules, "options": dict(options or {})}
    family = api.ruleset_json(before_rules, game.get("options") or {})["game"]
    check_options(after["ruleset"], after["options"])  # every option the new rules refuse, at once
    other = api.ruleset_json(after["ruleset"], after["options"])["game"]
    if other != family:
        raise RefereeError("bad-ruleset", f"{after['ruleset']} is a {other} ruleset; this game's rounds are "
                           f"{family} rounds, so only a {family} ruleset can re-score them")
    before_summary, before_rounds = before or replay(game)
    after_summary, after_rounds = replay(after)
    return {
        "unit": families.get(family).unit,
        "before": before_summary,
        "after": after_summary,
        "rounds": [
            {"round": n, "changed": _own(b) != _own(a), "before": b, "after": a}
            for n, (b, a) in enumerate(zip(before_rounds, after_rounds, strict=True), 1)
        ],
    }


def _own(side: Mapping[str, Any]) -> dict[str, Any]:
    """What a round itself came to on one side: what it adds, whether it was void, and whether it was
    played at all (not its running totals, which move with every earlier round)."""
    return {k: v for k, v in side.items() if k != "totals"}


def changed_rounds(result: Mapping[str, Any]) -> Sequence[int]:
    """The numbers of the rounds whose result differs between the two sides."""
    return [r["round"] for r in result["rounds"] if r["changed"]]
