"""Where the cards of a synthetic scene lie: one function of poses per layout, in
card-height units (later poses lie on top), drawn from a ``numpy`` generator.

Layouts (:data:`LAYOUTS`):

- ``spread``: cards apart on the table;
- ``rows``: mostly overlapping rows or columns in which each card shows 25-60% of itself
  (its top or left part), sometimes a plain grid;
- ``fan``: fans held in a hand (a palm and thumb over the pivot, fingers over corners) or
  laid on the table, each card showing a strip;
- ``heap``: a loose heap, any rotation, sometimes with face-down cards in it;
- ``closeup``: one to three cards filling 40-100% of the frame, often cut by its edge;
- ``none`` (:data:`NO_CARDS`): only distractors, no card face at all.

A new photo layout is a name in :data:`LAYOUTS` (with its weight in
:data:`LAYOUT_WEIGHTS` and card count in :data:`CARD_COUNTS`) and a branch of
:func:`layout_positions`; :func:`vision.synth.scenes.make_scene` turns the poses into a photo.

Part of :mod:`vision.synth`: imports numpy and the card shape (:mod:`vision.synth.render`)
only; never the runtime's detector, nor :mod:`vision.train`, nor ``referee``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from vision.synth.render import CARD_ASPECT

LAYOUTS: tuple[str, ...] = ("spread", "rows", "fan", "heap", "closeup")
#: The layout name of a scene with no card face (distractors only).
NO_CARDS = "none"
#: How often each layout is drawn when none is asked for (the last: :data:`NO_CARDS`).
LAYOUT_WEIGHTS: tuple[float, ...] = (0.18, 0.24, 0.22, 0.16, 0.14, 0.06)


def layout_draw(weights: tuple[float, ...] | None = None) -> np.ndarray:
    """The probabilities ``(len(LAYOUTS) + 1,)`` of drawing each layout, then
    :data:`NO_CARDS`: ``weights`` (default :data:`LAYOUT_WEIGHTS`) scaled to sum to 1.
    Raises ValueError for weights of another length, a negative weight or none positive."""
    w = np.asarray(LAYOUT_WEIGHTS if weights is None else weights, dtype=np.float64)
    if w.shape != (len(LAYOUTS) + 1,):
        names = ", ".join((*LAYOUTS, NO_CARDS))
        raise ValueError(f"layout weights: expected {len(LAYOUTS) + 1} ({names}), got {w.size}")
    if (w < 0).any() or w.sum() <= 0:
        raise ValueError(f"layout weights: expected non-negative weights, some positive; got {tuple(w)}")
    return w / w.sum()


#: Cards per photo for each layout when ``n_cards`` is not given (low, high inclusive).
CARD_COUNTS: dict[str, tuple[int, int]] = {
    "spread": (1, 12),
    "rows": (3, 24),
    "fan": (3, 12),
    "heap": (3, 20),
    "closeup": (1, 3),
}


@dataclass
class Layout:
    """Card poses ``(cx, cy, angle_deg)`` in card-height units (later poses lie on top) and
    where hands hold them: ``holds`` are ``(x, y, angle_deg)`` of a palm, in the same units."""

    poses: list[tuple[float, float, float]]
    holds: list[tuple[float, float, float]] = field(default_factory=list)


def _rot_pose(p, deg):
    a = math.radians(deg)
    x, y, ang = p
    return (x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a), ang + deg)


def _square_turn(rng: np.random.Generator) -> float:
    """A whole-layout rotation: mostly near a right angle (phones are held square to a row)."""
    if rng.random() < 0.7:
        return float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 8))
    return float(rng.uniform(0, 360))


def _rows(n: int, rng: np.random.Generator) -> Layout:
    cw = CARD_ASPECT
    poses: list[tuple[float, float, float]] = []
    if rng.random() < 0.2:  # a plain grid, cards apart
        per_row = int(rng.integers(3, 9))
        gx, gy = cw * rng.uniform(1.03, 1.35), rng.uniform(1.05, 1.35)
        jit = rng.uniform(0, 6)
        for i in range(n):
            r, c = divmod(i, per_row)
            poses.append((c * gx + rng.normal(0, 0.02), r * gy + rng.normal(0, 0.02), rng.normal(0, jit)))
    else:  # overlapping: each card shows its top (columns) or left part (rows)
        column = rng.random() < 0.5
        per = int(rng.integers(3, 13))
        f = rng.uniform(0.25, 0.6)
        gap = rng.uniform(1.05, 1.4)
        for i in range(n):
            line, k = divmod(i, per)
            step = float(np.clip(f + rng.normal(0, 0.03), 0.22, 0.65))
            a = rng.normal(0, 2) + (180 if rng.random() < 0.08 else 0)
            if column:
                poses.append((line * cw * gap + rng.normal(0, 0.02), k * step, a))
            else:
                poses.append((k * step * cw, line * gap + rng.normal(0, 0.02), a))
    rot = _square_turn(rng)
    return Layout([_rot_pose(p, rot) for p in poses])


def _fans(n: int, rng: np.random.Generator) -> Layout:
    cw = CARD_ASPECT
    poses: list[tuple[float, float, float]] = []
    holds: list[tuple[float, float, float]] = []
    i = fan_no = 0
    while i < n:
        k = n - i if rng.random() < 0.7 else min(n - i, int(rng.integers(3, 9)))
        kind = rng.choice(["hand", "down", "side", "arc"], p=[0.45, 0.2, 0.15, 0.2])
        f = rng.uniform(0.22, 0.4)
        ox, oy = fan_no * rng.uniform(2.5, 3.5), rng.uniform(-0.3, 0.3)
        step = rng.uniform(6, 14)
        for j in range(k):
            if kind == "down":
                poses.append((ox + rng.normal(0, 0.01), oy + j * f, rng.normal(0, 2)))
            elif kind == "side":
                poses.append((ox + j * f * cw * 1.6, oy + rng.normal(0, 0.01), rng.normal(0, 2)))
            else:  # an arc around a pivot near the cards' bottom ends
                a = (j - (k - 1) / 2) * step + rng.normal(0, 1)
                ar = math.radians(a)
                rad = 0.8 if kind == "arc" else 0.72
                poses.append((ox + rad * math.sin(ar), oy - rad * math.cos(ar) + 0.8, a))
        if kind == "hand":
            holds.append((ox, oy + 1.05, rng.normal(0, 10)))
        i += k
        fan_no += 1
    rot = _square_turn(rng) if rng.random() < 0.6 else float(rng.uniform(0, 360))
    return Layout([_rot_pose(p, rot) for p in poses], [_rot_pose(h, rot) for h in holds])


def layout_positions(layout: str, n: int, rng: np.random.Generator) -> Layout:
    """Where ``n`` cards lie for ``layout`` (see the module docstring), in card-height units.

    Raises ValueError for an unknown layout.
    """
    cw = CARD_ASPECT
    poses: list[tuple[float, float, float]] = []
    if layout == "spread":
        side = math.sqrt(n) * rng.uniform(1.3, 1.9) + 0.5
        for _ in range(n):
            for _try in range(30):
                p = (rng.uniform(0, side), rng.uniform(0, side))
                if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 > 0.8 for q in poses):
                    break
            poses.append((p[0], p[1], rng.uniform(0, 360)))
        return Layout(poses)
    if layout == "rows":
        return _rows(n, rng)
    if layout == "fan":
        return _fans(n, rng)
    if layout == "heap":
        spread = rng.uniform(0.15, 0.6)
        return Layout([(rng.normal(0, spread), rng.normal(0, spread), rng.uniform(0, 360)) for _ in range(n)])
    if layout == "closeup":
        base = _square_turn(rng) if rng.random() < 0.8 else float(rng.uniform(0, 360))
        dx = cw * rng.uniform(0.45, 1.1)  # neighbours touch, overlap or stand apart
        for j in range(n):
            poses.append(_rot_pose((j * dx, rng.normal(0, 0.08), rng.normal(0, 4)), base))
        return Layout(poses)
    raise ValueError(f"unknown layout {layout!r}; expected one of {(*LAYOUTS, NO_CARDS)}")
