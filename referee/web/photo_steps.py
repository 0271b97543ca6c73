"""What a photo step does to the unsaved round form: the cards a photo shows tapped into its slot
(``fill``), corrections (``as-<photo>-<i>``), the ``fix`` buttons (keep a card in one slot, drop
a photo, move it to another slot) and the answers to suggestions (``ask``).

A slot is a picker's field name: ``pile-0``, ``hand-1``, ``hand-f`` (the field).  Which
detections players see (only certain ones tapped in, the others as one-tap suggestions) is
``referee.web.photo_review``.  Writes go through ``referee.store``; below the views: must not
import them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from werkzeug.datastructures import MultiDict

from referee import store
from referee.cards import BY_ID
from referee.web.db import get_db
from referee.web.photo_review import NO, YES, active, answered, asked


def slot_label(slot: str, players) -> str:
    group, _, seat = slot.partition("-")
    if seat == "f":
        return "the field"
    name = players[int(seat)] if seat.isdigit() and int(seat) < len(players) else seat
    return f"{name}'s {'pile' if group == 'pile' else 'hand'}"


def valid_slot(slot: str, players) -> bool:
    group, _, seat = slot.partition("-")
    if group == "hand" and seat == "f":
        return True
    return group in ("pile", "hand") and seat.isdigit() and int(seat) < len(players)


def claims(form: MultiDict, photos: list[store.PhotoRow], group: str) -> dict[str, set[str]]:
    """card -> the slots of ``group`` that hold it: tapped in, or on a photo as a certain card
    or an answered-Yes suggestion (see ``photo_review.active``)."""
    out: dict[str, set[str]] = {}
    for key in form:
        if key.partition("-")[0] == group and key.partition("-")[2] and not key.startswith(("as-", "snap-")):
            for c in form.getlist(key):
                out.setdefault(c, set()).add(key)
    for p in photos:
        if p.slot.partition("-")[0] == group:
            for d in p.detections:
                if (c := active(d)) is not None:
                    out.setdefault(c, set()).add(p.slot)
    return out


def conflicts(form: MultiDict, photos: list[store.PhotoRow]) -> dict[str, dict[str, list[str]]]:
    """slot -> {card: the other slots claiming it} for cards claimed by two slots of a group."""
    out: dict[str, dict[str, list[str]]] = {}
    for group in ("pile", "hand"):
        for card, slots in claims(form, photos, group).items():
            if len(slots) > 1:
                for s in slots:
                    out.setdefault(s, {})[card] = sorted(slots - {s})
    return out


def _add(form: MultiDict, slot: str, card: str) -> None:
    if card not in form.getlist(slot):
        form.add(slot, card)


def _remove(form: MultiDict, slot: str, card: str) -> None:
    form.setlist(slot, [c for c in form.getlist(slot) if c != card])


def fill(form: MultiDict, photos: list[store.PhotoRow], photo: store.PhotoRow) -> None:
    """Tap in ``photo``'s cards, except those another slot of its group claims (flagged)."""
    group = photo.slot.partition("-")[0]
    others = [p for p in photos if p.id != photo.id]
    held = claims(form, others, group)
    for d in photo.detections:
        c = active(d)
        if c is not None and not (held.get(c, set()) - {photo.slot}):
            _add(form, photo.slot, c)


def taken(form: MultiDict, photos: list[store.PhotoRow], slot: str) -> set[str]:
    """Card ids a new photo of ``slot`` must leave to others: held by another slot of its group
    (tapped in or on a photo), or on an earlier photo of ``slot`` (two photos of half a pile
    each show different cards).  A card tapped into ``slot`` by hand is not taken: the photo
    shows that card again."""
    group = slot.partition("-")[0]
    held = {c for c, slots in claims(form, photos, group).items() if slots - {slot}}
    return held | {c for p in photos if p.slot == slot for d in p.detections if (c := active(d)) is not None}


def _still_seen(photos: list[store.PhotoRow], slot: str, card: str) -> bool:
    return any(p.slot == slot and any(active(d) == card for d in p.detections) for p in photos)


