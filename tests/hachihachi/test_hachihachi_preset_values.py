"""Every teyaku, dekiyaku and special-yaku value of both Hachi-hachi presets, written out from the rule
texts, and each boundary scored on both sides (issue 12, item 4).

Sources: seed 003 "Details of yakus" (the ``hachihachi`` preset), FudaWiki hachi-hachi.md
"Teyaku", "Dekiyaku", "Scoring With No Dekiyaku" and "Special Achievements" (``hachihachi-fudawiki``),
RULES.md "Hachi-hachi".  Values in kan; amounts in mon at 12 mon per kan.
"""

import pytest
from hh_cases import PILE_A, PILE_B, PILE_C, by_reason, check_books, rules, settle

from referee.hachihachi.dropout import dropout_fee
from referee.hachihachi.special import find_special
from referee.hachihachi.teyaku import bonus_met, find_teyaku

# Seed 003 "Hand yakus by suit distribution" / "by Chaff cards"; FudaWiki's Group A / Group B agree.
TEYAKU = {
    "sanbon": 2, "tatesanbon": 3, "kuttsuki": 4, "teshi": 6, "haneken": 7, "ichinishi": 8,
    "futasanbon": 6, "sanbon-tatesanbon": 7, "futatatesanbon": 8, "shiso": 20,
    "karasu": 4, "pikaichi": 4, "toichi": 3, "tanichi": 3, "aka": 2,
}
# Seed 003 "+1 kan": the triplet teyaku when the player captures the whole month, the chaff-type ones at
# 89 points; none for One Bright, Three Pairs, Four, Full House, One-Two-Four and Four-Three.
SEED_BONUS = {
    "sanbon": "capture-month", "tatesanbon": "capture-month", "futasanbon": "capture-month",
    "sanbon-tatesanbon": "capture-month", "futatatesanbon": "capture-month",
    "karasu": "points", "toichi": "points", "tanichi": "points", "aka": "points",
}
# FudaWiki "Diving": "any player who declared a Group A teyaku that includes a Triplet or Standing
# Triplet, but not a Four of a Kind" -- so also Triplet and Two Pairs (haneken); "Escape": any Group B
# teyaku other than One Bright.
FUDAWIKI_BONUS = {**SEED_BONUS, "haneken": "capture-month"}
# Seed 003 "List of Card-set yakus" (FudaWiki agrees); inoshikacho only with the option.
DEKIYAKU = {"gokou": 12, "shiko": 10, "nanatan": 10, "akatan": 7, "aotan": 7}


@pytest.mark.parametrize(
    ("preset", "bonus"),
    [("hachihachi", SEED_BONUS), ("hachihachi-fudawiki", FUDAWIKI_BONUS)],
    ids=["seed 003", "FudaWiki"],
)
def test_every_teyaku_value_and_bonus(preset, bonus):
    r = rules(preset)
    assert {t.id: t.kan for t in r.teyaku} == TEYAKU
    assert {t.id: t.bonus for t in r.teyaku if t.bonus} == bonus


@pytest.mark.parametrize("preset", ["hachihachi", "hachihachi-fudawiki"])
def test_every_dekiyaku_value(preset):
    assert {d.id: d.kan for d in rules(preset).dekiyaku} == DEKIYAKU
    assert {d.id: d.kan for d in rules(preset, inoshikacho=True).dekiyaku} == {**DEKIYAKU, "inoshikacho": 7}
    assert {d.id: d.need for d in rules(preset).dekiyaku}["nanatan"] == 7  # 7 of the 9 non-willow ribbons


@pytest.mark.parametrize(
    ("preset", "all_eights"),
    [("hachihachi", 20), ("hachihachi-fudawiki", 10)],
    ids=["seed 003: All 88 20 kan", "FudaWiki: the dealer claims 10 kan from each"],
)
def test_special_yaku_and_money_values(preset, all_eights):
    o = rules(preset).options
    s = o.special
    # Seed 003 "16 Chaffs" 12 kan +2 per chaff, "Double Score" 10 kan +1 per point past 168.
    assert (s.chaff_min, s.chaff_kan, s.chaff_step_kan) == (16, 12, 2)
    assert (s.double_points, s.double_kan, s.double_step_kan) == (168, 10, 1)
    assert s.all_eights_kan == all_eights
    # Seed 003: Mizuten 1 kan at 89; "+1 kan" at 89; 1 kan = 12 mon; ante 5 kan (12 rounds) or 3 (6).
    assert (o.mizuten_kan, o.mizuten_points, o.bonus_kan, o.bonus_points, o.mon_per_kan) == (1, 89, 1, 89, 12)
    assert (rules(preset).ante_kan(), rules(preset, rounds=6).ante_kan()) == (5, 3)
    # Drop-out fees 1, 1.5, 2 kan (RULES.md "4 to 6 players"), in mon.
    assert [dropout_fee(rules(preset), k) for k in (1, 2, 3)] == [12, 18, 24]
    assert o.forced_out_card_mon == 3


