"""The Koi-Koi Help page is generated from the ruleset: each option changes its words
(``referee/koikoi/describe.py``; KOIKOI-RULES.md)."""

import pytest

from referee.describe import how_it_scores
from referee.ruleset import load_ruleset


def text(how) -> str:
    return " ".join([*(line for s in how.sections for line in s.lines),
                     *(note for s in how.sections for y in s.yaku for note in (*y.notes, y.need))])


SAYS = [
    ("koikoi", {}, "×2 when the yaku total is 7 points or more."),
    ("koikoi", {}, "×2 if the other player called koi-koi at least once."),
    ("koikoi", {"seven_plus_double": False, "opponent_koikoi": "off"}, "None here: the yaku total is the score."),
    ("koikoi", {"own_koikoi": "per-call"}, "×(1 + calls) for the stopper's koi-koi calls"),
    ("koikoi", {"exhausted": "dealer", "oyaken_points": 3}, "the dealer (oya) scores 3 points (oya-ken, 親権)"),
    ("koikoi", {"tie": "extra-round"}, "one more round is played at a time until the totals differ"),
    ("koikoi", {"rounds": 6}, "For 2 players, 6 rounds"),
    ("koikoi", {"sake_cup": "either"}, "whichever scores more (the animal on a tie)"),
    ("koikoi", {"viewing": "limited"}, "it scores only beside another yaku that is not a viewing"),
    ("koikoi", {"rain_spoils_viewing": "rain-man"}, "the Rain Man (Willow with Rain Man) in the same pile voids it"),
    ("koikoi", {"lucky_hands": False}, "Lucky hands are not scored here."),
    ("koikoi", {"teshi_counts_as_pairs": True}, "four of a month and two pairs score both"),
    ("koikoi", {"draw_dealer": "passes"}, "after a round nobody scored the dealer passes to the other player"),
    ("koikoi", {}, "Add 1 point for each of your animals past 5."),
    ("koikoi-fudawiki", {}, "all 4 cards of the round's month"),
]


@pytest.mark.parametrize(("preset", "options", "says"), SAYS, ids=[f"{p} {o} says {s[:30]}" for p, o, s in SAYS])
def test_the_help_page_follows_the_options(preset, options, says):
    assert says in text(how_it_scores(load_ruleset(preset, options)))


@pytest.mark.parametrize(("preset", "grouped"), [("koikoi", True), ("koikoi-clubhouse", False)])
def test_special_yaku_leave_their_group_when_they_stack(preset, grouped):
    how = how_it_scores(load_ruleset(preset))
    ino = next(y for s in how.sections for y in s.yaku if y.id == "inoshikacho")
    assert ("Only the yaku worth most among the animals scores." in ino.notes) is grouped


def yaku_entry(how, yaku_id):
    return next(y for s in how.sections for y in s.yaku if y.id == yaku_id)


# Found in QA (issue 13): with special_stacks_with_generic (koikoi-clubhouse) tane and tanzaku are
# alone in their groups and stack with inoshikacho and the special ribbons, as the engine scores
# them (three blue + two plain ribbons: aotan 7 + tanzaku 1), but the page said "only the yaku worth
# most among the animals scores" and that the animals and ribbons do not stack.
STACKING = [
    ("koikoi", {}, "tane", True),
    ("koikoi", {}, "tanzaku", True),
    ("koikoi-clubhouse", {}, "tane", False),
    ("koikoi-clubhouse", {}, "tanzaku", False),
    ("koikoi-clubhouse", {}, "sankou", True),  # brights stay exclusive (KOIKOI-RULES.md "Yaku")
    ("koikoi", {"special_stacks_with_generic": True}, "tane", False),
]


@pytest.mark.parametrize(("preset", "options", "yaku_id", "grouped"), STACKING,
                         ids=[f"{p} {o} {y} {'exclusive' if g else 'stacks'}" for p, o, y, g in STACKING])
def test_a_yaku_alone_in_its_group_is_not_called_exclusive(preset, options, yaku_id, grouped):
    how = how_it_scores(load_ruleset(preset, options))
    notes = " ".join(yaku_entry(how, yaku_id).notes)
    assert ("Only the yaku worth most among" in notes) is grouped


@pytest.mark.parametrize(("preset", "exclusive", "stacking"), [
    ("koikoi", "the brights, the animals, the ribbons", None),
    ("koikoi-clubhouse", "the brights", "animals"),
], ids=["koikoi: three exclusive groups", "koikoi-clubhouse: only the brights"])
def test_the_yaku_intro_names_only_the_groups_that_do_not_stack(preset, exclusive, stacking):
    intro = next(s for s in how_it_scores(load_ruleset(preset)).sections if s.id == "yaku").lines[0]
    assert f"Yaku of one group ({exclusive}" in intro
    if stacking:
        assert stacking not in intro


@pytest.mark.parametrize(("rounds", "says"), [(12, "round 13 is Pine (松, month 1) again"),
                                               (6, "round 7 is Bush clover (萩, month 7)")],
                         ids=["12 rounds: round 13 is Pine again", "6 rounds: round 7 is Bush Clover"])
def test_extra_rounds_name_the_month_they_play(rounds, says):
    assert says in text(how_it_scores(load_ruleset("koikoi", {"tie": "extra-round", "rounds": rounds})))
