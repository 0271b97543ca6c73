"""One round's settlement, hand-computed (RULES.md "Hachi-hachi"; seed 003; FudaWiki).

Amounts are mon at 12 mon per kan unless stated: 1 kan = 12 mon.
"""

import pytest
from hh_cases import (
    FIELD_SMALL,
    HAND_HANEKEN,
    HAND_KARASU,
    HAND_NOTHING,
    PILE_A,
    PILE_B,
    PILE_C,
    PILES,
    TWO_A,
    TWO_B,
    by_reason,
    check_books,
    settle,
)

HANDS = {"A": HAND_KARASU, "B": HAND_HANEKEN, "C": HAND_NOTHING}


def test_card_round_with_teyaku_and_bonus():
    # A: karasu 4 kan (24 from B and C each) + its bonus at 93 points (6 each);
    # B: haneken 7 kan (42 from A and C); cards: A +5, B +5, C -10.
    r = settle(piles=PILES, hands=HANDS, field=FIELD_SMALL)
    check_books(r)
    assert r.outcome == "cards"
    assert r.card_points == {"A": 93, "B": 93, "C": 78}
    assert by_reason(r, "teyaku") == {"A": 48 - 42, "B": 84 - 24, "C": -24 - 42}
    assert by_reason(r, "teyaku-bonus") == {"A": 12, "B": -6, "C": -6}
    assert by_reason(r, "cards") == {"A": 5, "B": 5, "C": -10}
    assert r.net == {"A": 23, "B": 59, "C": -82}
    assert (r.winner, r.next_dealer) == ("A", "A")  # tie at 93: first in play order


def test_stated_multiplier_doubles_everything():
    r = settle(piles=PILES, hands=HANDS, multiplier=2)
    check_books(r)
    assert r.net == {"A": 46, "B": 118, "C": -164}


def test_field_bright_sets_multiplier():
    field = [
        "pine-crane",
        "plum-chaff-1",
        "cherry-chaff-1",
        "iris-chaff-1",
        "peony-chaff-1",
        "maple-chaff-1",
    ]
    r = settle(piles=PILES, field=field)
    assert r.multiplier.value == 2
    assert r.net == {"A": 10, "B": 10, "C": -20}


def test_winner_takes_most_points():
    r = settle(piles={"A": PILE_C, "B": PILE_A, "C": PILE_B})
    assert (r.winner, r.net) == ("B", {"A": -10, "B": 5, "C": 5})


@pytest.mark.parametrize(
    ("dealer", "expected"),
    [
        ("A", {"A": 24 + 5, "B": -12 + 5, "C": -12 - 10}),  # A has 93 >= 89: 1 kan from each
        ("C", {"A": 12 + 5, "B": 12 + 5, "C": -24 - 10}),
    ],  # C has 78: pays 1 kan to each
    ids=["made", "failed"],
)
def test_mizuten(dealer, expected):
    r = settle(piles=PILES, dealer=dealer, mizuten=True)
    check_books(r)
    assert r.net == expected


def test_mizuten_made_collects_from_dropped_players_too():
    r = settle(
        players=["A", "D", "B", "C"],
        dealer="A",
        dropped={"D": {"order": 1}},
        piles=PILES,
        mizuten=True,
    )
    assert by_reason(r, "mizuten") == {"A": 36, "B": -12, "C": -12, "D": -12}


# ---- Dekiyaku: stop / continue / hatto (seed 003 "Rule of Continue playing", "Rule of Hatto") ----
AKATAN = ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon", "pine-chaff-1"]
AOTAN = ["peony-blue-ribbon", "chrysanthemum-blue-ribbon", "maple-blue-ribbon"]
PARTIAL = {"A": AKATAN, "B": AOTAN, "C": ["iris-chaff-1", "maple-deer"]}
BOTH_A = {"A": AKATAN + AOTAN, "B": ["pampas-moon"], "C": ["iris-chaff-1"]}