# ---- boundaries, scored on both sides --------------------------------------------------------

# A full deal at 89 / 88 / 87 points, no dekiyaku, no special yaku (hh_cases: 93 / 93 / 78):
# A gives the wisteria ribbon (5) to C and takes a chrysanthemum chaff (1): 93 - 5 + 1 = 89;
# B gives the bush clover ribbon (5) to C: 88; C: 78 + 5 + 5 - 1 = 87.
EDGE = {
    "A": [c for c in PILE_A if c != "wisteria-ribbon"] + ["chrysanthemum-chaff-1"],
    "B": [c for c in PILE_B if c != "bush-clover-ribbon"],
    "C": [c for c in PILE_C if c != "chrysanthemum-chaff-1"] + ["wisteria-ribbon", "bush-clover-ribbon"],
}


@pytest.mark.parametrize(
    ("dealer", "mizuten"),
    [
        ("A", {"A": 24, "B": -12, "C": -12}),  # 89 points: Mizuten made, 1 kan from each
        ("B", {"A": 12, "B": -24, "C": 12}),   # 88 points: Mizuten failed, 1 kan to each
    ],
    ids=["seed 003: 89 or more collects", "seed 003: 88 or less pays"],
)
def test_mizuten_boundary_89(dealer, mizuten):
    r = settle(piles=EDGE, dealer=dealer, mizuten=True, multiplier=1)
    check_books(r)
    assert r.card_points == {"A": 89, "B": 88, "C": 87}
    assert by_reason(r, "mizuten") == mizuten


def test_escape_bonus_boundary_89():
    # Seed 003: karasu "scores 89 points or more ... 1 additional kan"; at 88 nothing.
    karasu = ["pine-chaff-1", "plum-chaff-1", "cherry-chaff-1", "wisteria-chaff-1", "iris-chaff-1",
              "peony-chaff-1", "maple-chaff-1"]
    r = settle(piles=EDGE, hands={"A": karasu, "B": karasu_b()}, multiplier=1)
    check_books(r)
    bonus = {x.to for x in r.payments if x.reason == "teyaku-bonus"}
    assert bonus == {"A"}  # A at 89 earns it; B at 88 does not
    (hit,) = find_teyaku(rules(), karasu)
    assert bonus_met(rules(), hit, [], 89)
    assert not bonus_met(rules(), hit, [], 88)


def karasu_b() -> list[str]:
    return ["pine-chaff-2", "plum-chaff-2", "cherry-chaff-2", "wisteria-chaff-2", "iris-chaff-2",
            "peony-chaff-2", "maple-chaff-2"]


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ({"A": 168, "B": 48, "C": 48}, ("double-eights", "A", 10)),
        ({"A": 170, "B": 47, "C": 47}, ("double-eights", "A", 12)),  # +1 kan per point past 168
        ({"A": 167, "B": 49, "C": 48}, None),
        ({"A": 88, "B": 88, "C": 88}, ("all-eights", "A", 20)),
    ],
    ids=["seed 003: 168 is Double Score", "seed 003: 170 is 12 kan", "167 is not", "seed 003: All 88"],
)
def test_double_eights_boundary_168(points, expected):
    piles = {p: [] for p in points}
    hit = find_special(rules(), ["A", "B", "C"], piles, points)
    if expected is None:
        assert hit is None
    else:
        assert (hit.id, hit.player, hit.kan) == expected


CHAFF = [
    "pine-chaff-1", "pine-chaff-2", "plum-chaff-1", "plum-chaff-2", "cherry-chaff-1", "cherry-chaff-2",
    "wisteria-chaff-1", "wisteria-chaff-2", "iris-chaff-1", "iris-chaff-2", "peony-chaff-1", "peony-chaff-2",
    "bush-clover-chaff-1", "bush-clover-chaff-2", "pampas-chaff-1", "pampas-chaff-2", "willow-swallow",
    "willow-lightning",
]


@pytest.mark.parametrize(
    ("n", "kan"),
    [(15, None), (16, 12), (17, 14), (18, 16)],
    ids=["15 chaff: none", "seed 003: 16 chaff 12 kan", "17: +2", "18 (willows count as chaff): +4"],
)
def test_sixteen_chaff_boundary(n, kan):
    points = {"A": 100, "B": 82, "C": 82}
    hit = find_special(rules(), ["A", "B", "C"], {"A": CHAFF[:n], "B": [], "C": []}, points)
    assert (hit.kan if hit else None) == kan
