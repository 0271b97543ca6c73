"""Koi-Koi yaku as KOIKOI-RULES.md "Yaku" tables them (preset ``koikoi``: Nintendo's values,
FudaWiki's groups).  Each row: A's pile, the yaku it makes (id -> points), the rule it reads."""

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
    score,
    yaku_of,
)

YAKU = [
    ("gokou: all five brights", [*BRIGHTS4, RAIN_MAN], {"gokou": 10}),
    ("shikou: the four brights without the rain man", BRIGHTS4, {"shikou": 8}),
    ("ame-shikou: the rain man + three other brights", [RAIN_MAN, *BRIGHTS4[:3]], {"ame-shikou": 7}),
    ("sankou: three brights, none the rain man", BRIGHTS4[:3], {"sankou": 5}),
    ("the rain man with only two other brights makes nothing", [RAIN_MAN, *BRIGHTS4[:2]], {}),
    ("inoshikacho: the three inoshikacho cards", INOSHIKACHO, {"inoshikacho": 5}),
    ("inoshikacho: +1 per animal past 3", [*INOSHIKACHO, OTHER_ANIMALS[0]], {"inoshikacho": 6}),
    ("animals group: inoshikacho 7 beats tane 1", [*INOSHIKACHO, *OTHER_ANIMALS[:2]], {"inoshikacho": 7}),
    ("tane: five animals", OTHER_ANIMALS, {"tane": 1}),
    ("tane: +1 per animal past 5 (the bug: extras never added)", [*OTHER_ANIMALS, SAKE_CUP, INOSHIKACHO[0]],
     {"tane": 3}),
    ("akatan: the three poetry ribbons", POETRY, {"akatan": 5}),
    ("akatan: +1 per ribbon past 3", [*POETRY, PLAIN[0]], {"akatan": 6}),
    ("aotan: three blue + two plain ribbons = 7", [*BLUE, *PLAIN[:2]], {"aotan": 7}),
    ("akatan-aotan replaces akatan and aotan", [*POETRY, *BLUE], {"akatan-aotan": 10}),
    ("akatan-aotan: +1 per ribbon past 6", [*POETRY, *BLUE, PLAIN[3]], {"akatan-aotan": 11}),
    ("tanzaku: five ribbons, the willow ribbon included", [*PLAIN, POETRY[0]], {"tanzaku": 1}),
    ("tanzaku: +1 per ribbon past 5", [*PLAIN, POETRY[0], BLUE[0], BLUE[1]], {"tanzaku": 3}),
    ("kasu: ten chaff (the willow lightning and the yellow paulownia are chaff)", CHAFF[-10:], {"kasu": 1}),
    ("kasu: +1 per chaff past 10", CHAFF[:12], {"kasu": 3}),
    ("kasu: the sake cup is also one chaff (sake_cup = both)", [*CHAFF[:9], SAKE_CUP], {"kasu": 1}),
    ("hanami-zake: the curtain + the sake cup", ["cherry-curtain", SAKE_CUP], {"hanami-zake": 5}),
    ("tsukimi-zake: the moon + the sake cup", ["pampas-moon", SAKE_CUP], {"tsukimi-zake": 5}),
    ("the viewings and kasu stack with the groups",
     ["pine-crane", "cherry-curtain", "pampas-moon", SAKE_CUP, *CHAFF[:9]],
     {"sankou": 5, "hanami-zake": 5, "tsukimi-zake": 5, "kasu": 1}),
    ("each group scores once: brights, animals, ribbons side by side",
     [*BRIGHTS4[:3], *INOSHIKACHO, *POETRY], {"sankou": 5, "inoshikacho": 5, "akatan": 5}),
    ("tsukifuda (the month's four cards) is an option, off in koikoi",
     ["cherry-curtain", "cherry-poetry-ribbon", "cherry-chaff-1", "cherry-chaff-2"], {}),
]


@pytest.mark.parametrize(("pile", "expected"), [c[1:] for c in YAKU], ids=[c[0] for c in YAKU])
def test_yaku_table(pile, expected):
    result = score(pile, stopped_by=None, month=3)
    assert yaku_of(result) == expected
    assert result.player("A").yaku_total == sum(expected.values())
    check_lines(result)


def test_yaku_lines_name_their_cards():
    result = score([*BLUE, *PLAIN[:2]], stopped_by=None)
    (aotan,) = result.player("A").yaku
    assert set(aotan.cards) == {*BLUE, *PLAIN[:2]}
    assert (aotan.en, aotan.ja) == ("Blue Ribbons", "青短")
