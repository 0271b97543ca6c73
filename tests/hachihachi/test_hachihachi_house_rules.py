"""House rules no preset plays, each off by default and tested from its example (issue 12, item 3).

- a. Liability (法度), option ``liable_thrower``: FudaWiki "Dekiyaku", the liability note.
- b. Mukou-sanbon (向三本), a teyaku that reads the field: ja.wikipedia 八八 "手役", 2 kan.
- d. Rounding at 10 mon per kan: RULES.md "Rounding", docs/HACHIHACHI.md "Rounding".

Amounts are mon; 1 kan = 12 mon unless the case says 10.
"""

import json

import pytest
from hh_cases import PILES, by_reason, check_books, rules, settle

from referee.cli import main
from referee.errors import RefereeError
from referee.hachihachi.money import shares

SHIKO = ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"]
GOKOU = [*SHIKO, "willow-rain-man"]
AKATAN = ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon"]
LIABLE = {"liable_thrower": True}


# ---- a. liability ----------------------------------------------------------------------


def test_liability_example_each_opponent_basis():
    # Issue 12: each-opponent basis, ×1.  A stops with Four Brights (10 kan = 120 mon from each),
    # and C threw the phoenix from hand: C pays both shares alone.  A +240, C -240, B 0.
    r = settle(
        "hachihachi-fudawiki", LIABLE, multiplier=1, piles={"A": SHIKO, "B": [], "C": []},
        dekiyaku=[{"player": "A", "yaku": "shiko", "decision": "stop", "liable": "C"}],
    )
    check_books(r)
    assert r.net == {"A": 240, "B": 0, "C": -240}
    assert any("C threw the card" in line.en and "liability" in line.en for line in r.lines)


@pytest.mark.parametrize(
    ("preset", "options", "net"),
    [
        # Seed 003's split basis: the 10 kan (120 mon) that B and C would share, C pays alone.
        ("hachihachi", LIABLE, {"A": 120, "B": 0, "C": -120}),
        # Option off (both presets' default): the thrower is not singled out.
        ("hachihachi-fudawiki", {}, {"A": 240, "B": -120, "C": -120}),
        ("hachihachi", {}, {"A": 120, "B": -60, "C": -60}),
    ],
    ids=["split-basis", "off-each", "off-split"],
)
def test_liability_by_basis_and_off_by_default(preset, options, net):
    r = settle(
        preset, options, multiplier=1, piles={"A": SHIKO, "B": [], "C": []},
        dekiyaku=[{"player": "A", "yaku": "shiko", "decision": "stop", "liable": "C"}],
    )
    check_books(r)
    assert r.net == net
    if not options:
        assert any("house rule “Liability: who throws" in w for w in r.warnings)


def test_liability_covers_only_the_dekiyaku_the_card_completed():
    # A made akatan (7 kan: 84 from each) and continued, then completed shiko (10 kan) with the phoenix C
    # threw: C pays shiko's 240 alone, akatan is paid as usual.
    r = settle(
        "hachihachi-fudawiki", LIABLE, multiplier=1, piles={"A": SHIKO + AKATAN, "B": [], "C": []},
        dekiyaku=[
            {"player": "A", "yaku": "akatan", "decision": "continue"},
            {"player": "A", "yaku": "shiko", "decision": "stop", "liable": "C"},
        ],
    )
    check_books(r)
    assert r.net == {"A": 168 + 240, "B": -84, "C": -84 - 240}


def test_liability_for_an_upgrade_covers_what_it_adds():
    # shiko (10 kan, paid as usual), then C's thrown rain man makes gokou (12 kan, which replaces shiko):
    # C alone pays the 2 kan gokou adds, for both payers: 2 × 24 = 48.
    r = settle(
        "hachihachi-fudawiki", LIABLE, multiplier=1, piles={"A": GOKOU, "B": [], "C": []},
        dekiyaku=[
            {"player": "A", "yaku": "shiko", "decision": "continue"},
            {"player": "A", "yaku": "gokou", "decision": "stop", "liable": "C"},
        ],
    )
    check_books(r)
    assert r.net == {"A": 240 + 48, "B": -120, "C": -120 - 48}


def test_liability_comes_before_hatto():
    # C was hatto (B would pay alone), but B is named liable: B pays alone either way, here 2 × 120.
    r = settle(
        "hachihachi-fudawiki", LIABLE, multiplier=1, piles={"A": SHIKO, "B": [], "C": []},
        dekiyaku=[{"player": "A", "yaku": "shiko", "decision": "stop", "liable": "B"}], hatto=["C"],
    )
    assert r.net == {"A": 240, "B": -240, "C": 0}


