"""The photo parts of the round entry page, as template helpers: each picker's "Snap" input, its
capture guide and the review of its photos (``photo_slot``), and the deck-check box
(``photo_deck_check``, live via htmx: ``deck_check``).

Below the views: must not import them.
"""

from __future__ import annotations

from typing import Any

from flask import g, render_template, request
from jinja2 import pass_context
from markupsafe import Markup
from werkzeug.datastructures import MultiDict

from referee import store
from referee.cards import BY_ID, CARDS
from referee.web.board import session_family
from referee.web.db import get_db
from referee.web.photo_review import Review, by_elimination, review
from referee.web.photo_steps import claims, conflicts, slot_label


def deck_check(sess: store.Session, form: MultiDict, photos: list[store.PhotoRow] | None = None) -> dict[str, Any]:
    """Piles that break the deck: cards in no pile, odd piles, and, where the family's piles add up
    to a deck total of card points, the check of the deal actually played (``Family.deck_check``:
    Hachi-hachi's 264 points with three active players, at most 34 cards with two, 14 never drawn),
    else the gap to the deck total (``Family.card_points``), under ``hachi``, the key the template reads;
    and, under ``eliminated``, the card that a photo's one too-covered card must be when it is the only
    card in no pile (:func:`referee.web.photo_review.by_elimination`), with the pile's label.
    ``photos``: the round's photos when the caller has them (the page), else read for the form's
    ``photo`` ids (the live fragment)."""
    piles = {p: list(dict.fromkeys(form.getlist(f"pile-{i}"))) for i, p in enumerate(sess.players)}
    known = {c for cs in piles.values() for c in cs if c in BY_ID}
    missing = [c for c in CARDS if c.id not in known]
    family = session_family(sess)  # a game no longer registered: the plain card count
    odd = [p for p, cs in piles.items() if len(cs) % 2] if family.odd_piles_warn else []
    out: dict[str, Any] = {"count": len(known), "of": len(CARDS), "missing": missing, "odd": odd, "hachi": None}
    if photos is None:
        try:
            photos = store.photos_by_ids(get_db(), sess.id, form.getlist("photo"))
        except store.StoreError:  # the check is advice: a photo it cannot read names nothing
            photos = []
    found = by_elimination(photos, missing)
    out["eliminated"] = {"card": found[0], "pile": slot_label(found[1], sess.players)} if found else None
    if family.deck_check is not None:
        # Seats marked as dropping out (the money form's status-i) hold no pile this round.
        playing = [p for i, p in enumerate(sess.players) if (form.get(f"status-{i}") or "play") == "play"]
        check = family.deck_check(len(playing), {p: piles[p] for p in playing})
        out["of"] = check.deal.in_play
        out["hachi"] = {
            "points": check.points,
            "gap": check.gap,
            "undrawn": check.deal.undrawn,
            "problem": check.problem(),
        }
    elif family.card_points is not None:
        points = sum(family.card_points(BY_ID[c]) for c in known)
        out["hachi"] = {"points": points, "gap": sum(family.card_points(c) for c in CARDS) - points}
    return out


def _state() -> dict[str, Any]:
    return g.get("photo_state") or {}


def _photos_for_page(ctx) -> list[store.PhotoRow]:
    state = _state()
    if "photos" in state:
        return state["photos"]
    rnd, sess = ctx.get("rnd"), ctx.get("s")
    if sess is None:
        return []
    form = None
    try:
        if request.method == "POST":  # the round form shown again ("Score round", an error)
            form = MultiDict(request.form.items(multi=True))
            photos = store.photos_by_ids(get_db(), sess.id, form.getlist("photo"))
        elif rnd is not None:
            photos = store.photos_of_round(get_db(), sess.id, rnd.id)
        else:
            photos = []
    except store.StoreError:
        photos = []
    g.photo_state = {"photos": photos, "errors": {}, "form": form}
    return photos


def _page_form(ctx, sess: store.Session) -> MultiDict:
    """The round form the page shows: as posted, or built from the round's data (GET)."""
    form = _state().get("form")
    if form is not None:
        return form
    data = ctx.get("data") or {}
    hands = ctx.get("hands") or data.get("hands") or {}
    form = MultiDict()
    for i, p in enumerate(sess.players):
        for c in (data.get("piles") or {}).get(p, []):
            form.add(f"pile-{i}", c)
        for c in hands.get(p) or []:
            form.add(f"hand-{i}", c)
    for c in data.get("field") or []:
        form.add("hand-f", c)
    return form


def slot_review(slot: str, photos: list[store.PhotoRow], form: MultiDict, players) -> Review:
    """The review of one slot: its photos, what the form holds, and who else holds a card."""
    group = slot.partition("-")[0]
    held = claims(form, photos, group)
    elsewhere = {c: [slot_label(o, players) for o in sorted(slots - {slot})] for c, slots in held.items()}
    return review(slot, photos, form.getlist(slot), elsewhere)


#: Set (by app.js) once this phone has shown the capture guide: it is folded after that.
GUIDE_COOKIE = "guide-seen"


def _move_targets(slot: str, players) -> list[str]:
    """The other slots of ``slot``'s group a photo can move to (piles; hands and the field)."""
    group = slot.partition("-")[0]
    seats = [str(i) for i in range(len(players))] + (["f"] if group == "hand" else [])
    return [f"{group}-{x}" for x in seats if f"{group}-{x}" != slot]


@pass_context
def photo_slot(ctx, group: str, seat) -> Markup:
    """The "Snap" input, the capture guide and the review of a slot's photos: certain cards
    tapped in, suggestions beside their photo, conflicts (a reusable partial: ``entry/round.html``
    and ``entry/round_money.html`` include it per picker)."""
    sess = ctx.get("s")
    if sess is None:
        return Markup("")
    slot = f"{group}-{seat}"
    photos = _photos_for_page(ctx)
    state = _state()
    form = _page_form(ctx, sess)
    mine = [p for p in photos if p.slot == slot]
    return Markup(
        render_template(
            "entry/partials/photo_slot.html",
            s=sess,
            slot=slot,
            label=slot_label(slot, sess.players),
            photos=mine,
            review=slot_review(slot, photos, form, sess.players),
            error=state.get("errors", {}).get(slot),
            conflicts=conflicts(form, photos).get(slot, {}),
            slot_label=lambda x: slot_label(x, sess.players),
            moves=_move_targets(slot, sess.players),
            guide_seen=request.cookies.get(GUIDE_COOKIE) == "1",
            round_id=ctx["rnd"].id if ctx.get("rnd") else "",
            cards=CARDS,
            BY_ID=BY_ID,
        )
    )


@pass_context
def photo_deck_check(ctx) -> Markup:
    """The deck-check box (cards in no pile, odd piles, the 264-point gap), live via htmx."""
    sess = ctx.get("s")
    if sess is None:
        return Markup("")
    return Markup(
        render_template(
            "entry/partials/photo_deck.html",
            s=sess,
            check=deck_check(sess, _page_form(ctx, sess), _photos_for_page(ctx)),
            wrap=True,
            round_id=ctx["rnd"].id if ctx.get("rnd") else "",
        )
    )
