"""Which candidate boxes count as lying on a card, for fitting the box verifier."""

import numpy as np

from vision.train.verifier import label_candidates

CARDS = np.array([[100, 100, 72, 112, 0], [300, 100, 72, 112, 0]], float)


def test_the_best_scored_box_on_a_card_takes_it_and_a_second_box_on_it_does_not():
    boxes = np.array([[101, 100, 72, 112, 0], [104, 103, 72, 112, 0], [300, 100, 72, 112, 0]], float)
    assert label_candidates(boxes, np.array([0.6, 0.9, 0.5]), CARDS).tolist() == [-1, 0, 1]


def test_a_box_across_two_cards_or_on_the_table_lies_on_none():
    boxes = np.array([[200, 100, 272, 112, 0], [600, 500, 72, 112, 0]], float)
    assert label_candidates(boxes, np.array([0.9, 0.8]), CARDS).tolist() == [-1, -1]


def test_no_boxes_or_no_cards():
    assert label_candidates(np.zeros((0, 5)), np.zeros(0), CARDS).tolist() == []
    assert label_candidates(CARDS, np.array([0.9, 0.9]), np.zeros((0, 5))).tolist() == [-1, -1]


def test_the_scripts_verifier_option_reads_a_file_and_replaces_its_keep_threshold(tmp_path):
    from vision.train.verifier import verifier_arg
    from vision.verify import FEATURES, Verifier

    v = Verifier((0.0,) * len(FEATURES), 0.0, (0.0,) * len(FEATURES), (1.0,) * len(FEATURES), keep_at=0.5)
    v.save(tmp_path / "v.json")
    assert verifier_arg("false", None) is False
    assert verifier_arg(str(tmp_path / "v.json"), None) == v
    assert verifier_arg(str(tmp_path / "v.json"), 0.3).keep_at == 0.3


def test_a_keep_threshold_outside_0_to_1_is_refused_not_run(tmp_path):
    # --keep-at 2 once ran and dropped every box, reporting F1 0 with exit code 0
    import pytest

    from vision.errors import ModelError
    from vision.train.verifier import verifier_arg
    from vision.verify import FEATURES, Verifier

    Verifier((0.0,) * len(FEATURES), 0.0, (0.0,) * len(FEATURES), (1.0,) * len(FEATURES)).save(tmp_path / "v.json")
    with pytest.raises(ModelError, match=r"--keep-at 2\.0: .*must lie in"):
        verifier_arg(str(tmp_path / "v.json"), 2.0)
    with pytest.raises(ValueError, match="must lie in"):
        Verifier((0.0,) * len(FEATURES), 0.0, (0.0,) * len(FEATURES), (1.0,) * len(FEATURES), keep_at=-0.1)
