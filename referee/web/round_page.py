"""The round entry page: the family's entry form (``referee.web.forms.rounds.ENTRY_FORMS``),
the totals pad or the JSON box, showing a round as typed, scored, or refused.

The new-round and edit screens, the kept steps and the photo review all render it
(``entry_page``); ``live_context`` is what the page and its live preview share, and
``round_words`` what a page needs to name a stored round (``partials/round_cards.html``);
``unfinished_round`` is the round a page left half entered, offered when it is opened anew.
Below the views: must not import them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from flask import render_template
from werkzeug.datastructures import MultiDict

from referee import store
from referee.cards import month_label
from referee.errors import RefereeError
from referee.family import Family
from referee.web import drafts
from referee.web.board import amount_formatter, extra_round, option_value
from referee.web.db import get_db
from referee.web.drafts import DRAFT_ID, posted
from referee.web.forms.piles import rest_seats
from referee.web.forms.rounds import (
    CALL_ROWS,
    JSON_FACTS,
    bonus_ticks,
    box_refusals,
    cards_entered,
    dekiyaku_choices,
    registered_form,
    round_data,
    yaku_names,
)
from referee.web.nonces import new_nonce, nonce_ok
from referee.web.round_shape import round_input
from referee.web.service import rounds
from referee.web.service import session as service
from referee.web.service.session import Opened


def suggestions(
    opened: Opened, data: dict[str, Any], dealer: str, context: Mapping[str, Any] | None = None
) -> dict | None:
    """What the cards show before the decisions are stated (Hachi-hachi: dekiyaku, hatto
    candidates, teyaku), where the family can tell (``Family.suggest_json``)."""
    try:
        suggest = opened.family.suggest_json
        return suggest(round_input(opened.session, data, dealer, context)) if suggest else None
    except RefereeError:
        return None


def entry_page(
    opened: Opened,
    data: dict[str, Any],
    *,
    dealer: str,
    number: int,
    status: int = 200,
    rnd: store.RoundRow | None = None,
    result: dict | None = None,
    error: str | None = None,
    scored: bool = False,
    nonce: str | None = None,
    version: int | None = None,
    tab: str = "0",
    context: Mapping[str, Any] | None = None,
    show_hands: bool = False,
    saved_round: store.RoundRow | None = None,
    cleared: Mapping[int, list[str]] | None = None,
    unfinished: Mapping[str, Any] | None = None,
) -> tuple[str, int]:
    """The round entry page (the family's entry form, the totals pad, or the JSON box) showing
    ``data``: round ``number`` with its oya ``dealer``, as the round after the game that left
    ``context``; ``rnd``: the saved round being edited; ``result`` and ``error``: what scoring it
    gave; ``unfinished``: the round a page left half entered, offered (``unfinished_round``).
    Returns (the page, ``status``)."""
    sess = opened.session
    board = service.board(get_db(), opened)
    family = opened.family
    context = context or {}
    if "totals" not in data and not isinstance(data.get("piles"), Mapping):
        data = {**data, "piles": {}}  # a round typed without piles (dealt hands only) still shows its pickers
    owner: dict[str, int] = {}
    for i, p in enumerate(sess.players):
        for c in data.get("piles", {}).get(p, []):
            owner.setdefault(c, i)
    dropped = data.get("dropped") or {}
    hands = {p: (data.get("hands") or {}).get(p) or (dropped.get(p) or {}).get("hand") or [] for p in sess.players}
    hand_owner: dict[str, int | str] = dict.fromkeys(data.get("field") or [], "f")
    for i, p in enumerate(sess.players):
        for c in hands[p]:
            hand_owner.setdefault(c, i)
    form = registered_form(opened.family)
    if form is None:  # a game no longer registered, also for a round entered as totals: nothing can be saved
        template = "entry/round_json.html"
    elif "totals" in data:
        template = "entry/round_totals.html"
    else:
        template = form.template
    bonus_deck = list(option_value(sess, "bonus_cards", (), opened.loaded) or ())
    nonce = nonce if nonce_ok(nonce) else new_nonce()
    draft_id = str(posted().get("draft") or "")
    if not DRAFT_ID.fullmatch(draft_id):  # one per page: the same page shown again keeps the same one
        draft_id = hashlib.sha256(f"draft:{sess.id}:{nonce}".encode()).hexdigest()[:16]
    ctx = {
        "draft_id": draft_id,
        "s": sess,
        "data": data,
        "dealer": dealer,
        "number": number,
        "rnd": rnd,
        "result": result,
        "error": error,
        # Why the rules do not load (a game no longer registered), for the JSON box that stands in for its form.
        "rules_error": opened.loaded.error.message if opened.loaded.error is not None else None,
        "scored": scored,
        "nonce": nonce,
        "version": version,
        "owner": owner,
        "hand_owner": hand_owner,
        "hands": hands,
        "dropped": dropped,
        "count": cards_entered(data),
        "tab": tab,
        "context": context,
        "carry": list(context.get("carry") or ()),
        "round_month": month_label(context["month"]) if context.get("month") else "",
        "call_rows": CALL_ROWS,
        "suggest": suggestions(opened, data, dealer, context) if data.get("piles") else None,
        "dekiyaku_ids": dekiyaku_choices(sess.ruleset),
        "liable_on": option_value(sess, "liable_thrower", False, opened.loaded),
        "first_choices": rounds.first_to_target(opened, board, number, result),
        # The round that ends the game names no next dealer: no next round is played.
        "game_over": (rounds.game_end(opened, board, data, (rnd or saved_round).id if rnd or saved_round else None)
                      if result else None),
        "extra_round": extra_round(number, board.rounds_planned),
        "data_json": json.dumps({k: v for k, v in data.items() if k != "_text"}, ensure_ascii=False, indent=1),
        "show_hands": show_hands or any(hands.values()),
        "typed": posted(),
        # Beside each box of the totals pad that cannot be read, what it says (all at once).
        "box_errors": (box_refusals(posted(), sess.players, family.unit, mon_per_kan(opened))
                       if error and "totals" in data else {}),
        "mon_per_kan": mon_per_kan(opened),
        "unit": family.unit,
        "entered_void": family.entered_void,
        "month_names": [(m, (family.month_name or month_label)(m)) for m in range(1, 13)],
        "month_rows": month_rows(family),
        "bonus_deck": bonus_deck,
        "bonus_ticks": bonus_ticks(data, sess.players, bonus_deck) if bonus_deck else {},
        "saved_round": saved_round,
        "cleared": cleared or {},
        "unfinished": unfinished,
        "rest_seats": rest_seats(data, sess.players),
        # A round shown as saved: the totals before it, not the current ones (which hold it already).
        **live_context(opened, rnd or saved_round),
    }
    return render_template(template, **ctx), status


def unfinished_round(opened: Opened, number: int) -> dict[str, Any] | None:
    """The new round ``number`` a page left with cards tapped in and unsaved (``drafts.unfinished``),
    as the fresh page offers it: ``{"number", "count": cards in the piles, "step": the draft's id,
    whose ``?step=`` page continues it}``; None when there is none, it holds no card, or the store is busy."""
    sess = opened.session
    try:
        draft = drafts.unfinished(sess, number)
    except store.StoreUnavailableError:
        return None
    if draft is None:
        return None
    count = cards_entered(round_data(MultiDict(draft.form), sess.players, opened.family)[0])
    return {"number": number, "count": count, "step": draft.id} if count else None


def month_rows(family: Family) -> dict[int, list[str]] | None:
    """Month -> [number, name] for the card picker's rows where the family names months its own way
    (``Family.month_name``, written "<number> <name> (<gloss>)": Go-Stop's ``12월 비``); else None."""
    name = family.month_name
    return {m: name(m).split(" (")[0].split(" ", 1) for m in range(1, 13)} if name else None


def live_context(opened: Opened, rnd: store.RoundRow | None = None) -> dict[str, Any]:
    """What the entry page and its live preview share: the money formatter, yaku names, and the
    totals before this round (a new round: the current totals; an edited one: those before it)."""
    sess = opened.session
    board = service.board(get_db(), opened)
    totals = dict(board.totals)
    view = next((v for v in board.rounds if rnd is not None and v.id == rnd.id and v.totals), None)
    if view is not None:
        totals = {p: view.totals.get(p, 0) - view.scores.get(p, 0) for p in sess.players}
    names = yaku_names(sess.ruleset)
    return {
        "totals": totals,
        "money": amount_formatter(sess, opened.loaded),
        "yaku_name": lambda yid: names.get(yid, yid),
        "is_money": board.unit != "points",
    }


def round_words(opened: Opened) -> dict[str, Any]:
    """What ``partials/round_cards.html`` needs to name a stored round in its own game's words: the
    money formatter, yaku names, month names (``Family.month_name``), the void tick's words
    (``Family.entered_void``) and the partial of the family's entry form that names the round's
    facts (``EntryForm.facts``)."""
    family = opened.family
    names = yaku_names(opened.session.ruleset)
    form = registered_form(family)  # None for a game no longer registered: its rounds are JSON
    facts = form.facts if form else JSON_FACTS
    return {
        "money": amount_formatter(opened.session, opened.loaded),
        "yaku_name": lambda yid: names.get(yid, yid),
        "month_name": family.month_name or month_label,
        "entered_void": family.entered_void,
        "round_facts": facts,
    }


def mon_per_kan(opened: Opened) -> int:
    """Mon in one kan, for a totals form in money (12 when the rules do not count in kan)."""
    loaded = opened.loaded
    return 12 if loaded.error is not None else int(getattr(loaded.rules, "mon_per_kan", 12))
