"""The new-session form: its values as typed, its errors, and the session it asks for.

Pure: must not import Flask or the store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee import api, families
from referee.errors import PlayerCountError, RefereeError
from referee.names import clean_name, printable_name, repeated_name
from referee.ruleset import every_refusal, refused_options
from referee.web.forms import FormData
from referee.web.forms.limits import MAX_NAME, MAX_PLAYERS, MAX_SESSION_NAME, cut_name, name_length, name_too_long
from referee.web.forms.options import option_error, option_fields, parse_option_fields
from referee.wording import counts, words


@dataclass
class SessionForm:
    """The new-session form's values (as typed) and its errors (field -> message); ``rules_options``: the
    house rules the ruleset took (read and not refused), whose rules say how the game is won."""

    name: str = ""
    ruleset: str = families.DEFAULT_RULESET
    players: list[str] = field(default_factory=lambda: ["", "", "", "", "", ""])
    dealer: int = 0
    options: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    rules_options: dict[str, Any] = field(default_factory=dict)


def duplicate_name(names: Sequence[str]) -> str | None:
    """The first name that another one repeats once compared by ``name_key``, or None
    (``referee.names.repeated_name``, the rule the round and game JSON follow too)."""
    twin = repeated_name(names)
    return twin[1] if twin else None


def player_count_words(error: PlayerCountError) -> str:
    """A game's refusal of its number of players, in players' words: ``Go-Stop (고스톱) is for 3 players; you named
    2 (Jiwoo and Minho).``"""
    named = len(error.players)
    return (f"{error.game} is for {counts(error.allowed)} players; you named {named} "
            f"({words(list(error.players))}).")


def _rules_refused(sf: SessionForm, options: dict[str, Any], specs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Load the form's rules with ``options``, saying at its field each option the rules refuse
    (``sf.errors``; ``refused_options`` leaves it out to check the rest, so every refused option is said at
    once).  Returns the options the rules took; an error about no option is said at the game (``ruleset``)."""
    checked, refused, other = refused_options(sf.ruleset, options)
    for _, e in every_refusal(refused, other):
        sf.errors.setdefault(*(option_error(e, specs) or ("ruleset", e.message)))
    return checked


def parse_session_form(form: FormData) -> tuple[SessionForm, dict[str, Any] | None]:
    """Read the new-session form.

    Returns (the form as typed, with the error of every field that has one: the name, the game, each
    house rule, the players) and, when it is valid, the session to create: ``{name, ruleset, family,
    options, players, dealer}``.
    """
    sf = SessionForm(name=clean_name(form.get("name") or ""), ruleset=form.get("ruleset") or families.DEFAULT_RULESET)
    sf.players = [clean_name(form.get(f"player-{i}") or "") for i in range(MAX_PLAYERS)]
    extra = [(i, n) for i in range(MAX_PLAYERS, MAX_PLAYERS + 20) if (n := clean_name(form.get(f"player-{i}") or ""))]
    raw_dealer = (form.get("dealer") or "0").strip()
    sf.dealer = int(raw_dealer) if raw_dealer.isdigit() and len(raw_dealer) < 3 else -1
    if not sf.name:
        sf.errors["name"] = "Give the session a name, e.g. “Friday at Aki's”."
    elif len(sf.name) > MAX_SESSION_NAME:
        sf.errors["name"] = f"The name has {len(sf.name)} characters; keep it to {MAX_SESSION_NAME} characters."
    elif not printable_name(sf.name):
        sf.errors["name"] = (
            "The session’s name has a character that does not show (a control or invisible character, often "
            "pasted in with the name); type the name again."
        )
    seated = [(i, p) for i, p in enumerate(sf.players) if p]
    names = [p for _, p in seated]
    twin = repeated_name(names)
    if extra:
        sf.errors["players"] = (
            f"A session seats at most {MAX_PLAYERS} players; {extra[0][1][:40]!r} would be player "
            f"{len(names) + 1}. Nothing was created."
        )
    elif len(names) < 2:
        sf.errors["players"] = "Enter at least two player names, in play order."
    elif twin is not None:
        # Names the one already seated too: "ＡＫＩ" alone does not say which name it clashes with.
        sf.errors["players"] = (
            f"Each player needs a different name: {twin[1]!r} is the same player as {twin[0]!r}, already at the "
            "table (names are compared ignoring case, spaces and full-width letters)."
        )
    elif hidden := [i for i, p in seated if not printable_name(p)]:
        sf.errors["players"] = (
            f"Player {hidden[0] + 1}’s name has a character that does not show (a control or invisible character, "
            "often pasted in with the name); type the name again."
        )
    elif long := [p for p in names if name_too_long(p)]:
        sf.errors["players"] = (
            f"“{cut_name(long[0], 20)}…” has {name_length(long[0])} characters; keep player names to {MAX_NAME} "
            "characters."
        )
    dealer_names = [p for i, p in seated if i == sf.dealer]
    dealer = dealer_names[0] if dealer_names else ""
    if not dealer and "players" not in sf.errors:
        # Names the seat as the form labels it (Player 3), never the radio's 0-based value.
        where = (f"it is on Player {sf.dealer + 1}’s seat, which has no name" if 0 <= sf.dealer < MAX_PLAYERS
                 else "it is on no seat of the form")
        sf.errors["players"] = (
            f"The first dealer (●) must be a named player; {where}. Type a name there, or tap the ● beside a "
            "name entered above."
        )
    # Every field's error at once, as a form says them: the game's are checked whatever the others hold.
    try:
        info, specs = option_fields(sf.ruleset)
    except RefereeError as e:
        sf.errors["ruleset"] = e.message
        return sf, None
    # Unchecked boxes send nothing: a missing bool is false only when the form showed it.
    shown = form.get("options_shown") == sf.ruleset
    options, sf.options, option_errors = parse_option_fields(form, specs, shown)
    sf.errors.update(option_errors)
    checked = sf.rules_options = _rules_refused(sf, options, specs)
    if not ({"players", "opt.players", "ruleset"} & sf.errors.keys()):
        try:  # an empty game checks the player count and the dealer (and the options, checked above)
            api.game_json({"ruleset": sf.ruleset, "options": checked, "players": names, "dealer": dealer,
                           "rounds": []})
        except RefereeError as e:
            at = option_error(e, specs)
            if at:
                sf.errors.setdefault(*at)
            elif isinstance(e, PlayerCountError):
                sf.errors["players"] = player_count_words(e)
            elif e.code in ("player-count", "bad-round", "unknown-player"):
                sf.errors["players"] = e.message
            else:
                sf.errors["ruleset"] = e.message
    if sf.errors:
        return sf, None
    return sf, {
        "name": sf.name,
        "ruleset": sf.ruleset,
        "family": info["game"],
        "options": options,
        "players": names,
        "dealer": dealer,
    }
