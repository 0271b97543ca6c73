"""Fixtures of the training and evaluation tests."""

import numpy as np
import pytest
from PIL import Image

from referee.cards import CARD_IDS


@pytest.fixture(scope="module")
def toy_art(tmp_path_factory):
    """A rendered art folder (``<dir>/toy/<card id>.png`` and the renderer's ``.done`` marker):
    48 cards of one colour each with a patch of another, 61 x 100 px."""
    d = tmp_path_factory.mktemp("art")
    png = d / "toy"
    png.mkdir()
    rng = np.random.default_rng(0)
    for cid in CARD_IDS:
        im = Image.new("RGBA", (61, 100), (*(int(v) for v in rng.integers(0, 256, 3)), 255))
        im.paste((*(int(v) for v in rng.integers(0, 256, 3)), 255), (10, 10, 50, 60))
        im.save(png / f"{cid}.png")
    (png / ".done").touch()
    return d
