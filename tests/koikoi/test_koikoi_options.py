"""Every Koi-Koi option, one table each, as KOIKOI-RULES.md states it.

A's pile and B's, the option's value, and what the rule text says comes out.
"""

import pytest
from kk_cases import (
    BLUE,
    BRIGHTS4,
    CHAFF,
    INOSHIKACHO,
    OTHER_ANIMALS,
    PLAIN,
    POETRY,
    RAIN_MAN,
    SAKE_CUP,
    check_lines,
    game,
    rules,
    score,
    yaku_of,
)

from referee.errors import RefereeError

# ---- Cards: the sake cup ----
CUP_TANE = [SAKE_CUP, *OTHER_ANIMALS[:4], *CHAFF[:9]]  # 5 animals with the cup; 9 chaff without it
CUP_KASU = [SAKE_CUP, *OTHER_ANIMALS[:3], *CHAFF[:9]]  # 4 animals with the cup; 9 chaff without it
SAKE = [
    ("both: an animal and one chaff", "both", CUP_TANE, {"tane": 1, "kasu": 1}),
    ("animal: animal only", "animal", CUP_TANE, {"tane": 1}),
    ("two-chaff: an animal and two chaff", "two-chaff", CUP_TANE, {"tane": 1, "kasu": 2}),
    ("either: the use that scores more (chaff)", "either", CUP_KASU, {"kasu": 1}),
    ("either: on a tie, animal", "either", CUP_TANE, {"tane": 1}),
    ("either: the cup counts once, never as both", "either", [*CUP_TANE, CHAFF[9]], {"tane": 1, "kasu": 1}),
]


@pytest.mark.parametrize(("value", "pile", "expected"), [c[1:] for c in SAKE], ids=[c[0] for c in SAKE])
def test_sake_cup(value, pile, expected):
    result = score(pile, stopped_by=None, sake_cup=value)
    assert yaku_of(result) == expected
    check_lines(result)


def test_sake_cup_either_says_when_it_counts_as_chaff():
    result = score(CUP_KASU, stopped_by=None, sake_cup="either")
    assert any("sake cup counts as a chaff" in w for w in result.warnings)


# ---- Yaku: special_extras and special_stacks_with_generic ----
THREE_BLUE_TWO_PLAIN = [*BLUE, *PLAIN[:2]]
SPECIAL = [
    ("default: aotan 7 (extras, no stacking)", {}, THREE_BLUE_TWO_PLAIN, {"aotan": 7}),
    ("older table (FudaWiki, BGA): extras false, stacking true: 5 + 1",
     {"special_extras": False, "special_stacks_with_generic": True}, THREE_BLUE_TWO_PLAIN,
     {"aotan": 5, "tanzaku": 1}),
    ("Nintendo's apps: extras and stacking: 7 + 1", {"special_stacks_with_generic": True}, THREE_BLUE_TWO_PLAIN,
     {"aotan": 7, "tanzaku": 1}),
    ("extras false: the group keeps aotan 5 over tanzaku 1", {"special_extras": False}, THREE_BLUE_TWO_PLAIN,
     {"aotan": 5}),
    ("extras false: inoshikacho stays 5", {"special_extras": False}, [*INOSHIKACHO, *OTHER_ANIMALS[:2]],
     {"inoshikacho": 5}),
    # This case was once named "tane keeps its +1" but checks inoshikacho: the tane case follows it.
    ("extras false: 7 animals, the group keeps inoshikacho 5 over tane 3", {"special_extras": False},
     [*INOSHIKACHO, *OTHER_ANIMALS[:4]], {"inoshikacho": 5}),
    ("extras false: tane keeps its +1 a card past 5 (only the special yaku are fixed)",
     {"special_extras": False, "special_stacks_with_generic": True}, [*INOSHIKACHO, *OTHER_ANIMALS[:4]],
     {"inoshikacho": 5, "tane": 3}),
    ("stacking: inoshikacho 7 + tane 1", {"special_stacks_with_generic": True},
     [*INOSHIKACHO, *OTHER_ANIMALS[:2]], {"inoshikacho": 7, "tane": 1}),
    ("stacking: akatan-aotan still replaces akatan and aotan", {"special_stacks_with_generic": True},
     [*POETRY, *BLUE], {"akatan-aotan": 10, "tanzaku": 2}),
    ("stacking: brights stay exclusive", {"special_stacks_with_generic": True}, [*BRIGHTS4, RAIN_MAN],
     {"gokou": 10}),
]


