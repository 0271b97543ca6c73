"""The round entry forms: ``ENTRY_FORMS`` maps each kind a family can name (``Family.entry_form``)
to its template and the parser of its fields into the family's stored round.

Pure functions from a ``MultiDict``-like form to plain data; nothing here raises on what a
player typed (the core names what is wrong, but for the totals pad's boxes, which ``totals_refusal``
names in players' words).  ``round_data`` reads the round a posted form holds,
whichever of its inputs the player used (the entry form, the JSON box, the totals pad).  Must not
import Flask's request or the store.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee import families
from referee.cards import BY_ID, CARD_IDS, CARDS
from referee.errors import RefereeError, RoundFieldError, shown
from referee.family import Family
from referee.notation import DuplicateCardError
from referee.ruleset import load_table
from referee.totals import MAX_AMOUNT
from referee.web.forms import FormData
from referee.web.round_shape import stored_round, without_context
from referee.wording import NAMED_CARDS, words, yaku_name

_SEAT_FIELD = re.compile(r"(pile|hand|status|order)-(\d+)")


#: What a seat's field of a round form holds, in the form's words.
_SEAT_THINGS = {"pile": "a pile", "hand": "a hand", "status": "a player's status", "order": "a drop-out call order"}


def unknown_seats(form: Mapping[str, Any], players: Sequence[str]) -> str | None:
    """A message when the form has a field for a seat the session does not have (``pile-9``)."""
    for key in form:
        m = _SEAT_FIELD.fullmatch(key)
        if m and int(m.group(2)) >= len(players):
            return (
                f"Nothing was saved: the form holds {_SEAT_THINGS[m.group(1)]} for seat {int(m.group(2)) + 1}, "
                f"but this session seats {len(players)} players. Reload the round page."
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
    """Yaku, teyaku and dekiyaku ids of a ruleset -> "English 日本語" ("Poetry Ribbons 赤短",
    ``referee.wording.yaku_name``, as the core's messages name them), for the web to name them as
    players do.  Ids the ruleset does not name are left out."""
    try:
        table, _ = load_table(ruleset)
    except RefereeError:
        return {}
    out = {}
    for kind in ("yaku", "teyaku", "dekiyaku"):
        for yid, entry in (table.get(kind) or {}).items():
            if isinstance(entry, Mapping) and entry.get("en"):
                out[yid] = yaku_name(entry["en"], entry.get("ja", ""))
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


def dropped_with_cards(form: FormData, data: Mapping[str, Any]) -> str | None:
    """The money form's ``unanswered``: a player marked as dropping out (or forced out) with cards tapped into
    their pile, which the round would leave out unsaid (a player who drops out captures nothing); None if none."""
    dropped = iter(data.get("dropped") or {})
    seat = 0
    while (status := form.get(f"status-{seat}")) is not None or form.getlist(f"pile-{seat}"):
        if status in ("drop", "forced"):
            name = next(dropped, None)
            cards = _cards(form.getlist(f"pile-{seat}"))
            if name is not None and cards:
                marked = "forced out" if status == "forced" else "as dropping out"
                return (f"{name} is marked {marked} but has {len(cards)} card{'s' if len(cards) != 1 else ''} in "
                        f"their pile; a player who drops out captures nothing: take the cards out of {name}'s "
                        f"pile, or mark {name} as playing.")
        seat += 1
    return None


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


#: What may stand between ppeok turn numbers: a comma, a space, or the "." that a phone's number pad
#: offers instead (an iPhone's has no comma), and the full-width commas of a CJK keyboard ("1、2").
PPEOK_SEPARATORS = re.compile(r"[,.\s、，．]+")


def parse_piles_round_form(form: FormData, players: Sequence[str]) -> dict[str, Any]:
    """A round from the piles form (Go-Stop; GOSTOP-RULES.md "JSON", without the session's keys).

    Fields: ``pile-<i>`` (i = seat; once per tapped card); ``stopped_by`` (a player's name, or empty:
    nobody stopped; no field: not answered yet, see ``ending_unanswered``); per seat ``gos-<i>``,
    ``shakes-<i>``, ``bombs-<i>`` (blank: 0), ``ppeok-<i>`` (turn numbers, "1, 2", or "1.2") and ``bonus-<i>``
    (once per ticked bonus card, ``k:value``; ``_bonus_ticked``); ``sake_cup`` (``pi``, ``animal`` or empty: the referee
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
    for i, p in enumerate(players):
        text = (form.get(f"ppeok-{i}") or "").strip()
        if text:
            items = [t for t in PPEOK_SEPARATORS.split(text) if t]
            ppeok[p] = [int(t) if re.fullmatch(r"\d{1,2}", t) else t for t in items]
    if ppeok:
        data["ppeok"] = ppeok
    bonus = _bonus_ticked(form, players)
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


def _bonus_ticked(form: FormData, players: Sequence[str]) -> dict[str, list[Any]]:
    """Each player's ticked bonus cards (``bonus-<i>``, ``k:value``: the deck's card k, from 0) as the round
    records them: by pi value (GOSTOP-RULES.md "Cards"), but for a card ticked for two players (or twice),
    which values cannot tell from two cards of one value: that one is named by its number, ``{"card": k + 1}``,
    and the core refuses it as a card in two piles.  Text that is not a number is kept as typed."""
    ticks = {p: [v.partition(":") for v in form.getlist(f"bonus-{i}")] for i, p in enumerate(players)}
    times = Counter(k for ticked in ticks.values() for k, _, _ in ticked if k.isdigit() and len(k) < 3)
    return {
        p: [{"card": int(k) + 1} if times[k] > 1 else int(v) if v.isdigit() and len(v) < 3 else v for k, _, v in ticked]
        for p, ticked in ticks.items() if ticked
    }


def bonus_ticks(data: Mapping[str, Any], players: Sequence[str], deck: Sequence[int]) -> dict[str, dict[int, tuple]]:
    """Player -> the deck's bonus cards ticked for them on the piles form (their places in option ``bonus_cards``,
    from 0), each with the other players it is ticked for too (a card in two piles, said at the field).

    A card the round names (``{"card": n}``) is ticked where it is named; a pi value takes the first card of that
    value that nobody holds yet, in seat order (so two players' 2 pi are two cards), or the first of that value
    when every one is held (more than the deck has: shown ticked twice).  Pure: never raises."""
    bonus = data.get("bonus")
    table = bonus if isinstance(bonus, Mapping) else {}
    held: dict[int, list[str]] = {}
    values: list[tuple[str, int]] = []
    for p in players:
        entries = table.get(p)
        for e in entries if isinstance(entries, list | tuple) else ():
            n = e.get("card") if isinstance(e, Mapping) else None
            if isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= len(deck):
                held.setdefault(n - 1, []).append(p)
            elif isinstance(e, int) and not isinstance(e, bool):
                values.append((p, e))
    for p, v in values:
        of_value = [k for k, d in enumerate(deck) if d == v]
        free = [k for k in of_value if k not in held] or of_value
        if free:
            held.setdefault(free[0], []).append(p)
    out: dict[str, dict[int, tuple]] = {p: {} for p in players}
    for k, who in sorted(held.items()):
        for p in who:
            out[p][k] = tuple(dict.fromkeys(q for q in who if q != p))
    return out


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
            if _DIGITS.fullmatch(kan or "0") and _DIGITS.fullmatch(mon or "0") and len(kan + mon) < 8:
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


#: Digits only (``str.isdigit`` also takes ``²``, which ``int`` cannot read).
_DIGITS = re.compile(r"\d+")
#: A whole number as the points pad takes it: digits, perhaps signed.
_SIGNED = re.compile(r"[+-]?\d+")


def no_card_entered(saving: bool) -> str:
    """What a cards form says of a round with no card in it (``round_shape.no_card``), on Score or, ``saving``, on
    Save: what to do, never the core's refusal of piles that hold nothing (Hachi-hachi's 48 cards in no pile)."""
    do = ("Tap the cards each player took into their pile (or snap it), or use “Enter totals only” for a round "
          "scored on paper.")
    return f"Nothing was saved: no card is entered. {do}" if saving else f"No card is entered. {do}"


def nothing_entered(unit: str, saving: bool = True) -> str:
    """What the totals pad says when every box is empty (and the round is not void), in the family's ``unit``, on
    Save (``saving``: "Nothing was saved: …") or on Score (what to do, nothing said of saving)."""
    if unit == "mon":
        said = "no amounts are entered. Enter what each player won or paid this round, in kan and mon (0 if none)."
    else:
        said = "no points are entered. Enter what each player adds this round (0 if none)."
    return f"Nothing was saved: {said}" if saving else said[0].upper() + said[1:]


def totals_refusal(form: FormData, players: Sequence[str], unit: str = "points", mon_per_kan: int = 12) -> str | None:
    """What the totals pad says, in players' words, of every box it cannot read at once (``box_refusals``) and of
    every empty one (a void round counts it 0; every box empty: ``nothing_entered``), in the boxes' (seats') order
    whatever is wrong with each, empty boxes side by side said together; None when every box reads (the core checks
    the rest: sums, a void round's points).

    ``unit`` is the family's (``Family.unit``): ``points`` (a round adds 0 or more), ``money`` (Go-Stop's
    points won or paid, a sign chosen beside each) or ``mon`` (kan and mon, a sign each)."""
    bad = box_refusals(form, players, unit, mon_per_kan, empty=False)
    empty = set(_counted_empty(form, players, unit))
    if empty and len(empty) == len(players):
        return nothing_entered(unit, form.get("action") == "save")
    said: list[str] = []
    run: list[str] = []  # empty boxes side by side, said in one sentence
    for i, p in enumerate(players):
        if p in empty:
            run.append(p)
            continue
        if run:
            said.append(_empty_words(run, unit))
            run = []
        if i in bad:
            said.append(bad[i])
    if run:
        said.append(_empty_words(run, unit))
    return " ".join(said) or None


def box_refusals(form: FormData, players: Sequence[str], unit: str = "points", mon_per_kan: int = 12,
                 empty: bool = True) -> dict[int, str]:
    """Seat -> what the totals pad says beside that player's box (Hachi-hachi: boxes, kan and mon) when it cannot
    read it, naming the player and what was typed: not a whole number (text, a decimal), too big (beyond
    ``referee.totals.MAX_AMOUNT``, said with the limit) or, where a round only adds points, negative; with
    ``empty``, an empty box too (not in a void round, nor when every box is empty: ``nothing_entered`` says that
    round once).  Every box is read, so a form with three bad boxes names all three at once."""
    said: dict[int, str] = {}
    for i, p in enumerate(players):
        if unit == "mon":
            why = _money_box_refusal((form.get(f"kan-{i}") or "").strip(), (form.get(f"mon-{i}") or "").strip(), p,
                                     mon_per_kan)
        else:
            why = _points_box_refusal((form.get(f"total-{i}") or "").strip(), p, unit)
        if why:
            said[i] = why
    seats = _counted_empty(form, players, unit) if empty else []
    if seats and len(seats) < len(players):
        said |= {players.index(p): _empty_words([p], unit) for p in seats}
    return dict(sorted(said.items()))


def _points_box_refusal(text: str, p: str, unit: str) -> str | None:
    """What one total box (``total-<i>``) says when it holds something it cannot read (None: empty or whole)."""
    if not text:
        return None
    if not _SIGNED.fullmatch(text) and _past_the_limit(text):
        return f"{p}'s total must be at most {MAX_AMOUNT} points; you entered {_number(text)}."
    if not _SIGNED.fullmatch(text):
        return f"{p}'s total must be a whole number of points, like 120; you entered {_as_typed(text)}."
    if len(text.lstrip("+-").lstrip("0")) > len(str(MAX_AMOUNT)) or abs(int(text)) > MAX_AMOUNT:
        return f"{p}'s total must be at most {MAX_AMOUNT} points; you entered {_number(text)}."
    if unit == "points" and int(text) < 0:
        return f"{p}'s total must be 0 or more points (a round never takes points away); you entered {int(text)}."
    return None


def _money_box_refusal(kan: str, mon: str, p: str, mon_per_kan: int) -> str | None:
    """What one player's kan and mon boxes (Hachi-hachi's pad, the sign chosen beside) say when they hold
    something they cannot read (None: both empty, or an amount)."""
    if not kan and not mon:
        return None
    for part, text, like in (("kan", kan, 2), ("mon", mon, 7)):
        if text and _SIGNED.fullmatch(text) and not _DIGITS.fullmatch(text):
            return (f"{p}'s {part} must be a number without + or −, like {like} (“won” or “paid” gives the "
                    f"sign); you entered {text}.")
        if text and not _DIGITS.fullmatch(text):
            return f"{p}'s {part} must be a whole number, like {like}; you entered {_as_typed(text)}."
    if len(kan + mon) >= 8 or int(kan or 0) * mon_per_kan + int(mon or 0) > MAX_AMOUNT:
        most = f"{MAX_AMOUNT // mon_per_kan} kan {MAX_AMOUNT % mon_per_kan} mon"
        typed = f"{_number(kan or '0')} kan {_number(mon or '0')} mon"
        return f"{p}'s amount must be at most {MAX_AMOUNT} mon ({most}); you entered {typed}."
    return None


def _empty_seats(form: FormData, players: Sequence[str], unit: str) -> list[str]:
    """The players whose box (Hachi-hachi: both boxes) is empty."""
    if unit == "mon":
        return [p for i, p in enumerate(players)
                if not (form.get(f"kan-{i}") or "").strip() and not (form.get(f"mon-{i}") or "").strip()]
    return [p for i, p in enumerate(players) if not (form.get(f"total-{i}") or "").strip()]


def _counted_empty(form: FormData, players: Sequence[str], unit: str) -> list[str]:
    """The players whose empty box the pad names: none in a void round of points or Go-Stop's (it counts an
    empty box 0); Hachi-hachi's kan and mon are always named."""
    return _empty_seats(form, players, unit) if unit == "mon" or form.get("void") != "true" else []


def _empty_words(empty: Sequence[str], unit: str) -> str:
    """What the pad says of empty boxes (some, not all), in the family's ``unit``."""
    if unit == "mon":
        if len(empty) == 1:
            return f"{empty[0]}'s amount is empty: enter the kan and mon {empty[0]} won or paid this round, 0 if none."
        return f"{_owners(empty)} amounts are empty: enter the kan and mon each won or paid this round, 0 if none."
    did = "adds" if unit == "points" else "won or paid"
    if len(empty) == 1:
        return f"{empty[0]}'s total is empty: enter the points {empty[0]} {did} this round, 0 if none."
    return f"{_owners(empty)} totals are empty: enter the points each {did} this round, 0 if none."


def void_refusal(form: FormData, players: Sequence[str], family: Family) -> str | None:
    """What the totals pad says of a total other than 0 typed in a round ticked void (``Family.entered_void``),
    naming the tick as the player reads it; None when there is none (or the pad has no such tick). Call it after
    ``totals_refusal``: it reads boxes that one found whole."""
    if form.get("void") != "true" or family.unit == "mon":
        return None
    for i, p in enumerate(players):
        text = (form.get(f"total-{i}") or "").strip()
        if text and _SIGNED.fullmatch(text) and int(text):
            return (f"The round is ticked “{family.entered_void}”, so {p}'s total must be 0; you entered "
                    f"{int(text)}. Enter 0 for everyone, or untick it.")
    return None


#: A number written with a decimal point or an exponent (``12.5``, ``1e30``), which ``_past_the_limit`` reads.
_WRITTEN_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,4})?")


def _past_the_limit(text: str) -> bool:
    """A number typed with a decimal point or an exponent, too big for any total (``1e30``): said as too big,
    naming the limit, as the API says of ``1e30``, rather than as not whole."""
    return bool(_WRITTEN_NUMBER.fullmatch(text)) and abs(float(text)) > MAX_AMOUNT


def _as_typed(text: str) -> str:
    """Text a player typed, in quotes, cut short past 40 characters."""
    return f"“{text if len(text) <= 40 else text[:39] + '…'}”"


def _number(text: str) -> str:
    """A number as typed, or how many digits it has when it is too long to read out."""
    digits = text.lstrip("+-")
    return text if len(digits) <= 15 else f"a number of {len(digits)} digits"


def _owners(names: Sequence[str]) -> str:
    """``Ben's and Chiyo's``, ``Ben's, Chiyo's and Dai's``."""
    owned = [f"{n}'s" for n in names]
    return owned[0] if len(owned) == 1 else f"{', '.join(owned[:-1])} and {owned[-1]}"


@dataclass(frozen=True)
class EntryForm:
    """A round entry screen: its template (extending ``entry/round_form.html``), the parser of
    its fields into the family's stored round (``parse(form, players) -> dict``), and ``facts``:
    the partial that names, in the form's own words, what such a round holds beside its piles,
    dealt hands and entered totals (Koi-Koi's calls, Go-Stop's gos...), for the pages that show a
    saved round (``partials/round_cards.html``)."""

    template: str
    parse: Callable[[FormData, Sequence[str]], dict[str, Any]]
    facts: str
    #: ``unanswered(form, data)``: what the form still has to be told before it scores, or None.
    unanswered: Callable[[FormData, Mapping[str, Any]], str | None] | None = None
    #: ``words(error)``: the core's error (or its message) about a round this form sent, in the form's words (its
    #: fields by their labels, not the round JSON's keys).
    words: Callable[[RefereeError | str], str] = lambda error: _plain_words(
        error if isinstance(error, str) else error.message)


# ---- the core's words about a round, in the form's ------------------------------------

#: The form's words for a core refusal of one field, from its parts (``RoundFieldError``), by ``(field, rule)``.
Rewording = Callable[[RoundFieldError], str]


def _typed(shown: str) -> str:
    """A value as the core's message shows it (``'abc'``, ``["x"]``, ``[1, 1]``, ``13``) as the player typed it:
    numbers plainly, anything else in quotes, a list's entries by commas."""
    inner = shown[1:-1] if shown.startswith("[") and shown.endswith("]") else shown
    items = [t.strip().strip("'\"") for t in inner.split(",")] if inner else []
    text = ", ".join(items)
    return text if re.fullmatch(r"[-\d, ]*", text) and text else f"“{text}”"


def _listed(shown: str) -> str:
    """A Python list of names in a message (``['Aki', 'Ben']``) as players read it: ``Aki, Ben``."""
    return ", ".join(re.findall(r"'([^']*)'", shown))


def _plain_words(message: str) -> str:
    """What every entry form says of a core message it has no words for from its parts (``_rewords``): ``Who
    stopped`` for the JSON's ``"stopped_by"`` (``referee.koikoi.game.ENDING_MISSING``), lists of names and quoted
    names as players read them (``_listed``; the Hachi-hachi form's ``'Zed' is not seated; players are [...]``)."""
    message = message.replace('"stopped_by"', "Who stopped")
    message = re.sub(r"\[(?:'[^']*'(?:, )?)+\]", lambda n: _listed(n.group(0)), message)
    return re.sub(r"'([^']*)'", r"“\1”", message)


#: A field naming a player (``referee.errors.one_of_the_players``), as the form labels it.
_PLAYER_FIELDS = {"stopped_by": "Who stopped", "dealer": "The dealer", "last_go": "“Who called last”",
                  "dokbak": "“독박 declared”", "instant.player": "Chongtong's “Who”"}


def _field_name(e: RoundFieldError) -> str:
    """The form's label of the field a refusal is about: a koi-koi call by its number (``calls.player`` at
    ``index`` 0: ``Koi-koi call 1``)."""
    if e.field == "calls.player":
        return f"Koi-koi call {(e.index or 0) + 1}"
    return _PLAYER_FIELDS[e.field]


def _not_a_player(e: RoundFieldError) -> str:
    return f"{_field_name(e)} must be one of the players ({', '.join(e.players)}); the form sent {_given(e.value)}."


#: Every form's words for a name that is not one of the players (rule ``not-a-player``), by the field.
_PLAYER_WORDS: dict[tuple[str, str], Rewording] = {
    (field, "not-a-player"): _not_a_player for field in ("calls.player", *_PLAYER_FIELDS)}


#: The piles form's fields by their labels (``entry/round_piles.html``), for the core's keys.
_PILES_FIELDS = {"gos": "Go 고", "shakes": "Shake 흔들기", "bombs": "Bomb 폭탄", "ppeok": "Ppeok 뻑",
                 "piles": "the piles", "bonus": "the bonus cards", "stopped_by": "who stopped",
                 "last_go": "“Who called last”", "dokbak": "“독박 declared”", "instant.player": "Chongtong's “Who”"}


def _given(value: Any) -> str:
    """A value a ``RoundFieldError`` carries as the player typed it (``_typed`` of the core's ``shown``)."""
    return _typed(shown(value))


def _round_over(e: RoundFieldError) -> str:
    leave = [_PILES_FIELDS.get(k, k) for k in e.value if k != "stopped_by"]
    steps = ([f"leave {' and '.join(leave)} empty"] if leave else []) + (
        ["choose “Nobody stopped”"] if "stopped_by" in e.value else [])
    return (f"Chongtong (총통) by {e.player} ends the round at the deal: {' and '.join(steps)}, or clear the chongtong "
            "if the round was played.")


def _twice(e: RoundFieldError) -> str:
    seen: list[Any] = []
    again = next((t for t in e.value if t in seen or seen.append(t)), ", ".join(map(str, e.value)))
    return f"{e.player}'s ppeok (뻑) names turn {again} twice; give each turn once."


def _not_in_deck(e: RoundFieldError) -> str:
    deck = (f"these house rules' bonus cards are worth {words([str(v) for v in e.limit], 'or')} pi" if e.limit else
            "these house rules play without bonus cards")
    return (f"{e.player}'s bonus card is worth {_given(e.value)} pi, but {deck}; reload the round page and tick them "
            "again.")


def _bonus_twice(e: RoundFieldError) -> str:
    card = f"Bonus card {e.value} ({e.limit} pi)"
    if len(e.players) == 1:
        return f"{card} is ticked twice for {e.player}; tick it once."
    both = "both " if len(e.players) == 2 else ""
    return (f"{card} is ticked for {both}{words(list(e.players))}, but the deck has one of each bonus card: tick each "
            "bonus card once, for the player who holds it.")


def _no_such_card(e: RoundFieldError) -> str:
    deck = f"the {e.limit} in this deck" if e.limit else "this deck's: these house rules play without bonus cards"
    return f"{e.player}'s bonus card is not one of {deck}; reload the round page and tick them again."


#: The Go-Stop core's refusals of the piles form's fields (``referee.gostop.inputs.make_round``), in the form's words.
_PILES_WORDS: dict[tuple[str, str], Rewording] = {
    **{(key, "count"): lambda e: f"{e.player}'s {_PILES_FIELDS[e.field]} must be a whole number 0 to {e.limit} "
                                 f"(blank is 0); you entered {_given(e.value)}." for key in ("gos", "shakes", "bombs")},
    ("ppeok", "turns"): lambda e: f"{e.player}'s ppeok (뻑) must be turn numbers 1 to {e.limit}, separated by commas, "
                                  f"such as “1, 2”; you entered {_given(e.value)}.",
    ("ppeok", "twice"): _twice,
    ("ppeok", "too-many"): lambda e: f"{e.player}'s ppeok (뻑) lists {len(e.value)} turns, but the third ends the "
                                     "round (3뻑); give at most three.",
    ("stopped_by", "three-ppeok"): lambda e: f"{e.player} made three ppeok (3뻑), which ends the round, so nobody "
                                             "stopped: choose “Nobody stopped”.",
    ("last_go", "no-go"): lambda e: f"“Who called last” names {e.player}, who called no go ({e.player}'s Go 고 is "
                                    "blank); choose the loser who called go last.",
    ("dokbak", "stopper"): lambda e: f"“독박 declared” names {e.player}, who stopped; choose the loser who fed the "
                                     "winner.",
    ("instant.cards", "one-month"): lambda e: f"Chongtong (총통) by {e.player}: choose the month whose four cards "
                                              f"{e.player} was dealt.",
    ("instant", "played"): _round_over,
    ("bonus", "too-many"): lambda e: f"The bonus cards worth {e.value} pi are ticked {sum(e.counts.values())} times "
                                     f"({', '.join(f'{p} {n}' for p, n in e.counts.items())}), but the deck holds "
                                     f"{e.limit}; tick each bonus card once, for the player who holds it.",
    ("bonus", "not-in-deck"): _not_in_deck,
    ("bonus", "two-piles"): _bonus_twice,
    ("bonus", "no-such-card"): _no_such_card,
    ("sake_cup", "fixed"): lambda e: "Under these house rules the sake cup is always "
                                     f"{'a pi' if e.limit == 'pi' else 'an animal'}: leave “Sake cup (국진)” at "
                                     "“Best for its holder”.",
}


def _not_whole_deck(e: RoundFieldError) -> str:
    """The deck check's refusal, the cards in no pile by name while few are missing (``referee.wording.NAMED_CARDS``),
    else counted with what to do: one card tapped in is not answered with the 47 others' names."""
    active = len(e.players)
    if len(e.cards) > NAMED_CARDS:
        held = len(CARD_IDS) - len(e.cards)
        return (f"The piles hold {held} of the {len(CARD_IDS)} cards; with {active} players every card is played, so "
                f"a round settled on card points needs all {len(CARD_IDS)}. Tap in the cards each player took: "
                f"{len(e.cards)} are in no pile yet.")
    gap = e.limit - e.value
    how = f"{gap} missing" if gap > 0 else f"{-gap} extra"
    names = ", ".join(BY_ID[c].name if c in BY_ID else c for c in e.cards) or "none"
    return (f"The piles hold {e.value} of {e.limit} points ({how}); with {active} players every card is "
            f"played, so a round settled on card points needs all {len(CARD_IDS)} cards. Cards in no pile: {names}.")


#: The Hachi-hachi core's refusals of the money form's drop-out call order and field multiplier
#: (``referee.hachihachi.round.make_round``) and of its piles settled on card points
#: (``referee.hachihachi.deal.DeckCheck.refusal``), in the form's words.
_MONEY_WORDS: dict[tuple[str, str], Rewording] = {
    ("piles", "whole-deck"): _not_whole_deck,
    ("piles", "in-play"): lambda e: f"The piles hold {e.value} cards; with {len(e.players)} players "
                                    f"{len(CARD_IDS) - e.limit} cards are never drawn, so at most {e.limit} can be "
                                    "captured: a card is entered twice or belongs to another round.",
    ("multiplier", "choice"): lambda e: f"The field's multiplier must be {words([f'×{v}' for v in e.limit], 'or')}; "
                                        f"the form sent {_given(e.value)}. Reload the round page and choose it again.",
    ("dropped", "order"): lambda e: f"The call order of the players who drop out must number them 1 to {e.limit}, "
                                    f"each once ({', '.join(e.players)}); you entered {_given(e.value)}.",
    ("dropped", "seating"): lambda e: f"The call order of the players who drop out ({', '.join(map(str, e.value))}) "
                                      f"does not follow the seating from the dealer ({', '.join(e.players)}), in which "
                                      "they call.",
}


def _rewords(rules: Mapping[tuple[str, str], Rewording]) -> Callable[[RefereeError | str], str]:
    """``EntryForm.words`` from the form's words for a ``RoundFieldError`` by its ``(field, rule)``; any other
    error (or message) by ``_plain_words``."""

    def said(error: RefereeError | str) -> str:
        if isinstance(error, RoundFieldError) and (reword := rules.get((error.field, error.rule))):
            return reword(error)
        return _plain_words(error if isinstance(error, str) else error.message)

    return said


#: The round entry forms, by the kind a family names (``referee.family.ENTRY_FORMS``).
ENTRY_FORMS: dict[str, EntryForm] = {
    "picker": EntryForm("entry/round.html", parse_round_form, "partials/round_facts/picker.html",
                        words=_rewords(_PLAYER_WORDS)),
    "money": EntryForm("entry/round_money.html", parse_money_round_form, "partials/round_facts/money.html",
                       dropped_with_cards, _rewords({**_PLAYER_WORDS, **_MONEY_WORDS})),
    "calls": EntryForm("entry/round_calls.html", parse_calls_round_form, "partials/round_facts/calls.html",
                       calls_unanswered, _rewords(_PLAYER_WORDS)),
    "piles": EntryForm("entry/round_piles.html", parse_piles_round_form, "partials/round_facts/piles.html",
                       ending_unanswered, _rewords({**_PLAYER_WORDS, **_PILES_WORDS})),
}


#: What a saved round shows beside its piles, hands and totals where its family has no entry form
#: (a game no longer registered): its other keys as JSON, since no form names them in players' words.
JSON_FACTS = "partials/round_facts/json.html"


def entry_form(family: str | Family) -> EntryForm:
    """The entry form of a registered family (the family, or its name).  Raises
    ``RefereeError('bad-ruleset')`` for an unknown family, or one no longer registered (the stand-in
    ``referee.web.board.session_family`` gives its session): its rounds are entered as JSON."""
    found = family if isinstance(family, Family) else families.get(family)
    if families.REGISTRY.get(found.name) is not found:
        raise RefereeError("bad-ruleset", f"the game {found.name!r} is not registered: it has no entry form")
    return ENTRY_FORMS[found.entry_form]


def registered_form(family: str | Family) -> EntryForm | None:
    """:func:`entry_form`, or None where it refuses (a game no longer registered: its rounds are
    entered in the JSON box)."""
    try:
        return entry_form(family)
    except RefereeError:
        return None


# ---- the round a posted form holds ----------------------------------------------------


def round_data(form: FormData, players: Sequence[str], family: Family, context: Mapping[str, Any] | None = None,
               mon_per_kan: int = 12) -> tuple[dict[str, Any], str | None]:
    """The round input from a submitted round form: the family's entry form or its JSON box (which
    may repeat the round's game ``context``, e.g. Koi-Koi's month, if it matches), or the totals pad
    (``entry=totals``; money read with ``mon_per_kan`` mon to the kan; a box it cannot read said by
    ``totals_refusal``).  Returns (the stored-shape round, the message when it cannot be read)."""
    text = form.get("round_json", "").strip()
    if form.get("entry") == "totals" and not text:
        why = totals_refusal(form, players, family.unit, mon_per_kan) or void_refusal(form, players, family)
        return parse_totals_form(form, players, mon_per_kan), why
    if not text and (entry := registered_form(family)) is not None:
        return entry.parse(form, players), unknown_seats(form, players)
    try:
        data = json.loads(text or "{}")
    except json.JSONDecodeError as e:
        return {"piles": {}, "_text": text}, (
            f"Nothing was saved: the round is not valid JSON: {json_fault(e.msg)} at line {e.lineno}, "
            f"column {e.colno}."
        )
    except (RecursionError, ValueError):
        why = "Nothing was saved: the round JSON is nested too deeply or has too long a number."
        return {"piles": {}, "_text": text}, why
    if not isinstance(data, dict):
        kind = {list: "an array", str: "a string", int: "a number", float: "a number"}.get(type(data), "a value")
        return {"piles": {}, "_text": text}, f"Nothing was saved: the round must be a JSON object {{...}}, not {kind}."
    data, mismatch = without_context(family, data, context or {})
    if mismatch:
        return {**data, "_text": text}, f"Nothing was saved: {mismatch}."
    return stored_round(family, data), None


#: The JSON decoder's phrases (``json.JSONDecodeError.msg``) in words.
_JSON_FAULTS = {
    "Expecting value": "a value was expected",
    "Expecting property name enclosed in double quotes": "a key in double quotes was expected",
    "Expecting ',' delimiter": "a comma was expected",
    "Expecting ':' delimiter": "a colon was expected",
    "Extra data": "there is more after {whole}'s closing }",
    "Unterminated string starting at": "a string has no closing quote, from",
    "Invalid control character at": "a string holds a line break or tab",
    "Invalid \\escape": "a string holds an unknown backslash escape",
}


def json_fault(msg: str, whole: str = "the round") -> str:
    """The JSON decoder's ``msg`` in words; ``whole`` names what the text should have been (its closing ``}``)."""
    return _JSON_FAULTS.get(msg, msg[:1].lower() + msg[1:]).replace("{whole}", whole)


def _without_python(message: str) -> str:
    """The core's message with no Python in it, for the JSON box and the totals pad, which keep the core's words
    (the JSON's keys): a list of names (``['Aki', 'Ben', 'Cho']``) as ``Aki, Ben and Cho``, a quoted name
    (``'Zed'``) in quotation marks."""
    message = re.sub(r"\[(?:'[^']*'(?:, )?)+\]", lambda n: words(re.findall(r"'([^']*)'", n.group(0))), message)
    return re.sub(r"'([^']*)'", r"“\1”", message)


def unanswered(form: FormData, family: Family, data: dict[str, Any]) -> str | None:
    """What the family's entry form still has to be told before the round scores (Koi-Koi: how
    it ended, ``calls_unanswered``); None for the JSON box and the totals pad."""
    if form.get("round_json", "").strip() or form.get("entry") == "totals":
        return None
    entry = registered_form(family)
    return entry.unanswered(form, data) if entry and entry.unanswered else None


def _card_twice(error: DuplicateCardError) -> str | None:
    """A card in two piles (or hands), or twice in one, as a form's player reads it: the card by its name, the
    piles by their players; None for a group the forms do not show (``instant.cards of``)."""
    if error.what not in ("pile", "hand") or error.card not in BY_ID:
        return None
    name = BY_ID[error.card].name
    if len(error.owners) == 1:
        return f"{name} is in {error.owners[0]}'s {error.what} twice; take one out."
    first, second = error.owners
    return f"{name} is in both {first}'s {error.what} and {second}'s {error.what}; take it out of one."


#: A message's first word as the core writes a sentence's (``misdeal:``, ``the piles``), not a JSON key
#: (``first_to_target``, ``options.players``) nor a name with its ``'s``.
_FIRST_WORD = re.compile(r"([a-z]+)(?=[ :;,]|$)")


def sentence(message: str, players: Sequence[str] = ()) -> str:
    """The core's ``message`` as a page shows it, a sentence: its first letter a capital (the core writes its
    messages to follow ``error:`` on the command line), but for a first word that is a JSON key or a player's name
    as typed (``aki stopped but…``)."""
    first = _FIRST_WORD.match(message)
    if first is None or any(message == p or message.startswith((f"{p} ", f"{p}'")) for p in players):
        return message
    return message[:1].upper() + message[1:]


def in_form_words(form: FormData, family: Family, error: RefereeError | str) -> str:
    """The core's ``error`` (or its message) about the round a posted form sent, in the words of the form the player
    used: the entry form's (``EntryForm.words``; a card in two piles by its name, ``_card_twice``); the JSON box's
    and the totals pad's in the core's words (the JSON's keys are what the player wrote there; the totals' messages
    name players, not keys), less Python's lists and quotes."""
    message = error if isinstance(error, str) else error.message
    if form.get("round_json", "").strip() or form.get("entry") == "totals":
        return _without_python(message)
    if isinstance(error, DuplicateCardError) and (said := _card_twice(error)):
        return said
    entry = registered_form(family)
    return entry.words(error) if entry else _without_python(message)


def dealer_mismatch(posted: Any, dealer: str, players: Sequence[str]) -> str | None:
    """A message when a posted ``dealer`` is not this round's oya (``None``: none posted, or it matches)."""
    if posted is None or posted == dealer:
        return None
    if not isinstance(posted, str) or posted not in players:
        shown = posted if isinstance(posted, str) else type(posted).__name__
        return (
            f"Nothing was saved: the dealer {str(shown)[:40]!r} is not a player of this session (the oya is {dealer})."
        )
    return (
        f"Nothing was saved: this round's oya is {dealer}, not {posted} (the rounds saved since this page "
        "was opened changed it). Check the cards, then score and save again."
    )
