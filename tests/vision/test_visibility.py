"""Whole-card boxes: which card lies on top, each card's visible mask, masked crops (vision.visibility)."""

import cv2
import numpy as np
import pytest

from vision.geometry import CROP_SIZE, obb_corners
from vision.visibility import HIDDEN_GREY, crop_mask, mask_crops, stacking, visible_masks


def _card(img, obb, face, border=(20, 20, 20)):
    """Paint a card: a dark rim, then a face colour with a stripe pattern."""
    c = obb_corners(np.array([obb]))[0].astype(np.int32)
    cv2.fillPoly(img, [c], border)
    cx, cy, w, h, t = obb
    inner = obb_corners(np.array([[cx, cy, w * 0.9, h * 0.93, t]]))[0].astype(np.int32)
    cv2.fillPoly(img, [inner], face)


@pytest.fixture
def two_cards():
    """Card B (blue) lies over the lower half of card A (red), as in a row."""
    img = np.full((400, 300, 3), 200, np.uint8)
    a = (150.0, 150.0, 120.0, 196.0, 0.0)
    b = (150.0, 250.0, 120.0, 196.0, 0.0)
    _card(img, a, (200, 40, 40))
    _card(img, b, (40, 60, 200))
    return img, np.array([a, b])


def test_the_card_painted_last_is_found_on_top(two_cards):
    img, obbs = two_cards
    above = stacking(img, obbs)
    assert above[0, 1]  # B lies on A
    assert not above[1, 0]


def test_the_order_does_not_depend_on_the_box_order(two_cards):
    img, obbs = two_cards
    above = stacking(img, obbs[::-1])
    assert above[1, 0]
    assert not above[0, 1]


def test_boxes_apart_are_in_no_order():
    img = np.full((300, 500, 3), 200, np.uint8)
    obbs = np.array([(100.0, 150.0, 100.0, 160.0, 0.0), (380.0, 150.0, 100.0, 160.0, 0.0)])
    for o in obbs:
        _card(img, tuple(o), (200, 40, 40))
    assert not stacking(img, obbs).any()


def test_a_card_half_under_another_shows_about_half(two_cards):
    img, obbs = two_cards
    masks, visible = visible_masks(obbs, stacking(img, obbs))
    assert masks.shape == (2, CROP_SIZE[1], CROP_SIZE[0])
    assert visible[1] == 1.0
    assert visible[0] == pytest.approx(0.49, abs=0.04)  # B covers 98 of A's 196 px


def test_masked_crop_greys_the_hidden_part():
    crops = np.full((1, 4, 3, 3), 7, np.uint8)
    masks = np.zeros((1, 4, 3), bool)
    masks[0, :2] = True
    out = mask_crops(crops, masks)
    assert (out[0, :2] == 7).all()
    assert (out[0, 2:] == HIDDEN_GREY).all()
    assert (crops == 7).all()  # the input is left as it was


def test_crop_mask_turns_with_the_crop():
    mask = np.zeros((200, 200), bool)
    mask[:100] = True  # the upper half of the photo
    obb = (100.0, 100.0, 122.0, 200.0, 0.0)
    m = crop_mask(mask, obb)
    f = crop_mask(mask, obb, flip=True)
    np.testing.assert_array_equal(f, m[::-1, ::-1])
    assert m.mean() == pytest.approx(0.5, abs=0.02)
