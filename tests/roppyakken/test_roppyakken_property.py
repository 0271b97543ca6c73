"""Property tests over random deals of the 48 cards (issue 2, section 7)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import BY_ID, CARD_IDS
from referee.roppyakken.round import make_round, score_round
from referee.ruleset import load_ruleset, preset_names

PRESETS = [n for n in preset_names() if load_ruleset(n).game == "roppyakken"]
RULES = {n: load_ruleset(n) for n in PRESETS}


@st.composite
def deals(draw):
    """A shuffled deck split into 2-3 piles and a leftover."""
    deck = draw(st.permutations(CARD_IDS))
    preset = draw(st.sampled_from(PRESETS))
    n = draw(st.sampled_from(RULES[preset].options.players))
    cuts = sorted(draw(st.lists(st.integers(0, 48), min_size=n, max_size=n)))
    bounds = [0, *cuts]
    piles = {f"P{i}": list(deck[bounds[i]:bounds[i + 1]]) for i in range(n)}
    return preset, piles, list(deck[cuts[-1]:])


@given(deals())
@settings(max_examples=300, deadline=None)
def test_every_total_equals_the_sum_of_its_lines(deal):
    preset, piles, _ = deal
    rules = RULES[preset]
    result = score_round(rules, make_round(rules, list(piles), piles))
    for p in result.players:
        assert p.round_score == sum(line.points for line in p.lines)
        assert p.raw_score == sum(line.points for line in p.lines if line.code not in ("fuke", "settlement"))


@given(deals())
@settings(max_examples=200, deadline=None)
def test_card_points_of_all_piles_plus_leftover_total_490(deal):
    _, piles, leftover = deal
    rules = RULES["roppyakken"]
    if len(piles) not in rules.options.players:
        return
    result = score_round(rules, make_round(rules, list(piles), piles))
    total = sum(p.card_points for p in result.players)
    assert total + sum(BY_ID[c].roppyakken_points for c in leftover) == 490


@given(deals(), st.randoms(use_true_random=False))
@settings(max_examples=200, deadline=None)
def test_card_order_does_not_change_the_result(deal, rnd):
    preset, piles, _ = deal
    rules = RULES[preset]
    shuffled = {p: rnd.sample(cards, len(cards)) for p, cards in piles.items()}
    a = score_round(rules, make_round(rules, list(piles), piles)).to_json()
    b = score_round(rules, make_round(rules, list(piles), shuffled)).to_json()
    assert a == b