def call(player, yaku, decision):
    return {"player": player, "yaku": yaku, "decision": decision}


DEKIYAKU_CASES = [
    (
        "stop-split",
        "hachihachi",
        BOTH_A,
        [call("A", "akatan", "stop")],
        [],
        {"A": 84, "B": -42, "C": -42},
        "A",
    ),
    (
        "stop-each",
        "hachihachi-fudawiki",
        BOTH_A,
        [call("A", "akatan", "stop")],
        [],
        {"A": 168, "B": -84, "C": -84},
        "A",
    ),
    # Hatto: B was one card short, so C pays alone what both would have paid.
    (
        "hatto-split",
        "hachihachi",
        BOTH_A,
        [call("A", "akatan", "stop")],
        ["B"],
        {"A": 84, "B": 0, "C": -84},
        "A",
    ),
    (
        "hatto-each",
        "hachihachi-fudawiki",
        BOTH_A,
        [call("A", "akatan", "stop")],
        ["B"],
        {"A": 168, "B": 0, "C": -168},
        "A",
    ),
    (
        "both-hatto-pay-normally",
        "hachihachi",
        BOTH_A,
        [call("A", "akatan", "stop")],
        ["B", "C"],
        {"A": 84, "B": -42, "C": -42},
        "A",
    ),
    # Continue, then a second dekiyaku: both score (7 + 7 kan).
    (
        "continue-then-second",
        "hachihachi",
        BOTH_A,
        [call("A", "akatan", "continue"), call("A", "aotan", "stop")],
        [],
        {"A": 168, "B": -84, "C": -84},
        "A",
    ),
    # Continue, then another player completes first: A's yaku is void and A alone pays B.
    (
        "continue-overtaken",
        "hachihachi",
        PARTIAL,
        [call("A", "akatan", "continue"), call("B", "aotan", "stop")],
        [],
        {"A": -84, "B": 84, "C": 0},
        "B",
    ),
    (
        "continue-overtaken-each",
        "hachihachi-fudawiki",
        PARTIAL,
        [call("A", "akatan", "continue"), call("B", "aotan", "stop")],
        [],
        {"A": -168, "B": 168, "C": 0},
        "B",
    ),
    # Continue and nobody completes another: half of the yaku (3.5 kan = 42 mon).
    (
        "continue-exhausted",
        "hachihachi",
        PARTIAL,
        [call("A", "akatan", "continue")],
        [],
        {"A": 42, "B": -21, "C": -21},
        "A",
    ),
    # Seed: B's later dekiyaku voids A's continue; hands run out, B scores half, A pays alone.
    (
        "two-continues-seed",
        "hachihachi",
        PARTIAL,
        [call("A", "akatan", "continue"), call("B", "aotan", "continue")],
        [],
        {"A": -42, "B": 42, "C": 0},
        "B",
    ),
    # FudaWiki: hands exhausted, every maker is paid half by each opponent; first continuer wins.
    (
        "two-continues-fudawiki",
        "hachihachi-fudawiki",
        PARTIAL,
        [call("A", "akatan", "continue"), call("B", "aotan", "continue")],
        [],
        {"A": 42, "B": 42, "C": -84},
        "A",
    ),
]


@pytest.mark.parametrize(
    ("preset", "piles", "calls", "hatto", "net", "winner"),
    [c[1:] for c in DEKIYAKU_CASES],
    ids=[c[0] for c in DEKIYAKU_CASES],
)
def test_dekiyaku_outcomes(preset, piles, calls, hatto, net, winner):
    r = settle(preset, piles=piles, dekiyaku=calls, hatto=hatto)
    check_books(r)
    assert r.outcome == "dekiyaku"
    assert (r.net, r.winner, r.next_dealer) == (net, winner, winner)


