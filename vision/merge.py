"""Merge the detections of several photos of one pile: a card seen twice counts once.

Pure functions on :class:`vision.detection.Detection` lists; must not import the web app or
any model runtime.
"""

from __future__ import annotations

from collections.abc import Iterable

from vision.detection import Detection


def merge(photos: Iterable[Iterable[Detection]]) -> list[Detection]:
    """One detection per card id across ``photos`` (each a list of one photo's detections).

    Keeps the most confident sighting of each card (its box is in that photo's pixels);
    a card is ``uncertain`` only when every sighting was.  Sorted by falling confidence.
    """
    best: dict[str, Detection] = {}
    sure: set[str] = set()
    for dets in photos:
        for d in dets:
            if not d.uncertain:
                sure.add(d.card)
            if d.card not in best or d.confidence > best[d.card].confidence:
                best[d.card] = d
    out = [Detection(d.card, d.confidence, d.box, uncertain=d.card not in sure) for d in best.values()]
    return sorted(out, key=lambda d: (-d.confidence, d.card))
