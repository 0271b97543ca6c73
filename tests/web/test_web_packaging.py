"""The wheel ships every template and static file (pyproject ``[tool.setuptools.data-files]``)."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_data_files_cover_every_template_and_static_file():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data_files = config["tool"]["setuptools"]["data-files"]
    shipped = {pattern for patterns in data_files.values() for pattern in patterns}
    for folder in ("templates", "templates/static"):
        files = [p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*") if p.is_file()]
        assert files
        for f in files:
            assert any(fnmatch(f, pattern) and f.count("/") == pattern.count("/") for pattern in shipped), f
    for target, patterns in data_files.items():
        for pattern in patterns:
            assert target == "share/hanafuda-referee/" + pattern.rsplit("/", 1)[0], (target, pattern)
