import shutil
import sys
from pathlib import Path

import pytest

# Make tests/helpers.py importable as `helpers`.
sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def toy(monkeypatch, tmp_path):
    """The toy game family (``toy_family.TOY``) in the registry, and its preset ``toy`` beside the bundled ones."""
    from toy_family import TOY, TOY_PRESET

    from referee import families, ruleset

    presets = tmp_path / "rulesets"
    shutil.copytree(ruleset._preset_dir(), presets)
    (presets / "toy.toml").write_text(TOY_PRESET, encoding="utf-8")
    monkeypatch.setattr(ruleset, "_preset_dir", lambda: presets)
    monkeypatch.setitem(families.REGISTRY, "toy", TOY)
    return TOY
