"""The shipped model: loads, and finds a card in a scene rendered from the art at test time."""

import pytest


@pytest.mark.slow
def test_shipped_model_finds_a_card(mantia_art):
    from vision.detector import Detector
    from vision.synth.scenes import make_scene

    art = mantia_art
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
