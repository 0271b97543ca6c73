"""The vectorised stacking order gives exactly what the pair loop it replaced gave.

``stacking_reference`` (tests/vision/stacking_reference.py) is the old code: a Python loop
over box pairs on the gradient and colour codes of the whole image.  Here both run on
generated piles of cards (random noisy tables, cards with a dark rim and a striped face,
boxes a few pixels off the painted cards, some partly outside the image) and on edge cases,
and must agree on every compared pair's score bit for bit, hence on ``above``.
"""

import cv2
import numpy as np
import pytest
from stacking_reference import pair_scores_reference, stacking_reference

from vision.geometry import obb_corners
from vision.visibility import _gradient_at, _pair_scores, stacking


def _paint(img, obb, rng):
    """One card: a dark rim, a face of one colour, stripes across it."""
    cx, cy, w, h, t = obb
    cv2.fillPoly(img, [obb_corners(np.array([obb]))[0].round().astype(np.int32)], (20, 20, 20))
    face = obb_corners(np.array([[cx, cy, w * 0.9, h * 0.93, t]]))[0].round().astype(np.int32)
    cv2.fillPoly(img, [face], tuple(int(v) for v in rng.integers(0, 256, 3)))
    for f in np.linspace(-0.35, 0.35, int(rng.integers(0, 5))):
        stripe = obb_corners(np.array([[cx + f * h * -np.sin(t), cy + f * h * np.cos(t), w * 0.8, h * 0.04, t]]))
        cv2.fillPoly(img, [stripe[0].round().astype(np.int32)], tuple(int(v) for v in rng.integers(0, 256, 3)))


def _layout(seed: int, k: int, size: tuple[int, int]):
    """``k`` cards painted in order (the last on top) in a few piles on a noisy ``size``
    (w, h) table; returns the image and the boxes, each a few pixels off its card."""
    rng = np.random.default_rng(seed)
    w, h = size
    img = cv2.GaussianBlur(rng.integers(0, 256, (h, w, 3), dtype=np.uint8), (0, 0), float(rng.uniform(0.5, 3)))
    card = float(rng.uniform(0.1, 0.25)) * min(w, h)
    piles = rng.uniform(-0.1, 1.1, (max(1, k // 4), 2)) * (w, h)  # some piles at or past the border
    obbs = []
    for i in range(k):
        cx, cy = piles[i % len(piles)] + rng.normal(0, card * 0.5, 2)
        cw = card * rng.uniform(0.8, 1.2)
        o = (cx, cy, cw, cw * rng.uniform(1.4, 1.7), rng.uniform(-np.pi, np.pi))
        _paint(img, o, rng)
        obbs.append(np.add(o, [*rng.normal(0, 2, 4), rng.normal(0, 0.02)]))
    return img, np.array(obbs).reshape(-1, 5)


def _same(img, obbs):
    """Assert that both give the same scores and order; return ``above``."""
    pi, pj, score = _pair_scores(img, np.asarray(obbs, np.float64).reshape(-1, 5))
    scores = {(int(i), int(j)): float(s) for i, j, s in zip(pi, pj, score, strict=True)}
    assert scores == pair_scores_reference(img, obbs)
    above = stacking(img, obbs)
    np.testing.assert_array_equal(above, stacking_reference(img, obbs))
    return above


@pytest.mark.parametrize("seed", range(12))
def test_random_piles_give_what_the_pair_loop_gave(seed):
    rng = np.random.default_rng(1000 + seed)
    for _ in range(4):
        size = (int(rng.integers(120, 900)), int(rng.integers(120, 700)))  # odd widths too
        _same(*_layout(int(rng.integers(1 << 30)), int(rng.integers(2, 31)), size))


def test_a_working_size_heap_gives_what_the_pair_loop_gave():
    above = _same(*_layout(7, 30, (1280, 960)))
    assert above.sum() > 20  # the layout has many ordered pairs


def test_no_box_or_one_box_is_in_no_order():
    img = np.full((50, 60, 3), 128, np.uint8)
    for obbs in (np.zeros((0, 5)), np.array([[30.0, 25.0, 20.0, 30.0, 0.3]])):
        above = _same(img, obbs)
        assert above.shape == (len(obbs), len(obbs))
        assert not above.any()


def test_two_cards_in_either_order_give_what_the_pair_loop_gave():
    img, _ = _layout(3, 0, (300, 240))
    obbs = np.array([[130.0, 120.0, 80.0, 120.0, 0.2], [170.0, 120.0, 80.0, 120.0, -0.1]])
    rng = np.random.default_rng(0)
    for o in obbs:
        _paint(img, o, rng)
    assert _same(img, obbs)[0, 1]
    assert _same(img, obbs[::-1])[1, 0]


def test_identical_boxes_and_boxes_off_the_image_give_what_the_pair_loop_gave():
    img, _ = _layout(5, 0, (200, 150))
    box = [100.0, 75.0, 60.0, 90.0, 0.0]
    _same(img, np.array([box, box]))  # same box twice
    _same(img, np.array([box, box, [100.0, 75.0, 60.0, 90.0, np.pi / 2]]))
    _same(img, np.array([[5.0, 5.0, 60.0, 90.0, 0.4], [-10.0, 20.0, 60.0, 90.0, 1.0]]))  # past the corner
    _same(img, np.array([[190.0, 140.0, 60.0, 90.0, 0.0], [230.0, 170.0, 60.0, 90.0, 0.0]]))
    _same(img, np.array([[400.0, 400.0, 60.0, 90.0, 0.0], [420.0, 410.0, 60.0, 90.0, 0.3]]))  # wholly outside
    _same(img, np.array([box, [100.0, 75.0, 1.0, 1.5, 0.0], [101.0, 74.0, 0.0, 0.0, 0.0]]))  # tiny boxes


def test_the_gradient_window_matches_the_whole_image_bit_for_bit():
    rng = np.random.default_rng(11)
    for _ in range(40):
        w, h = int(rng.integers(20, 700)), int(rng.integers(20, 500))
        img = cv2.GaussianBlur(rng.integers(0, 256, (h, w, 3), dtype=np.uint8), (0, 0), float(rng.uniform(0.3, 3)))
        gray = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_RGB2GRAY).astype(np.float32), (0, 0), 1.0)
        gx, gy = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
        x0, y0 = int(rng.integers(0, w)), int(rng.integers(0, h))
        xi = rng.integers(x0, int(rng.integers(x0, w)) + 1, (30, 5))
        yi = rng.integers(y0, int(rng.integers(y0, h)) + 1, (30, 5))
        wx, wy = _gradient_at(img, xi, yi)
        np.testing.assert_array_equal(wx, gx[yi, xi])
        np.testing.assert_array_equal(wy, gy[yi, xi])