def test_dekiyaku_round_still_pays_teyaku_and_multiplier():
    r = settle(piles=BOTH_A, dekiyaku=[call("A", "akatan", "stop")], hands=HANDS, multiplier=4)
    check_books(r)
    assert by_reason(r, "dekiyaku") == {"A": 336, "B": -168, "C": -168}
    assert by_reason(r, "teyaku") == {"A": 4 * (48 - 42), "B": 4 * (84 - 24), "C": 4 * (-24 - 42)}


def test_gokou_replaces_shiko_when_continuing():
    brights = [
        "pine-crane",
        "cherry-curtain",
        "pampas-moon",
        "paulownia-phoenix",
        "willow-rain-man",
    ]
    r = settle(
        piles={"A": brights, "B": [], "C": []},
        dekiyaku=[call("A", "shiko", "continue"), call("A", "gokou", "stop")],
    )
    assert r.net == {"A": 144, "B": -72, "C": -72}  # 12 kan, not 22


def test_single_holder_without_decision_is_taken_as_stop():
    r = settle(piles=BOTH_A)
    assert r.net == {"A": 168, "B": -84, "C": -84}
    assert any("no decision was stated" in w for w in r.warnings)


def test_suggest_lists_dekiyaku_and_hatto_candidates():
    from referee.hachihachi import suggest_json

    out = suggest_json(
        {
            "players": ["A", "B", "C"],
            "dealer": "A",
            "hands": HANDS,
            "piles": {"A": AKATAN, "B": AOTAN[:2], "C": []},
        }
    )
    assert [d["id"] for d in out["dekiyaku"]["A"]] == ["akatan"]
    assert out["hatto"]["B"] == [{"id": "aotan", "missing": ["maple-blue-ribbon"]}]
    assert [t["id"] for t in out["teyaku"]["B"]] == ["haneken"]
    assert out["needs_order"] is False


# ---- Special yaku (RULES.md "Special yaku") ----
MOVE_A = ["pine-chaff-1", "pine-chaff-2", "plum-chaff-1", "plum-chaff-2", "cherry-chaff-1"]
MOVE_B = ["iris-chaff-1", "iris-chaff-2", "peony-chaff-1", "peony-chaff-2", "bush-clover-chaff-1"]
EIGHTS = {
    "A": [c for c in PILE_A if c not in MOVE_A],
    "B": [c for c in PILE_B if c not in MOVE_B],
    "C": PILE_C + MOVE_A + MOVE_B,
}  # 88 each; C also holds 20 chaff (willow included)


def test_all_eights_takes_precedence_and_refunds_teyaku():
    r = settle(piles=EIGHTS, hands=HANDS, mizuten=True)
    check_books(r)
    assert r.card_points == {"A": 88, "B": 88, "C": 88}
    assert r.special.id == "all-eights"
    assert r.net == {"A": 240, "B": -120, "C": -120}  # 20 kan to the first in play order
    assert by_reason(r, "teyaku") == {"A": 6, "B": 60, "C": -66}
    assert by_reason(r, "teyaku-refund") == {"A": -6, "B": -60, "C": 66}
    assert by_reason(r, "mizuten") == {}
    assert r.winner == "A"


@pytest.mark.parametrize(
    ("round_kwargs", "reason"),
    [
        ({"piles": EIGHTS, "hands": HANDS}, "All Eights (総八) cancels Mizuten"),
        ({"players": ["A", "B"], "piles": {"A": TWO_A, "B": TWO_B}, "multiplier": 1},
         "two players play no Mizuten"),
    ],
    ids=["RULES.md: a special yaku cancels Mizuten", "RULES.md: two players (FudaWiki), no Mizuten payment"],
)
def test_a_mizuten_call_that_is_not_paid_says_why(round_kwargs, reason):
    # Found by the rules QA of issue 12: the call was dropped without a word, so the table could not
    # tell a forgotten bet from a rule.
    r = settle(mizuten=True, **round_kwargs)
    assert by_reason(r, "mizuten") == {}
    assert any(reason in w for w in r.warnings), r.warnings