@pytest.mark.parametrize(("options", "pile", "expected"), [c[1:] for c in SPECIAL], ids=[c[0] for c in SPECIAL])
def test_special_extras_and_stacking(options, pile, expected):
    assert yaku_of(score(pile, stopped_by=None, **options)) == expected


def test_generic_extras_stay_when_special_extras_are_off():
    seven_animals = [*OTHER_ANIMALS, SAKE_CUP, INOSHIKACHO[0]]
    assert yaku_of(score(seven_animals, stopped_by=None, special_extras=False)) == {"tane": 3}


# ---- Yaku: viewing and rain_spoils_viewing ----
HANAMI = ["cherry-curtain", SAKE_CUP]
VIEWING = [
    ("always: a viewing alone scores", "always", HANAMI, {"hanami-zake": 5}),
    ("limited: a viewing alone does not", "limited", HANAMI, {}),
    ("limited: beside another yaku it does", "limited", [*HANAMI, *PLAIN, POETRY[0]], {"hanami-zake": 5, "tanzaku": 1}),
    ("limited: two viewings are not 'another yaku' for each other", "limited", [*HANAMI, "pampas-moon"], {}),
    ("never", "never", [*HANAMI, "pampas-moon"], {}),
]


@pytest.mark.parametrize(("value", "pile", "expected"), [c[1:] for c in VIEWING], ids=[c[0] for c in VIEWING])
def test_viewing(value, pile, expected):
    result = score(pile, stopped_by=None, viewing=value)
    assert yaku_of(result) == expected
    if value == "limited" and not expected:
        limited = "(house rule “Viewing yaku (Cherry-blossom and Moon Viewing)”: Limited)"
        assert any(limited in w for w in result.warnings)


RAIN = [
    ("never: the rain man does not spoil", "never", [*HANAMI, RAIN_MAN], True),
    ("rain-man: the rain man spoils", "rain-man", [*HANAMI, RAIN_MAN], False),
    ("rain-man: the lightning does not", "rain-man", [*HANAMI, "willow-lightning"], True),
    ("rain-or-lightning: the lightning spoils", "rain-or-lightning", [*HANAMI, "willow-lightning"], False),
    ("rain-or-lightning: the swallow does not", "rain-or-lightning", [*HANAMI, "willow-swallow"], True),
    ("any-willow: the swallow spoils", "any-willow", [*HANAMI, "willow-swallow"], False),
    ("only the scorer's own pile counts", "any-willow", HANAMI, True),
]


@pytest.mark.parametrize(("value", "pile", "scores"), [c[1:] for c in RAIN], ids=[c[0] for c in RAIN])
def test_rain_spoils_viewing(value, pile, scores):
    result = score(pile, ["willow-swallow", "willow-rain-man"] if pile == HANAMI else [], stopped_by=None,
                   rain_spoils_viewing=value)
    assert ("hanami-zake" in yaku_of(result)) is scores
    if not scores:  # a voided yaku is left out of yaku and named in warnings
        assert any("Cherry-blossom Viewing 花見で一杯 void" in w and "house rule “Rain spoils the viewings”" in w
                   for w in result.warnings)


def test_a_stopper_whose_only_yaku_the_rain_spoiled_holds_no_yaku():
    with pytest.raises(RefereeError, match=r"A stopped but holds no yaku.*Cherry-blossom Viewing 花見で一杯 void") as e:
        score([*HANAMI, RAIN_MAN], rain_spoils_viewing="rain-man")
    assert e.value.code == "no-yaku"


# ---- Yaku: tsukifuda ----
CHERRY = ["cherry-curtain", "cherry-poetry-ribbon", "cherry-chaff-1", "cherry-chaff-2"]
TSUKIFUDA = [
    ("off (koikoi): nothing", False, 3, {}),
    ("on: the four cards of the round's month score 4", True, 3, {"tsukifuda": 4}),
    ("on: another month's four do not", True, 4, {}),
]


