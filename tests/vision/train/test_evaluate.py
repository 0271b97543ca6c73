"""The held-out evaluation's bookkeeping (vision.train.evaluate) on hand-made photos."""

import numpy as np

from vision.train.evaluate import Evaluator

# one rows photo: a readable card on the left, a barely visible one on the right
CARDS = ["pine-crane", "maple-deer"]
WHOLE = np.array([[0, 0, 100, 160], [200, 0, 300, 160]], float)
VISIBLE = [0.9, 0.1]


def covered_report(preds):
    """``preds``: (card, box, reported covered) per detection."""
    ev = Evaluator()
    ev.add(
        "rows",
        CARDS,
        WHOLE,
        [c for c, _, _ in preds],
        [0.5] * len(preds),
        np.array([b for _, b, _ in preds], float).reshape(-1, 4),
        gt_visible=VISIBLE,
        pred_covered=[cov for _, _, cov in preds],
    )
    return ev.covered_report(0.3)


def test_a_covered_report_on_the_barely_visible_card_counts_as_covered():
    r = covered_report([("pine-crane", WHOLE[0], False), ("maple-deer", WHOLE[1], True)])
    assert (r["cards"], r["covered"], r["false_covered"]) == (1, 1, 0)


def test_a_covered_report_on_no_barely_visible_card_is_false():
    # a box across the readable card and the table beside it, reported too covered to read
    across = [50, 0, 150, 160]
    r = covered_report([("pine-crane", WHOLE[0], False), ("willow-swallow", across, True)])
    assert (r["covered"], r["unseen"], r["false_covered"]) == (0, 1, 1)


def test_photos_without_barely_visible_cards_still_count_false_covered_reports():
    ev = Evaluator()
    ev.add("spread", ["pine-crane"], WHOLE[:1], ["pine-crane", "maple-deer"], [0.9, 0.3],
           np.array([WHOLE[0], [60, 0, 160, 160]]), gt_visible=[1.0], pred_covered=[False, True])
    r = ev.covered_report(0.3)
    assert (r["cards"], r["false_covered"]) == (0, 1)
