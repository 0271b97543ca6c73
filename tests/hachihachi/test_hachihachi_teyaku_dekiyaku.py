"""Teyaku and dekiyaku detection (seed 003 "Details of yakus"; FudaWiki "Teyaku", "Dekiyaku")."""

import pytest
from hh_cases import rules

from referee.hachihachi.dekiyaku import dekiyaku_kan, find_dekiyaku, near_misses
from referee.hachihachi.teyaku import bonus_met, find_teyaku

CHAFF6 = [
    "plum-chaff-1",
    "cherry-chaff-1",
    "wisteria-chaff-1",
    "iris-chaff-1",
    "peony-chaff-1",
    "maple-chaff-1",
]

TEYAKU = [
    # (id, hand, expected [(teyaku, kan)])  -- every teyaku alone, then stacked.
    (
        "sanbon",
        [
            "pine-crane",
            "pine-chaff-1",
            "pine-chaff-2",
            "plum-bush-warbler",
            "cherry-curtain",
            "pampas-moon",
            "maple-deer",
        ],
        [("sanbon", 2)],
    ),
    (
        "sanbon-3211",
        [
            "pine-crane",
            "pine-chaff-1",
            "pine-chaff-2",
            "plum-bush-warbler",
            "plum-poetry-ribbon",
            "cherry-curtain",
            "maple-deer",
        ],
        [("sanbon", 2)],
    ),
    (
        "tatesanbon-wisteria",
        [
            "wisteria-cuckoo",
            "wisteria-ribbon",
            "wisteria-chaff-1",
            "pine-crane",
            "cherry-curtain",
            "pampas-moon",
            "maple-deer",
        ],
        [("tatesanbon", 3)],
    ),
    (
        "paulownia-with-phoenix-is-plain",
        [
            "paulownia-phoenix",
            "paulownia-chaff-1",
            "paulownia-chaff-2",
            "pine-crane",
            "cherry-curtain",
            "pampas-moon",
            "maple-deer",
        ],
        [("sanbon", 2)],
    ),
    (
        "kuttsuki",
        [
            "pine-crane",
            "pine-chaff-1",
            "plum-bush-warbler",
            "plum-chaff-1",
            "cherry-curtain",
            "cherry-chaff-1",
            "maple-deer",
        ],
        [("kuttsuki", 4)],
    ),
    (
        "teshi",
        [
            "pine-crane",
            "pine-poetry-ribbon",
            "pine-chaff-1",
            "pine-chaff-2",
            "cherry-curtain",
            "pampas-moon",
            "maple-deer",
        ],
        [("teshi", 6)],
    ),
    # Issue: "3+2+2 is haneken, 7 kan".
    (
        "haneken",
        [
            "pine-crane",
            "pine-chaff-1",
            "pine-chaff-2",
            "plum-bush-warbler",
            "plum-chaff-1",
            "cherry-curtain",
            "cherry-chaff-1",
        ],
        [("haneken", 7)],
    ),
    (
        "ichinishi",
        [
            "pine-crane",
            "pine-poetry-ribbon",
            "pine-chaff-1",
            "pine-chaff-2",
            "plum-bush-warbler",
            "plum-chaff-1",
            "cherry-curtain",
        ],
        [("ichinishi", 8)],
    ),
    (
        "futasanbon",
        [
            "pine-crane",
            "pine-chaff-1",
            "pine-chaff-2",
            "plum-bush-warbler",
            "plum-chaff-1",
            "plum-chaff-2",
            "cherry-curtain",
        ],
        [("futasanbon", 6)],
    ),
    (
        "sanbon-tatesanbon",
        [
            "pine-crane",
            "pine-chaff-1",
            "pine-chaff-2",
            "iris-bridge",
            "iris-ribbon",
            "iris-chaff-1",
            "cherry-curtain",
        ],
        [("sanbon-tatesanbon", 7)],
    ),
    (
        "futatatesanbon",
        [
            "wisteria-cuckoo",
            "wisteria-ribbon",
            "wisteria-chaff-1",
            "bush-clover-boar",
            "bush-clover-ribbon",
            "bush-clover-chaff-1",
            "cherry-curtain",
        ],
        [("futatatesanbon", 8)],
    ),
    (
        "shiso",
        [
            "pine-crane",
            "pine-poetry-ribbon",
            "pine-chaff-1",
            "pine-chaff-2",
            "plum-bush-warbler",
            "plum-poetry-ribbon",
            "plum-chaff-1",
        ],
        [("shiso", 20)],
    ),
    ("karasu", ["pine-chaff-1", *CHAFF6], [("karasu", 4)]),
    ("pikaichi", ["pine-crane", *CHAFF6], [("pikaichi", 4)]),
    ("toichi", ["pampas-geese", *CHAFF6], [("toichi", 3)]),
    ("tanichi", ["chrysanthemum-blue-ribbon", *CHAFF6], [("tanichi", 3)]),
    ("aka", ["pine-poetry-ribbon", "chrysanthemum-blue-ribbon", *CHAFF6[1:]], [("aka", 2)]),
    # Willow counts as chaff: the willow ribbon, swallow and even the rain man.
    ("willow-ribbon-is-chaff", ["willow-ribbon", *CHAFF6], [("karasu", 4)]),
    ("rain-man-is-chaff", ["willow-rain-man", *CHAFF6], [("karasu", 4)]),
    # Issue: paulownia chaff ×3, four chaff, willow swallow: standing triplet 3 + empty hand 4 = 7.
    (
        "issue-tatesanbon-karasu",
        [
            "paulownia-chaff-1",
            "paulownia-chaff-2",
            "paulownia-chaff-yellow",
            "pine-chaff-1",
            "plum-chaff-1",
            "cherry-chaff-1",
            "willow-swallow",
        ],
        [("tatesanbon", 3), ("karasu", 4)],
    ),
    (
        "sanbon-pikaichi",
        ["pine-crane", "pine-chaff-1", "pine-chaff-2", *CHAFF6[:4]],
        [("sanbon", 2), ("pikaichi", 4)],
    ),
    (
        "kuttsuki-karasu",
        [
            "pine-chaff-1",
            "pine-chaff-2",
            "plum-chaff-1",
            "plum-chaff-2",
            "cherry-chaff-1",
            "cherry-chaff-2",
            "iris-chaff-1",
        ],
        [("kuttsuki", 4), ("karasu", 4)],
    ),
    (
        "haneken-toichi",
        [
            "plum-bush-warbler",
            "plum-chaff-1",
            "plum-chaff-2",
            "pine-chaff-1",
            "pine-chaff-2",
            "cherry-chaff-1",
            "cherry-chaff-2",
        ],
        [("haneken", 7), ("toichi", 3)],
    ),
    # FudaWiki: the only Four-Three with Empty Hand: four willows and three paulownia chaff.
    (
        "shiso-karasu",
        [
            "willow-rain-man",
            "willow-swallow",
            "willow-ribbon",
            "willow-lightning",
            "paulownia-chaff-1",
            "paulownia-chaff-2",
            "paulownia-chaff-yellow",
        ],
        [("shiso", 20), ("karasu", 4)],
    ),
    (
        "nothing",
        [
            "pine-crane",
            "plum-bush-warbler",
            "cherry-curtain",
            "wisteria-cuckoo",
            "iris-bridge",
            "peony-butterflies",
            "maple-deer",
        ],
        [],
    ),
]


