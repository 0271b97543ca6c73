"""Held-out sets on disk (vision.train.testset) from a toy art set: one photo per (layout, style)."""

import json

import numpy as np
import pytest
from PIL import Image

from referee.cards import CARD_IDS
from vision.synth.layouts import LAYOUTS, NO_CARDS
from vision.train.testset import read_testset, write_testset


@pytest.fixture(scope="module")
def png_dir(tmp_path_factory):
    """A rendered toy style: 48 solid-colour card images and the renderer's .done marker."""
    d = tmp_path_factory.mktemp("art_png")
    toy = d / "toy"
    toy.mkdir()
    rng = np.random.default_rng(0)
    for cid in CARD_IDS:
        Image.new("RGB", (30, 50), tuple(int(v) for v in rng.integers(0, 256, 3))).save(toy / f"{cid}.png")
    (toy / ".done").write_text("50\n", encoding="utf-8")
    return d


@pytest.mark.parametrize("texture_scale", [None, 3.0])
def test_a_set_holds_one_photo_per_layout_and_says_how_it_was_made(tmp_path, png_dir, texture_scale):
    path = write_testset(tmp_path / "set", png_dir, "test", 1, size=160, workers=1, texture_scale=texture_scale)
    photos = read_testset(tmp_path / "set")
    assert [p.layout for p in photos] == [*LAYOUTS, NO_CARDS]
    assert all(p.path.is_file() and p.style == "toy" for p in photos)
    meta = json.loads(path.read_text(encoding="utf-8"))
    assert meta.get("texture_scale") == texture_scale


def test_an_unknown_split_is_refused(tmp_path, png_dir):
    with pytest.raises(ValueError, match="split"):
        write_testset(tmp_path / "x", png_dir, "train")
