"""The shipped model: loads, and finds a card in a scene rendered from the art at test time."""

from pathlib import Path

import pytest

ART = Path(__file__).resolve().parents[3] / "shared" / "cards" / "art"


@pytest.mark.slow
def test_shipped_model_finds_a_card(tmp_path):
    if not (ART / "mantia" / "MAPPING.tsv").exists():
        pytest.skip(f"art folder absent: {ART} (the scene is rendered from it)")
    from vision.detector import Detector
    from vision.synth.render import load_art, render_art
    from vision.synth.scenes import make_scene

    render_art(ART, tmp_path, height=256, styles=("mantia",))
    art = load_art(tmp_path, ("mantia",))
    scene = make_scene(
        20261129,
        art,
        size=960,
        layout="spread",
        n_cards=3,
        backgrounds=("wood",),
        card_px=(0.3, 0.4),
    )
    assert len(scene.cards) >= 2  # a card may fall under the 15% visible label floor
    dets = Detector("onnxruntime").detect(scene.image)
    found = {d.card for d in dets if not d.uncertain}
    assert found & set(scene.cards), (scene.cards, dets)
    for d in dets:
        assert 0 <= d.box[0] <= d.box[2] <= scene.image.size[0]
