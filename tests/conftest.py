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


#: The licensed card-art sets (never committed; scenes are rendered from them at test time).
ART = Path(__file__).resolve().parents[2] / "shared" / "cards" / "art"


@pytest.fixture(scope="session")
def mantia_art(tmp_path_factory):
    """One art set's 48 cards rendered now (``{"mantia": {card id: RGBA image}}``, 256 px high,
    :func:`vision.synth.render.load_art`); skips, saying why, when the art folder is absent."""
    if not (ART / "mantia" / "MAPPING.tsv").exists():
        pytest.skip(f"art folder absent: {ART} (the scene is rendered from it)")
    from vision.synth.render import load_art, render_art

    png = tmp_path_factory.mktemp("mantia_art")
    render_art(ART, png, height=256, styles=("mantia",))
    return load_art(png, ("mantia",))