def apply_corrections(form: MultiDict, photos: list[store.PhotoRow], sess: store.Session) -> list[store.PhotoRow]:
    """Apply ``as-<photo>-<i>`` choices (a card id, or empty = not a card) and the ``fix``
    button (``keep:<card>:<slot>``); returns the photos as updated in the store."""
    db = get_db()
    out = []
    for p in photos:
        changed = False
        dets = [dict(d) for d in p.detections]
        for i, d in enumerate(dets):
            key = f"as-{p.id}-{i}"
            if key not in form:
                continue
            want = form.get(key) or None
            if want is not None and want not in BY_ID:
                continue
            old = active(d)
            if "ask" in d:  # on a suggestion, a card answers Yes (as that card); "not a card", No
                verdict = YES if want is not None else NO
                if want == d.get("fixed", d["card"]) and d["ask"] == verdict:
                    continue
                d["ask"] = verdict
            elif want == old:
                continue
            d["fixed"] = want
            changed = True
            rest = [q if q.id != p.id else _with(p, dets) for q in photos]
            if old is not None and not _still_seen(rest, p.slot, old):
                _remove(form, p.slot, old)
            if want is not None:
                _add(form, p.slot, want)
        if changed:
            store.set_photo_detections(db, sess.id, p.id, dets)
            p = _with(p, dets)
        out.append(p)
    fix = form.get("fix", "")
    if fix.startswith("keep:"):
        _, card, slot = fix.split(":", 2)
        group = slot.partition("-")[0]
        if card in BY_ID and valid_slot(slot, sess.players):
            for key in list(form):
                if key != slot and key.partition("-")[0] == group and not key.startswith(("as-", "snap-")):
                    _remove(form, key, card)
            kept = []
            for p in out:
                if p.slot != slot and p.slot.partition("-")[0] == group:
                    dets = [dict(d, fixed=None) if active(d) == card else dict(d) for d in p.detections]
                    if dets != p.detections:
                        store.set_photo_detections(db, sess.id, p.id, dets)
                        p = _with(p, dets)
                kept.append(p)
            out = kept
            _add(form, slot, card)
    elif fix.startswith(("drop:", "move:")):
        out = _drop_or_move(form, out, sess, fix)
    return answer(form, out, sess)


def _drop_or_move(form: MultiDict, photos: list[store.PhotoRow], sess: store.Session, fix: str) -> list[store.PhotoRow]:
    """``drop:<photo>``: take a photo out of the round, with the cards only it put in its pile;
    ``move:<photo>:<slot>``: move it to another slot of its group (snapped on the wrong tab),
    its cards with it.  One tap each (issue 18 row 5).  Returns the round's photos after it."""
    verb, _, rest = fix.partition(":")
    pid, _, target = rest.partition(":")
    photo = next((p for p in photos if p.id == pid), None)
    if photo is None:
        return photos
    if verb == "move" and not (
        valid_slot(target, sess.players)
        and target != photo.slot
        and target.partition("-")[0] == photo.slot.partition("-")[0]
    ):
        return photos
    others = [p for p in photos if p.id != pid]
    for d in photo.detections:
        c = active(d)
        if c is not None and not _still_seen(others, photo.slot, c):
            _remove(form, photo.slot, c)
    if verb == "drop":
        return others  # out of the form; the unsaved file is pruned like any unsaved photo

    store.set_photo_slot(get_db(), sess.id, pid, target)
    if target.startswith("pile-"):
        form["tab"] = target.partition("-")[2]  # the page opens on the pile the photo went to
    moved = replace(photo, slot=target)
    out = [moved if p.id == pid else p for p in photos]
    fill(form, out, moved)
    return out


def answer(form: MultiDict, photos: list[store.PhotoRow], sess: store.Session) -> list[store.PhotoRow]:
    """Apply the ``ask`` button (``yes:<card>:<slot>`` or ``no:<card>:<slot>``) to every
    unanswered suggestion of that card in that slot's photos.  Yes taps the card in, unless
    another slot of the group holds it: then both are flagged, as for a certain card.
    Returns the photos as updated in the store."""
    verdict, _, rest = form.get("ask", "").partition(":")
    card, _, slot = rest.partition(":")
    if verdict not in (YES, NO) or card not in BY_ID or not valid_slot(slot, sess.players):
        return photos
    out = []
    for p in photos:
        if p.slot == slot and any(asked(d) == card for d in p.detections):
            dets = answered(p.detections, card, verdict)
            store.set_photo_detections(get_db(), sess.id, p.id, dets)
            p = _with(p, dets)
        out.append(p)
    if verdict == YES:
        group = slot.partition("-")[0]
        if not (claims(form, [p for p in out if p.slot != slot], group).get(card, set()) - {slot}):
            _add(form, slot, card)
    return out


def _with(p: store.PhotoRow, dets: list[dict[str, Any]]) -> store.PhotoRow:
    return replace(p, detections=dets)


#: Form fields that are one-off actions of a photo step, not state kept in the draft.
STEP_ACTIONS = ("snap", "fix", "ask", "photo")


def focus(form: MultiDict, uploaded: list[str]) -> str:
    """The slot the step acted on (the page scrolls back to it)."""
    for key in ("ask", "fix"):
        if form.get(key, "").count(":") == 2:
            return form[key].rsplit(":", 1)[1]
    return form.get("snap") or (uploaded[0] if uploaded else "")
