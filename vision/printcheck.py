"""The print check: is a box a card, or a card's picture printed on something else?

Almost every certain detection that was wrong on the held-out sets lay on no card at all: it
was a card box or lid printed with a card's art, which the classifier names as that card
(docs/VISION.md, "Where the certain errors are").  The box itself is no help (the picture is
a card face), but what lies around it is: a real card has its edge and its shadow on the
table or on other cards, a printed picture has the box's flat colour, its rim and its
lettering around it.  The print check looks at that.

Each kept box is cut out grown :data:`CONTEXT_SCALE` times about its centre
(:func:`context_crops`), upright at the classifier's crop size, and ``printcheck.onnx`` (an
ImageNet EfficientNet-Lite0 fine-tuned by :mod:`vision.train.printcheck`) gives one logit per
box: above 0, a physical card; below, a picture printed on a prop.  The logit is a feature of
the confidence calibration (:class:`vision.calibration.Calibration`, weight ``f``), so it
lowers the confidence of a printed picture instead of deleting anything.

NumPy, OpenCV and ONNX Runtime only (runtime package: no torch).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.geometry import CROP_SIZE, crop_obbs

#: How many times each side of a box is grown for its context crop (1.5: a quarter of the
#: box's width and height shows on each side).
CONTEXT_SCALE = 1.5
#: The print check's logits are clipped to this (a logit of 8 is a probability of 0.9997):
#: the calibration was fitted on clipped values, so one extreme box cannot swing it.
LOGIT_CLIP = 8.0


def grown(obbs: np.ndarray, scale: float = CONTEXT_SCALE) -> np.ndarray:
    """Oriented boxes ``(K, 5)`` (centre x, y, width, height in pixels, angle in radians) with
    width and height times ``scale``, same centres and angles.  Raises ValueError for a
    malformed ``obbs`` or a ``scale`` that is not positive."""
    if not scale > 0:
        raise ValueError(f"scale: expected a positive number, got {scale!r}")
    out = np.array(obbs, np.float64).reshape(-1, 5)
    out[:, 2:4] *= scale
    return out


def context_crops(image: np.ndarray, obbs: np.ndarray) -> np.ndarray:
    """The print check's input for the boxes ``obbs`` ``(K, 5)`` of ``image`` ``(H, W, 3)``
    uint8 (the same pixels): each box grown :data:`CONTEXT_SCALE` times, cut upright at
    :data:`vision.geometry.CROP_SIZE` -> ``(K, 112, 72, 3)`` uint8 (black outside the image)."""
    return crop_obbs(image, grown(obbs), CROP_SIZE)


class PrintCheck:
    """``printcheck.onnx`` as loaded by :func:`vision.detector.load_printcheck`:
    ``check(image, obbs)`` gives ``(K,)`` logits, clipped to ±:data:`LOGIT_CLIP`, that each box
    lies on a physical card (above 0) rather than on a picture of one printed on a prop."""

    def __init__(self, path: Path, model):
        """``model``: the loaded ONNX file ``path``, called on float32 ``(K, 3, 112, 72)`` RGB
        crops in 0-1 and answering ``(K, 1)`` logits."""
        self.path = Path(path)
        self._model = model

    def __call__(self, image: np.ndarray, obbs: np.ndarray) -> np.ndarray:
        if len(obbs) == 0:
            return np.zeros(0)
        return self.logits(context_crops(image, obbs))

    def logits(self, crops: np.ndarray) -> np.ndarray:
        """Clipped logits ``(K,)`` of context crops ``(K, 112, 72, 3)`` uint8 (:func:`context_crops`)."""
        x = np.ascontiguousarray(np.asarray(crops).transpose(0, 3, 1, 2), dtype=np.float32)
        x /= 255.0
        z = np.asarray(self._model(x), np.float64).reshape(len(x))
        return np.clip(z, -LOGIT_CLIP, LOGIT_CLIP)
