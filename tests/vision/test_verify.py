"""The box verifier (vision/verify.py) on fixed boxes: its features, its keep rule, its file."""

import dataclasses
import json

import numpy as np
import pytest

from referee.cards import CARD_IDS
from vision.verify import FEATURES, Verifier, box_features, fit_logistic

F = {name: i for i, name in enumerate(FEATURES)}


def reads(*cards, p=0.9):
    """Whole-crop probabilities ``(K, 48)``: each box reads as its card at ``p``."""
    out = np.full((len(cards), 48), (1 - p) / 47)
    for i, c in enumerate(cards):
        out[i, CARD_IDS.index(c)] = p
    return out


# three cards in a row, card-sized (72 x 112 px), apart; a fourth box across the first two
ROW = np.array([[100, 100, 72, 112, 0], [200, 100, 72, 112, 0], [300, 100, 72, 112, 0]], float)
ACROSS = np.array([[150, 100, 172, 112, 0]], float)


def test_a_box_across_two_cards_is_too_large_and_holds_their_centres():
    obbs = np.concatenate([ROW, ACROSS])
    x = box_features(
        obbs, np.array([0.9, 0.9, 0.9, 0.5]), reads("pine-crane", "plum-bush-warbler", "maple-deer", "pine-crane")
    )
    assert x.shape == (4, len(FEATURES))
    assert x[3, F["size"]] == pytest.approx(np.log(172 / 72))
    assert x[3, F["centres_inside"]] == 2
    assert x[:3, F["size_off"]] == pytest.approx([0, 0, 0])
    assert x[3, F["covered_above"]] > 0.5
    assert x[0, F["covered_above"]] == 0
    assert x[3, F["iou_above"]] > 0.3
    assert x[0, F["iou_above"]] == 0


def test_a_second_box_on_one_card_overlaps_a_higher_box_read_as_the_same_card():
    obbs = np.array([[100, 100, 72, 112, 0], [104, 102, 72, 112, 0.05]])
    x = box_features(obbs, np.array([0.9, 0.6]), reads("pine-crane", "pine-crane"))
    assert x[1, F["same_above"]] > 0.8
    assert x[0, F["same_above"]] == 0  # the best box has nothing above it
    y = box_features(obbs, np.array([0.9, 0.6]), reads("pine-crane", "plum-bush-warbler"))
    assert y[1, F["same_above"]] == 0
    assert y[1, F["iou_above"]] > 0.8


def test_no_boxes_give_no_rows_and_mismatched_shapes_are_refused():
    assert box_features(np.zeros((0, 5)), np.zeros(0), np.zeros((0, 48))).shape == (0, len(FEATURES))
    with pytest.raises(ValueError, match="2 boxes, 1 scores"):
        box_features(ROW[:2], np.array([0.9]), reads("pine-crane", "maple-deer"))
    with pytest.raises(ValueError, match="2 boxes, 2 scores, 4 rows"):  # not read as (2, 96)
        box_features(ROW[:2], np.array([0.9, 0.8]), reads("pine-crane", "maple-deer", "iris-bridge", "pine-crane"))
    with pytest.raises(ValueError, match="4 rows"):
        verifier({}).select(ROW[:2], np.array([0.9, 0.8]), reads("pine-crane", "maple-deer", "iris-bridge", "pine-crane"))  # noqa: E501


def test_two_boxes_with_equal_scores_still_see_each_other():
    # the first in input order ranks above: a second box on its card is seen as one
    obbs = np.array([[100, 100, 72, 112, 0], [103, 101, 72, 112, 0.02]])
    x = box_features(obbs, np.array([0.8, 0.8]), reads("pine-crane", "pine-crane"))
    assert x[0, F["same_above"]] == 0
    assert x[1, F["same_above"]] > 0.8


def verifier(weights: dict, bias=0.0, **kw) -> Verifier:
    """A verifier on raw features (mean 0, scale 1) with the given weights."""
    w = tuple(float(weights.get(f, 0.0)) for f in FEATURES)
    return Verifier(w, bias, (0.0,) * len(FEATURES), (1.0,) * len(FEATURES), **kw)


