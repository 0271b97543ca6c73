"""Detection: the frozen result type and its validators."""

import dataclasses
import math

import pytest

from vision.detection import SUGGEST_FLOOR, Detection


def test_valid_detection_normalises_types():
    d = Detection("pine-crane", 1, (1, 2, 3, 4), 0)
    assert d.confidence == 1.0
    assert isinstance(d.confidence, float)
    assert d.box == (1.0, 2.0, 3.0, 4.0)
    assert d.uncertain is False
    assert d.to_dict() == {
        "card": "pine-crane",
        "confidence": 1.0,
        "box": [1.0, 2.0, 3.0, 4.0],
        "uncertain": False,
        "covered": False,
        "visible": 1.0,
    }


def test_a_covered_card_is_never_certain():
    d = Detection("pine-crane", 0.99, (1, 2, 3, 4), uncertain=False, covered=True, visible=0.2)
    assert d.uncertain is True
    assert d.to_dict()["covered"] is True
    assert d.to_dict()["visible"] == 0.2


def test_detection_is_frozen():
    d = Detection("pine-crane", 0.5, (0, 0, 1, 1), False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.card = "plum-bush-warbler"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"card": "joker"}, "48 ids"),
        ({"confidence": 1.5}, r"\[0, 1\]"),
        ({"confidence": -0.1}, r"\[0, 1\]"),
        ({"confidence": math.nan}, r"\[0, 1\]"),
        ({"box": (0, 0, 1)}, "expected 4 values"),
        ({"box": (5, 0, 1, 1)}, "x1 <= x2"),
        ({"box": (0, 0, math.inf, 1)}, "finite"),
        ({"visible": 1.2}, "visible"),
        ({"visible": math.nan}, "visible"),
    ],
)
def test_detection_validators_name_expected_and_actual(kwargs, message):
    base = {"card": "pine-crane", "confidence": 0.5, "box": (0, 0, 1, 1), "uncertain": False}
    with pytest.raises(ValueError, match=message):
        Detection(**{**base, **kwargs})


@pytest.mark.parametrize(
    ("confidence", "uncertain", "covered", "shown"),
    [
        (SUGGEST_FLOOR, True, False, True),  # at the floor: offered
        (SUGGEST_FLOOR - 0.01, True, False, False),  # under it: hidden
        (0.05, True, True, True),  # too covered to read: reported whatever its confidence
        (SUGGEST_FLOOR - 0.01, False, False, False),  # hidden even if certain (a threshold set under the floor)
    ],
)
def test_shown_is_the_floor_or_too_covered(confidence, uncertain, covered, shown):
    d = Detection("pine-crane", confidence, (0, 0, 1, 1), uncertain, covered=covered)
    assert d.shown is shown
