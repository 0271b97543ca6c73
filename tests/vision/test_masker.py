"""The masker's runtime: its input and output layout, and a file it cannot use (no torch)."""

import json

import numpy as np
import pytest

from vision.detector import Detector, find_model, load_masker
from vision.errors import ModelError
from vision.masker import MASKER_INPUT, Masker, masker_input, masks_from_logits


def test_input_is_the_crop_at_half_size_with_its_mask_as_a_fourth_channel():
    crops = np.full((2, 112, 72, 3), 255, np.uint8)
    guess = np.zeros((2, 112, 72), bool)
    guess[:, :56] = True
    x = masker_input(crops, guess)
    assert x.shape == (2, 4, MASKER_INPUT[1], MASKER_INPUT[0])
    assert x.dtype == np.float32
    assert np.allclose(x[:, :3], 1.0)
    assert np.allclose(x[:, 3, :28], 1.0)
    assert np.allclose(x[:, 3, 28:], 0.0)


@pytest.mark.parametrize(
    ("crops", "guess"),
    [
        (np.zeros((2, 112, 72), np.uint8), np.zeros((2, 112, 72), bool)),  # no colour channels
        (np.zeros((2, 72, 112, 3), np.uint8), np.zeros((2, 72, 112), bool)),  # lying crops
        (np.zeros((2, 112, 72, 3), np.uint8), np.zeros((3, 112, 72), bool)),  # one mask too many
    ],
)
def test_input_of_another_shape_is_refused(crops, guess):
    with pytest.raises(ValueError, match="masker_input"):
        masker_input(crops, guess)


def test_logits_become_crop_sized_masks_cut_at_even_odds():
    logits = np.full((1, 1, 28, 18), -3.0, np.float32)
    logits[0, 0, :14] = 3.0
    m = masks_from_logits(logits)
    assert m.shape == (1, 112, 72)
    assert m.dtype == bool
    assert m[0, :50].all()
    assert not m[0, 62:].any()


def test_another_model_file_is_not_taken_for_a_masker():
    with pytest.raises(ModelError, match="expected a masker"):
        load_masker(find_model("classifier.onnx"))
    with pytest.raises(ModelError, match="expected a masker"):
        Detector(masker=find_model("localiser.onnx"), calibration=False)


def test_without_a_masker_the_stacking_order_masks_stay_and_the_shipped_one_is_taken_by_default():
    assert Detector(masker=False, calibration=False).masker is None
    assert Detector(calibration=False).masker.path == find_model("masker.onnx")  # ships (docs/VISION.md)


@pytest.mark.parametrize(
    "masker", [False, True], ids=["a masker, calibration fitted without", "no masker, calibration fitted with one"]
)
def test_a_calibration_fitted_for_the_other_visible_shares_is_refused(tmp_path, masker):
    cal = json.loads(find_model("calibration.json").read_text(encoding="utf-8"))
    cal["masker"] = masker
    (tmp_path / "calibration.json").write_text(json.dumps(cal), encoding="utf-8")
    with pytest.raises(ModelError, match="visible shares"):
        Detector(masker=None if masker is False else False, calibration=tmp_path / "calibration.json")


class _TopHalf(Masker):
    """A masker that says the top half of every crop shows (whatever the crop)."""

    def __init__(self):
        super().__init__("top-half", None)

    def __call__(self, crops, guess):
        m = np.zeros((len(crops), 112, 72), bool)
        m[:, :56] = True
        return m


def _two_overlapping_cards():
    im = np.full((400, 400, 3), 90, np.uint8)
    obbs = np.array([[150.0, 200.0, 100.0, 160.0, 0.0], [210.0, 200.0, 100.0, 160.0, 0.0]])
    return im, obbs


@pytest.mark.parametrize("masks_too", [True, False], ids=["masks-and-shares", "shares-only"])
def test_the_maskers_shares_are_taken_and_its_masks_only_when_asked(masks_too):
    im, obbs = _two_overlapping_cards()
    plain = Detector(masker=False, calibration=False).visibility(im, obbs)
    masks, share = Detector(masker=_TopHalf(), masker_masks=masks_too, calibration=False).visibility(im, obbs)
    assert share == pytest.approx([0.5, 0.5])  # the masker's top half, for both overlapping boxes
    if masks_too:
        assert masks[:, :56].all()
        assert not masks[:, 56:].any()
    else:
        assert (masks == plain[0]).all()  # the stacking order's masks, for the classifier
        assert plain[1] != pytest.approx([0.5, 0.5])  # so the shares above are the masker's
