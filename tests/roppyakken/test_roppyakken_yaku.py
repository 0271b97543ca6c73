"""Yaku tables: each case is (pile, preset, options) -> yaku and raw score, computed by hand.

Raw score = card points + yaku + lucky hands (RULES.md "Card points and the round").
Ids cite the rule source.
"""

import pytest
from helpers import BLUE, GRASS, INOSHIKACHO, POETRY, SHIKO, TEPPO, score, yaku_of

WILLOWS = ["willow-rain-man", "willow-swallow", "willow-ribbon", "willow-lightning"]
PINES = ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1", "pine-chaff-2"]
SEVEN = [*POETRY, *GRASS, "willow-ribbon"]
EIGHT = [*POETRY, *GRASS, *BLUE[:2]]

CASES = [
    # pile, preset, options, expected yaku, raw score
    (SHIKO, "roppyakken", {}, {"shiko": 600, "matsu-kiri-bozu": 150}, 950),
    (["pine-crane", "plum-bush-warbler", "cherry-curtain"], "roppyakken", {}, {"oozan": 150}, 300),
    (["pine-crane", "paulownia-phoenix", "pampas-moon"], "roppyakken", {}, {"matsu-kiri-bozu": 150}, 300),
    (SEVEN, "roppyakken", {}, {"nanatan": 600, "kozan": 100, "kusatan": 100}, 870),
    (SEVEN, "roppyakken", {"willow_ribbon_in_seven_ribbons": False}, {"kozan": 100, "kusatan": 100}, 270),
    (POETRY, "roppyakken", {}, {"kozan": 100}, 130),
    (BLUE, "roppyakken", {}, {"aotan": 100}, 130),
    (GRASS, "roppyakken", {}, {"kusatan": 100}, 130),
    (INOSHIKACHO, "roppyakken", {}, {"inoshikacho": 300}, 330),
    (TEPPO, "roppyakken", {}, {"teppo": 300}, 410),
    (TEPPO, "roppyakken", {"teppo_replaces_viewing": False}, {"teppo": 300, "hanami": 100, "tsukimi": 100}, 610),
    (TEPPO, "roppyakken-ja", {}, {"teppo": 300, "hanami": 100, "tsukimi": 100}, 610),
    (["cherry-curtain", "chrysanthemum-sake-cup"], "roppyakken", {}, {"hanami": 100}, 160),
    (["pampas-moon", "chrysanthemum-sake-cup"], "roppyakken", {}, {"tsukimi": 100}, 160),
    (WILLOWS, "roppyakken", {}, {"ameshima": 200}, 270),
    (PINES, "roppyakken", {}, {"matsushima": 50}, 110),
    (["paulownia-phoenix", "paulownia-chaff-1", "paulownia-chaff-yellow", "paulownia-chaff-2"], "roppyakken", {},
     {"kirishima": 50}, 110),
    ([*TEPPO, "willow-swallow"], "roppyakken", {"rain_spoils_viewing": "any-willow"}, {}, 120),
    ([*TEPPO, "willow-swallow", "pine-crane"], "roppyakken", {"rain_spoils_viewing": "unless-crane"},
     {"teppo": 300}, 470),
    ([*TEPPO, "willow-swallow", "pine-crane"], "roppyakken", {"rain_spoils_viewing": "any-willow"}, {}, 170),
    ([*SHIKO, "willow-rain-man"], "roppyakken", {"exact_instant_yaku": True}, {"matsu-kiri-bozu": 150}, 400),
    (EIGHT, "roppyakken", {"exact_instant_yaku": True}, {"kozan": 100, "kusatan": 100}, 280),
    (EIGHT, "roppyakken", {}, {"nanatan": 600, "kozan": 100, "kusatan": 100}, 880),
    (["bush-clover-ribbon", "maple-blue-ribbon", "peony-blue-ribbon"], "roppyakken", {"korean_ribbon_yaku": True},
     {"tti-inoshika": 300}, 330),
    (["cherry-poetry-ribbon", "chrysanthemum-blue-ribbon", "pampas-geese"], "roppyakken",
     {"korean_ribbon_yaku": True}, {"tti-daepo": 300}, 330),
    (["cherry-poetry-ribbon", "chrysanthemum-blue-ribbon"], "roppyakken", {"korean_ribbon_yaku": True},
     {"tti-hanami": 100}, 120),
    (["bush-clover-ribbon", "maple-blue-ribbon", "peony-blue-ribbon"], "roppyakken", {}, {}, 30),
    (["pine-crane", "plum-bush-warbler", "cherry-curtain"], "roppyakken", {"korean_values": True},
     {"oozan": 200}, 350),
    (["maple-deer", "maple-blue-ribbon", "maple-chaff-1", "maple-chaff-2"], "roppyakken", {"korean_values": True},
     {"momijishima": 200}, 220),
    # Yukbaek: shiko needs the bush warbler; nanatan needs the willow ribbon.
    (SHIKO, "yukbaek", {}, {"matsu-kiri-bozu": 150}, 350),
    ([*SHIKO, "plum-bush-warbler"], "yukbaek", {}, {"shiko": 600, "matsu-kiri-bozu": 150, "oozan": 150}, 1150),
    ([*POETRY, *GRASS, "peony-blue-ribbon"], "yukbaek", {}, {"kozan": 100, "kusatan": 100}, 270),
    (SEVEN, "yukbaek", {}, {"nanatan": 600, "kozan": 100, "kusatan": 100}, 870),
    # Yamayaku: fewer yaku, all stacking; taiho has teppo's cards.
    (SHIKO, "yamayaku", {}, {"matsu-kiri-bozu": 150}, 350),
    (["pine-crane", "plum-bush-warbler", "cherry-curtain"], "yamayaku", {}, {"oozan": 100}, 250),
    (TEPPO, "yamayaku", {}, {"taiho": 300}, 410),
    (WILLOWS, "yamayaku", {}, {"ameshima": 200}, 270),
    (PINES, "yamayaku", {}, {}, 60),
    # Changara: four of a month turns one 0-point chaff into 50 (ameshima too: the lightning).
    (PINES, "changara", {}, {"matsushima": 0}, 110),
    (WILLOWS, "changara", {}, {"ameshima": 200}, 320),
    (["pine-crane", "paulownia-phoenix", "pampas-moon"], "changara", {}, {"matsu-kiri-bozu": 300}, 450),
    (POETRY, "changara", {}, {"kozan": 150}, 180),
    (TEPPO, "changara", {}, {"tsukihana-ippai": 300}, 410),
    (SHIKO, "changara", {}, {"matsu-kiri-bozu": 300}, 500),
    # Sambong: shiko 600 + 200 per further bright-valued card (max 1000); nanatan 700 + 100 per extra ribbon.
    (SHIKO, "sambong", {}, {"shiko": 600, "matsu-kiri-bozu": 150}, 950),
    ([*SHIKO, "willow-rain-man", "plum-bush-warbler"], "sambong", {},
     {"shiko": 1000, "matsu-kiri-bozu": 150, "oozan": 150}, 1600),
    (SEVEN, "sambong", {}, {"nanatan": 700, "kozan": 100, "kusatan": 100}, 970),
    (EIGHT, "sambong", {}, {"nanatan": 800, "kozan": 100, "kusatan": 100}, 1080),
]
IDS = [
    "RULES.md yaku: shiko + matsu-kiri-bozu (issue 2 case: 950)",
    "RULES.md yaku: oozan", "RULES.md yaku: matsu-kiri-bozu",
    "RULES.md yaku: nanatan with willow ribbon (issue 2 case: 870)",
    "RULES.md option willow_ribbon_in_seven_ribbons=false (issue 2 case: 270)",
    "RULES.md yaku: kozan", "RULES.md yaku: aotan", "RULES.md yaku: kusatan", "RULES.md yaku: inoshikacho",
    "RULES.md yaku: teppo replaces hanami and tsukimi",
    "RULES.md option teppo_replaces_viewing=false: 500",
    "RULES.md preset roppyakken-ja: teppo stacks",
    "RULES.md yaku: hanami", "RULES.md yaku: tsukimi", "RULES.md yaku: ameshima", "RULES.md yaku: matsushima",
    "RULES.md yaku: kirishima",
    "RULES.md rain_spoils_viewing=any-willow",
    "RULES.md rain_spoils_viewing=unless-crane keeps teppo with the crane",
    "RULES.md rain_spoils_viewing=any-willow ignores the crane",
    "RULES.md exact_instant_yaku: shiko void with the rain man",
    "RULES.md exact_instant_yaku: nanatan void with 8 ribbons",
    "RULES.md nanatan: any 7 ribbons, 8 still count",
    "RULES.md korean_ribbon_yaku: tti-inoshika",
    "RULES.md korean_ribbon_yaku: tti-daepo replaces the ribbon viewings",
    "RULES.md korean_ribbon_yaku: flower-viewing ribbons",
    "RULES.md korean_ribbon_yaku default off",
    "seed 000 Korean Alternative Yaku Scores: oozan 200",
    "seed 000 Korean Alternative Yaku Scores: four maples 200",
    "RULES.md yukbaek: shiko needs the warbler (issue 2 case: 350)",
    "RULES.md yukbaek: shiko with the warbler",
    "RULES.md yukbaek: nanatan needs the willow ribbon",
    "RULES.md yukbaek: nanatan with the willow ribbon",
    "RULES.md yamayaku: no shiko", "RULES.md yamayaku: oozan 100", "RULES.md yamayaku: taiho",
    "RULES.md yamayaku: amezoro", "RULES.md yamayaku: no four-of-a-month",
    "RULES.md changara: four pines upgrade a chaff", "RULES.md changara: ameshima 200 + upgraded lightning",
    "RULES.md changara: matsu-kiri-bozu 300", "RULES.md changara: akatan 150",
    "RULES.md changara: tsukihana-ippai", "RULES.md changara: no shiko",
    "RULES.md sambong: shiko 600", "RULES.md sambong: shiko up to 1000",
    "RULES.md sambong: nanatan 700", "RULES.md sambong: nanatan 700 + 100 per extra ribbon",
]


