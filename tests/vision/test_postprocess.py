"""Post-processing and geometry on fixed arrays (no model)."""

import math

import numpy as np
import pytest
from PIL import Image

from referee.cards import CARD_IDS
from vision.geometry import (
    CROP_SIZE,
    crop_obb,
    in_obb,
    nms_obb,
    obb_corners,
    obb_grid,
    obb_to_xyxy,
    upright_quad,
)
from vision.postprocess import (
    GROUPS,
    _inside_share,
    assign_cards,
    decode_obb,
    drop_same_card,
    letterbox,
    reads_whole,
    to_detections,
)

IDX = {c: i for i, c in enumerate(CARD_IDS)}


def onehot(*cards, p=0.9):
    probs = np.full((len(cards), 48), (1 - p) / 47)
    for k, c in enumerate(cards):
        probs[k, IDX[c]] = p
    return probs


def test_groups_pool_only_same_month_plain_chaff():
    named = [{CARD_IDS[i] for i in g} for g in GROUPS if len(g) > 1]
    assert {"pine-chaff-1", "pine-chaff-2"} in named
    assert {"paulownia-chaff-1", "paulownia-chaff-2"} in named
    assert all("paulownia-chaff-yellow" not in g for g in named)
    assert all("willow-lightning" not in g for g in named)
    assert sum(len(g) for g in GROUPS) == 48


def test_each_card_id_at_most_once():
    # two detections both look most like the crane: the weaker one gets its next choice
    probs = np.zeros((2, 48))
    probs[0, IDX["pine-crane"]], probs[0, IDX["plum-bush-warbler"]] = 0.9, 0.1
    probs[1, IDX["pine-crane"]], probs[1, IDX["cherry-curtain"]] = 0.6, 0.4
    out = assign_cards(probs, np.array([0.9, 0.9]))
    assert CARD_IDS[out[0][0]] == "pine-crane"
    assert CARD_IDS[out[1][0]] == "cherry-curtain"
    assert out[1][1] == pytest.approx(0.4 * 0.9)


def test_same_month_chaff_get_distinct_ids():
    # both detections say "pine-chaff-1": chaff are interchangeable, so both stay pine chaff
    out = assign_cards(onehot("pine-chaff-1", "pine-chaff-1"), np.array([0.95, 0.9]))
    ids = sorted(CARD_IDS[c] for c, _ in out)
    assert ids == ["pine-chaff-1", "pine-chaff-2"]
    # pooled probability: both keep a confident score
    assert [conf for _, conf in out] == pytest.approx([0.95 * 0.902, 0.9 * 0.902], abs=1e-3)


def test_third_pine_chaff_goes_elsewhere():
    out = assign_cards(
        onehot("pine-chaff-1", "pine-chaff-2", "pine-chaff-1"), np.array([0.9, 0.9, 0.8])
    )
    ids = [CARD_IDS[c] for c, _ in out]
    assert len(set(ids)) == 3
    assert not ids[2].startswith("pine-chaff")
    assert out[2][1] < 0.1


def test_yellow_paulownia_is_not_pooled_with_plain_chaff():
    out = assign_cards(
        onehot("paulownia-chaff-yellow", "paulownia-chaff-yellow"), np.array([0.9, 0.8])
    )
    ids = [CARD_IDS[c] for c, _ in out]
    assert ids[0] == "paulownia-chaff-yellow"
    assert ids[1] != "paulownia-chaff-yellow"


def test_low_confidence_is_flagged_not_dropped():
    obbs = np.array([[50, 50, 20, 30, 0.0], [150, 50, 20, 30, 0.0]])
    assigned = [(IDX["pine-crane"], 0.9), (IDX["maple-deer"], 0.2)]
    dets = to_detections(obbs, assigned, (200, 100), uncertain_below=0.5)
    assert [d.card for d in dets] == ["pine-crane", "maple-deer"]
    assert [d.uncertain for d in dets] == [False, True]
    assert dets[0].box == pytest.approx((40, 35, 60, 65))