def test_liability_comes_before_an_overtaken_continue():
    # Hand-computed by the rules QA of issue 12 (docs/HACHIHACHI.md "Liability": it comes before an
    # overtaken continue).  B continued on akatan, then A stopped with shiko (10 kan = 120 mon under
    # split) completed by C's card from hand: B's akatan is void, and C pays the 120 alone, not B.
    r = settle(
        options=LIABLE, multiplier=1, piles={"A": SHIKO, "B": AKATAN, "C": []},
        dekiyaku=[{"player": "B", "yaku": "akatan", "decision": "continue"},
                  {"player": "A", "yaku": "shiko", "decision": "stop", "liable": "C"}],
    )
    check_books(r)
    assert r.net == {"A": 120, "B": 0, "C": -120}


def test_liability_needs_a_stop():
    # Hands exhausted after continue: half from each, as without liability, and a warning.
    r = settle(
        "hachihachi-fudawiki", LIABLE, multiplier=1, piles={"A": SHIKO, "B": [], "C": []},
        dekiyaku=[{"player": "A", "yaku": "shiko", "decision": "continue", "liable": "C"}],
    )
    assert r.net == {"A": 120, "B": -60, "C": -60}
    assert any("only applies when a player stops" in w for w in r.warnings)


@pytest.mark.parametrize(
    ("liable", "players", "dropped", "code", "match"),
    [
        ("A", ["A", "B", "C"], {}, "bad-decision", "liable player is an opponent"),
        ("D", ["A", "B", "C", "D"], {"D": {"forced": True}}, "bad-decision", "liable player is an opponent"),
        ("Z", ["A", "B", "C"], {}, "unknown-player", "liable player 'Z' is not seated"),
    ],
    ids=["the-maker", "dropped-out", "not-seated"],
)
def test_a_liable_player_must_be_an_active_opponent(liable, players, dropped, code, match):
    with pytest.raises(RefereeError, match=match) as e:
        settle(
            "hachihachi-fudawiki", LIABLE, players=players, dropped=dropped, multiplier=1,
            piles={"A": SHIKO, "B": [], "C": []},
            dekiyaku=[{"player": "A", "yaku": "shiko", "decision": "stop", "liable": liable}],
        )
    assert e.value.code == code


# ---- b. mukou-sanbon ---------------------------------------------------------------------

# Three maple cards on the dealt field (no bright: ×1); A holds the fourth.
FIELD_MAPLES = ["maple-deer", "maple-blue-ribbon", "maple-chaff-1", "wisteria-ribbon", "iris-ribbon",
                "peony-blue-ribbon"]
# Seven months, 3 brights, 3 animals, 1 chaff: no other teyaku.
HAND_FOURTH_MAPLE = ["maple-chaff-2", "pine-crane", "plum-bush-warbler", "cherry-curtain", "pampas-moon",
                     "chrysanthemum-sake-cup", "bush-clover-boar"]


@pytest.mark.parametrize("preset", ["hachihachi", "hachihachi-fudawiki"])
def test_mukou_sanbon_is_off_in_both_presets(preset):
    assert "mukou-sanbon" not in {t.id for t in rules(preset).teyaku}
    r = settle(preset, piles=PILES, field=FIELD_MAPLES, hands={"A": HAND_FOURTH_MAPLE})
    assert r.teyaku["A"] == ()


@pytest.mark.parametrize(
    ("preset", "teyaku"),
    [
        # split: A gains 2 kan = 24 mon, 12 from each of B and C.
        ("hachihachi", {"A": 24, "B": -12, "C": -12}),
        # each: 24 from each.
        ("hachihachi-fudawiki", {"A": 48, "B": -24, "C": -24}),
    ],
    ids=["split", "each"],
)
def test_mukou_sanbon_turned_on_is_2_kan(preset, teyaku):
    r = settle(preset, {"teyaku.mukou-sanbon.kan": 2}, piles=PILES, field=FIELD_MAPLES,
               hands={"A": HAND_FOURTH_MAPLE})
    check_books(r)
    assert [(h.teyaku.id, h.kan, h.cards) for h in r.teyaku["A"]] == [("mukou-sanbon", 2, ("maple-chaff-2",))]
    assert by_reason(r, "teyaku") == teyaku
    assert any("Facing Triplet" in line.en and "Maple (紅葉, month 10)" in line.en for line in r.lines)


def test_mukou_sanbon_needs_three_on_the_field():
    field = ["maple-deer", "maple-blue-ribbon", "wisteria-chaff-1", "wisteria-ribbon", "iris-ribbon",
             "peony-blue-ribbon"]  # two maples only
    r = settle(options={"teyaku.mukou-sanbon.kan": 2}, piles=PILES, field=field, hands={"A": HAND_FOURTH_MAPLE})
    assert r.teyaku["A"] == ()


