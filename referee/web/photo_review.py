"""What a pile photo shows players: tapped-in cards, one-tap suggestions, the capture guide.

Issue 9: only certain detections (``Detection.uncertain`` False) go into the picker and
can raise "Keep with ..." conflicts.  An uncertain detection at or above
``vision.SUGGEST_FLOOR`` is kept as a *suggestion* (``ask``) shown beside its photo
("Pine chaff 松のカス? Yes / No"): it puts nothing in the pile and claims nothing until
answered Yes, and then counts like a tapped card.  No dismisses it for the whole pile: a
later photo of that pile offering the same card is dismissed at once, unless it sees the
card as certain.  Below the floor a detection is neither kept nor shown.  Both thresholds
belong to ``vision`` (the vision lead calibrates them); this module sets none.

A stored detection is ``Detection.to_dict()`` plus ``fixed`` (the card after a correction,
None = not a card) and, for an uncertain one, ``ask``: ``open``, ``yes`` or ``no``.
Records kept before issue 9 have no ``ask`` and count as tapped in, as they did.

Pure functions over those records, with no Flask and no database: the views in
``referee.web.photos`` load, save and render.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from referee.cards import BY_ID, CARDS, Card
from referee.web.forms.limits import shortened
from vision.detection import Detection, percent_sure
from vision.merge import merge

#: ``ask`` of a stored uncertain detection: not answered yet, answered Yes, answered No.
OPEN, YES, NO = "open", "yes", "no"


class PhotoLike(Protocol):
    """What the review reads of a stored photo (``referee.store.PhotoRow``)."""

    id: str
    slot: str
    detections: list[dict[str, Any]]


def active(d: Mapping[str, Any]) -> str | None:
    """The card a stored detection puts in its pile now, or None: removed ("not a card"),
    a suggestion not answered Yes, or a card too covered to read (``covered``)."""
    if d.get("ask") in (OPEN, NO) or d.get("covered"):
        return None
    return d.get("fixed", d["card"])


def asked(d: Mapping[str, Any]) -> str | None:
    """The card an unanswered suggestion offers, else None."""
    return d.get("fixed", d["card"]) if d.get("ask") == OPEN else None


def records(dets: Iterable[Detection], dismissed: Iterable[str] = ()) -> list[dict[str, Any]]:
    """A photo's detections as stored (see the module docstring), in the detector's order.

    Detections players are not shown (``Detection.shown`` False: under
    ``vision.SUGGEST_FLOOR``) are dropped; an uncertain one whose card is in ``dismissed``
    (answered No in this pile before) is stored answered No.  A card the
    detector saw but could not read (``Detection.covered``) is kept whatever its confidence,
    puts nothing in the pile and asks nothing: the review counts it (:attr:`Review.covered`).
    """
    no = set(dismissed)
    out = []
    for d in dets:
        if not d.shown:
            continue
        if d.covered:
            out.append(dict(d.to_dict(), fixed=d.card))
            continue
        rec = dict(d.to_dict(), fixed=d.card)
        if d.uncertain:
            rec["ask"] = NO if d.card in no else OPEN
        out.append(rec)
    return out


def by_elimination(photos: Iterable[PhotoLike], missing: Sequence[Card]) -> tuple[Card, str] | None:
    """The card that a pile photo's one too-covered card must be, by elimination (issue 17,
    item 2): when the pile photos hold exactly one card too covered to read (``covered``) and
    exactly one card of the deck is in no pile, that card and the slot of its photo
    (``pile-0``); else None.  Hand photos are left out: a hand is not part of the piles."""
    covered = [p.slot for p in photos if p.slot.startswith("pile-") for d in p.detections if d.get("covered")]
    if len(covered) == 1 and len(missing) == 1:
        return missing[0], covered[0]
    return None


_PLAIN_CHAFF = re.compile(r"-chaff-\d+$")
#: Plain chaff ids by month, in deck order (``cherry-chaff-1``, ``cherry-chaff-2``): cards the
#: players cannot tell apart, so a photo's ``-1`` or ``-2`` names a count, not one card.
CHAFF_IDS: dict[int, tuple[str, ...]] = {
    m: tuple(c.id for c in CARDS if c.month == m and _PLAIN_CHAFF.search(c.id)) for m in range(1, 13)
}


def distinct_chaff(dets: Sequence[Mapping[str, Any]], taken: Collection[str]) -> list[dict[str, Any]]:
    """A new photo's records with each plain chaff renamed to a same-month chaff id that
    ``taken`` (the ids the round already holds: other piles, this pile's earlier photos) and the
    photo's own earlier records leave free, so two photos each showing one cherry chaff are
    two cherry chaff (the deck has two), not one card claimed twice (issue 18 row 3).  A chaff
    with no free id left (more than the deck holds) keeps its id, and is flagged as before.
    Other cards are kept as they are: each exists once, so a second sighting is the same card."""
    used = set(taken)
    out = []
    for d in dets:
        rec = dict(d)
        c = rec.get("fixed", rec["card"])
        if c is not None and c == rec["card"] and c in used and c in BY_ID:
            free = [x for x in CHAFF_IDS.get(BY_ID[c].month, ()) if x not in used] if _PLAIN_CHAFF.search(c) else []
            if free:
                rec["card"] = rec["fixed"] = c = free[0]
        if c is not None:
            used.add(c)
        out.append(rec)
    return out


def dismissed_in(photos: Iterable[PhotoLike], slot: str) -> set[str]:
    """Cards answered No in ``slot``'s photos."""
    return {d.get("fixed", d["card"]) for p in photos if p.slot == slot for d in p.detections if d.get("ask") == NO}


def answered(dets: Sequence[Mapping[str, Any]], card: str, verdict: str) -> list[dict[str, Any]]:
    """``dets`` with every unanswered suggestion of ``card`` answered ``verdict`` (yes/no)."""
    return [dict(d, ask=verdict) if asked(d) == card else dict(d) for d in dets]


def short_name(card: str | None, limit: int = 16) -> str:
    """A card's English name cut to ``limit`` characters for a box label; ✕ for none."""
    if card is None:
        return "✕"
    return shortened(BY_ID[card].name, limit)


@dataclass(frozen=True)
class Suggestion:
    """An uncertain card offered for a slot: its best sighting is detection ``index`` of
    photo ``photo``; ``elsewhere`` names the other slots that hold the card now."""

    card: Card
    confidence: float
    slot: str
    photo: str
    index: int
    elsewhere: tuple[str, ...] = ()

    @property
    def question(self) -> str:
        """The card in players' words: English name and Japanese, e.g. "Pine chaff 松のカス?"."""
        return f"{self.card.name} {self.card.name_ja}?"

    @property
    def anchor(self) -> str:
        """The id of its element on the page (a suggestion's box links here)."""
        return f"ask-{self.slot}-{self.card.id}"

    @property
    def percent(self) -> int:
        return percent_sure(self.confidence)


@dataclass(frozen=True)
class Box:
    """One kept detection as drawn on its photo: ``state`` is ``in`` (tapped in), ``fixed``
    (corrected to another card), ``removed`` (not a card) or ``ask`` (a suggestion);
    ``target`` is the id of the element a tap on it opens (None: nothing to open)."""

    index: int
    det: Mapping[str, Any]
    card: str | None
    state: str
    target: str | None

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def percent(self) -> int:
        return percent_sure(self.det["confidence"])

    @property
    def label(self) -> str:
        """What is written on the box: a suggestion shows only its number and "?" (large; the
        question beside the photo names the card), the others number, name and confidence."""
        if self.state == "ask":
            return f"{self.number}?"
        if self.state == "covered":
            return f"{self.number} too covered"
        return f"{self.number} {short_name(self.card)} {self.percent}%"

    @property
    def title(self) -> str:
        """The box in words (its tooltip and accessible name)."""
        if self.state == "covered":
            return f"{self.number}: a card too covered to read"
        name = BY_ID[self.card].name if self.card else "not a card"
        return f"{self.number}: {name}{'?' if self.state == 'ask' else ''} {self.percent}%"


def box_views(photo: PhotoLike, anchors: Mapping[str, str] | None = None) -> list[Box]:
    """The boxes to draw on ``photo`` (dismissed suggestions are not drawn).  ``anchors``:
    card -> the element id of its listed suggestion (None: boxes link to nothing, as on the
    saved round's evidence page)."""
    out = []
    for i, d in enumerate(photo.detections):
        if d.get("ask") == NO:
            continue
        if d.get("covered"):
            out.append(Box(i, d, None, "covered", None))
            continue
        if (c := asked(d)) is not None:
            out.append(Box(i, d, c, "ask", (anchors or {}).get(c)))
            continue
        c = active(d)
        state = "removed" if c is None else ("in" if c == d["card"] else "fixed")
        out.append(Box(i, d, c, state, None if anchors is None else f"fix-{photo.id}-{i}"))
    return out


@dataclass(frozen=True)
class Review:
    """A slot's photos as the round form shows them.

    ``seen``: one merged detection per card across the photos (``vision.merge``), a
    suggestion's card ``uncertain``; ``suggestions``: the cards to ask about (not in the pile
    yet), most likely first; ``boxes``/``asks``: per photo id, what to draw and which
    suggestions to list beside it (in box-number order); ``guide``: why to show the capture
    guide (``first``: no photo yet; ``covered``: the latest photo has cards too covered to
    read; ``unclear``: it has uncertain cards; ``none``: it found no card) or None;
    ``covered``: how many cards the latest photo saw but could not read; ``empty``: the ids of
    the photos the detector read and found no card in (a photo it failed on is not one).
    """

    seen: list[Detection]
    suggestions: list[Suggestion]
    boxes: dict[str, list[Box]]
    asks: dict[str, list[Suggestion]]
    guide: str | None
    in_pile: frozenset[str] | None = None
    covered: int = 0
    empty: frozenset[str] = frozenset()

    @property
    def correctable(self) -> bool:
        """Whether a photo lists a card players may correct (a box with its card menu): without
        one, "Apply corrections" has nothing to apply (a photo with no card found, only questions)."""
        return any(b.state != "ask" for boxes in self.boxes.values() for b in boxes)

    @property
    def tapped(self) -> int:
        """Cards the photos put in the pile: seen as certain there and in its picker (a card
        another pile holds is flagged, not counted), so the count matches the pile's tab."""
        return sum(not d.uncertain and (self.in_pile is None or d.card in self.in_pile) for d in self.seen)


def review(
    slot: str,
    photos: Sequence[PhotoLike],
    in_slot: Iterable[str] | None = None,
    elsewhere: Mapping[str, Sequence[str]] | None = None,
) -> Review:
    """Review ``slot`` from its ``photos`` (oldest first).  ``in_slot``: cards tapped into
    its picker (None: not known, every certain card counts as tapped in); ``elsewhere``: card
    -> names of the other slots holding it."""
    mine = [p for p in photos if p.slot == slot]
    sightings = []
    where: dict[tuple, tuple[str, int]] = {}
    for p in mine:
        row = []
        for i, d in enumerate(p.detections):
            c, unsure = active(d), False
            if c is None:
                c, unsure = asked(d), True
            if c is None:
                continue
            det = Detection(c, d["confidence"], d["box"], unsure)
            row.append(det)
            if unsure:
                where.setdefault((c, det.confidence, det.box), (p.id, i))
        sightings.append(row)
    seen = merge(sightings)
    in_slot = None if in_slot is None else frozenset(in_slot)
    held = set(in_slot or ()) | {d.card for d in seen if not d.uncertain}
    suggestions = []
    for d in seen:
        if d.uncertain and d.card not in held:
            pid, i = where[(d.card, d.confidence, d.box)]
            others = tuple((elsewhere or {}).get(d.card, ()))
            suggestions.append(Suggestion(BY_ID[d.card], d.confidence, slot, pid, i, others))
    anchors = {s.card.id: s.anchor for s in suggestions}
    asks: dict[str, list[Suggestion]] = {p.id: [] for p in mine}
    for s in sorted(suggestions, key=lambda s: s.index):  # beside the photo in box-number order
        asks[s.photo].append(s)
    guide = None
    covered = sum(bool(d.get("covered")) for d in mine[-1].detections) if mine else 0
    if not mine:
        guide = "first"
    elif not mine[-1].detections:
        guide = "none" if not getattr(mine[-1], "error", None) else None
    elif covered:
        guide = "covered"
    elif any(d.get("uncertain") for d in mine[-1].detections):
        guide = "unclear"
    empty = frozenset(p.id for p in mine if not p.detections and not getattr(p, "error", None))
    boxes = {p.id: box_views(p, anchors) for p in mine}
    return Review(seen, suggestions, boxes, asks, guide, in_slot, covered, empty)
