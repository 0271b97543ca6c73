"""Merging several photos of one pile: a card seen twice counts once."""

from vision.detection import Detection
from vision.merge import merge


def test_a_card_seen_in_two_photos_counts_once_with_its_best_sighting():
    a = [
        Detection("pine-crane", 0.6, (0, 0, 10, 10), uncertain=False),
        Detection("plum-chaff-1", 0.3, (5, 5, 9, 9), True),
    ]
    b = [Detection("pine-crane", 0.9, (1, 1, 11, 11)), Detection("plum-chaff-1", 0.45, (0, 0, 4, 4), True)]
    out = merge([a, b])
    assert [d.card for d in out] == ["pine-crane", "plum-chaff-1"]
    assert out[0].confidence == 0.9
    assert out[0].box == (1.0, 1.0, 11.0, 11.0)
    assert out[1].uncertain  # uncertain in every photo


def test_a_card_sure_in_one_photo_is_not_uncertain():
    out = merge([[Detection("pine-crane", 0.4, (0, 0, 1, 1), True)], [Detection("pine-crane", 0.3, (0, 0, 1, 1))]])
    assert len(out) == 1
    assert out[0].confidence == 0.4
    assert not out[0].uncertain


def test_no_photos_no_cards():
    assert merge([]) == []
    assert merge([[], []]) == []
