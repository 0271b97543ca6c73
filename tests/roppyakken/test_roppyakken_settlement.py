"""Round settlement: RULES.md presets yukbaek (difference) and sambong (round-up)."""

import pytest
from helpers import GRASS, POETRY, SAFE, SHIKO, score

from referee.roppyakken.settlement import settle


@pytest.mark.parametrize(
    ("rule", "expected"),
    [("difference", {"A": 280, "B": 0, "C": 0}), ("round-up", {"A": 600, "B": 400, "C": 0}),
     ("plain", {"A": 600, "B": 320, "C": 0})],
    ids=["seed 000 Korean Variants: yukbaek 600/320/0 -> +280/0/0",
         "seed 000 Korean Variants: sambong 600/320/0 -> 600/400/0", "RULES.md plain"],
)
def test_issue_example(rule, expected):
    assert settle(rule, {"A": 600, "B": 320, "C": 0}) == expected


def test_difference_with_tied_top_scores_nothing():
    assert settle("difference", {"A": 300, "B": 300, "C": 10}) == {"A": 0, "B": 0, "C": 0}


def test_unknown_rule_is_a_value_error():
    with pytest.raises(ValueError, match="settlement rule"):
        settle("halves", {"A": 1})


def test_yukbaek_round_lines_sum_to_the_settled_score():
    result = score([*SHIKO, "plum-chaff-1"], "yukbaek", others=(SAFE, [*POETRY, *GRASS]))
    # A: 200 + matsu-kiri-bozu 150 = 350; B: 40; C: 60 + kozan 100 + kusatan 100 = 260.
    assert result.scores == {"A": 90, "B": 0, "C": 0}
    for p in result.players:
        assert p.round_score == sum(line.points for line in p.lines)


def test_sambong_rounds_each_score_up():
    result = score(SHIKO, "sambong", others=(SAFE,))
    assert result.scores == {"A": 1000, "B": 100}
    settlement = [line for line in result.player("A").lines if line.code == "settlement"]
    assert [s.points for s in settlement] == [50]
