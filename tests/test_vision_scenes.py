"""Scene generator and label formatting, with tiny synthetic art (no art folder needed)."""

import numpy as np
import pytest
from PIL import Image

from referee.cards import CARD_IDS
from vision.render import style_face
from vision.scenes import (
    LAYOUTS,
    TEST_BACKGROUNDS,
    TRAIN_BACKGROUNDS,
    background,
    make_scene,
    obb_line,
    quad_to_obb,
    write_labels,
)


@pytest.fixture(scope="module")
def art():
    rng = np.random.default_rng(0)
    cards = {}
    for cid in CARD_IDS:
        im = Image.new("RGBA", (30, 50), (*(int(v) for v in rng.integers(0, 256, 3)), 255))
        cards[cid] = im
    return {"toy": cards}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_scene_labels_are_inside_and_visible(art, layout):
    s = make_scene(3, art, size=256, layout=layout)
    w, h = s.image.size
    assert max(w, h) == 256
    assert s.layout == layout
    assert s.quads.shape == (len(s.cards), 4, 2)
    assert len(set(s.cards)) == len(s.cards)  # a card appears once per photo
    assert all(0.15 <= v <= 1.0 for v in s.visible)
    assert (s.quads[..., 0] >= 0).all()
    assert (s.quads[..., 0] <= w).all()
    assert (s.quads[..., 1] <= h).all()


def test_scene_is_deterministic_from_seed(art):
    a = make_scene(11, art, size=200)
    b = make_scene(11, art, size=200)
    c = make_scene(12, art, size=200)
    assert a.cards == b.cards
    np.testing.assert_array_equal(np.asarray(a.image), np.asarray(b.image))
    np.testing.assert_allclose(a.quads, b.quads)
    assert not np.array_equal(np.asarray(a.image), np.asarray(c.image)) or a.cards != c.cards


def test_fan_labels_visible_part_only(art):
    # in a fan most cards show a strip: their labelled region is much shorter than a card
    s = make_scene(5, art, size=512, layout="fan", n_cards=8)
    assert len(s.cards) >= 2
    assert min(s.visible) < 0.9
    # a covered card's label is smaller than the largest (top) card's label
    areas = [quad_to_obb(q)[2] * quad_to_obb(q)[3] for q in s.quads]
    assert min(areas) < 0.9 * max(areas)


def test_backgrounds_cover_train_and_test_kinds():
    rng = np.random.default_rng(0)
    for kind in TRAIN_BACKGROUNDS + TEST_BACKGROUNDS:
        bg = background(kind, 32, 24, rng)
        assert bg.shape == (24, 32, 3)
        assert 0 <= bg.min() <= bg.max() <= 1
    with pytest.raises(ValueError, match="unknown background kind 'lava'"):
        background("lava", 8, 8, rng)


def test_style_face_has_card_shape_and_round_corners():
    face = style_face(Image.new("RGBA", (30, 50), (0, 200, 0, 255)), np.random.default_rng(1), 100)
    assert face.size == (61, 100)
    assert face.mode == "RGBA"
    alpha = np.asarray(face.getchannel("A"))
    assert alpha[50, 30] > 200


def test_obb_line_is_normalised_and_written(tmp_path):
    q = np.array([[10, 20], [30, 20], [30, 60], [10, 60]], float)
    line = obb_line(0, q, 100, 200)
    assert line == "0 0.100000 0.100000 0.300000 0.100000 0.300000 0.300000 0.100000 0.300000"
    with pytest.raises(ValueError, match=r"expected shape \(4, 2\), got \(3, 2\)"):
        obb_line(0, q[:3], 100, 200)
    p = tmp_path / "a.txt"
    write_labels(p, [line, line])
    assert p.read_text().splitlines() == [line, line]
    write_labels(p, [])
    assert p.read_text() == ""


def test_quad_to_obb():
    q = np.array([[0, 0], [20, 0], [20, 40], [0, 40]], float)
    assert quad_to_obb(q) == pytest.approx((10, 20, 20, 40, 0))
