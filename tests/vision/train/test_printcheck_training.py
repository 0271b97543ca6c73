"""The print check's training on toy data (needs the train extra: torch; skipped without it): a
checkpoint after every epoch, an ONNX file the runtime loads, and refusals of one-sided labels."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is in the train extra only")

from vision.detector import load_printcheck  # noqa: E402
from vision.train.printcheck import export_printcheck_onnx, train_printcheck  # noqa: E402


def _crops(n=24, seed=0):
    """Context crops of two kinds a network can tell apart: dark rims (cards) and flat colour (boxes)."""
    rng = np.random.default_rng(seed)
    x = rng.integers(90, 160, (n, 112, 72, 3)).astype(np.uint8)
    y = np.arange(n) % 2 == 0
    x[y, :18] = 20  # a dark rim around the card
    x[y, -18:] = 20
    return x, y


def test_a_checkpoint_and_an_onnx_file_the_runtime_loads(tmp_path):
    x, y = _crops()
    summary = train_printcheck(x, y, tmp_path / "printcheck.pt", epochs=1, log=lambda *_: None)
    assert summary["n"] == 24
    assert summary["on_card"] == 12
    assert np.isfinite(summary["loss"])
    onnx = export_printcheck_onnx(tmp_path / "printcheck.pt", tmp_path / "printcheck.onnx")
    check = load_printcheck(onnx, threads=1)
    z = check.logits(x[:5])
    assert z.shape == (5,)
    assert np.all(np.abs(z) <= 8.0)


def test_labels_of_one_kind_are_refused(tmp_path):
    x, _ = _crops(8)
    with pytest.raises(ValueError, match="both kinds"):
        train_printcheck(x, np.ones(8, bool), tmp_path / "p.pt", epochs=1)
