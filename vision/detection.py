"""The one result type that flows out of the detector."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal

from referee.cards import CARD_IDS

_IDS = frozenset(CARD_IDS)

#: Inference runtimes, see :class:`vision.detector.Detector` (the first is the default).
#: Here, below both the package and the detector, so that neither imports the other back.
BACKENDS = ("onnxruntime", "openvino", "ultralytics")

#: Calibrated confidence (0-1) at or above which a detection is *certain* (tapped in by the
#: photo flow without asking); below it a detection is ``uncertain``.  Chosen on the
#: held-out calibration split, never the test split, as the lowest threshold at which
#: certain detections were right at least 99% of the time (docs/VISION.md, "Calibration";
#: ``scripts/calibrate_detector.py``).  The default of ``Detector(uncertain_below=...)``.
CERTAIN_AT: float = 0.97

#: Calibrated confidence (0-1) under which a detection is not shown to players at all:
#: the photo flow taps in certain detections, offers uncertain ones at or above this floor
#: as one-tap suggestions ("Pine chaff 松のカス? Yes / No"), and hides the rest.  Chosen
#: on the calibration split to keep 98% of the right detections (docs/VISION.md,
#: "Calibration").  Owned and tuned by the vision side; the web layer reads it from here and
#: hard-codes no threshold of its own.
SUGGEST_FLOOR: float = 0.38



def percent_sure(confidence: float) -> int:
    """A calibrated confidence (0-1) as the whole percent players read ("97% sure"), rounded *down*,
    so that no uncertain detection reads as sure as :data:`CERTAIN_AT` (rounded to the nearest, a
    suggestion at 0.979 read "98% sure" beside a card tapped in at 0.98, and the command line printed
    0.97 with a "?" at a threshold of 0.97).  Worked in decimal on the float's shortest form, so that
    0.57 reads 57 (its float product is 56.99999...) and a float just under 0.97 reads 96.  Used by
    every place that shows a confidence: the photo flow, ``detect``'s lines and its annotated image."""
    return int((Decimal(repr(float(confidence))) * 100).to_integral_value(rounding=ROUND_FLOOR))

@dataclass(frozen=True, slots=True)
class Detection:
    """One card found in a photo.

    ``card``: a card id from ``CARDS.tsv``; ``confidence``: 0 to 1; ``box``:
    ``(x1, y1, x2, y2)`` axis-aligned bounds in pixels of the EXIF-oriented input image
    (``x1 <= x2``, ``y1 <= y2``); ``uncertain``: True exactly when the detection is not
    certain (its calibrated confidence fell below the detector's threshold); kept, not
    dropped.  See :data:`SUGGEST_FLOOR` for what players are shown.

    Raises ValueError on an unknown card id, a confidence outside 0-1 or a malformed box.
    """

    card: str
    confidence: float
    box: tuple[float, float, float, float]
    uncertain: bool = False
    covered: bool = False
    visible: float = 1.0

    def __post_init__(self) -> None:
        if self.card not in _IDS:
            raise ValueError(f"card: expected one of the 48 ids in CARDS.tsv, got {self.card!r}")
        c = float(self.confidence)
        if not (0.0 <= c <= 1.0) or math.isnan(c):
            raise ValueError(f"confidence: expected a float in [0, 1], got {self.confidence!r}")
        box = tuple(float(v) for v in self.box)
        if len(box) != 4:
            raise ValueError(f"box: expected 4 values (x1, y1, x2, y2), got {len(box)}")
        if not all(math.isfinite(v) for v in box) or box[0] > box[2] or box[1] > box[3]:
            raise ValueError(f"box: expected finite x1 <= x2 and y1 <= y2, got {box}")
        object.__setattr__(self, "confidence", c)
        object.__setattr__(self, "box", box)
        v = float(self.visible)
        if not (0.0 <= v <= 1.0) or math.isnan(v):
            raise ValueError(f"visible: expected a float in [0, 1], got {self.visible!r}")
        object.__setattr__(self, "visible", v)
        object.__setattr__(self, "covered", bool(self.covered))
        object.__setattr__(self, "uncertain", bool(self.uncertain) or self.covered)

    @property
    def shown(self) -> bool:
        """Whether players see this detection: a card too covered to read (reported as such),
        or a confidence at or above :data:`SUGGEST_FLOOR` (tapped in when certain, offered as a
        suggestion when not).  The rest are hidden by the photo flow and by ``detect``, even a
        certain one where a detector's ``uncertain_below`` was set under the floor (issue 9:
        under the floor a detection is neither kept nor shown)."""
        return self.covered or self.confidence >= SUGGEST_FLOOR

    def to_dict(self) -> dict:
        """JSON-ready form: ``{"card", "confidence", "box": [x1, y1, x2, y2], "uncertain",
        "covered", "visible"}``."""
        return {
            "card": self.card,
            "confidence": round(self.confidence, 4),
            "box": [round(v, 1) for v in self.box],
            "uncertain": self.uncertain,
            "covered": self.covered,
            "visible": round(self.visible, 3),
        }
