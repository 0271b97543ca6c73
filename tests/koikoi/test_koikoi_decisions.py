"""The decisions docs/KOIKOI.md takes where KOIKOI-RULES.md is silent, one case each."""

from kk_cases import CHAFF, INOSHIKACHO, OTHER_ANIMALS, POETRY, SAKE_CUP, check_lines, game, score, yaku_of

from referee.koikoi.game import month_of_round


def test_a_tie_inside_a_group_goes_to_the_yaku_listed_first():
    nine_animals = [*INOSHIKACHO, *OTHER_ANIMALS, SAKE_CUP]  # inoshikacho 5 (fixed), tane 1 + 4 = 5
    assert yaku_of(score(nine_animals, stopped_by=None, special_extras=False)) == {"inoshikacho": 5}


def test_tsukifuda_stacks_with_kasu():
    pile = ["cherry-curtain", "cherry-poetry-ribbon", "cherry-chaff-1", "cherry-chaff-2", *CHAFF[6:14]]
    assert yaku_of(score(pile, stopped_by=None, month=3, tsukifuda=True)) == {"kasu": 1, "tsukifuda": 4}


def test_exhausted_higher_with_no_yaku_is_a_draw():
    result = score([], [], stopped_by=None, exhausted="higher")
    assert (result.winner, result.scores) == (None, {"A": 0, "B": 0})
    assert any("nobody scores" in w for w in result.warnings)


def test_oyaken_points_zero_is_a_draw():
    result = score(POETRY, [], stopped_by=None, exhausted="dealer", oyaken_points=0)
    assert (result.winner, result.scores) == (None, {"A": 0, "B": 0})
    check_lines(result)


def test_the_dealer_under_oyaken_scores_the_points_not_their_yaku():
    result = score(POETRY, [], stopped_by=None, exhausted="dealer")
    assert result.player("A").round_score == 6
    assert [line.code for line in result.player("A").lines] == ["akatan", "not-scored", "oyaken"]


def test_extra_rounds_go_on_through_the_months():
    assert [month_of_round(n) for n in (1, 12, 13, 24, 25)] == [1, 12, 1, 12, 1]
    nothing = {"piles": {}, "stopped_by": None}  # the hands ran out
    g = game([nothing] * 13, tie="extra-round")
    assert not g.complete
    assert g.rounds[-1].month == 1


def test_a_lucky_round_uses_up_its_month():
    hand = ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1", "pine-chaff-2"]
    g = game([{"hands": {"B": hand}}, {"piles": {"A": POETRY}, "stopped_by": "A"}])
    assert [(r.month, r.dealer) for r in g.rounds] == [(1, "A"), (2, "B")]
    assert g.totals == {"A": 5, "B": 6}
