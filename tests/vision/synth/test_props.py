"""Distractor sprites: each kind draws, deterministically, with a transparent surround."""

import numpy as np
import pytest

from vision.synth.props import PROPS, random_prop


@pytest.mark.parametrize("kind", PROPS)
def test_prop_is_deterministic_rgba(kind):
    a = random_prop(np.random.default_rng(4), kind, 80)
    b = random_prop(np.random.default_rng(4), kind, 80)
    assert a.mode == "RGBA"
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    alpha = np.asarray(a.getchannel("A"))
    assert alpha.max() == 255  # something is drawn
    assert min(a.size) >= 8


def test_unknown_prop_is_refused():
    with pytest.raises(ValueError, match="unknown prop kind 'cat'"):
        random_prop(np.random.default_rng(0), "cat", 80)
