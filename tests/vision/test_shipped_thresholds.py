"""The certainty threshold, the suggestion floor and the calibration that ship with the models.

Issue 9: "The shipped threshold is pinned by a test: today it can move from 0.5 to 0.4 with
every test still passing."  The values were chosen on the held-out calibration split (seed
8, never the test split) by ``scripts/calibrate_detector.py``; the measurements behind them
are in docs/VISION.md ("Calibration").  Changing one of them means re-measuring and changing
the docs with it.
"""

import inspect
import json
from pathlib import Path

import numpy as np
import pytest

import vision
import vision.synth.render
from vision.calibration import Calibration
from vision.detection import CERTAIN_AT, SUGGEST_FLOOR, Detection
from vision.detector import PACKAGE_MODELS, Detector
from vision.postprocess import to_detections

DOCS = Path(__file__).resolve().parents[2] / "docs" / "VISION.md"


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("CERTAIN_AT", CERTAIN_AT, 0.97),  # docs/VISION.md Calibration: kept where calib + calib2 proposed 0.95 (run 15)
        ("SUGGEST_FLOOR", SUGGEST_FLOOR, 0.38),  # keeps 98% of the right detections on calib + calib2
    ],
    ids=["certain threshold (precision 0.99)", "suggestion floor (98% of right kept)"],
)
def test_thresholds_are_the_calibrated_values(name, value, expected):
    assert value == expected, f"{name} moved: re-run scripts/calibrate_detector.py and update docs/VISION.md"
    assert f"`{name}` = {expected}" in DOCS.read_text(encoding="utf-8"), "docs/VISION.md must quote it"


def test_thresholds_are_exported_and_ordered():
    assert vision.CERTAIN_AT == CERTAIN_AT
    assert vision.SUGGEST_FLOOR == SUGGEST_FLOOR
    assert 0 < SUGGEST_FLOOR < CERTAIN_AT < 1


def test_detector_and_cli_default_to_the_certain_threshold():
    assert inspect.signature(Detector.__init__).parameters["uncertain_below"].default == CERTAIN_AT
    assert inspect.signature(to_detections).parameters["uncertain_below"].default == CERTAIN_AT
    import argparse

    from vision.cli import add_detect_arguments

    p = argparse.ArgumentParser()
    add_detect_arguments(p)
    assert p.parse_args(["x.jpg"]).uncertain_below == CERTAIN_AT


@pytest.mark.parametrize(
    ("confidence", "uncertain"),
    [(CERTAIN_AT, False), (np.nextafter(CERTAIN_AT, 0), True), (0.995, False), (0.5, True)],
    ids=["at the threshold: certain", "just under: uncertain", "above", "far under"],
)
def test_uncertain_exactly_when_not_certain(confidence, uncertain):
    (d,) = to_detections(np.array([[50.0, 50, 20, 30, 0]]), [(0, float(confidence))], (100, 100))
    assert isinstance(d, Detection)
    assert d.uncertain is uncertain


def test_calibration_file_records_the_shipped_thresholds():
    # the thresholds are chosen with the fit (scripts/calibrate_detector.py writes them there)
    cal = Calibration.load(PACKAGE_MODELS / "calibration.json")
    assert cal.certain_at == CERTAIN_AT
    assert cal.suggest_floor == SUGGEST_FLOOR


def test_shipped_calibration_is_the_fitted_one():
    path = PACKAGE_MODELS / "calibration.json"
    cal = Calibration.load(path)
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert (cal.a, cal.b, cal.c) == (raw["a"], raw["b"], raw["c"])
    assert (round(cal.a, 3), round(cal.b, 3), round(cal.c, 3), round(cal.d, 3)) == (0.127, 1.139, -0.68, -0.066)
    assert "calib" in cal.fitted_on
    assert cal.verifier  # fitted on the box verifier's probabilities, as the shipped detector gives
    # and on the print check's logit and how much of each box the others cover (docs/VISION.md)
    assert (round(cal.f, 3), cal.context_names, tuple(round(w, 3) for w in cal.e)) == (0.368, ("cover",), (-0.406,))
    assert (PACKAGE_MODELS / "printcheck.onnx").is_file()
    # and on the masker's visible shares (docs/VISION.md, "The masker (shipped)")
    assert cal.masker
    assert (PACKAGE_MODELS / "masker.onnx").is_file()
    # monotone: a better box probability (the verifier's) or class probability never lowers it
    s = np.linspace(0.36, 0.99, 20)
    alone = {"context": [0.0, 0.0, 0.0], "printcheck": 8.0}  # a card no box covers, read as a card
    assert np.all(np.diff(cal(s, 0.8, **alone)) > 0)
    assert np.all(np.diff(cal(0.8, s, **alone)) > 0)
    # and the print check's doubt and other boxes' cover lower it
    assert np.all(np.diff(cal(0.9, 0.9, 1.0, [0.0, 0.0, 0.0], np.linspace(-8, 8, 9))) > 0)
    assert np.all(np.diff(cal(0.9, 0.9, 1.0, [[0.0, 0.0, c] for c in np.linspace(0, 3, 9)], 8.0)) < 0)


