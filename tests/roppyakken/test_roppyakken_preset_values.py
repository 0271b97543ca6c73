"""Every yaku and lucky-hand value of every Roppyakken-family preset, written out from the rule texts
(issue 12, item 4: a changed value must fail a test).

Sources: RULES.md "Yaku (default values)", "Lucky hands (teyaku)" and "Presets"; seed 000's tables
(Roppyakken, Yamayaku, Changara, "Korean Alternative Yaku Scores", "Korean Additional Yakus").
The numbers are typed here from those tables, never read back from the ruleset files.
"""

import pytest
from helpers import score, yaku_of

from referee.cards import month_cards, month_label
from referee.ruleset import load_ruleset

# RULES.md "Yaku (default values)": the roppyakken preset.
ROPPYAKKEN = {
    "shiko": 600, "matsu-kiri-bozu": 150, "oozan": 150,
    "nanatan": 600, "kozan": 100, "aotan": 100, "kusatan": 100,
    "inoshikacho": 300,
    "teppo": 300, "hanami": 100, "tsukimi": 100,
    "ameshima": 200, "matsushima": 50, "umeshima": 50, "sakurashima": 50, "fujishima": 50,
    "bozushima": 50, "momijishima": 50, "kirishima": 50,
}
# RULES.md "Lucky hands": sogasu 400, tesan 200, futatesan 400 (triple_hand_three 0: not scored).
LUCKY = {"sogasu": 400, "tesan": 200, "futatesan": 400}

YAKU = {
    "roppyakken": ROPPYAKKEN,
    "roppyakken-ja": ROPPYAKKEN,  # same values; only fuke and teppo stacking differ
    "sanbyakuken": ROPPYAKKEN,  # same values; target 300
    "yukbaek": ROPPYAKKEN,  # same values; shiko and nanatan cards differ
    # RULES.md "yamayaku": matsu-kiri-bozu 150, oozan 100, kozan 100, aotan 100, kusatan 100,
    # inoshikacho 300, taiho 300, amezoro 200; no shiko, nanatan, hanami, tsukimi or four-of-a-month.
    "yamayaku": {
        "matsu-kiri-bozu": 150, "oozan": 100, "kozan": 100, "aotan": 100, "kusatan": 100,
        "inoshikacho": 300, "taiho": 300, "ameshima": 200,
    },
    # RULES.md "changara": matsu-kiri-bozu 300, akatan 150, aotan 100, kusaken 100, inoshikacho 300,
    # tsukihana-ippai 300, hanami 100, tsukimi 100, ameshima 200; pine, plum, cherry, pampas, maple and
    # paulownia fours 0 (each upgrades a chaff); no four wisterias in the seed's Changara list.
    "changara": {
        "matsu-kiri-bozu": 300, "kozan": 150, "aotan": 100, "kusatan": 100, "inoshikacho": 300,
        "tsukihana-ippai": 300, "hanami": 100, "tsukimi": 100, "ameshima": 200,
        "matsushima": 0, "umeshima": 0, "sakurashima": 0, "bozushima": 0, "momijishima": 0, "kirishima": 0,
    },
    # RULES.md "sambong": Japanese scoring with nanatan 700 (+100 per extra ribbon) and shiko 600
    # (+200 per further bright-valued card, up to 1000).
    "sambong": {**ROPPYAKKEN, "nanatan": 700},
}
TEYAKU = {
    "roppyakken": LUCKY, "roppyakken-ja": LUCKY, "sanbyakuken": LUCKY, "yamayaku": LUCKY, "changara": LUCKY,
    "yukbaek": {},  # RULES.md: no lucky hands
    "sambong": {"tesan": 200, "futatesan": 400, "tesi": 300},  # RULES.md: tesan and tesi 300, no All Chaff
}


@pytest.mark.parametrize("preset", sorted(YAKU), ids=[f"RULES.md preset {p}" for p in sorted(YAKU)])
def test_every_yaku_value_of_the_preset(preset):
    assert {y.id: y.points for y in load_ruleset(preset).yaku} == YAKU[preset]