def test_a_barely_visible_uncertain_card_is_covered_unless_named_anyway():
    obbs = np.array([[50, 50, 20, 30, 0.0], [150, 50, 20, 30, 0.0], [100, 50, 20, 30, 0.0]])
    assigned = [(IDX["pine-crane"], 0.95), (IDX["maple-deer"], 0.4), (IDX["willow-swallow"], 0.3)]
    visible = np.array([0.1, 0.1, 0.1])
    dets = to_detections(obbs, assigned, (200, 100), 0.9, visible, 0.3, np.array([False, False, True]))
    by = {d.card: d for d in dets}
    assert not by["pine-crane"].covered  # certain: keeps its name however covered
    assert by["maple-deer"].covered
    assert not by["willow-swallow"].covered
    assert by["willow-swallow"].uncertain


# reads_whole: does the whole crop alone name the card the pile rules gave the box?
@pytest.mark.parametrize(
    ("given", "whole", "expected"),
    [
        ("maple-deer", {"maple-deer": 0.6}, True),
        ("maple-deer", {"maple-deer": 0.5}, True),  # at WHOLE_READS
        ("maple-deer", {"maple-deer": 0.45}, False),
        ("maple-deer", {"pine-crane": 0.6}, False),  # the crop names the card on top
        ("pine-chaff-1", {"pine-chaff-2": 0.3, "pine-chaff-1": 0.3}, True),  # same-month chaff pooled
        ("paulownia-chaff-yellow", {"paulownia-chaff-1": 0.6}, False),  # not plain chaff: its own card
    ],
)
def test_reads_whole(given, whole, expected):
    p = np.full((1, 48), (1 - sum(whole.values())) / (48 - len(whole)))
    for c, v in whole.items():
        p[0, IDX[c]] = v
    assert reads_whole([(IDX[given], 0.3)], p).tolist() == [expected]


def test_reads_whole_skips_unassigned_boxes_and_checks_shapes():
    assert reads_whole([(-1, 0.0)], np.full((1, 48), 1 / 48)).tolist() == [False]
    assert reads_whole([], np.zeros((0, 48))).tolist() == []
    with pytest.raises(ValueError, match="expected 2 rows, got 1"):
        reads_whole([(0, 0.5), (1, 0.5)], np.zeros((1, 48)))


# drop_same_card: two boxes overlapping at IoU >= 0.5 that read as one card are one card
CARD = (100.0, 100.0, 61.0, 100.0, 0.0)
NUDGED = (104.0, 103.0, 61.0, 100.0, 0.02)  # the same card, boxed twice
FANNED = (110.0, 100.0, 61.0, 100.0, 0.18)  # the next card of a fan: IoU with CARD 0.70
APART = (300.0, 100.0, 61.0, 100.0, 0.0)


@pytest.mark.parametrize(
    ("boxes", "reads", "kept"),
    [
        ((CARD, NUDGED), ("maple-deer", "maple-deer"), [True, False]),  # a second box on one card
        ((CARD, FANNED), ("maple-deer", "maple-blue-ribbon"), [True, True]),  # two fanned cards
        ((CARD, APART), ("maple-deer", "maple-deer"), [True, True]),  # far apart: the pile rules decide
        ((CARD, NUDGED), ("pine-chaff-1", "pine-chaff-2"), [True, False]),  # same-month chaff read as one
        ((CARD, NUDGED, FANNED), ("cherry-curtain",) * 3, [True, False, False]),
    ],
)
def test_drop_same_card(boxes, reads, kept):
    scores = np.linspace(0.9, 0.5, len(boxes))  # the first box scores highest
    assert drop_same_card(np.array(boxes), scores, onehot(*reads), 0.5).tolist() == kept


def test_drop_same_card_keeps_the_higher_score_and_checks_shapes():
    both = np.array([CARD, NUDGED])
    assert drop_same_card(both, np.array([0.4, 0.8]), onehot("maple-deer", "maple-deer"), 0.5).tolist() == [
        False,
        True,
    ]
    assert drop_same_card(np.zeros((0, 5)), np.zeros(0), np.zeros((0, 48)), 0.5).tolist() == []
    with pytest.raises(ValueError, match="2 boxes, 1 scores"):
        drop_same_card(both, np.array([0.5]), onehot("maple-deer", "maple-deer"), 0.5)


