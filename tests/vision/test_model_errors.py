"""Model files the detector cannot use are a :class:`vision.errors.ModelError` naming the file,
never a traceback from ONNX Runtime or the file system (``hanafuda-referee detect`` prints a
ModelError as one line and exits 2): the wrong model, a folder or file that cannot be read, a
folder's calibration without the verifier it was fitted with (vision/detector.py)."""

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.calibration import Calibration
from vision.detector import PACKAGE_MODELS, Detector, _load_calibration, find_model, load_verifier, localiser_meta
from vision.errors import ModelError

SHIPPED = ("localiser.onnx", "classifier.onnx")
needs_shipped = pytest.mark.skipif(
    not all((PACKAGE_MODELS / n).is_file() for n in SHIPPED), reason="the shipped ONNX models are absent"
)


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """An empty model folder named by HANAFUDA_VISION_MODELS."""
    monkeypatch.setenv("HANAFUDA_VISION_MODELS", str(tmp_path))
    return tmp_path


def tiny_model(path: Path, inp: list, out: list) -> None:
    """A tiny ONNX model with one input ``crops`` of shape ``inp`` (channels 3 or dynamic) and one
    output ``logits`` of shape ``out`` (``[B, K]``; None or a name: a dynamic dimension): the mean
    of each channel times a ``(3, K)`` weight; nothing here runs it."""
    onnx = pytest.importorskip("onnx", reason="building a tiny ONNX model needs the onnx package")
    from onnx import TensorProto, helper, numpy_helper

    k = out[-1] if isinstance(out[-1], int) else 48
    graph = helper.make_graph(
        [
            helper.make_node("ReduceMean", ["crops"], ["mean"], axes=[2, 3], keepdims=0),
            helper.make_node("MatMul", ["mean", "w"], ["logits"]),
        ],
        "tiny",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, inp)],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, out)],
        [numpy_helper.from_array(np.ones((3, k), np.float32), "w")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, str(path))


# Bug: the localiser copied over the classifier (or the other way round) loaded, and the first
# photo ended in onnxruntime's InvalidArgument traceback ("Got invalid dimensions for input").
@needs_shipped
@pytest.mark.parametrize(
    ("localiser", "classifier", "message"),
    [
        ("localiser.onnx", "localiser.onnx", r"classifier\.onnx: expected .*crops.*\[B, 3, 112, 72\].*found"),
        ("classifier.onnx", "classifier.onnx", r"localiser\.onnx: expected .*\[1, 3, S, S\].*found"),
    ],
    ids=["localiser-as-classifier", "classifier-as-localiser"],
)
def test_a_model_swapped_for_the_other_is_refused_when_loaded(folder, localiser, classifier, message):
    shutil.copy(PACKAGE_MODELS / localiser, folder / "localiser.onnx")
    shutil.copy(PACKAGE_MODELS / classifier, folder / "classifier.onnx")
    with pytest.raises(ModelError, match=message):
        Detector()


# Bug: a classifier trained on another crop size loaded, then failed on the first crops.
@needs_shipped
@pytest.mark.parametrize(
    ("inp", "out", "message"),
    [
        (["batch", 3, 224, 224], ["batch", 48], r"\[B, 3, 112, 72\].*found .*\[batch, 3, 224, 224\]"),
        (["batch", 3, 112, 72], ["batch", 10], r"\[B, 48 or 49\].*found .*\[batch, 10\]"),
    ],
    ids=["other-crop-size", "other-class-count"],
)
def test_a_classifier_of_another_shape_is_refused_naming_expected_and_found(folder, inp, out, message):
    shutil.copy(PACKAGE_MODELS / "localiser.onnx", folder / "localiser.onnx")
    tiny_model(folder / "classifier.onnx", inp, out)
    with pytest.raises(ModelError, match=message):
        Detector()


@needs_shipped
@pytest.mark.parametrize(
    ("inp", "out"),
    [(["n", 3, 112, 72], ["n", 49]), ([None, None, None, None], [None, None]), ([8, 3, 112, 72], [8, 48])],
    ids=["named-batch", "all-dynamic", "fixed-batch"],
)
def test_a_classifier_with_dynamic_or_fitting_dimensions_is_accepted(folder, inp, out):
    shutil.copy(PACKAGE_MODELS / "localiser.onnx", folder / "localiser.onnx")
    tiny_model(folder / "classifier.onnx", inp, out)
    assert Detector().imgsz == 512


def unreadable(monkeypatch, root: Path) -> None:
    """Make ``root`` behave as a folder the user may not enter: Python 3.11's Path.is_file and
    is_dir raise PermissionError for a path inside it (as root, chmod would not stop us)."""
    for name in ("is_file", "is_dir", "exists"):
        real = getattr(Path, name)

        def refuse(self, real=real):
            if self != root and root in self.parents:
                raise PermissionError(13, "Permission denied", str(self))
            return real(self)

        monkeypatch.setattr(Path, name, refuse)


# Bug: a models folder the user could not enter gave a PermissionError traceback from find_model.
@pytest.mark.parametrize(
    "look",
    [
        lambda: find_model("localiser.onnx"),
        lambda: load_verifier(None),
        lambda: _load_calibration(None),
        Detector,
    ],
    ids=["find_model", "verifier", "calibration", "detector"],
)
def test_a_folder_that_cannot_be_read_is_a_model_error_giving_the_reason(folder, monkeypatch, look):
    unreadable(monkeypatch, folder)
    with pytest.raises(ModelError, match=rf"{folder}.*Permission denied"):
        look()