@pytest.mark.parametrize(("value", "month", "expected"), [c[1:] for c in TSUKIFUDA], ids=[c[0] for c in TSUKIFUDA])
def test_tsukifuda(value, month, expected):
    assert yaku_of(score(CHERRY, stopped_by=None, month=month, tsukifuda=value)) == expected


def test_tsukifuda_needs_the_month():
    with pytest.raises(RefereeError, match=r'"month" is missing; the house rule “Month cards \(tsukifuda 月札\)”'):
        score(CHERRY, stopped_by=None, month=None, tsukifuda=True)


# ---- Lucky hands: lucky_hands and teshi_counts_as_pairs ----
TESHI_HAND = ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1", "pine-chaff-2",
              "plum-chaff-1", "plum-chaff-2", "iris-chaff-1", "iris-chaff-2"]  # a four and two pairs
KUTTSUKI_HAND = ["pine-chaff-1", "pine-chaff-2", "plum-chaff-1", "plum-chaff-2",
                 "iris-chaff-1", "iris-chaff-2", "maple-chaff-1", "maple-chaff-2"]
LUCKY = [
    ("teshi: four of a month, 6 (not two pairs: 12)", {}, TESHI_HAND, {"teshi": 6}),
    ("kuttsuki: four pairs, 6", {}, KUTTSUKI_HAND, {"kuttsuki": 6}),
    ("teshi_counts_as_pairs: the four is also two pairs, both score (12)", {"teshi_counts_as_pairs": True},
     TESHI_HAND, {"teshi": 6, "kuttsuki": 6}),
    ("two fours: one teshi", {}, [*TESHI_HAND[:4], "maple-deer", "maple-blue-ribbon", *KUTTSUKI_HAND[-2:]],
     {"teshi": 6}),
    ("three of a month is one pair: no kuttsuki", {},
     ["pine-chaff-1", "pine-chaff-2", "pine-crane", "plum-chaff-1", "plum-chaff-2", "iris-chaff-1",
      "iris-chaff-2", "maple-deer"], {}),
]


@pytest.mark.parametrize(("options", "hand", "expected"), [c[1:] for c in LUCKY], ids=[c[0] for c in LUCKY])
def test_lucky_hands(options, hand, expected):
    result = score([], stopped_by=None, hands={"B": hand}, **options)
    b = result.player("B")
    assert {t.code: t.points for t in b.lucky_hands} == expected
    if expected:  # the holder wins at the deal, never doubled, and deals next
        assert (result.winner, result.outcome, result.multiplier) == ("B", "lucky-hands", 1)
        assert b.round_score == sum(expected.values())
        assert result.next_dealer == "B"
    check_lines(result)


def test_lucky_hands_off_ignores_the_hands():
    result = score(POETRY, hands={"B": TESHI_HAND}, lucky_hands=False)
    assert result.outcome == "stopped"
    assert result.player("A").round_score == 5


def test_both_players_hold_a_lucky_hand_a_draw():
    result = score([], stopped_by=None, hands={"A": KUTTSUKI_HAND,
                                               "B": ["paulownia-phoenix", "paulownia-chaff-1", "paulownia-chaff-2",
                                                     "paulownia-chaff-yellow", "cherry-curtain", "cherry-chaff-1",
                                                     "pampas-moon", "pampas-chaff-1"]})
    assert result.winner is None
    assert result.scores == {"A": 0, "B": 0}
    check_lines(result)


# Bug: the messages about lucky hands named them in English only ("Four Pairs"), where yaku say "Five Brights 五光";
# the names are the ruleset's (koikoi.toml [teyaku.*] ja, KOIKOI-RULES.md "Lucky hands (teyaku)").
def test_a_draw_of_lucky_hands_names_them_in_japanese_too():
    paulownia = ["paulownia-phoenix", "paulownia-chaff-1", "paulownia-chaff-2", "paulownia-chaff-yellow",
                 "cherry-curtain", "cherry-chaff-1", "pampas-moon", "pampas-chaff-1"]  # teshi in Paulownia
    result = score([], stopped_by=None, hands={"A": KUTTSUKI_HAND, "B": paulownia})
    assert result.winner is None
    [said] = [w for w in result.warnings if "both players hold a lucky hand" in w]
    assert "A: Four Pairs くっつき" in said
    assert "B: Four of a Month: Paulownia (桐, month 12) 手四" in said


