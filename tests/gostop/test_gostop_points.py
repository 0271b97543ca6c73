"""Point lines from captures (GOSTOP-RULES.md "Cards" and "Points from captures"), hand-computed.
Each case's id cites the rule line it checks."""

from __future__ import annotations

import pytest
from gs_cases import (
    ANIMALS,
    BIRDS,
    CHEONGDAN,
    CHODAN,
    CUP,
    DRY,
    HONGDAN,
    PI,
    RAIN,
    SSANGPI,
    WILLOW_RIBBON,
    cite,
    points_of,
    score,
)

CASES = [
    # (pile, bonus, options, expected point lines), id
    (([*DRY, RAIN], (), {}, {"ogwang": 15}), cite(23) + " five brights 15"),
    (([*DRY[:3], RAIN], (), {}, {"sagwang": 4}), cite(24) + " four brights with rain 4"),
    ((DRY, (), {}, {"sagwang": 4}), cite(24) + " four brights without rain: sagwang_dry 4"),
    ((DRY, (), {"sagwang_dry": 5}, {"sagwang": 5}), cite(24) + " sagwang_dry 5 (slope)"),
    ((DRY[:3], (), {}, {"samgwang": 3}), cite(25) + " three brights, no rain 3"),
    (([*DRY[:2], RAIN], (), {}, {"bi-samgwang": 2}), cite(26) + " three brights with rain 2"),
    ((BIRDS, (), {}, {"godori": 5}), cite(27) + " godori 5, three animals are no yeol"),
    ((BIRDS + ANIMALS[:2], (), {}, {"godori": 5, "yeol": 1}), cite(28) + " 5 animals 1, stacks with godori"),
    (([*ANIMALS, CUP, BIRDS[0]], (), {}, {"yeol": 3}), cite(28) + " 7 animals: 1 + 2"),
    ((HONGDAN, (), {}, {"hongdan": 3}), cite(29) + " hongdan 3"),
    ((CHEONGDAN, (), {}, {"cheongdan": 3}), cite(29) + " cheongdan 3"),
    ((CHODAN, (), {}, {"chodan": 3}), cite(29) + " chodan 3"),
    ((HONGDAN + CHODAN[:2], (), {}, {"hongdan": 3, "tti": 1}), cite(30) + " 5 ribbons 1, stacks with hongdan"),
    ((HONGDAN + CHEONGDAN, (), {}, {"hongdan": 3, "cheongdan": 3, "tti": 2}), cite(30) + " 6 ribbons 2"),
    ((HONGDAN + CHODAN[:1] + [WILLOW_RIBBON], (), {}, {"hongdan": 3, "tti": 1}),
     cite(10) + " the willow ribbon counts toward five"),
    ((HONGDAN + CHODAN[:1] + [WILLOW_RIBBON], (), {"willow_ribbon_counts": False}, {"hongdan": 3}),
     cite(10) + " willow_ribbon_counts false: four ribbons"),
    (([*HONGDAN[:2], WILLOW_RIBBON], (), {}, {}), cite(10) + " the willow ribbon is never part of a dan"),
    ((PI[:10], (), {}, {"pi": 1}), cite(31) + " pi value 10: 1"),
    ((PI[:9], (), {}, {}), cite(31) + " pi value 9: nothing"),
    ((PI[:9] + SSANGPI[:1], (), {}, {"pi": 2}), cite(11) + " willow-lightning is ssangpi: 11 pi"),
    ((PI[:6] + SSANGPI, (), {}, {"pi": 1}), cite(11) + " both ssangpi: 6 + 4 = 10"),
    ((PI[:8], (3,), {}, {"pi": 2}), cite(15) + " bonus card worth 3: 8 + 3 = 11"),
    ((PI[:6], (2, 2), {}, {"pi": 1}), cite(15) + " two bonus 2s: 6 + 4 = 10"),
    (([*PI[:9], CUP], (), {"sake_cup": "pi"}, {"pi": 2}), cite(14) + " sake_cup pi: ssangpi, 11 pi"),
    (([*ANIMALS[:4], CUP], (), {"sake_cup": "pi"}, {}), cite(14) + " sake_cup pi: not an animal, 4 animals"),
    (([*ANIMALS[:4], CUP], (), {"sake_cup": "animal"}, {"yeol": 1}), cite(14) + " sake_cup animal: 5 animals"),
]


@pytest.mark.parametrize("case", [c for c, _ in CASES], ids=[i for _, i in CASES])
def test_point_lines(case):
    pile, bonus, options, expected = case
    assert points_of(pile, bonus=bonus, **options) == expected


def test_base_is_the_sum_of_the_lines():
    """GOSTOP-RULES.md:19 all lines stack: samgwang 3 + godori 5 + hongdan 3 + pi 1 = 12."""
    res = score({"A": DRY[:3] + BIRDS + HONGDAN + PI[:10]}, stopped_by=None)
    a = res.player("A")
    assert [y.code for y in a.points] == ["samgwang", "godori", "hongdan", "pi"]
    assert a.base == 12 == sum(y.points for y in a.points)


def test_pi_and_animals_are_reported():
    """GOSTOP-RULES.md:11 pi counts are values: 3 chaff + one ssangpi + bonus 3 = 8."""
    res = score({"A": PI[:3] + SSANGPI[:1] + ANIMALS[:2]}, stopped_by=None, bonus={"A": [3]})
    assert (res.player("A").pi, res.player("A").animals) == (8, 2)
