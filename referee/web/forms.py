"""Form parsing: the new-session form (generated from a ruleset's option schema) and round entry.

Pure functions from a ``MultiDict``-like form to plain data and field errors,
so views stay thin.  ``ENTRY_FORMS`` maps each round entry form a family can name
(``Family.entry_form``) to its template and parser.  Must not import Flask's request
or the store.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import regex

from referee import api, families
from referee.cards import BY_ID, CARD_IDS, CARDS
from referee.errors import RefereeError
from referee.names import clean_name, name_key, printable_name, repeated_name  # noqa: F401 (name_key: re-exported, tests import it here)
from referee.ruleset import load_table, parse_value

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


def option_number_error(options: Mapping[str, Any]) -> str | None:
    """What is wrong with the numbers in ruleset overrides (``{"target": 10**30}`` -> ``'target is
    1000000000000000000000000000000; a number in the rules must be between -1000000 and 1000000'``),
    looking into lists and tables; None when every number is within ``MAX_OPTION_NUMBER``."""

    def bad(value: Any, where: str) -> str | None:
        if isinstance(value, bool):
            return None
        if isinstance(value, (int, float)):
            if -MAX_OPTION_NUMBER <= value <= MAX_OPTION_NUMBER:  # False for NaN too
                return None
            shown = str(value) if len(str(value)) <= 40 else f"a number of {len(str(value))} digits"
            return (f"{where} is {shown}; a number in the rules must be between {-MAX_OPTION_NUMBER} "
                    f"and {MAX_OPTION_NUMBER}")
        items = value.items() if isinstance(value, Mapping) else enumerate(value) if isinstance(value, list) else ()
        return next((e for k, v in items if (e := bad(v, f"{where}.{k}" if where else str(k)))), None)

    return bad(dict(options), "")


class FormData(Protocol):
    """What a Werkzeug ``MultiDict`` offers."""

    def get(self, key: str, default: Any = None) -> Any: ...
    def getlist(self, key: str) -> list[str]: ...


@dataclass
class SessionForm:
    """The new-session form's values (as typed) and its errors (field -> message)."""

    name: str = ""
    ruleset: str = families.DEFAULT_RULESET
    players: list[str] = field(default_factory=lambda: ["", "", "", "", "", ""])
    dealer: int = 0
    options: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)


def name_length(name: str) -> int:
    """A name's length in characters as a reader counts them: grapheme clusters (``regex``'s
    ``\\X``), so 👨‍👩‍👧‍👦 is one character, not 7 code points or 11 UTF-16 units."""
    return len(regex.findall(r"\X", name))


def cut_name(name: str, n: int) -> str:
    """The first ``n`` characters (grapheme clusters) of ``name``: never half an emoji or a letter
    without its accent."""
    return "".join(regex.findall(r"\X", name)[:n])


def name_too_long(name: str) -> bool:
    """More than MAX_NAME characters (or, whatever they are, more code points than any such name has)."""
    return len(name) > MAX_NAME_CODEPOINTS or name_length(name) > MAX_NAME


def duplicate_name(names: Sequence[str]) -> str | None:
    """The first name that another one repeats once compared by ``name_key``, or None
    (``referee.names.repeated_name``, the rule the round and game JSON follow too)."""
    twin = repeated_name(names)
    return twin[1] if twin else None


def seat_range(specs: Sequence[Mapping[str, Any]], seats: Sequence[int] = ()) -> tuple[int, int]:
    """(fewest, most) players a preset seats: the family's fixed ``seats`` (``Family.seats``), else its
    ``players`` option; (2, MAX_PLAYERS) without either."""
    allowed = seats or next((s["default"] for s in specs if s["key"] == "players"), None)
    counts = [n for n in (allowed or ()) if isinstance(n, int) and 1 <= n <= MAX_PLAYERS]
    return (min(counts), max(counts)) if counts else (2, MAX_PLAYERS)


def check_preset(ruleset: str) -> None:
    """Web users pick a bundled preset; ``load_ruleset`` would also open a server file path.

    Raises ``RefereeError('bad-ruleset')``.
    """
    if ruleset not in api.preset_names():
        raise RefereeError("bad-ruleset", f"unknown ruleset {ruleset!r}; choose one of {', '.join(api.preset_names())}")