def test_assign_cards_rejects_bad_shapes():
    with pytest.raises(ValueError, match=r"expected shape \(K, 48\), got \(2, 47\)"):
        assign_cards(np.zeros((2, 47)), np.zeros(2))
    with pytest.raises(ValueError, match=r"expected shape \(2,\), got \(3,\)"):
        assign_cards(np.zeros((2, 48)), np.zeros(3))


def test_letterbox_shape_and_mapping():
    im = Image.new("RGB", (200, 100), (255, 0, 0))
    x, r, (px, py) = letterbox(im, 64)
    assert x.shape == (1, 3, 64, 64)
    assert x.dtype == np.float32
    assert r == pytest.approx(0.32)
    assert (px, py) == (0.0, 16.0)
    assert x[0, 0, 32, 32] == pytest.approx(1.0)  # image content
    assert x[0, 0, 2, 32] == pytest.approx(114 / 255)  # padding


def test_decode_obb_thresholds_and_nms():
    # three candidates: two near-duplicates and one separate, plus one below threshold
    cand = np.array(
        [
            [100, 100, 40, 60, 0.90, 0.1],
            [101, 100, 40, 60, 0.80, 0.1],
            [300, 300, 40, 60, 0.70, 1.0],
            [500, 500, 40, 60, 0.10, 0.0],
        ]
    ).T[None]
    obbs, scores = decode_obb(cand, conf=0.25, iou=0.5)
    assert scores.tolist() == pytest.approx([0.9, 0.7])
    assert obbs[:, 4].tolist() == pytest.approx([0.1, 1.0])
    with pytest.raises(ValueError, match=r"expected shape \(1, 6, N\), got \(1, 7, 3\)"):
        decode_obb(np.zeros((1, 7, 3)))


def test_fanned_visible_regions_survive_nms():
    # a fan: visible strips of cards next to each other barely overlap
    strips = np.array([[100, 100 + 30 * k, 60, 30, 0.0] for k in range(5)])
    keep = nms_obb(strips, np.linspace(0.9, 0.8, 5), iou=0.5)
    assert len(keep) == 5


def test_obb_corners_and_bounds():
    c = obb_corners(np.array([[0, 0, 2, 4, math.pi / 2]]))[0]
    assert np.abs(c).max(0) == pytest.approx([2, 1])
    assert obb_to_xyxy(np.array([[10, 20, 4, 2, 0]]))[0] == pytest.approx([8, 19, 12, 21])


def test_upright_crop_turns_landscape_boxes_portrait():
    q = upright_quad((50, 50, 60, 20, 0.0))  # wide box
    height = np.linalg.norm(q[1] - q[0])
    width = np.linalg.norm(q[3] - q[0])
    assert height == pytest.approx(60)
    assert width == pytest.approx(20)
    im = Image.new("RGB", (100, 100), (0, 0, 255))
    crop = crop_obb(im, (50, 50, 60, 20, 0.0))
    assert crop.size == CROP_SIZE
    assert np.asarray(crop)[56, 36].tolist() == [0, 0, 255]


def test_letterbox_blur_softens_fine_texture_only():
    stripes = np.zeros((64, 64, 3), np.uint8)
    stripes[:, ::2] = 255  # 1-px stripes
    im = Image.fromarray(stripes)
    sharp, _, _ = letterbox(im, 64)
    soft, _, _ = letterbox(im, 64, blur=1.5)
    assert soft.shape == sharp.shape
    assert soft[0, 0, 32, 8:56].std() < 0.25 * sharp[0, 0, 32, 8:56].std()
    assert soft.mean() == pytest.approx(sharp.mean(), abs=0.02)