@pytest.mark.parametrize("preset", sorted(TEYAKU), ids=[f"RULES.md preset {p}" for p in sorted(TEYAKU)])
def test_every_lucky_hand_value_of_the_preset(preset):
    assert {t.id: t.points for t in load_ruleset(preset).teyaku} == TEYAKU[preset]


def test_triple_hand_three_scores_only_with_a_value():
    # RULES.md "Lucky hands": three threes score as futatesan unless triple_hand_three has a value.
    assert "mitatesan" not in {t.id for t in load_ruleset("roppyakken").teyaku}
    assert {t.id: t.points for t in load_ruleset("roppyakken", {"triple_hand_three": 600}).teyaku}["mitatesan"] == 600


# Seed 000 "Korean Alternative Yaku Scores" (option korean_values): the variant column.
KOREAN = {
    **ROPPYAKKEN,
    "matsu-kiri-bozu": 200, "oozan": 200, "kozan": 200, "aotan": 200, "kusatan": 200, "inoshikacho": 400,
    "teppo": 400, "hanami": 200, "tsukimi": 200, "ameshima": 300, "momijishima": 200,
}
# Seed 000 "Korean Additional Yakus", with their alternative values.
KOREAN_RIBBONS = {"tti-inoshika": 300, "tti-daepo": 300, "tti-hanami": 100, "tti-tsukimi": 100}
KOREAN_RIBBONS_ALT = {"tti-inoshika": 400, "tti-daepo": 400, "tti-hanami": 200, "tti-tsukimi": 200}


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"korean_values": True}, KOREAN),
        ({"korean_ribbon_yaku": True}, {**ROPPYAKKEN, **KOREAN_RIBBONS}),
        ({"korean_values": True, "korean_ribbon_yaku": True}, {**KOREAN, **KOREAN_RIBBONS_ALT}),
    ],
    ids=["seed 000 Korean Alternative Yaku Scores", "seed 000 Korean Additional Yakus",
         "seed 000 both tables"],
)
def test_korean_values(options, expected):
    assert {y.id: y.points for y in load_ruleset("roppyakken", options).yaku} == expected


def test_korean_lucky_hand_values():
    # Seed 000: Hand Three 300 (irises 400), Hand Four 500 (irises 600).
    ja = {t.id: (t.points, dict(t.month_points)) for t in load_ruleset("sambong", {"korean_values": True}).teyaku}
    assert ja == {"tesan": (300, {5: 400}), "futatesan": (400, {}), "tesi": (500, {5: 600})}


# ---- the four-of-a-month yaku, scored from piles ------------------------------------------------

FOURS = [  # id, month, value in roppyakken (RULES.md: 50 each; ameshima 200)
    ("matsushima", 1, 50), ("umeshima", 2, 50), ("sakurashima", 3, 50), ("fujishima", 4, 50),
    ("bozushima", 8, 50), ("momijishima", 10, 50), ("kirishima", 12, 50), ("ameshima", 11, 200),
]


@pytest.mark.parametrize(("yaku", "month", "value"), FOURS, ids=[f"RULES.md {y}: {v}" for y, _, v in FOURS])
def test_four_of_a_month_scores_with_all_four_cards(yaku, month, value):
    four = [c.id for c in month_cards(month)]
    assert yaku_of(score(four, others=([],))).get(yaku) == value, month_label(month)
    assert yaku not in yaku_of(score(four[:3], others=([],)))  # three of the month: nothing


@pytest.mark.parametrize("month", [5, 6, 7, 9], ids=["iris", "peony", "bush clover", "chrysanthemum"])
def test_months_without_a_four_of_a_month_yaku(month):
    # RULES.md lists no four-of-a-month yaku for irises, peonies, bush clover or chrysanthemums.
    four = [c.id for c in month_cards(month)]
    assert yaku_of(score(four, others=([],))) == {}