@pytest.mark.parametrize(("pile", "preset", "options", "yaku", "raw"), CASES, ids=IDS)
def test_yaku_table(pile, preset, options, yaku, raw):
    result = score(pile, preset, others=([],), **options)
    assert yaku_of(result) == yaku
    a = result.player("A")
    assert a.raw_score == raw
    assert sum(line.points for line in a.lines if line.code not in ("fuke", "settlement")) == raw


def test_yaku_lists_the_cards_that_made_it():
    result = score([*SHIKO, "plum-chaff-1"])
    shiko = next(y for y in result.player("A").yaku if y.code == "shiko")
    assert set(shiko.cards) == set(SHIKO)


def test_changara_upgrade_prefers_the_yaku_month_and_names_the_card():
    result = score([*PINES, "plum-chaff-1"], "changara")
    upgrades = [line for line in result.player("A").lines if line.code == "chaff-upgrade"]
    assert [(u.points, u.cards) for u in upgrades] == [(50, ("pine-chaff-1",))]
    assert result.player("A").card_points == 110


def test_changara_two_fours_upgrade_two_chaff():
    pile = [*PINES, "maple-deer", "maple-blue-ribbon", "maple-chaff-1", "maple-chaff-2"]
    a = score(pile, "changara").player("A")
    # pines 60 + maples 20 + two upgrades 100
    assert a.card_points == 180
    assert a.raw_score == 180
