"""The test folders mirror the packages without shadowing them (issue 19)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_vision_package_is_the_real_one_not_the_tests_folder():
    # bug: tests/vision/ (no __init__.py, on sys.path through tests/conftest.py) was imported
    # as a namespace package "vision" ahead of the editable install, so CI's fresh venv could
    # not import vision.train.classifier; pyproject's pytest pythonpath fixes it
    spec = importlib.util.find_spec("vision")
    assert spec is not None
    assert spec.origin == str(ROOT / "vision" / "__init__.py")
    train = importlib.util.find_spec("vision.train.classifier")
    assert train.origin == str(ROOT / "vision" / "train" / "classifier.py")
