"""Lucky hands (teyaku), RULES.md "Lucky hands (teyaku)" and seed 000 "Lucky Hands"."""

import pytest
from helpers import LOW, SAFE, score
from hypothesis import given
from hypothesis import strategies as st

from referee.cards import BY_ID, CARD_IDS, mask
from referee.errors import RefereeError
from referee.explain import mask_ids
from referee.roppyakken.teyaku import months_with

ZERO7 = ["pine-chaff-1", "plum-chaff-1", "cherry-chaff-1", "wisteria-chaff-1", "iris-chaff-1", "peony-chaff-1",
         "maple-chaff-1"]
THREE_PINES = ["pine-crane", "pine-chaff-1", "pine-chaff-2"]
THREE_MAPLES = ["maple-deer", "maple-chaff-1", "maple-chaff-2"]
THREE_IRIS = ["iris-bridge", "iris-chaff-1", "iris-chaff-2"]
FOUR_PINES = [*THREE_PINES, "pine-poetry-ribbon"]
FILL = ["cherry-chaff-1", "plum-chaff-2", "wisteria-chaff-2", "peony-chaff-2"]


def lucky(hand, preset="roppyakken", **options):
    return {t.code: t.points for t in score(SAFE, preset, hand=hand, others=(LOW,), **options).player("A").lucky_hands}


@pytest.mark.parametrize(
    ("hand", "preset", "options", "expected"),
    [
        (ZERO7, "roppyakken", {}, {"sogasu": 400}),
        ([*ZERO7[:6], "paulownia-chaff-yellow"], "roppyakken", {}, {}),
        ([*THREE_PINES, *FILL], "roppyakken", {}, {"tesan": 200}),
        ([*THREE_PINES, *THREE_MAPLES, "cherry-chaff-1"], "roppyakken", {}, {"futatesan": 400}),
        ([*THREE_PINES, *THREE_MAPLES, *THREE_IRIS, "cherry-chaff-1"], "roppyakken", {}, {"futatesan": 400}),
        ([*THREE_PINES, *THREE_MAPLES, *THREE_IRIS, "cherry-chaff-1"], "roppyakken",
         {"triple_hand_three": 600}, {"mitatesan": 600}),
        ([*FOUR_PINES, *FILL[:3]], "roppyakken", {"hand_four_misdeal": False}, {"tesan": 200}),
        ([*FOUR_PINES, *FILL[:3]], "sambong", {}, {"tesi": 300}),
        ([*FOUR_PINES, *THREE_MAPLES], "sambong", {}, {"tesan": 200, "tesi": 300}),
        (ZERO7, "sambong", {}, {}),
        ([*THREE_PINES, *FILL], "yukbaek", {}, {}),
        ([*THREE_PINES, *FILL], "roppyakken", {"lucky_hands": False}, {}),
        ([*THREE_PINES, *FILL], "roppyakken", {"korean_values": True}, {"tesan": 300}),
        ([*THREE_IRIS, *FILL], "roppyakken", {"korean_values": True}, {"tesan": 400}),
        ([*FOUR_PINES, *FILL[:3]], "sambong", {"korean_values": True}, {"tesi": 500}),
    ],
    ids=[
        "seed 000 Lucky Hands: sogasu 400",
        "RULES.md: the yellow Paulownia breaks All Chaff",
        "seed 000 Lucky Hands: tesan 200",
        "seed 000 Lucky Hands: futatesan 400 replaces tesan",
        "RULES.md: three threes score as futatesan by default",
        "RULES.md option triple_hand_three",
        "RULES.md hand_four_misdeal=false: four counts as tesan",
        "RULES.md sambong: tesi 300",
        "RULES.md sambong: tesi and tesan stack",
        "RULES.md sambong: no All Chaff",
        "RULES.md yukbaek: no lucky hands",
        "RULES.md option lucky_hands=false",
        "seed 000 Korean values: tesan 300",
        "seed 000 Korean values: Hand Three Irises 400",
        "seed 000 Korean values: Hand Four 500",
    ],
)
def test_lucky_hands(hand, preset, options, expected):
    assert lucky(hand, preset, **options) == expected


def test_lucky_hand_adds_to_the_round_and_to_the_lines():
    a = score(SAFE, hand=[*THREE_PINES, *FILL], others=(LOW,)).player("A")
    assert a.raw_score == 40 + 200
    assert a.round_score == sum(line.points for line in a.lines)


def test_four_of_a_month_in_hand_is_a_misdeal_naming_the_month():
    with pytest.raises(RefereeError, match="month 1") as e:
        score(SAFE, hand=[*FOUR_PINES, *FILL[:3]], others=(LOW,))
    assert e.value.code == "misdeal"


def test_lucky_hands_never_save_a_round_from_fuke():
    # RULES.md "Fuke": lucky hands are what fuke voids.
    result = score(["maple-deer"], hand=[*THREE_PINES, *FILL], others=([],))
    assert result.void
    assert result.player("A").round_score == 0


@given(st.sets(st.sampled_from(CARD_IDS), max_size=12), st.integers(1, 4))
def test_months_with_matches_counting_by_hand(hand, at_least):
    # The nibble arithmetic must agree with plain counting per month.
    expected = {c for c in hand if sum(BY_ID[d].month == BY_ID[c].month for d in hand) >= at_least}
    assert set(mask_ids(mask(hand) & months_with(mask(hand), at_least))) == expected