def test_mukou_sanbon_in_a_dropped_hand_is_paid_half():
    # Hand-computed by the rules QA of issue 12: D drops out first holding the fourth maple.  Half of
    # 2 kan = 12 mon, shared by the three active players (4 each); D's 1 kan fee (12) goes to the winner.
    r = settle(
        options={"teyaku.mukou-sanbon.kan": 2}, players=["A", "D", "B", "C"], piles=PILES, field=FIELD_MAPLES,
        dropped={"D": {"order": 1, "hand": HAND_FOURTH_MAPLE}},
    )
    check_books(r)
    assert by_reason(r, "dropout-hand") == {"A": -4, "D": 12, "B": -4, "C": -4}


def test_mukou_sanbon_without_the_field_is_not_checked_and_says_so():
    r = settle(options={"teyaku.mukou-sanbon.kan": 2}, piles=PILES, multiplier=1, hands={"A": HAND_FOURTH_MAPLE})
    assert r.teyaku["A"] == ()
    assert any("mukou-sanbon" in w and "field" in w for w in r.warnings)


def test_mukou_sanbon_option_on_the_command_line(tmp_path, capsys):
    f = tmp_path / "round.json"
    f.write_text(json.dumps({"ruleset": "hachihachi", "players": ["A", "B", "C"], "field": FIELD_MAPLES,
                             "hands": {"A": HAND_FOURTH_MAPLE}, "piles": PILES}), encoding="utf-8")
    assert main(["score", str(f), "--option", "teyaku.mukou-sanbon.kan=2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["teyaku"]["A"][0]["id"] == "mukou-sanbon"
    # Cards A +5, B +5, C -10 (93, 93, 78), and mukou-sanbon 24 from B and C.
    assert out["net"] == {"A": 5 + 24, "B": 5 - 12, "C": -10 - 12}


def test_a_negative_teyaku_value_is_refused():
    with pytest.raises(RefereeError, match=r"teyaku\.mukou-sanbon\.kan' is -2; expected 0 \(off\) or more"):
        rules(**{"teyaku.mukou-sanbon.kan": -2})


# ---- d. rounding at 10 mon per kan -----------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "payers", "share", "received"),
    [
        (20, 3, 7, 21),   # 2 kan at 10 shared by 3: 6.67 -> 7 each; the receiver gets 21
        (10, 3, 3, 9),    # 1 kan at 10 shared by 3: 3.33 -> 3 each; the receiver gets 9
        (35, 2, 18, 36),  # half of 7 kan at 10 shared by 2: 17.5 -> 18 each (half away from zero)
        (5, 2, 3, 6),     # half a kan at 10 shared by 2: 2.5 -> 3 each
        (24, 3, 8, 24),   # 2 kan at 12 shared by 3: exact
        (42, 2, 21, 42),  # half of 7 kan at 12 shared by 2: exact
    ],
    ids=["2-kan-by-3", "1-kan-by-3", "half-7-kan-by-2", "half-kan-by-2", "12-mon-2-kan-by-3", "12-mon-half-7-by-2"],
)
def test_each_share_is_rounded_to_whole_mon_half_away_from_zero(total, payers, share, received):
    assert shares(total, payers) == share
    assert share * payers == received


def test_ten_mon_rounding_in_a_round_two_kan_shared_by_three():
    # D drops out with karasu (4 kan): half, 2 kan = 20 mon, shared by the 3 active players.
    r = settle(options={"mon_per_kan": 10}, players=["A", "D", "B", "C"],
               dropped={"D": {"order": 1, "hand": ["pine-chaff-1", "plum-chaff-1", "cherry-chaff-1",
                                                   "wisteria-chaff-1", "iris-chaff-1", "peony-chaff-1",
                                                   "maple-chaff-1"]}},
               piles=PILES)
    check_books(r)
    assert by_reason(r, "dropout-hand") == {"D": 21, "A": -7, "B": -7, "C": -7}


def test_ten_mon_rounding_in_a_round_half_a_mon():
    # A made akatan (7 kan = 70 mon at 10), continued, and the hands ran out: half, 35 mon, split
    # between B and C: 17.5 -> 18 each, so A gets 36 and the round still sums to zero.
    r = settle(options={"mon_per_kan": 10}, multiplier=1, piles={"A": AKATAN, "B": [], "C": []},
               dekiyaku=[{"player": "A", "yaku": "akatan", "decision": "continue"}])
    check_books(r)
    assert r.net == {"A": 36, "B": -18, "C": -18}