def test_all_eights_fudawiki_value():
    r = settle("hachihachi-fudawiki", piles=EIGHTS)
    assert r.net == {"A": 240, "B": -120, "C": -120}  # 10 kan from each


def test_sixteen_chaff():
    piles = {
        "A": [*EIGHTS["A"], "pine-chaff-1"],
        "B": EIGHTS["B"],
        "C": [c for c in EIGHTS["C"] if c != "pine-chaff-1"],
    }
    r = settle(piles=piles, hands=HANDS)
    check_books(r)
    assert r.special.id == "sixteen-chaff"  # C: 17 chaff + swallow + willow ribbon = 19
    assert r.net == {"A": -108, "B": -108, "C": 216}  # 12 + 3 × 2 = 18 kan
    assert r.winner == "C"


DOUBLE_A = [
    "pine-crane",
    "cherry-curtain",
    "willow-rain-man",
    "plum-bush-warbler",
    "wisteria-cuckoo",
    "iris-bridge",
    "peony-butterflies",
    "bush-clover-boar",
    "pampas-geese",
    "chrysanthemum-sake-cup",
    "maple-deer",
    "willow-swallow",
    "pine-poetry-ribbon",
    "plum-poetry-ribbon",
    "wisteria-ribbon",
    "iris-ribbon",
    "maple-blue-ribbon",
]  # 60 + 90 + 25 = 175
ALL_CHAFF = [c for c in PILE_A + PILE_B + PILE_C if "chaff" in c or c == "willow-lightning"]
DOUBLE_C = [
    "pampas-moon",
    "paulownia-phoenix",
    "cherry-poetry-ribbon",
    "peony-blue-ribbon",
    "bush-clover-ribbon",
    "chrysanthemum-blue-ribbon",
    "willow-ribbon",
]  # 40 + 25 = 65


def test_double_eights_beats_sixteen_chaff():
    r = settle(piles={"A": DOUBLE_A, "B": ALL_CHAFF, "C": DOUBLE_C})
    check_books(r)
    assert r.card_points == {"A": 175, "B": 24, "C": 65}
    assert r.special.id == "double-eights"
    assert r.net == {"A": 204, "B": -102, "C": -102}  # 10 + 7 kan


# ---- Drop-outs (RULES.md "4 to 6 players") ----
def test_four_players_one_drops():
    # Seating A, D, B, C: A joins, D drops out, B and C join.
    # D pays 1 kan into the pot (to the winner A) and is paid half of karasu: 2 kan = 24 mon,
    # 8 from each active player.
    r = settle(
        players=["A", "D", "B", "C"], dropped={"D": {"order": 1, "hand": HAND_KARASU}}, piles=PILES
    )
    check_books(r)
    assert by_reason(r, "dropout-hand") == {"D": 24, "A": -8, "B": -8, "C": -8}
    assert by_reason(r, "dropout-fee") == {"D": -12, "A": 12}
    assert r.net == {"A": 9, "B": -3, "C": -18, "D": 12}


def test_four_players_each_basis():
    r = settle(
        "hachihachi-fudawiki",
        players=["A", "D", "B", "C"],
        dropped={"D": {"order": 1, "hand": HAND_KARASU}},
        piles=PILES,
    )
    check_books(r)
    assert r.net == {"A": -7, "B": -19, "C": -34, "D": 60}


@pytest.mark.parametrize(
    ("players", "drops", "pot"),
    [
        (["A", "B", "C", "D", "E"], ["B", "C"], 12 + 18),
        (["A", "B", "C", "D", "E", "F"], ["B", "C", "D"], 12 + 18 + 24),
    ],  # 4.5 kan for six players
    ids=["five-players", "six-players"],
)
def test_dropout_fees_go_to_the_winner(players, drops, pot):
    active = [p for p in players if p not in drops]
    r = settle(
        players=players,
        dropped={p: {"order": i} for i, p in enumerate(drops, 1)},
        piles=dict(zip(active, [PILE_A, PILE_B, PILE_C], strict=True)),
    )
    check_books(r)
    assert r.winner == "A"
    assert by_reason(r, "dropout-fee")["A"] == pot
    assert [by_reason(r, "dropout-fee")[p] for p in drops] == [-12, -18, -24][: len(drops)]