def test_merge_passes_drops_a_fragment_inside_the_whole_card():
    # close-up: pass 1 boxed a fragment of the card, pass 2 (zoomed out) the whole card
    from vision.postprocess import merge_passes

    whole = np.array([[500.0, 400, 300, 490, 0.1]])
    fragment = np.array([[520.0, 300, 200, 150, 0.1]])
    neighbour = np.array([[900.0, 400, 300, 490, 0.0]])
    obbs, scores = merge_passes(
        np.concatenate([fragment, neighbour]), np.array([0.8, 0.9]), whole, np.array([0.7])
    )
    assert len(obbs) == 2
    assert sorted(scores.tolist()) == [0.7, 0.9]  # the fragment went, the two cards stayed
    # the same card found by both passes is kept once (rotated NMS)
    obbs, scores = merge_passes(whole, np.array([0.6]), whole + np.array([2.0, 1, 0, 0, 0]), np.array([0.9]))
    assert scores.tolist() == [0.9]


def test_a_point_on_a_box_edge_is_inside_only_when_asked():
    # one helper for visibility's "inside" (strict) and the nested-box share's (edge included)
    box = np.array([10.0, 20.0, 4.0, 2.0, 0.0])  # x from 8 to 12, y from 19 to 21
    pts = np.array([[12.0, 20.0], [10.0, 21.0], [11.999, 20.0], [12.001, 20.0]])
    assert in_obb(pts, box).tolist() == [False, False, True, False]
    assert in_obb(pts, box, edge_inside=True).tolist() == [True, True, True, False]
    # with a margin the edge moves in by it: 11.5 is exactly 0.5 px from x = 12
    near = np.array([[11.5, 20.0], [11.499, 20.0]])
    assert in_obb(near, box, 0.5).tolist() == [False, True]
    assert in_obb(near, box, 0.5, edge_inside=True).tolist() == [True, True]


def test_nested_box_share_counts_grid_points_on_the_edge():
    a = np.array([0.0, 0.0, 7.0, 7.0, 0.0])  # 7 x 7 grid: columns at x = -3 .. 3, the middle one at x = 0
    b = np.array([-5.0, 0.0, 10.0, 20.0, 0.0])  # x from -10 to 0: its right edge runs through a's middle column
    assert sorted(set(obb_grid(a, 7)[:, 0].round(9))) == [-3, -2, -1, 0, 1, 2, 3]
    assert _inside_share(a, b) == 4 / 7  # columns -3 .. 0, the one on the edge included
    assert in_obb(obb_grid(a, 7), b).mean() == 3 / 7  # the strict test leaves the edge column out


# ------------------------------------------------------------------ fragments inside a card

CARD = (100.0, 100.0, 61.0, 100.0, 0.0)


@pytest.mark.parametrize(
    ("boxes", "kept"),
    [
        # a box in a card's picture (a flower, a ribbon): dropped
        ([CARD, (100.0, 110.0, 40.0, 50.0, 0.0)], [0]),
        # fanned cards of one size, heavily overlapping: all kept
        ([CARD, (110.0, 100.0, 61.0, 100.0, 0.2)], [0, 1]),
        # a card-sized box inside an over-large box across two cards: the card is kept
        ([(130.0, 100.0, 122.0, 100.0, 0.0), CARD, (300.0, 100.0, 61.0, 100.0, 0.0)], [0, 1, 2]),
        # a small box only half inside a card: kept (it may be a card cut by the frame)
        ([CARD, (100.0, 160.0, 40.0, 50.0, 0.0)], [0, 1]),
    ],
    ids=["fragment", "fan", "over-large box", "half inside"],
)
def test_detector_drops_only_fragments_deep_inside_a_card(boxes, kept):
    from vision.detector import FRAGMENT
    from vision.postprocess import drop_fragments

    obbs = np.array(boxes)
    scores = np.linspace(0.9, 0.5, len(obbs))
    out, s = drop_fragments(obbs, scores, *FRAGMENT)
    np.testing.assert_array_equal(out, obbs[kept])
    np.testing.assert_array_equal(s, scores[kept])
