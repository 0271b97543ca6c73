"""Where the detector's model files come from: ``$HANAFUDA_VISION_MODELS`` or the shipped folder
(vision/detector.find_model).  No model is run; the files are only looked up."""

import shutil

import pytest

from vision.detector import PACKAGE_MODELS, _load_calibration, find_model, load_verifier
from vision.errors import ModelError

REQUIRED = ("localiser.onnx", "classifier.onnx")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A model folder named by HANAFUDA_VISION_MODELS, holding only a localiser (as a candidate
    run's export might)."""
    (tmp_path / "localiser.onnx").write_bytes(b"not read here")
    monkeypatch.setenv("HANAFUDA_VISION_MODELS", str(tmp_path))
    return tmp_path


def test_a_file_in_the_folder_is_taken_from_it(folder):
    assert find_model("localiser.onnx") == folder / "localiser.onnx"


# Bug: a file the folder lacked was taken from vision/models/ instead, so one detector could run
# one training's localiser with another's classifier, verifier and calibration.
def test_a_required_file_the_folder_lacks_is_an_error_naming_it(folder):
    with pytest.raises(ModelError, match=r"'classifier.onnx' not found in HANAFUDA_VISION_MODELS="):
        find_model("classifier.onnx")


# Bug: a misspelt folder silently ran the shipped models.
def test_a_folder_that_does_not_exist_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setenv("HANAFUDA_VISION_MODELS", str(tmp_path / "no-such-run"))
    with pytest.raises(ModelError, match=r"HANAFUDA_VISION_MODELS=.*no-such-run: expected a folder"):
        find_model("localiser.onnx")


@pytest.mark.skipif(
    not all((PACKAGE_MODELS / n).is_file() for n in ("verifier.json", "calibration.json")),
    reason="the shipped verifier.json and calibration.json are absent",
)
def test_optional_files_the_folder_lacks_are_none_not_the_shipped_ones(folder):
    assert load_verifier(None) is None
    assert _load_calibration(None) is None


@pytest.mark.skipif(
    not all((PACKAGE_MODELS / n).is_file() for n in ("verifier.json", "calibration.json")),
    reason="the shipped verifier.json and calibration.json are absent",
)
def test_optional_files_in_the_folder_are_read_from_it(folder):
    for name in ("verifier.json", "calibration.json"):
        shutil.copy(PACKAGE_MODELS / name, folder / name)
    assert find_model("verifier.json") == folder / "verifier.json"
    assert load_verifier(None) is not None
    assert _load_calibration(None) is not None


def test_without_the_variable_the_shipped_files_are_found(monkeypatch):
    monkeypatch.delenv("HANAFUDA_VISION_MODELS", raising=False)
    for name in REQUIRED:
        if not (PACKAGE_MODELS / name).is_file():
            pytest.skip(f"the shipped {name} is absent")
        assert find_model(name) == PACKAGE_MODELS / name