def test_a_shipped_folder_that_cannot_be_read_is_a_model_error(monkeypatch):
    monkeypatch.delenv("HANAFUDA_VISION_MODELS", raising=False)
    unreadable(monkeypatch, PACKAGE_MODELS)
    with pytest.raises(ModelError, match=rf"{PACKAGE_MODELS}.*Permission denied"):
        find_model("localiser.onnx")


# Bug: the localiser's description was looked for with Path.is_file, which raised PermissionError.
def test_a_localiser_description_that_cannot_be_looked_at_is_a_model_error(folder, monkeypatch):
    unreadable(monkeypatch, folder)
    with pytest.raises(ModelError, match=r"localiser\.json.*Permission denied"):
        localiser_meta(folder / "localiser.onnx")


def refuse_open(monkeypatch, path: Path) -> None:
    """Opening ``path`` raises PermissionError (a file without read permission)."""
    real = Path.open

    def open_(self, *a, **k):
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, *a, **k)

    monkeypatch.setattr(Path, "open", open_)


@needs_shipped
@pytest.mark.parametrize("name", ["classifier.onnx", "verifier.json", "localiser.json"])
def test_a_model_file_that_cannot_be_read_is_a_model_error_naming_it(folder, monkeypatch, name):
    for n in (*SHIPPED, "verifier.json", "localiser.json"):
        if (PACKAGE_MODELS / n).is_file():
            shutil.copy(PACKAGE_MODELS / n, folder / n)
    if not (folder / name).is_file():
        pytest.skip(f"the shipped {name} is absent")
    refuse_open(monkeypatch, folder / name)
    with pytest.raises(ModelError, match=rf"cannot read {folder / name}: Permission denied"):
        Detector(calibration=False)


# Bug: a folder with calibration.json but no verifier.json got the developer's message
# ("this detector has none: ... calibration=False"), never saying verifier.json was missing.
def test_a_folder_calibration_without_its_verifier_names_the_missing_file(folder):
    Calibration(1.0, 1.0, 0.0, verifier=True).save(folder / "calibration.json")
    with pytest.raises(ModelError) as e:
        Detector()
    assert str(e.value) == (
        f"HANAFUDA_VISION_MODELS={folder}: calibration.json was fitted with the box verifier, but the "
        "folder has no verifier.json: add it, or remove calibration.json"
    )


@pytest.mark.skipif(not (PACKAGE_MODELS / "verifier.json").is_file(), reason="the shipped verifier.json is absent")
def test_a_folder_calibration_fitted_without_the_folder_verifier_says_so(folder):
    shutil.copy(PACKAGE_MODELS / "verifier.json", folder / "verifier.json")
    Calibration(1.0, 1.0, 0.0, verifier=False).save(folder / "calibration.json")
    with pytest.raises(ModelError, match=r"HANAFUDA_VISION_MODELS=.*calibration\.json was fitted without the box "
                       r"verifier, but the folder has verifier\.json"):
        Detector()


def test_explicit_arguments_keep_the_programmers_message(folder):
    Calibration(1.0, 1.0, 0.0, verifier=True).save(folder / "calibration.json")
    with pytest.raises(ModelError, match="fitted with the box verifier, and this detector has none"):
        Detector(verifier=False)


@pytest.fixture
def torch_backend():
    """torch and ultralytics (the train extra), which the ultralytics backend needs; skips without them."""
    pytest.importorskip("torch", reason="the ultralytics backend needs torch (the train extra), not importable here")
    pytest.importorskip("ultralytics", reason="the ultralytics backend needs ultralytics (the train extra)")
    import torch

    return torch


def _bad_pt(kind: str, path: Path, torch, monkeypatch) -> None:
    """Make ``path`` a .pt file the ultralytics backend cannot use, of ``kind``."""
    if kind == "not-a-model":
        path.write_bytes(b"not a model")
    elif kind == "another-checkpoint":
        torch.save({"epoch": 3}, path)
    elif kind == "unreadable":
        torch.save({"epoch": 3}, path)
        refuse_open(monkeypatch, path)


# Bug: the ultralytics backend with a .pt file that was not its model printed a raw traceback
# (UnpicklingError, KeyError, a TypeError from ultralytics), and a missing one was looked for on GitHub.
@pytest.mark.parametrize("kind", ["not-a-model", "another-checkpoint", "unreadable", "missing"])
@pytest.mark.parametrize("role", ["localiser", "classifier"])
def test_a_torch_model_file_it_cannot_use_is_a_model_error_naming_it(folder, tmp_path, monkeypatch, torch_backend,
                                                                    role, kind):
    from vision.detector import REPO_MODELS

    files = {"localiser": REPO_MODELS / "localiser.pt", "classifier": REPO_MODELS / "classifier.pt"}
    if not files["localiser" if role == "classifier" else "classifier"].is_file():
        pytest.skip("the trained .pt models are absent")
    bad = tmp_path / f"bad-{role}.pt"
    _bad_pt(kind, bad, torch_backend, monkeypatch)
    files[role] = bad
    with pytest.raises(ModelError, match=re.escape(str(bad))):
        Detector("ultralytics", calibration=False, **files)