SHIKO_HAND = [
    "pine-crane",
    "cherry-curtain",
    "pampas-moon",
    "paulownia-phoenix",
    "pine-poetry-ribbon",
    "maple-blue-ribbon",
    "iris-chaff-1",
]


@pytest.mark.parametrize(
    ("preset", "each"), [("hachihachi", 33), ("hachihachi-fudawiki", 66)], ids=["split", "each"]
)
def test_forced_out_compensation(preset, each):
    # B drops first; A, C, D join; E and F are forced out.  E's hand holds shiko (half: 5 kan =
    # 60 mon) and two uncounted dekiyaku cards (pine poetry ribbon, maple blue ribbon: 2 × 3 mon).
    # The non-dealer active players C and D pay the 66 mon.
    r = settle(
        preset,
        players=["A", "B", "C", "D", "E", "F"],
        dropped={
            "B": {"order": 1},
            "E": {"forced": True, "hand": SHIKO_HAND},
            "F": {"forced": True},
        },
        piles={"A": PILE_A, "C": PILE_B, "D": PILE_C},
    )
    check_books(r)
    assert r.active == ("A", "C", "D")
    assert by_reason(r, "forced-out") == {"E": 2 * each, "C": -each, "D": -each}
    assert by_reason(r, "dropout-fee") == {"B": -12, "A": 12}


# Bug (phone walk): a player forced out was described as "F, who dropped out" (RULES.md "4 to 6 players":
# dropping out is a choice; forced out is what happens to those after the third to join).
@pytest.mark.parametrize(("who", "said"), [
    ("B", "no hand reported for B, who dropped out: nothing paid for it"),
    ("F", "no hand reported for F, who was forced out: nothing paid for it"),
], ids=["dropped out by choice", "forced out"])
def test_a_sitting_out_player_without_a_hand_is_named_as_they_sat_out(who, said):
    r = settle(
        players=["A", "B", "C", "D", "E", "F"],
        dropped={"B": {"order": 1}, "E": {"forced": True, "hand": SHIKO_HAND}, "F": {"forced": True}},
        piles={"A": PILE_A, "C": PILE_B, "D": PILE_C},
    )
    assert said in r.warnings


@pytest.mark.parametrize(("fields", "said"), [
    ({"piles": {"A": PILE_A, "B": PILE_B, "C": PILE_C, "D": []}}, "D was forced out, so has no pile"),
    ({"hatto": ["D"]}, "hatto player D was forced out of this round"),
    ({"dekiyaku": [{"player": "D", "yaku": "akatan", "decision": "stop"}]},
     "dekiyaku by D, who was forced out (A, B, C play)"),
], ids=["pile", "hatto", "dekiyaku"])
def test_an_error_names_a_forced_out_player_as_forced_out(fields, said):
    from referee.errors import RefereeError

    round_fields = {"players": ["A", "B", "C", "D"], "dropped": {"D": {"forced": True}},
                    "piles": {"A": PILE_A, "B": PILE_B, "C": PILE_C}, **fields}
    with pytest.raises(RefereeError) as e:
        settle(**round_fields)
    assert said in str(e.value)


def test_dealer_drops_out_next_player_leads():
    r = settle(
        players=["A", "B", "C", "D"],
        dealer="A",
        dropped={"A": {"order": 1}},
        piles={"B": PILE_A, "C": PILE_B, "D": PILE_C},
    )
    assert r.active == ("B", "C", "D")
    assert r.winner == "B"