def option_fields(ruleset: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(ruleset info, option specs) for the form.  Raises ``RefereeError('bad-ruleset')``."""
    check_preset(ruleset)
    info = api.ruleset_json(ruleset)
    return info, info["options"]


def shown_value(spec: Mapping[str, Any], value: Any) -> str:
    """An option value as the form's text box shows it."""
    if spec["type"].startswith("list["):
        return ", ".join(str(v) for v in value)
    if spec["type"] == "bool":
        return "true" if value else "false"
    return str(value)


def _parse_option(spec: Mapping[str, Any], text: str | None) -> Any:
    kind = spec["type"]
    if kind == "bool":
        return text == "true"
    text = (text or "").strip()
    if kind == "int":
        if not re.fullmatch(r"-?\d+", text):
            raise ValueError(f"expected a whole number, got {text!r}")
        return _bounded(int(text))
    if kind.startswith("list["):
        items = [t for t in re.split(r"[,\s]+", text) if t]
        if kind == "list[int]":
            bad = [t for t in items if not re.fullmatch(r"-?\d+", t)]
            if bad:
                raise ValueError(f"expected whole numbers separated by commas, got {bad[0]!r}")
            return [_bounded(int(t)) for t in items]
        return items
    return text


def _bounded(n: int) -> int:
    if not -MAX_OPTION_NUMBER <= n <= MAX_OPTION_NUMBER:
        raise ValueError(f"expected a whole number between {-MAX_OPTION_NUMBER} and {MAX_OPTION_NUMBER}, got "
                         f"{n if len(str(n)) <= 40 else f'a number of {len(str(n))} digits'}")
    return n


def parse_option_fields(
    form: FormData, specs: Sequence[Mapping[str, Any]], shown: bool
) -> tuple[dict[str, Any], dict[str, str], dict[str, str]]:
    """The house-rule fields ``opt.<key>`` of a form generated from ``specs`` (``option_fields``).

    ``shown``: the form showed these fields (an unchecked box then means false).  Returns (the
    options that differ from the preset's defaults, the values as typed, errors by field name).
    """
    options: dict[str, Any] = {}
    typed: dict[str, str] = {}
    errors: dict[str, str] = {}
    for spec in specs:
        key = spec["key"]
        raw = form.get(f"opt.{key}")
        if raw is None and (spec["type"] != "bool" or not shown):
            continue  # not in the form: the preset's default
        typed[key] = raw if raw is not None else "false"
        try:
            value = _parse_option(spec, raw)
        except ValueError as e:
            errors[f"opt.{key}"] = str(e)
            continue
        if value != (list(spec["default"]) if isinstance(spec["default"], tuple) else spec["default"]):
            options[key] = value
    return options, typed, errors


def parse_extra_options(text: str) -> dict[str, Any]:
    """``KEY=VALUE`` lines (any ruleset field: ``yaku.oozan.points=100``, ``teyaku.mukou-sanbon.kan=2``),
    values in TOML syntax as on the command line.  Raises ``RefereeError('bad-ruleset')``."""
    out: dict[str, Any] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise RefereeError("bad-ruleset", f"{line[:60]!r}: expected KEY=VALUE, e.g. teyaku.mukou-sanbon.kan=2")
        out[key.strip()] = parse_value(value.strip())
    error = option_number_error(out)
    if error:
        raise RefereeError("bad-ruleset", error)
    return out


def parse_session_form(form: FormData) -> tuple[SessionForm, dict[str, Any] | None]:
    """Read the new-session form.

    Returns (the form as typed, with errors) and, when it is valid, the session
    to create: ``{name, ruleset, family, options, players, dealer}``.
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
    try:
        info, specs = option_fields(sf.ruleset)
    except RefereeError as e:
        sf.errors["ruleset"] = e.message
        return sf, None
    options: dict[str, Any] = {}
    # Unchecked boxes send nothing: a missing bool is false only when the form showed it.
    shown = form.get("options_shown") == sf.ruleset
    for spec in specs:
        key = spec["key"]
        raw = form.get(f"opt.{key}")
        if raw is None and (spec["type"] != "bool" or not shown):
            continue  # not in the form: the preset's default
        sf.options[key] = raw if raw is not None else "false"
        try:
            value = _parse_option(spec, raw)
        except ValueError as e:
            sf.errors[f"opt.{key}"] = str(e)
            continue
        if value != (list(spec["default"]) if isinstance(spec["default"], tuple) else spec["default"]):
            options[key] = value
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
        sf.errors["players"] = (
            f"The first dealer (●) must be a named player; the form chose {raw_dealer[:20]!r}, "
            "which is not the position of a name entered above."
        )
    if sf.errors:
        return sf, None
    try:  # an empty game checks the options, the player count and the dealer
        api.game_json({"ruleset": sf.ruleset, "options": options, "players": names, "dealer": dealer, "rounds": []})
    except RefereeError as e:
        m = re.search(r"field 'options\.([\w.]+)'", e.message)
        if m and f"opt.{m.group(1)}" in {f"opt.{s['key']}" for s in specs}:
            sf.errors[f"opt.{m.group(1)}"] = e.message
        elif e.code in ("player-count", "bad-round", "unknown-player"):
            sf.errors["players"] = e.message
        else:
            sf.errors["ruleset"] = e.message
        return sf, None
    return sf, {
        "name": sf.name,
        "ruleset": sf.ruleset,
        "family": info["game"],
        "options": options,
        "players": names,
        "dealer": dealer,
    }


_SEAT_FIELD = re.compile(r"(pile|hand|status|order)-(\d+)")


def unknown_seats(form: Mapping[str, Any], players: Sequence[str]) -> str | None:
    """A message when the form has a field for a seat the session does not have (``pile-9``)."""
    for key in form:
        m = _SEAT_FIELD.fullmatch(key)
        if m and int(m.group(2)) >= len(players):
            return (
                f"Nothing was saved: the form has a field {key!r} for seat {int(m.group(2)) + 1}, "
                f"but this session has {len(players)} players. Reload the round page."
            )
    return None


def parse_round_form(form: FormData, players: Sequence[str]) -> dict[str, Any]:
    """The round input from the card picker: ``{"piles": {player: ids}, "hands": {...}}``.

    Field ``pile-<i>`` / ``hand-<i>`` (i = seat) repeat once per tapped card; ``first_to_target``
    names who reached the target first, when the form asked.
    Unknown card ids are kept so the core names them in its error.
    """
    piles = {p: _cards(form.getlist(f"pile-{i}")) for i, p in enumerate(players)}
    hands = {p: cards for i, p in enumerate(players) if (cards := _cards(form.getlist(f"hand-{i}")))}
    data: dict[str, Any] = {"piles": piles}
    if hands:
        data["hands"] = hands
    if form.get("first_to_target") in players:  # asked only when two or more reach the target
        data["first_to_target"] = form.get("first_to_target")
    return data


def _cards(values: Sequence[str]) -> list[str]:
    order = {cid: i for i, cid in enumerate(CARD_IDS)}
    seen: list[str] = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return sorted(seen, key=lambda c: order.get(c, len(order)))


def cards_entered(data: Mapping[str, Any]) -> int:
    """How many distinct known cards the piles hold."""
    return len({c for cards in (data.get("piles") or {}).values() for c in cards if c in BY_ID})


def dekiyaku_ids(ruleset: str) -> list[str]:
    """The dekiyaku a ruleset table names (``[dekiyaku.<id>]``), for the Hachi-hachi form."""
    try:
        table, _ = load_table(ruleset)
    except RefereeError:
        return []
    return list(table.get("dekiyaku", {}))


def yaku_names(ruleset: str) -> dict[str, str]:
    """Yaku, teyaku and dekiyaku ids of a ruleset -> "English 日本語" ("Poetry Ribbons 赤短"), for
    the web to name them as players do.  Ids the ruleset does not name are left out."""
    try:
        table, _ = load_table(ruleset)
    except RefereeError:
        return {}
    out = {}
    for kind in ("yaku", "teyaku", "dekiyaku"):
        for yid, entry in (table.get(kind) or {}).items():
            if isinstance(entry, Mapping) and entry.get("en"):
                out[yid] = f"{entry['en']} {entry.get('ja', '')}".strip()
    return out


def dekiyaku_choices(ruleset: str) -> list[tuple[str, str]]:
    """(id, "English 日本語") of each dekiyaku a ruleset names, for the Hachi-hachi form's choices."""
    names = yaku_names(ruleset)
    return [(yid, names.get(yid, yid)) for yid in dekiyaku_ids(ruleset)]


def parse_money_round_form(form: FormData, players: Sequence[str]) -> dict[str, Any]:
    """A Hachi-hachi round from its entry form (docs/HACHIHACHI.md "Round input", without the
    session's keys).

    Fields: ``hand-f`` (the six field cards) or ``multiplier``; per seat i: ``status-i``
    (``play``, ``drop``, ``forced``), ``order-i`` (drop-out call order), ``hand-i`` and
    ``pile-i`` (cards); ``mizuten``; ``dk-player-k``/``dk-yaku-k``/``dk-decision-k``/``dk-liable-k``
    (k = 0..2, the dekiyaku in the order they were made); ``hatto`` (player names).
    """
    data: dict[str, Any] = {}
    field_cards = _cards(form.getlist("hand-f"))
    multiplier = (form.get("multiplier") or "").strip()
    if field_cards:
        data["field"] = field_cards
    elif multiplier.isdigit():
        data["multiplier"] = int(multiplier)
    hands: dict[str, list[str]] = {}
    dropped: dict[str, dict[str, Any]] = {}
    piles: dict[str, list[str]] = {}
    for i, p in enumerate(players):
        status = form.get(f"status-{i}") or "play"
        hand = _cards(form.getlist(f"hand-{i}"))
        if status in ("drop", "forced"):
            entry: dict[str, Any] = {"forced": status == "forced"}
            order = (form.get(f"order-{i}") or "").strip()
            if order.isdigit():
                entry["order"] = int(order)
            if hand:
                entry["hand"] = hand
            dropped[p] = entry
            continue
        if hand:
            hands[p] = hand
        piles[p] = _cards(form.getlist(f"pile-{i}"))
    if hands:
        data["hands"] = hands
    if dropped:
        data["dropped"] = dropped
    if form.get("mizuten") == "true":
        data["mizuten"] = True
    calls = []
    for k in range(3):
        player, yaku = form.get(f"dk-player-{k}"), form.get(f"dk-yaku-{k}")
        if player and yaku:
            call = {"player": player, "yaku": yaku, "decision": form.get(f"dk-decision-{k}") or "stop"}
            if form.get(f"dk-liable-{k}"):  # liability (option liable_thrower): who threw the card
                call["liable"] = form.get(f"dk-liable-{k}")
            calls.append(call)
    if calls:
        data["dekiyaku"] = calls
    hatto = [p for p in form.getlist("hatto") if p in players]
    if hatto:
        data["hatto"] = hatto
    data["piles"] = piles
    return data


#: Rows of the "calls in order" part of the calls form (more fit in its JSON box).
CALL_ROWS = 4
_CALL_FIELD = re.compile(r"call-(\d{1,3})")


def parse_calls_round_form(form: FormData, players: Sequence[str]) -> dict[str, Any]:
    """A round from the calls form (Koi-Koi; KOIKOI-RULES.md "JSON", without the session's keys).

    Fields: ``pile-<i>`` and ``hand-<i>`` (i = seat; once per tapped card), ``stopped_by`` (a
    player's name, or empty: the hands ran out; no field: not answered yet, and the round has no
    ``stopped_by`` key, see ``calls_unanswered``), ``call-<k>`` (k = 0.., who called koi-koi k-th;
    empty rows are skipped).  Names that are not players are kept so the core names them.
    """
    data = parse_round_form(form, players)
    rows = sorted(int(m.group(1)) for key in form if (m := _CALL_FIELD.fullmatch(key)))
    calls = [{"player": who} for k in rows if (who := form.get(f"call-{k}"))]  # the call: koi-koi
    if calls:
        data["calls"] = calls
    if "stopped_by" in form:
        data["stopped_by"] = form.get("stopped_by") or None
    return data


#: What the calls form says while nobody has said how the round ended (docs/KOIKOI.md "The web form").
STOP_UNANSWERED = ("Say how the round ended: who stopped (勝負), or “Nobody: the hands ran out”. "
                   "Nothing is scored until you choose.")


def calls_unanswered(form: FormData, data: Mapping[str, Any]) -> str | None:
    """``STOP_UNANSWERED`` when the calls form does not say how the round ended (KOIKOI-RULES.md
    "The round": a stop, or the hands running out), else None.  The form pre-selects neither, so
    a yaku tapped in is never scored as "nobody stopped" by mistake.  Not asked of a round won at
    the deal (dealt hands, no pile: KOIKOI-RULES.md "Lucky hands")."""
    if "stopped_by" in form:
        return None
    piles = any(data.get("piles", {}).values())
    if not piles and any((data.get("hands") or {}).values()):
        return None
    return STOP_UNANSWERED


#: What the piles form says while nobody has said how the round ended (docs/GOSTOP.md "The web form").
ENDING_UNANSWERED = ("Say how the round ended: who stopped (스톱), or “Nobody stopped” (나가리, 3뻑 or chongtong). "
                     "Nothing is scored until you choose.")


def _whole(text: str | None) -> int | str | None:
    """A whole number typed in a box: the int, None when blank, the text as typed otherwise (the core names it)."""
    text = (text or "").strip()
    if not text:
        return None
    return int(text) if re.fullmatch(r"\d{1,3}", text) else text


def parse_piles_round_form(form: FormData, players: Sequence[str]) -> dict[str, Any]:
    """A round from the piles form (Go-Stop; GOSTOP-RULES.md "JSON", without the session's keys).

    Fields: ``pile-<i>`` (i = seat; once per tapped card); ``stopped_by`` (a player's name, or empty:
    nobody stopped; no field: not answered yet, see ``ending_unanswered``); per seat ``gos-<i>``,
    ``shakes-<i>``, ``bombs-<i>`` (blank: 0), ``ppeok-<i>`` (turn numbers, "1, 2") and ``bonus-<i>``
    (once per ticked bonus card, ``k:value``); ``sake_cup`` (``pi``, ``animal`` or empty: the referee
    picks), given to whoever's pile holds the cup; ``last_go`` and ``dokbak`` (names);
    ``instant-player`` with ``instant-month`` (a chongtong: the four cards of that month).
    Text that is not a number is kept as typed so the core names it; nothing here raises.
    """
    data = parse_round_form(form, players)
    data.pop("hands", None)
    for key in ("gos", "shakes", "bombs"):
        values = {p: v for i, p in enumerate(players) if (v := _whole(form.get(f"{key}-{i}"))) is not None and v != 0}
        if values:
            data[key] = values
    ppeok: dict[str, Any] = {}
    bonus: dict[str, list[Any]] = {}
    for i, p in enumerate(players):
        text = (form.get(f"ppeok-{i}") or "").strip()
        if text:
            items = [t for t in re.split(r"[,\s]+", text) if t]
            ppeok[p] = [int(t) if re.fullmatch(r"\d{1,2}", t) else t for t in items]
        ticked = [v.partition(":")[2] for v in form.getlist(f"bonus-{i}")]
        if ticked:
            bonus[p] = [int(v) if v.isdigit() and len(v) < 3 else v for v in ticked]
    if ppeok:
        data["ppeok"] = ppeok
    if bonus:
        data["bonus"] = bonus
    cup = form.get("sake_cup") or ""
    holder = next((p for p in players if "chrysanthemum-sake-cup" in data["piles"].get(p, [])), None)
    if cup and holder is not None:
        data["sake_cup"] = {holder: cup}
    for key in ("last_go", "dokbak"):
        if form.get(key):
            data[key] = form.get(key)
    who, month = form.get("instant-player") or "", (form.get("instant-month") or "").strip()
    if who:
        cards = [c.id for c in CARDS if month.isdigit() and c.month == int(month)]
        data["instant"] = {"type": "chongtong", "player": who, "cards": cards}
    if "stopped_by" in form:
        data["stopped_by"] = form.get("stopped_by") or None
    return data


def ending_unanswered(form: FormData, data: Mapping[str, Any]) -> str | None:
    """``ENDING_UNANSWERED`` when the piles form says neither who stopped nor that nobody did, and
    names no chongtong; else None.  Nothing is pre-selected, so piles are never scored as a nagari
    by mistake (as the Koi-Koi form does, docs/KOIKOI.md "The web form")."""
    if "stopped_by" in form or data.get("instant"):
        return None
    return ENDING_UNANSWERED


_WHOLE = re.compile(r"[+-]?\d{1,7}")


def parse_totals_form(form: FormData, players: Sequence[str], mon_per_kan: int = 12) -> dict[str, Any]:
    """A round of entered totals from the number-pad form: ``{"totals": {player: amount}}``
    (README "Entered totals"), plus ``winner`` when one is chosen, ``void`` (fuke: blank
    seats count 0) when ticked and ``first_to_target`` when answered (house rule
    ``first_to_target_wins``).

    Points: field ``total-<i>`` (seat i), negated when ``sign-<i>`` is ``-`` (points that sum to
    zero, Go-Stop's 점: a phone's number pad has no minus key).  Money (kan and mon): ``sign-<i>`` (``+`` received,
    ``-`` paid), ``kan-<i>`` and ``mon-<i>``, read as ``sign × (kan × mon_per_kan + mon)`` mon.
    A blank seat is left out and text that is not a whole number is kept as typed, so the
    core names what is wrong; nothing here raises.
    """
    totals: dict[str, Any] = {}
    for i, p in enumerate(players):
        if f"kan-{i}" in form or f"mon-{i}" in form:
            kan = (form.get(f"kan-{i}") or "").strip()
            mon = (form.get(f"mon-{i}") or "").strip()
            if not kan and not mon:
                continue
            if (kan == "" or kan.isdigit()) and (mon == "" or mon.isdigit()) and len(kan + mon) < 8:
                amount = int(kan or 0) * mon_per_kan + int(mon or 0)
                totals[p] = -amount if form.get(f"sign-{i}") == "-" else amount
            else:
                totals[p] = f"{kan or 0} kan {mon or 0} mon"
            continue
        text = (form.get(f"total-{i}") or "").strip()
        if text:
            totals[p] = int(text) if _WHOLE.fullmatch(text) else text
            if form.get(f"sign-{i}") == "-" and isinstance(totals[p], int):
                totals[p] = -abs(totals[p])
    data: dict[str, Any] = {"totals": totals}
    if form.get("void") == "true":  # fuke voided the round: everyone 0
        data["totals"] = {p: totals.get(p, 0) for p in players}
        data["void"] = True
    winner = form.get("winner")
    if winner in players:
        data["winner"] = winner
    if form.get("first_to_target") in players:  # asked only when two or more reach the target
        data["first_to_target"] = form.get("first_to_target")
    return data


@dataclass(frozen=True)
class EntryForm:
    """A round entry screen: its template (extending ``round_form.html``) and the parser of
    its fields into the family's stored round (``parse(form, players) -> dict``)."""

    template: str
    parse: Callable[[FormData, Sequence[str]], dict[str, Any]]
    #: ``unanswered(form, data)``: what the form still has to be told before it scores, or None.
    unanswered: Callable[[FormData, Mapping[str, Any]], str | None] | None = None


#: The round entry forms, by the kind a family names (``referee.family.ENTRY_FORMS``).
ENTRY_FORMS: dict[str, EntryForm] = {
    "picker": EntryForm("round.html", parse_round_form),
    "money": EntryForm("round_money.html", parse_money_round_form),
    "calls": EntryForm("round_calls.html", parse_calls_round_form, calls_unanswered),
    "piles": EntryForm("round_piles.html", parse_piles_round_form, ending_unanswered),
}


def entry_form(family: str) -> EntryForm:
    """The entry form of a family (by name).  Raises ``RefereeError('bad-ruleset')`` for an unknown family."""
    return ENTRY_FORMS[families.get(family).entry_form]
