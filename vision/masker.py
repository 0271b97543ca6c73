"""The masker: which part of a whole-card crop is the card's own face (issue 17, item 2).

A whole-card localiser's box holds its card's whole face, covered or not
(docs/VISION.md, "Whole cards").  :mod:`vision.visibility` works out each box's visible
mask from the stacking order of the boxes; a wrong order hides the wrong part.  The masker
is a small convolutional network (``masker.onnx``, trained by :mod:`vision.train.masker` on
the generator's per-pixel card map) that looks at the crop itself and at that stacking-order
mask, and says per pixel whether the card shows there: it sees the printed edges and faces
of the cards lying across the crop.

Input and output are laid out here (:func:`masker_input`, :func:`masks_from_logits`), once,
for training and runtime alike.  NumPy, OpenCV and ONNX Runtime only (runtime package: no
torch).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.geometry import CROP_SIZE

#: The masker's input ``(w, h)`` in pixels: the crop at half size.
MASKER_INPUT = (CROP_SIZE[0] // 2, CROP_SIZE[1] // 2)
#: Its output ``(w, h)``: a logit per 4 x 4 crop pixels.
MASKER_OUTPUT = (CROP_SIZE[0] // 4, CROP_SIZE[1] // 4)


def masker_input(crops: np.ndarray, guess: np.ndarray) -> np.ndarray:
    """The masker's input ``(K, 4, 56, 36)`` float32: each upright crop ``(K, 112, 72, 3)``
    uint8 shrunk to :data:`MASKER_INPUT` (area average) as RGB in 0-1, and its stacking-order
    mask ``(K, 112, 72)`` bool shrunk the same way as a fourth channel (0-1).
    Raises ValueError when the shapes differ from those."""
    crops, guess = np.asarray(crops), np.asarray(guess)
    k = len(crops)
    if crops.shape[1:] != (CROP_SIZE[1], CROP_SIZE[0], 3) or guess.shape != (k, CROP_SIZE[1], CROP_SIZE[0]):
        raise ValueError(
            f"masker_input: expected crops (K, 112, 72, 3) and masks (K, 112, 72), got {crops.shape}, {guess.shape}"
        )
    out = np.empty((k, 4, MASKER_INPUT[1], MASKER_INPUT[0]), np.float32)
    for i in range(k):
        small = cv2.resize(crops[i], MASKER_INPUT, interpolation=cv2.INTER_AREA)
        out[i, :3] = small.transpose(2, 0, 1) / np.float32(255)
        out[i, 3] = cv2.resize(guess[i].astype(np.float32), MASKER_INPUT, interpolation=cv2.INTER_AREA)
    return out


def masks_from_logits(logits: np.ndarray) -> np.ndarray:
    """Bool masks ``(K, 112, 72)`` from the masker's logits ``(K, 1, 28, 18)``: enlarged to the
    crop (bilinear) and cut at 0 (probability 0.5)."""
    logits = np.asarray(logits, np.float32).reshape(-1, MASKER_OUTPUT[1], MASKER_OUTPUT[0])
    return np.stack([cv2.resize(m, CROP_SIZE, interpolation=cv2.INTER_LINEAR) > 0 for m in logits]).reshape(
        len(logits), CROP_SIZE[1], CROP_SIZE[0]
    )


class Masker:
    """``masker.onnx`` as loaded by :func:`vision.detector.load_masker`: ``masker(crops,
    guess)`` gives the visible masks ``(K, 112, 72)`` bool of upright whole-card crops ``(K,
    112, 72, 3)`` uint8 given their stacking-order masks ``(K, 112, 72)`` bool."""

    def __init__(self, path: Path, model):
        """``model``: the loaded ONNX file ``path`` (:func:`vision.detector.load_masker` loads
        and checks it), called on :func:`masker_input`'s array."""
        self.path = Path(path)
        self._model = model

    def __call__(self, crops: np.ndarray, guess: np.ndarray) -> np.ndarray:
        if len(crops) == 0:
            return np.zeros((0, CROP_SIZE[1], CROP_SIZE[0]), bool)
        return masks_from_logits(self._model(masker_input(crops, guess)))