@pytest.mark.parametrize(("hand", "expected"), [c[1:] for c in TEYAKU], ids=[c[0] for c in TEYAKU])
def test_teyaku(hand, expected):
    hits = find_teyaku(rules(), hand)
    assert [(h.teyaku.id, h.kan) for h in hits] == expected


def test_capture_month_bonus():
    r = rules()
    (hit,) = find_teyaku(r, TEYAKU[0][1])  # sanbon in pine
    assert bonus_met(
        r, hit, ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1", "pine-chaff-2"], 40
    )
    assert not bonus_met(r, hit, ["pine-crane", "pine-chaff-1", "pine-chaff-2"], 120)


def test_points_bonus_and_no_bonus_for_pikaichi():
    r = rules()
    (karasu,) = find_teyaku(r, ["pine-chaff-1", *CHAFF6])
    assert bonus_met(r, karasu, [], 89)
    assert not bonus_met(r, karasu, [], 88)
    (pikaichi,) = find_teyaku(r, ["pine-crane", *CHAFF6])
    assert not bonus_met(r, pikaichi, [], 120)  # seed 003 gives One Bright no "+1 kan"


def test_haneken_bonus_differs_by_preset():
    hand = TEYAKU[6][1]
    pile = ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1", "pine-chaff-2"]
    (seed_hit,) = find_teyaku(rules(), hand)
    (fuda_hit,) = find_teyaku(rules("hachihachi-fudawiki"), hand)
    assert not bonus_met(rules(), seed_hit, pile, 90)
    assert bonus_met(rules("hachihachi-fudawiki"), fuda_hit, pile, 90)  # FudaWiki "Diving"