def test_a_lucky_hand_with_piles_is_an_error():
    message = r"at the deal \(B: Four of a Month: Pine \(松, month 1\) 手四\), so piles, stopped_by"
    with pytest.raises(RefereeError, match=message):
        score(POETRY, hands={"B": TESHI_HAND})


# ---- The round: seven_plus_double, opponent_koikoi, own_koikoi ----
SIX = [*INOSHIKACHO, *OTHER_ANIMALS[:1]]  # inoshikacho 6
SEVEN_PILE = [*BLUE, *PLAIN[:2]]  # aotan 7
FOUR = [*PLAIN, POETRY[0], BLUE[0], BLUE[1]]  # tanzaku 3
FACTORS = [
    ("seven_plus_double: 7 or more doubles", {}, SEVEN_PILE, [], 14, ["×2: 7 points or more"]),
    ("seven_plus_double: 6 does not", {}, SIX, [], 6, []),
    ("seven_plus_double off", {"seven_plus_double": False}, SEVEN_PILE, [], 7, []),
    ("7+ doubles the yaku total, before koi-koi: 3 with B's koi-koi is 6, not 12", {}, FOUR, ["B"], 6,
     ["×2: B called koi-koi"]),
    ("7+ with the opponent's koi-koi is ×4 (Clubhouse Games)", {}, SEVEN_PILE, ["B"], 28,
     ["×2: 7 points or more", "×2: B called koi-koi"]),
    ("opponent_koikoi once: two calls still ×2", {}, SIX, ["B", "B"], 12,
     ["×2: B called koi-koi (2 calls, doubled once)"]),
    ("opponent_koikoi per-call: ×(1 + calls)", {"opponent_koikoi": "per-call"}, SIX, ["B", "B"], 18,
     ["×3: B called koi-koi 2 times (×(1 + calls))"]),
    ("opponent_koikoi double-per-call: ×2 per call", {"opponent_koikoi": "double-per-call"}, SIX, ["B", "B"], 24,
     ["×2: B called koi-koi, call 1 of 2", "×2: B called koi-koi, call 2 of 2"]),
    ("opponent_koikoi off", {"opponent_koikoi": "off"}, SIX, ["B"], 6, []),
    ("own_koikoi off (default): the stopper's own calls do not count", {}, SIX, ["A"], 6, []),
    ("own_koikoi once", {"own_koikoi": "once"}, SIX, ["A", "A"], 12, ["×2: A's own koi-koi (2 calls, doubled once)"]),
    ("own_koikoi per-call (BGA Soft Koi!)", {"own_koikoi": "per-call"}, SIX, ["A", "A"], 18,
     ["×3: A's own koi-koi 2 times (×(1 + calls))"]),
    ("own_koikoi double-per-call", {"own_koikoi": "double-per-call"}, SIX, ["A"], 12,
     ["×2: A's own koi-koi, call 1 of 1"]),
    ("factors multiply: 7+, opponent and own", {"own_koikoi": "once"}, SEVEN_PILE, ["A", "B"], 56,
     ["×2: 7 points or more", "×2: B called koi-koi", "×2: A's own koi-koi"]),
    ("a yaku grown after koi-koi counts: the stopper's final pile scores", {}, FOUR, ["A"], 3, []),
]


@pytest.mark.parametrize(("options", "pile", "calls", "total", "factor_lines"), [c[1:] for c in FACTORS],
                         ids=[c[0] for c in FACTORS])
def test_factors(options, pile, calls, total, factor_lines):
    result = score(pile, calls=calls, **options)
    a = result.player("A")
    assert a.round_score == total
    assert [line.en for line in a.lines if line.code not in yaku_of(result)] == factor_lines
    assert result.multiplier == total // a.yaku_total
    assert result.player("B").round_score == 0
    check_lines(result)