def test_select_keeps_cards_and_drops_what_the_verifier_doubts():
    obbs = np.concatenate([ROW, ACROSS])
    v = verifier({"size_off": -20.0}, bias=3.0, keep_at=0.5)
    keep, p = v.select(
        obbs, np.array([0.9, 0.8, 0.7, 0.95]), reads("pine-crane", "plum-bush-warbler", "maple-deer", "iris-bridge")
    )
    assert sorted(keep.tolist()) == [0, 1, 2]
    assert (p >= 0.5).all()
    assert list(p) == sorted(p, reverse=True)


def test_select_drops_the_less_probable_of_two_boxes_read_as_one_card_but_keeps_two_fanned_cards():
    # two fanned cards: whole boxes overlapping by more than half, read as two cards
    fan = np.array([[100, 100, 72, 112, 0], [112, 100, 72, 112, 0.1]])
    v = verifier({"score": 1.0}, keep_at=0.1, iou=0.9, same_iou=0.5)
    keep, _ = v.select(fan, np.array([0.9, 0.8]), reads("pine-crane", "maple-deer"))
    assert sorted(keep.tolist()) == [0, 1]
    keep, _ = v.select(fan, np.array([0.9, 0.8]), reads("pine-crane", "pine-crane"))
    assert keep.tolist() == [0]


def test_select_on_no_boxes():
    keep, p = verifier({}).select(np.zeros((0, 5)), np.zeros(0), np.zeros((0, 48)))
    assert keep.shape == p.shape == (0,)


def test_a_verifier_round_trips_through_its_file(tmp_path):
    v = dataclasses.replace(verifier({"score": 1.5, "size_off": -2.0}, bias=0.3), keep_at=0.45, fitted_on="test")
    v.save(tmp_path / "v.json")
    assert Verifier.load(tmp_path / "v.json") == v


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not a verifier file"),
        ('{"weights": [1]}', "not a verifier file"),
        (
            json.dumps({"weights": [1.0], "bias": 0, "mean": [0], "scale": [1], "features": ["score"]}),
            "fitted on features",
        ),
    ],
)
def test_a_bad_verifier_file_is_refused_clearly(tmp_path, text, message):
    (tmp_path / "v.json").write_text(text)
    with pytest.raises(ValueError, match=message):
        Verifier.load(tmp_path / "v.json")


def test_the_detector_refuses_a_bad_verifier_file_as_a_model_error(tmp_path):
    from vision.detector import load_verifier
    from vision.errors import ModelError

    (tmp_path / "v.json").write_text("{}")
    with pytest.raises(ModelError, match="not a verifier file"):
        load_verifier(tmp_path / "v.json")
    assert load_verifier(False) is None


def test_fit_logistic_finds_the_feature_that_separates_the_labels():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 3))
    y = x[:, 1] + 0.1 * rng.normal(size=400) > 0
    w, b, mean, scale = fit_logistic(x, y, l2=1e-3)
    assert np.argmax(np.abs(w)) == 1
    assert w[1] > 0
    p = 1 / (1 + np.exp(-(((x - mean) / scale) @ w + b)))
    assert ((p > 0.5) == y).mean() > 0.95
    with pytest.raises(ValueError, match="one class"):
        fit_logistic(x, np.ones(400, bool))


def test_a_detector_refuses_a_calibration_fitted_for_the_other_kind_of_box_score(tmp_path):
    from vision.calibration import Calibration
    from vision.detector import Detector
    from vision.errors import ModelError

    # the shipped calibration was fitted on the verifier's probabilities
    with pytest.raises(ModelError, match="fitted with the box verifier, and this detector has none"):
        Detector(verifier=False)
    Calibration(1.0, 1.0, 0.0, verifier=False).save(tmp_path / "plain.json")
    with pytest.raises(ModelError, match="fitted without the box verifier, and this detector has one"):
        Detector(masker=False, calibration=tmp_path / "plain.json")
    assert Detector(verifier=False, masker=False, calibration=tmp_path / "plain.json").verifier is None
