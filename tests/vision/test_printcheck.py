"""The print check's runtime (vision/printcheck.py): each kept box's context crop, its logit,
and a detector that must have one when its calibration weighs it (no torch)."""

import math

import numpy as np
import pytest

from vision.calibration import Calibration
from vision.detector import Detector, find_model, load_printcheck
from vision.errors import ModelError
from vision.printcheck import CONTEXT_SCALE, LOGIT_CLIP, PrintCheck, context_crops, grown


def test_a_grown_box_keeps_its_centre_and_angle():
    obbs = np.array([[50.0, 60.0, 20.0, 30.0, 0.3]])
    g = grown(obbs)
    assert g[0] == pytest.approx([50.0, 60.0, 20.0 * CONTEXT_SCALE, 30.0 * CONTEXT_SCALE, 0.3])
    assert obbs[0, 2] == 20.0  # the input is not changed
    with pytest.raises(ValueError, match="scale"):
        grown(obbs, 0.0)


def test_the_context_crop_shows_the_box_in_its_middle_and_what_lies_around_it():
    # a blue card-sized rectangle (40 x 62 px) on a green table; the box is exactly the rectangle
    image = np.zeros((200, 200, 3), np.uint8)
    image[:] = (0, 160, 0)
    image[69:131, 80:120] = (0, 0, 200)
    crop = context_crops(image, np.array([[100.0, 100.0, 40.0, 62.0, 0.0]]))[0]
    assert crop.shape == (112, 72, 3)
    # grown 1.5 times, the rectangle fills the middle two thirds of the crop and the table the rim
    h, w = crop.shape[:2]
    middle = crop[int(h / 6) + 3 : int(5 * h / 6) - 3, int(w / 6) + 3 : int(5 * w / 6) - 3]
    assert (middle[..., 2] > 150).all()
    assert (middle[..., 1] < 40).all()
    for rim in (crop[:12], crop[-12:], crop[:, :8], crop[:, -8:]):
        assert (rim[..., 1] > 120).all()
        assert (rim[..., 2] < 40).all()


class _Model:
    """A stand-in for the ONNX file: remembers its input, answers given logits."""

    def __init__(self, logits):
        self.logits, self.seen = np.asarray(logits, np.float32).reshape(-1, 1), None

    def __call__(self, x):
        self.seen = x
        return self.logits


def test_the_model_gets_upright_crops_in_0_1_and_its_logits_come_back_clipped():
    model = _Model([3.0, -20.0, 50.0])
    check = PrintCheck("printcheck.onnx", model)
    image = np.full((100, 100, 3), 255, np.uint8)
    boxes = np.array([[30.0, 30.0, 20, 30, 0.0], [60.0, 60.0, 20, 30, math.pi / 2], [50.0, 50.0, 10, 15, 0.0]])
    z = check(image, boxes)
    assert model.seen.shape == (3, 3, 112, 72)
    assert model.seen.dtype == np.float32
    assert model.seen.max() == pytest.approx(1.0)
    assert z == pytest.approx([3.0, -LOGIT_CLIP, LOGIT_CLIP])
    assert check(image, np.zeros((0, 5))).shape == (0,)


def test_another_model_file_is_not_taken_for_a_print_check():
    with pytest.raises(ModelError, match=r"expected a print check \(one input \[B, 3, 112, 72\], output \[B, 1\]\)"):
        load_printcheck(find_model("classifier.onnx"))
    with pytest.raises(ModelError, match="expected a print check"):
        Detector(printcheck=find_model("localiser.onnx"), calibration=False)


def test_a_calibration_that_weighs_the_print_check_refuses_a_detector_without_one(tmp_path):
    path = tmp_path / "calibration.json"
    Calibration(0.4, 0.9, 0.2, d=-0.3, verifier=True, f=0.3).save(path)
    with pytest.raises(ModelError, match=r"weighs the print check.*has none"):
        Detector(calibration=path, printcheck=False, masker=False)
    # one fitted without it runs without one
    Calibration(0.4, 0.9, 0.2, d=-0.3, verifier=True).save(path)
    assert Detector(calibration=path, printcheck=False, masker=False).printcheck is None
