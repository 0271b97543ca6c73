"""Test-time tiling of the localiser: overlapping windows, and their boxes in photo pixels.

With ``Detector(tiles=n)`` the localiser looks at the whole photo and then at ``n`` x ``n``
overlapping windows of it, each letterboxed to the localiser's input on its own, so a card
appears ``about n - (n - 1) * overlap`` times larger than in the whole-photo pass.  A box
from a window is moved into photo pixels (:func:`window_to_photo`); a box that touches an
edge of its window inside the photo is cut by the window and is dropped
(:func:`cut_by_window`): with an overlap wider than a card, the card lies whole in a
neighbouring window or is found by the whole-photo pass.  The passes are then merged by
:func:`vision.postprocess.merge_passes` (fragments inside a larger box dropped, then rotated
NMS).  Measured against the shipped single pass in docs/VISION.md ("Detector levers
compared").
"""

from __future__ import annotations

import numpy as np

from vision.geometry import obb_corners


def tile_windows(width: int, height: int, n: int, overlap: float = 1 / 3) -> list[tuple[int, int, int, int]]:
    """``n`` x ``n`` windows ``(x0, y0, x1, y1)`` (pixels, x1/y1 exclusive) covering a
    ``width`` x ``height`` photo, neighbours sharing ``overlap`` (0-1) of a window's side.

    Rows first, left to right.  ``n = 1`` gives the whole photo.  Raises ValueError for
    ``n < 1``, an overlap outside ``[0, 1)`` or an empty photo.
    """
    if n < 1:
        raise ValueError(f"n: expected at least 1 window per side, got {n}")
    if not 0 <= overlap < 1:
        raise ValueError(f"overlap: expected a share in [0, 1), got {overlap}")
    if width < 1 or height < 1:
        raise ValueError(f"photo size: expected at least 1 x 1 pixels, got {width} x {height}")

    def spans(side: int) -> list[tuple[int, int]]:
        win = side / (n - (n - 1) * overlap)
        step = win * (1 - overlap)
        out = []
        for i in range(n):
            a = round(i * step)
            b = side if i == n - 1 else min(side, round(i * step + win))
            out.append((a, max(b, a + 1)))
        return out

    return [(x0, y0, x1, y1) for y0, y1 in spans(height) for x0, x1 in spans(width)]


def window_to_photo(obbs: np.ndarray, window: tuple[int, int, int, int]) -> np.ndarray:
    """Oriented boxes ``(K, 5)`` in pixels of ``window`` -> ``(K, 5)`` in photo pixels
    (the centre moves by the window's top-left corner; size and angle are unchanged)."""
    out = np.array(obbs, dtype=np.float64).reshape(-1, 5)
    out[:, 0] += window[0]
    out[:, 1] += window[1]
    return out


def cut_by_window(
    obbs: np.ndarray, window: tuple[int, int, int, int], size: tuple[int, int], margin: float
) -> np.ndarray:
    """Boolean mask ``(K,)``: which boxes (photo pixels) reach within ``margin`` pixels of an
    edge of ``window`` that lies inside the photo of ``size`` = (width, height).

    An edge on the photo's own border never cuts: a card cut by the photo is as whole as it
    gets.
    """
    obbs = np.asarray(obbs, dtype=np.float64).reshape(-1, 5)
    if len(obbs) == 0:
        return np.zeros(0, bool)
    x0, y0, x1, y1 = window
    w, h = size
    c = obb_corners(obbs)
    xs, ys = c[:, :, 0], c[:, :, 1]
    cut = np.zeros(len(obbs), bool)
    if x0 > 0:
        cut |= xs.min(1) <= x0 + margin
    if y0 > 0:
        cut |= ys.min(1) <= y0 + margin
    if x1 < w:
        cut |= xs.max(1) >= x1 - margin
    if y1 < h:
        cut |= ys.max(1) >= y1 - margin
    return cut