# ---- Two players (FudaWiki "Hachi-Hachi for Two Players") ----
def test_two_player_variant():
    # FudaWiki "Two Players": no Mizuten payment; the loser pays (108 - 61) × 2 = 94.
    r = settle(players=["A", "B"], piles={"A": TWO_A, "B": TWO_B}, mizuten=True, multiplier=2)
    check_books(r)
    assert r.card_points == {"A": 108, "B": 61}
    assert r.net == {"A": 94, "B": -94}


def test_two_players_have_no_double_eights():
    # A: 4 brights without the phoenix (80, no dekiyaku) + the 9 animals (90) + 1 chaff = 171, past 168;
    # B: phoenix 20 + 3 ribbons 15 + 8 chaff = 43.  Two players: no special yaku, (171 - 43) × 1.
    a = ["pine-crane", "cherry-curtain", "pampas-moon", "willow-rain-man", "plum-bush-warbler",
         "wisteria-cuckoo", "iris-bridge", "peony-butterflies", "bush-clover-boar", "pampas-geese",
         "chrysanthemum-sake-cup", "maple-deer", "willow-swallow", "pine-chaff-1"]
    b = ["paulownia-phoenix", "iris-ribbon", "peony-blue-ribbon", "bush-clover-ribbon",
         "iris-chaff-1", "iris-chaff-2", "peony-chaff-1", "peony-chaff-2", "bush-clover-chaff-1",
         "bush-clover-chaff-2", "paulownia-chaff-1", "paulownia-chaff-2"]
    r = settle(players=["A", "B"], piles={"A": a, "B": b})
    check_books(r)
    assert r.card_points == {"A": 171, "B": 43}
    assert r.special is None
    assert r.net == {"A": 128, "B": -128}


def test_four_seated_two_active_is_the_two_player_variant():
    # Cards (108 - 61) × 1 = 47; A wins the pot: B's fee 1 kan (12) and C's 1.5 kan (18).
    r = settle(
        players=["A", "B", "C", "D"],
        dropped={"B": {"order": 1}, "C": {"order": 2}},
        piles={"A": TWO_A, "D": TWO_B},
    )
    check_books(r)
    assert r.net == {"A": 47 + 12 + 18, "B": -12, "C": -18, "D": -47}


def test_decimal_kan_rounding_half_away_from_zero():
    # 10 mon per kan: D's half karasu is 20 mon, split three ways: 6.67 -> 7 each, D gets 21.
    r = settle(
        options={"mon_per_kan": 10},
        players=["A", "D", "B", "C"],
        dropped={"D": {"order": 1, "hand": HAND_KARASU}},
        piles=PILES,
    )
    check_books(r)
    assert by_reason(r, "dropout-hand") == {"D": 21, "A": -7, "B": -7, "C": -7}


@pytest.mark.parametrize(
    ("players", "dropped", "active"),
    [
        # 4 players: A, B, C join, so D never chooses.
        (["A", "B", "C", "D"], {"D": {"forced": True, "hand": SHIKO_HAND}}, ("A", "B", "C")),
        # 5 players: A joins, B drops, C and D join, so E never chooses.
        (
            ["A", "B", "C", "D", "E"],
            {"B": {"order": 1}, "E": {"forced": True, "hand": SHIKO_HAND}},
            ("A", "C", "D"),
        ),
    ],
    ids=["four-players", "five-players"],
)
def test_forced_out_with_four_and_five_players(players, dropped, active):
    r = settle(
        players=players,
        dropped=dropped,
        piles=dict(zip(active, [PILE_A, PILE_B, PILE_C], strict=True)),
    )
    check_books(r)
    forced = next(p for p, d in dropped.items() if d.get("forced"))
    # Half of shiko (60 mon) + 2 uncounted ribbons × 3 mon, paid by the two non-dealer players.
    assert by_reason(r, "forced-out") == {forced: 66, active[1]: -33, active[2]: -33}
