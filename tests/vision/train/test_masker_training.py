"""The masker's data, training, export and runtime on toy data (needs the train extra: torch)."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is in the train extra only")

from vision.detector import Detector, load_masker  # noqa: E402
from vision.train.datasets import gen_mask_crops  # noqa: E402
from vision.train.masker import build_masker, export_masker_onnx, mask_iou, train_masker  # noqa: E402


def test_masker_maps_its_input_to_a_logit_per_four_pixels():
    assert build_masker()(torch.zeros(3, 4, 56, 36)).shape == (3, 1, 28, 18)


def test_mask_crops_hold_both_masks_of_every_card_shown(toy_art):
    d = gen_mask_crops(toy_art, 4, seed=3, workers=1, styles=("toy",))
    n = len(d["y"])
    assert n > 0
    assert d["x"].shape == (n, 112, 72, 3)
    assert d["x"].dtype == np.uint8
    assert d["guess"].shape == d["true"].shape == (n, 112, 72)
    assert d["guess"].dtype == d["true"].dtype == bool
    assert (d["visible"] >= 0.05).all()
    # a card's true pixels lie inside its own (jittered) box: never an empty mask for a card shown
    assert d["true"].reshape(n, -1).any(1).all()


def test_trained_masker_exports_and_runs_in_the_detector(tmp_path):
    rng = np.random.default_rng(0)
    n = 64
    x = rng.integers(0, 256, (n, 112, 72, 3), dtype=np.uint8)
    true = np.zeros((n, 112, 72), bool)
    true[:, :56] = True  # the top half shows
    x[:, 56:] = 114
    data = {"x": x, "guess": np.ones((n, 112, 72), bool), "true": true}
    out = train_masker(data, tmp_path, epochs=2, batch=16, lr=1e-2, val_frac=0.25)
    assert out["epochs"] == 2
    assert 0 <= out["val_iou"] <= 1
    assert out["val_iou_guess"] == pytest.approx(0.5)
    assert (tmp_path / "masker_last.pt").is_file()
    onnx = export_masker_onnx(tmp_path / "masker.pt", tmp_path / "masker.onnx")
    masks = load_masker(onnx)(x[:5], data["guess"][:5])
    assert masks.shape == (5, 112, 72)
    assert masks.dtype == bool
    assert Detector(masker=onnx, calibration=False).masker.path == onnx
    # a second call resumes after the last epoch and trains no more
    again = train_masker(data, tmp_path, epochs=2, batch=16, lr=1e-2, val_frac=0.25)
    assert again["epochs"] == 2


def test_mask_iou_counts_two_empty_masks_as_agreeing():
    a = np.zeros((2, 4, 4), bool)
    b = a.copy()
    b[1, :2] = True
    a[1] = True
    assert mask_iou(a, b) == pytest.approx((1 + 0.5) / 2)