# ---- Hands ran out: exhausted, oyaken_points, draw_dealer ----
A_PILE = [*SEVEN_PILE]  # aotan 7 (never multiplied here)
B_PILE = [*INOSHIKACHO]  # inoshikacho 5
EXHAUSTED = [
    ("nobody (default)", {}, ["A", "B"], "A", {"A": 0, "B": 0}, None),
    ("dealer: oya-ken, the dealer scores 6", {"exhausted": "dealer"}, [], "B", {"A": 0, "B": 6}, "B"),
    ("dealer: oyaken_points 3", {"exhausted": "dealer", "oyaken_points": 3}, [], "A", {"A": 3, "B": 0}, "A"),
    ("higher: the higher yaku total scores it, never multiplied", {"exhausted": "higher"}, ["B"], "B",
     {"A": 7, "B": 0}, "A"),
    ("last-caller: the last player in calls scores their yaku total", {"exhausted": "last-caller"},
     ["A", "B"], "A", {"A": 0, "B": 5}, "B"),
    ("last-caller with no calls: nobody", {"exhausted": "last-caller"}, [], "A", {"A": 0, "B": 0}, None),
]


@pytest.mark.parametrize(("options", "calls", "dealer", "scores", "winner"), [c[1:] for c in EXHAUSTED],
                         ids=[c[0] for c in EXHAUSTED])
def test_exhausted(options, calls, dealer, scores, winner):
    result = score(A_PILE, B_PILE, stopped_by=None, calls=calls, dealer=dealer, **options)
    assert result.outcome == "hands-ran-out"
    assert result.scores == scores
    assert result.winner == winner
    assert result.multiplier == 1
    assert result.next_dealer == (winner or dealer)
    check_lines(result)


def test_exhausted_higher_tie_goes_to_the_dealer():
    result = score(BLUE, POETRY, stopped_by=None, dealer="B", exhausted="higher")
    assert result.scores == {"A": 0, "B": 5}


DRAW_DEALER = [("stays (default)", "stays", "A"), ("passes", "passes", "B")]


@pytest.mark.parametrize(("value", "next_dealer"), [c[1:] for c in DRAW_DEALER], ids=[c[0] for c in DRAW_DEALER])
def test_draw_dealer(value, next_dealer):
    assert score(A_PILE, B_PILE, stopped_by=None, draw_dealer=value).next_dealer == next_dealer


def test_the_stopper_deals_next():
    assert score(A_PILE, B_PILE, dealer="B").next_dealer == "A"


# ---- The game: rounds and tie ----
def _win(player: str, pile=POETRY) -> dict:
    other = "B" if player == "A" else "A"
    return {"piles": {player: list(pile), other: []}, "stopped_by": player}


NOTHING = {"piles": {}, "stopped_by": None}
ROUNDS = [("12 by default", {}, 12), ("3 (FudaWiki)", {"rounds": 3}, 3), ("1", {"rounds": 1}, 1)]


@pytest.mark.parametrize(("options", "n"), [c[1:] for c in ROUNDS], ids=[c[0] for c in ROUNDS])
def test_rounds(options, n):
    before = game([NOTHING] * (n - 1), **options)
    assert not before.complete
    after = game([NOTHING] * (n - 1) + [_win("A")], **options)
    assert after.complete
    assert after.winner == "A"
    with pytest.raises(RefereeError, match=rf"round {n + 1}: the game is over \(A won after {n} rounds\)"):
        game([NOTHING] * (n - 1) + [_win("A"), NOTHING], **options)


@pytest.mark.parametrize("n", [0, 13])
def test_rounds_outside_one_to_twelve_are_an_error(n):
    with pytest.raises(RefereeError, match=r"field 'options.rounds' is"):
        rules(rounds=n)


TIE = [
    ("draw (default)", "draw", True, None),
    ("dealer: the next dealer wins", "dealer", True, "B"),
    ("extra-round: the game goes on", "extra-round", False, None),
]


@pytest.mark.parametrize(("value", "complete", "winner"), [c[1:] for c in TIE], ids=[c[0] for c in TIE])
def test_tie(value, complete, winner):
    g = game([_win("A"), _win("B")], rounds=2, tie=value)
    assert g.totals == {"A": 5, "B": 5}
    assert (g.complete, g.winner, g.draw) == (complete, winner, complete and winner is None)


def test_tie_extra_round_plays_until_the_totals_differ():
    g = game([_win("A"), _win("B"), NOTHING, _win("B")], rounds=2, tie="extra-round")
    assert (g.complete, g.winner) == (True, "B")
    assert [r.month for r in g.rounds] == [1, 2, 3, 4]