# ------------------------------------------------------------------ the threshold in use

ART = Path(__file__).resolve().parents[3] / "shared" / "cards" / "art"


@pytest.fixture(scope="module")
def heldout_sample(tmp_path_factory):
    """The first photo of every (layout, style) cell of the held-out *test* split (seed 9,
    docs/VISION.md), regenerated from the art at test time (no art or render is committed):
    36 photos at 1280 px, 6 of them distractor-only; the shipped models run over them once."""
    from vision.synth.render import discover_styles, render_art
    from vision.train.evaluate import label_detections
    from vision.train.testset import read_testset, write_testset

    styles = discover_styles(ART)
    if styles != vision.synth.render.STYLES:
        pytest.skip(f"the nine art sets of {ART} are needed to regenerate the held-out sample (found {styles})")
    tmp = tmp_path_factory.mktemp("heldout")
    render_art(ART, tmp / "art", height=256, styles=styles)
    write_testset(tmp / "test", tmp / "art", split="test", per_cell=1, styles=styles, workers=1)
    photos = read_testset(tmp / "test")
    d = label_detections(Detector(calibration=False, uncertain_below=0.0), photos)
    d["confidence"] = Calibration.load(PACKAGE_MODELS / "calibration.json")(
        d["score"], d["prob"], d["visible"], d["context"], d["printcheck"]
    )
    return d


def _certain(d, threshold):
    """(certain detections, their precision, certain recall over all cards) at ``threshold``."""
    sel = d["confidence"] >= threshold
    n = int(sel.sum())
    right = int((sel & d["right"]).sum())
    return n, right / max(n, 1), right / d["cards_total"]


# Measured on the sample (54 photos, 302 cards, nine styles) with the shipped models (the 8-bit
# localiser, run 15's classifier, the box verifier, the masker, the print check and the calibration
# fitted with them on calib + calib2; docs/VISION.md, "Run 15"):
# threshold  certain  wrong  precision  recall
#   0.90       195       4     0.979     0.632
#   0.95       183       2     0.989     0.599   <- what calib + calib2 proposed (not shipped)
#   0.96       176       1     0.994     0.579
#   0.97       168       1     0.994     0.553   <- CERTAIN_AT
#   0.975      165       1     0.994     0.543
#   0.98       155       1     0.994     0.510
# Recall 0.553 is 167 right of the 302 cards (run 9's classifier, shipped before: 155 certain at 0.97,
# 1 wrong, recall 0.510).
PRECISION_AT_LEAST = 0.99
RECALL_AT_LEAST = 0.55


@pytest.mark.slow
def test_certain_detections_on_heldout_sample(heldout_sample):
    n, precision, recall = _certain(heldout_sample, CERTAIN_AT)
    assert n >= 40
    assert precision >= PRECISION_AT_LEAST
    assert recall >= RECALL_AT_LEAST  # the target is 0.85: missed (docs/VISION.md)


@pytest.mark.slow
@pytest.mark.parametrize(
    "threshold",
    [0.9, 0.5, 0.4],
    ids=["0.9", "0.5 (the old default)", "0.4 (the issue's example)"],
)
def test_a_lower_threshold_taps_in_wrong_cards(heldout_sample, threshold):
    _, precision, _ = _certain(heldout_sample, threshold)
    assert precision < PRECISION_AT_LEAST


@pytest.mark.slow
@pytest.mark.parametrize("threshold", [CERTAIN_AT + 0.005, CERTAIN_AT + 0.01], ids=["0.005 higher", "0.01 higher"])
def test_a_higher_threshold_loses_right_cards(heldout_sample, threshold):
    _, _, recall = _certain(heldout_sample, threshold)
    assert recall < RECALL_AT_LEAST


@pytest.mark.slow
def test_no_certain_detection_on_distractor_only_photos(heldout_sample):
    # issue 9 target: distractor scenes with no hanafuda card face give no certain detection.
    # Met on this sample's 6 distractor-only photos (highest 0.919 with run 15's classifier, 0.829
    # with run 9's; 0.961 before the print check). Missed on the whole test split's 36, which get 1
    # (0 with run 9's classifier); the 72 of the distract split get 1 (as before; 5 before the print
    # check: printed card boxes; docs/VISION.md, "Run 15").
    from vision.synth.layouts import NO_CARDS

    d = heldout_sample
    on_distractors = d["layout"] == NO_CARDS
    assert on_distractors.any()  # the sample holds distractor-only photos with detections
    assert not (on_distractors & (d["confidence"] >= CERTAIN_AT)).any()
