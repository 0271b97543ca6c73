"""Classifier crops cut by the detector's own boxes (issue 17): which label each box takes.

Runs without the train extra: the crops are numpy, cut by the shipped ONNX models."""

import numpy as np
import pytest

from vision.train.datasets import LABEL_FROM, REJECT_BELOW, box_labels, gen_detector_crops, load_crops
from vision.train.labels import REJECT

CARD = (100.0, 100.0, 61.0, 100.0, 0.0)  # one whole card, 61 x 100 px, upright


@pytest.mark.parametrize(
    ("box", "visible", "expected"),
    [
        # the box                         card shows  label
        ((100, 100, 61, 100, 0.0), 0.80, (7, 0.80)),  # on the card
        ((104, 96, 61, 100, 0.02), 0.80, (7, 0.80)),  # a little off, as a localiser's is
        ((100, 100, 61, 100, 0.0), 0.10, (-1, 0.0)),  # on a card too covered to name
        ((400, 400, 61, 100, 0.0), 0.80, (REJECT, 1.0)),  # on no card: "not a card"
        ((100, 145, 61, 100, 0.0), 0.80, (-1, 0.0)),  # half on the card: left out
    ],
)
def test_a_box_takes_the_label_of_the_card_it_covers(box, visible, expected):
    got = box_labels(np.array([box]), np.array([CARD]), [7], [visible], min_visible=0.15)
    assert got == [expected]


def test_the_card_overlapped_most_gives_the_label():
    cards = np.array([CARD, (140.0, 100.0, 61.0, 100.0, 0.0)])
    got = box_labels(np.array([(136.0, 100.0, 61.0, 100.0, 0.0)]), cards, [3, 9], [1.0, 1.0], 0.15)
    assert got == [(9, 1.0)]


def test_thresholds_leave_a_gap_for_boxes_across_cards():
    assert REJECT_BELOW < LABEL_FROM


def test_no_boxes_and_no_cards():
    assert box_labels(np.zeros((0, 5)), np.array([CARD]), [1], [1.0], 0.15) == []
    assert box_labels(np.array([CARD]), np.zeros((0, 5)), [], [], 0.15) == [(REJECT, 1.0)]


def test_crops_come_from_the_detector_with_their_labels(toy_art, tmp_path):
    d = gen_detector_crops(toy_art, 3, seed=2, workers=1, size=480)
    n = len(d["y"])
    assert set(d) == {"x", "y", "visible", "view", "layout", "s"}
    assert d["x"].shape == (n, 112, 72, 3)
    assert d["x"].dtype == np.uint8
    assert all(len(v) == n for v in d.values())
    assert set(d["view"]) <= {0, 1}
    assert n > 0
    assert (d["y"] >= 0).all()
    # a masked view is the whole crop of the same box with part of it greyed out
    masked = np.flatnonzero(d["view"] == 1)
    for i in masked:
        assert d["view"][i - 1] == 0
        assert d["y"][i - 1] == d["y"][i]
    # two crops files join in order
    np.savez(tmp_path / "a.npz", **d)
    np.savez(tmp_path / "b.npz", **{k: v[:1] for k, v in d.items()})
    both = load_crops([tmp_path / "a.npz", tmp_path / "b.npz"])
    assert len(both["y"]) == n + min(n, 1)


def test_a_scene_where_the_localiser_finds_nothing_gives_no_crops(toy_art, monkeypatch):
    from vision.train import datasets

    datasets._init_detector_worker(str(toy_art), (), None)
    monkeypatch.setattr(datasets._DETECTOR, "localise", lambda a: (np.zeros((0, 5)), np.zeros(0)))
    x, y, visible, view, layout, style = datasets._detector_crop_job((2_800_000, 320, ("felt",), 0.15, None, None))
    assert x.shape == (0, 112, 72, 3)
    assert x.dtype == np.uint8
    assert len(y) == len(visible) == len(view) == len(layout) == len(style) == 0


def test_distractor_scenes_give_only_not_a_card_crops(toy_art):
    d = gen_detector_crops(toy_art, 4, seed=2, workers=1, size=480, distractors=True)
    assert set(d["layout"]) <= {"none"}
    assert (d["y"] == REJECT).all()
