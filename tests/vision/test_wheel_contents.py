"""A non-editable install ships every part of vision/: the runtime, vision.synth, vision.train and
the models in vision/models/ (pyproject.toml's package discovery and package data)."""

import tomllib
from fnmatch import fnmatchcase
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_vision_folder_with_code_is_a_package_that_ships():
    include = SETUPTOOLS["packages"]["find"]["include"]
    folders = sorted({p.parent for p in (ROOT / "vision").rglob("*.py") if "__pycache__" not in p.parts})
    names = {".".join(f.relative_to(ROOT).parts) for f in folders}
    assert {"vision", "vision.synth", "vision.train"} <= names
    for folder in folders:
        name = ".".join(folder.relative_to(ROOT).parts)
        assert (folder / "__init__.py").is_file(), f"{name} has no __init__.py: setuptools would leave it out"
        assert any(fnmatchcase(name, pattern) for pattern in include), (name, include)


def test_the_models_ship_as_package_data():
    globs = SETUPTOOLS["package-data"]["vision"]
    models = sorted(p for p in (ROOT / "vision" / "models").iterdir() if p.is_file())
    assert {p.name for p in models} >= {"localiser.onnx", "classifier.onnx"}
    for p in models:
        assert any(p.relative_to(ROOT / "vision").match(g) for g in globs), (p.name, globs)