BRIGHTS4 = ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"]
RIBBONS7 = [
    "pine-poetry-ribbon",
    "plum-poetry-ribbon",
    "wisteria-ribbon",
    "iris-ribbon",
    "peony-blue-ribbon",
    "bush-clover-ribbon",
    "chrysanthemum-blue-ribbon",
]
DEKIYAKU = [
    (
        "akatan",
        ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon", "pine-chaff-1"],
        ["akatan"],
        7,
    ),
    (
        "aotan",
        ["peony-blue-ribbon", "chrysanthemum-blue-ribbon", "maple-blue-ribbon"],
        ["aotan"],
        7,
    ),
    ("nanatan", RIBBONS7, ["nanatan"], 10),
    ("nanatan-without-willow", [*RIBBONS7[:6], "willow-ribbon"], [], 0),
    ("shiko", BRIGHTS4, ["shiko"], 10),
    ("rain-man-is-not-shiko", [*BRIGHTS4[:3], "willow-rain-man"], [], 0),
    ("gokou-replaces-shiko", [*BRIGHTS4, "willow-rain-man"], ["gokou"], 12),
    (
        "akatan-aotan-nanatan",
        [*RIBBONS7, "cherry-poetry-ribbon", "maple-blue-ribbon"],
        ["nanatan", "akatan", "aotan"],
        24,
    ),
    ("inoshikacho-off-by-default", ["peony-butterflies", "bush-clover-boar", "maple-deer"], [], 0),
]


@pytest.mark.parametrize(
    ("cards", "ids", "value"), [c[1:] for c in DEKIYAKU], ids=[c[0] for c in DEKIYAKU]
)
def test_dekiyaku(cards, ids, value):
    r = rules()
    hits = find_dekiyaku(r, cards)
    assert [h.dekiyaku.id for h in hits] == ids
    assert dekiyaku_kan(r, ids) == value


def test_inoshikacho_option():
    r = rules(inoshikacho=True)
    assert [
        h.dekiyaku.id
        for h in find_dekiyaku(r, ["peony-butterflies", "bush-clover-boar", "maple-deer"])
    ] == ["inoshikacho"]


def test_claimed_shiko_then_gokou_counts_gokou_only():
    assert dekiyaku_kan(rules(), ["shiko", "gokou"]) == 12


def test_hatto_candidates():
    r = rules()
    pile = ["pine-poetry-ribbon", "plum-poetry-ribbon", "peony-blue-ribbon"]
    misses = near_misses(r, pile)
    assert [(m.dekiyaku.id, m.missing) for m in misses] == [("akatan", ("cherry-poetry-ribbon",))]
    # The missing card is already in another pile: no longer a candidate.
    assert near_misses(r, pile, ["cherry-poetry-ribbon"]) == ()
