"""Property (issue 13): for any split of the 48 cards and any calls, the stopper scores the yaku
total times the documented factors (KOIKOI-RULES.md "The round"), the other player scores 0,
and each player's explanation lines sum to their score.  Hands that ran out are never multiplied.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import CARD_IDS
from referee.errors import RefereeError
from referee.koikoi.round import make_round, score_round
from referee.koikoi.rules import Options
from referee.koikoi.yaku import find_yaku
from referee.ruleset import load_ruleset
from referee.schema import option_specs

CHOICES = {s.key: s.choices for s in option_specs(Options()) if s.choices}
FLAGS = [s.key for s in option_specs(Options()) if s.type == "bool"]


@st.composite
def rounds(draw):
    options = {k: draw(st.sampled_from(v)) for k, v in CHOICES.items()}
    options |= {k: draw(st.booleans()) for k in FLAGS}
    options["lucky_hands"] = False  # a lucky hand ends the round at the deal: its own property below
    preset = draw(st.sampled_from(["koikoi", "koikoi-fudawiki", "koikoi-clubhouse"]))
    deck = draw(st.permutations(CARD_IDS))
    a = draw(st.integers(0, 48))
    b = draw(st.integers(0, 48 - a))
    piles = {"A": list(deck[:a]), "B": list(deck[a : a + b])}
    calls = [{"player": p, "call": "koikoi"} for p in draw(st.lists(st.sampled_from("AB"), max_size=5))]
    stopped_by = draw(st.sampled_from(["A", "B", None]))
    return (load_ruleset(preset, options), piles, calls, stopped_by, draw(st.sampled_from("AB")),
            draw(st.integers(1, 12)))


def factor(rule: str, calls: int) -> int:
    """The documented factor of option opponent_koikoi / own_koikoi for ``calls`` calls."""
    if rule == "off" or not calls:
        return 1
    return {"once": 2, "per-call": 1 + calls, "double-per-call": 2**calls}[rule]


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_the_score_is_the_yaku_total_times_the_factors(case):
    rules, piles, calls, stopped_by, dealer, month = case
    rnd = make_round(rules, ["A", "B"], piles, None, calls, stopped_by, dealer, month)
    if stopped_by is not None and not find_yaku(rules, rnd.masks[stopped_by], month)[0]:
        with pytest.raises(RefereeError, match="holds no yaku") as e:
            score_round(rules, rnd)
        assert e.value.code == "no-yaku"
        return
    result = score_round(rules, rnd)
    o = rules.options
    for p in result.players:
        assert p.yaku_total == sum(y.points for y in p.yaku)
        assert sum(line.points for line in p.lines) == p.round_score
    if stopped_by is None:
        assert result.multiplier == 1
        scored = [p for p in result.players if p.round_score]
        assert len(scored) <= 1
        for p in scored:
            assert p.round_score in (p.yaku_total, o.oyaken_points)
        return
    other = "B" if stopped_by == "A" else "A"
    total = result.player(stopped_by).yaku_total
    assert total > 0
    expected = (2 if o.seven_plus_double and total >= 7 else 1) * factor(
        o.opponent_koikoi, sum(c["player"] == other for c in calls)) * factor(
        o.own_koikoi, sum(c["player"] == stopped_by for c in calls))
    assert result.multiplier == expected
    assert result.player(stopped_by).round_score == total * expected
    assert result.player(other).round_score == 0
    assert result.next_dealer == stopped_by


@settings(max_examples=80, deadline=None)
@given(rounds())
def test_each_group_scores_one_yaku(case):
    rules, piles, *_ = case
    groups = {y.id: y.group for y in rules.yaku}
    result = score_round(rules, make_round(rules, ["A", "B"], piles, month=case[5]))
    for p in result.players:
        named = [groups[y.code] for y in p.yaku if groups[y.code]]
        assert len(named) == len(set(named)), [y.code for y in p.yaku]


@settings(max_examples=80, deadline=None)
@given(st.permutations(CARD_IDS), st.booleans())
def test_lucky_hands_are_never_doubled(deck, as_pairs):
    rules = load_ruleset("koikoi", {"teshi_counts_as_pairs": as_pairs})
    result = score_round(rules, make_round(rules, ["A", "B"], {}, {"A": deck[:8], "B": deck[8:16]}, month=1))
    for p in result.players:
        assert sum(line.points for line in p.lines) == p.round_score
        assert p.round_score in (0, 6, 12)
    assert result.multiplier == 1
