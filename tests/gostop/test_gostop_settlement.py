"""Go, stop and every settlement factor (GOSTOP-RULES.md "Go and stop", "Settlement factors",
"Instant wins, ppeok, nagari", "Players and money"), each case worked out by hand in its comment.
Stake: 100 per point unless said."""

from __future__ import annotations

import pytest
from gs_cases import ANIMALS, BIRDS, CUP, DRY, HONGDAN, PI, RAIN, SSANGPI, check_sums, cite, score

from referee.errors import RefereeError

#: A stops on samgwang (3); B holds the rain gwang and C a bright: no gwang-bak, no pi line, no pi-bak.
PLAIN = {"A": DRY[:3], "B": [RAIN], "C": [DRY[3]]}


def paid(res, loser: str) -> int:
    """Points ``loser`` pays this round (their own share or more)."""
    return sum(p.points for p in res.payments if p.payer == loser)


GO_CASES = [
    # (fields, options, points each loser pays), id
    (({"gos": {"A": 2}}, {}, 5), cite(37) + " 2 gos: 3 + 2 = 5"),
    (({"gos": {"A": 3}}, {}, 12), cite(39) + " 3 gos: (3 + 3) ×2 = 12"),
    (({"gos": {"A": 4}}, {}, 28), cite(39) + " 4 gos: (3 + 4) ×4 = 28"),
    (({"gos": {"A": 5}}, {}, 64), cite(39) + " 5 gos: (3 + 5) ×8 = 64"),
    (({"gos": {"A": 4}}, {"go_factor": "linear"}, 21), cite(39) + " linear, 4 gos: (3 + 4) ×3 = 21"),
    (({"gos": {"A": 3}}, {"go_points": "first-two"}, 10), cite(38) + " first-two, 3 gos: (3 + 2) ×2 = 10"),
    (({"gos": {"A": 1}}, {"go_points": "first-two"}, 4), cite(38) + " first-two, 1 go: 3 + 1 = 4"),
    (({"gos": {"B": 1}, "dokbak": None, "last_go": None}, {"dokbak": "double"}, None),
     cite(37) + " a loser's go adds nothing to A"),
    (({"shakes": {"A": 1}, "bombs": {"A": 1}}, {}, 12), cite(49) + " shake ×2, bomb ×2: 3 ×2 ×2 = 12"),
    (({"shakes": {"A": 2}}, {}, 12), cite(49) + " two shakes: 3 ×2 ×2 = 12"),
    (({"bombs": {"A": 1}}, {"bomb_doubles": False}, 3), cite(50) + " bomb_doubles false: 3"),
    (({"shakes": {"B": 1}}, {}, 3), cite(49) + " only the winner's shakes double"),
    (({"nagari_carry": 4}, {}, 12), cite(52) + " nagari carry ×4: 12"),
    (({"gos": {"A": 3}, "shakes": {"A": 1}, "nagari_carry": 2}, {}, 48),
     cite(60) + " (3+3) ×2 go ×2 shake ×2 nagari = 48"),
]


@pytest.mark.parametrize(("fields", "options", "each"), [c for c, _ in GO_CASES], ids=[i for _, i in GO_CASES])
def test_go_and_factors_on_every_loser(fields, options, each):
    res = score(PLAIN, options=options, **fields)
    check_sums(res)
    if each is None:  # B's own go: B pays ×2 (dokbak double), C pays the plain 3
        assert (paid(res, "B"), paid(res, "C")) == (6, 3)
        return
    assert (paid(res, "B"), paid(res, "C")) == (each, each)
    assert res.money["A"] == 2 * each * 100
    gos = fields.get("gos", {}).get("A", 0)
    assert res.score == 3 + (min(gos, 2) if options.get("go_points") == "first-two" else gos)


def test_factor_lines_add_what_they_double():
    """GOSTOP-RULES.md:44 each factor is its own line worth what it adds: 3 gos on base 3 are
    +3 points (300), ×2 go adds 600; the share is 1200."""
    res = score(PLAIN, gos={"A": 3})
    b = [(x.code, x.points) for x in res.player("B").lines]
    assert b == [("samgwang", -300), ("go-points", -300), ("go", -600)]
    assert res.multiplier == {"B": 2, "C": 2}


def test_meong_tta_doubles_for_seven_animals():
    """GOSTOP-RULES.md:51: A's 7 animals (no godori: two birds) score yeol 1 + 2 = 3, ×2 멍따 = 6 each."""
    piles = {"A": ANIMALS + BIRDS[:2], "B": [RAIN], "C": [DRY[0]]}
    res = score(piles)
    assert (paid(res, "B"), paid(res, "C")) == (6, 6)
    assert any(x.code == "meong-tta" and "7 animals" in x.en for x in res.player("B").lines)
    assert paid(score(piles, options={"meongbak": "off"}), "B") == 3  # GOSTOP-RULES.md:59 off


def test_offline_meong_bak_on_a_loser_without_animals():
    """GOSTOP-RULES.md:59 loser-none: A's godori (5); B holds no animal: ×2 = 10; C holds one: 5."""
    piles = {"A": BIRDS, "B": [RAIN], "C": [ANIMALS[0]]}
    res = score(piles, options={"meongbak": "loser-none"})
    assert (paid(res, "B"), paid(res, "C")) == (10, 5)
    default = score(piles)
    assert (paid(default, "B"), paid(default, "C")) == (5, 5)


PIBAK = {"A": DRY[:3] + PI[:10], "B": [RAIN, *PI[10:15]], "C": []}


def test_pi_bak_and_gwang_bak():
    """GOSTOP-RULES.md:53-54,57-58: A samgwang 3 + pi 1 = 4.  B holds 5 pi: ×2 피박 = 8.  C holds
    nothing: ×2 광박 (no bright), no 피박 (no pi at all is exempt) = 8."""
    res = score(PIBAK)
    check_sums(res)
    assert (paid(res, "B"), paid(res, "C")) == (8, 8)
    assert "×2 피박: B holds 5 pi" in [x.en for x in res.player("B").lines]
    assert "×2 광박: C holds no bright" in [x.en for x in res.player("C").lines]
    assert res.multiplier == {"B": 2, "C": 2}


def test_pi_bak_without_the_zero_exemption():
    """GOSTOP-RULES.md:58 pibak_zero_exempt false: C with no pi is pi-bak too: 4 ×2 ×2 = 16."""
    assert paid(score(PIBAK, options={"pibak_zero_exempt": False}), "C") == 16


def test_pi_bak_limit_and_the_winners_pi_line():
    """GOSTOP-RULES.md:53,57: B with 6 pi is not pi-bak at pibak_max 5 (4), is at 7 (8); without
    A's pi line nobody is pi-bak (A base 3: B pays 3)."""
    six = {"A": DRY[:3] + PI[:10], "B": [RAIN, *PI[10:16]], "C": [DRY[3]]}
    assert paid(score(six), "B") == 4
    assert paid(score(six, options={"pibak_max": 7}), "B") == 8
    assert paid(score({"A": DRY[:3], "B": [RAIN, *PI[10:15]], "C": [DRY[3]]}), "B") == 3


def test_gwang_bak_after_bi_samgwang():
    """GOSTOP-RULES.md:54 bi-samgwang counts: A 2 brights + rain = 2 points... below 3, so add
    hongdan: 2 + 3 = 5; C holds no bright: 10; B holds one: 5."""
    res = score({"A": [*DRY[:2], RAIN, *HONGDAN], "B": [DRY[2]], "C": []})
    assert (paid(res, "B"), paid(res, "C")) == (5, 10)


def test_matgo_go_bak():
    """GOSTOP-RULES.md:41,55,78 Matgo: A godori 5 + hongdan 3 = 8 (stop at 7); B called go and lost:
    ×2 고박 = 16 points, 1600."""
    res = score({"A": BIRDS + HONGDAN, "B": [RAIN, *PI[:8]]}, preset="matgo", gos={"B": 1})
    check_sums(res)
    assert res.money == {"A": 1600, "B": -1600}
    assert [x.code for x in res.player("B").lines][-1] == "go-bak"


def test_matgo_pi_bak_at_seven():
    """GOSTOP-RULES.md:57,78 Matgo pibak_max 7: A 5 + 3 + pi 1 = 9; B with 7 pi: ×2 = 18."""
    res = score({"A": BIRDS + HONGDAN + PI[:10], "B": [RAIN, *PI[10:17]]}, preset="matgo")
    assert res.money == {"A": 1800, "B": -1800}


DOKBAK = {"A": DRY[:3], "B": [RAIN], "C": []}  # B's share 3, C's 3 ×2 광박 = 6


@pytest.mark.parametrize(("mode", "money"), [
    ("pays-all", {"A": 900, "B": -900, "C": 0}),          # B pays 3 + 6
    ("pays-all-double", {"A": 1200, "B": -1200, "C": 0}),  # B pays 3 ×2 + 6
    ("double", {"A": 1200, "B": -600, "C": -600}),         # no transfer, B's own 3 ×2
], ids=[cite(74) + " pays-all", cite(74) + " pays-all-double", cite(74) + " double"])
def test_dokbak(mode, money):
    res = score(DOKBAK, gos={"B": 1}, options={"dokbak": mode})
    check_sums(res)
    assert res.money == money


def test_dokbak_payments_name_the_share():
    """GOSTOP-RULES.md:74: B pays its own share (round) and C's (dokbak); C's lines show its share and the transfer."""
    res = score(DOKBAK, gos={"B": 1})
    assert [(p.payer, p.points, p.reason) for p in res.payments] == [("B", 3, "round"), ("B", 6, "dokbak")]
    assert [x.code for x in res.player("C").lines] == ["samgwang", "gwang-bak", "dokbak"]


def test_both_losers_called_go_last_go_pays():
    """GOSTOP-RULES.md:74: B and C called go, C last: C pays 3 + 6."""
    res = score(DOKBAK, gos={"B": 1, "C": 2}, last_go="C")
    assert res.money == {"A": 900, "B": 0, "C": -900}


def test_dokbak_winner_lines_name_who_pays():
    """QA: under dokbak the winner's lines read "from C: ×2 광박 ..." while B pays C's share
    (GOSTOP-RULES.md:74); each line names the payer, and whose share it is."""
    res = score(DOKBAK, gos={"B": 1})
    lines = [x.en for x in res.player("A").lines]
    assert not [x for x in lines if x.startswith("from C")]
    assert "from B, paying C's share (독박 dokbak): ×2 광박: C holds no bright" in lines
    assert [x.startswith("from B: ") for x in lines].count(True) == 1  # B's own share: samgwang


def test_declared_dokbak_and_go_bak_wins_over_it():
    """GOSTOP-RULES.md:74: C fed the winner (dokbak declared): C pays 3 + 6; but if B called go, B pays."""
    assert score(DOKBAK, dokbak="C").money == {"A": 900, "B": 0, "C": -900}
    res = score(DOKBAK, dokbak="C", gos={"B": 1})
    assert res.money == {"A": 900, "B": -900, "C": 0}
    assert any("go-bak wins" in w for w in res.warnings)


def test_stake_is_an_option():
    """GOSTOP-RULES.md:73 money is points × point_value: 3 points at 500 = 1500 from each loser."""
    assert score(PLAIN, options={"point_value": 500}).money == {"A": 3000, "B": -1500, "C": -1500}


CHONGTONG = {"type": "chongtong", "player": "A", "cards": ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1",
                                                          "pine-chaff-2"]}


def test_chongtong():
    """GOSTOP-RULES.md:64,67: each other player pays chongtong_points 10; with a nagari carry ×2, 20."""
    res = score({}, stopped_by=None, instant=CHONGTONG)
    check_sums(res)
    assert (res.outcome, res.money) == ("chongtong", {"A": 2000, "B": -1000, "C": -1000})
    assert score({}, stopped_by=None, instant=CHONGTONG, nagari_carry=2).money["A"] == 4000
    pmang = score({}, preset="matgo-pmang", stopped_by=None, instant=CHONGTONG)
    assert pmang.money == {"A": 700, "B": -700}  # GOSTOP-RULES.md:79 chongtong 7


def test_ppeok_payouts_stand_in_a_nagari():
    """GOSTOP-RULES.md:65,68: B's ppeok on turns 1 and 2 pay 3 + 6 = 9 from A and from C; nobody
    stopped (nagari): nothing else is paid, the dealer stays, the next round is ×2."""
    res = score({"A": DRY[:3], "B": PI[:4]}, stopped_by=None, ppeok={"B": [1, 2]})
    check_sums(res)
    assert res.outcome == "nagari"
    assert res.money == {"A": -900, "B": 1800, "C": -900}
    assert (res.next_nagari_carry, res.next_dealer) == (2, "A")
    assert score({}, stopped_by=None, ppeok={"B": [2]}).money == {"A": 0, "B": 0, "C": 0}  # not from turn 1
    assert score({}, stopped_by=None, ppeok={"B": [1, 3]}).money["B"] == 600  # the run is turn 1 only
    assert score({}, preset="matgo-pmang", stopped_by=None, ppeok={"B": [1, 2]}).money["B"] == 700  # :79 [7]


# Bug (phone walk-through): B's nagari ppeok on turns 1 and 2 was explained "ppeok from the first turn", as if
# only turn 1 were entered.  Each ppeok line says the turns entered, those paid when fewer, and each payout.
@pytest.mark.parametrize(
    ("ppeok", "options", "a_reads", "b_reads"),
    [
        # B's turns  house rule          A's line (a payer)                     B's line from A
        ([1],       {},                  "뻑: B's ppeok on turn 1 (3점)",         "뻑: from A, ppeok on turn 1 (3점)"),
        ([1, 2],    {},                  "뻑: B's ppeok on turns 1 and 2 (3 + 6 = 9점)",
                                         "뻑: from A, ppeok on turns 1 and 2 (3 + 6 = 9점)"),
        ([1, 3],    {},                  "뻑: B's ppeok on turns 1 and 3, paid for turn 1, the unbroken run from "
                                         "the first turn (3점)", None),
        ([1, 2],    {"ppeok_payouts": [5]}, "뻑: B's ppeok on turns 1 and 2 (5 + 0 = 5점)", None),
    ],
    ids=[cite(65) + " turn 1", cite(65) + " turns 1 and 2", cite(65) + " turn 3 breaks the run",
         "payouts for the first only"],
)
def test_a_ppeok_line_says_the_turns_entered(ppeok, options, a_reads, b_reads):
    res = score({}, stopped_by=None, ppeok={"B": ppeok}, options=options)
    check_sums(res)
    (a_line,) = [x for x in res.player("A").lines if x.code == "ppeok-payout"]
    assert a_line.en == a_reads
    if b_reads:
        assert [x.en for x in res.player("B").lines if x.code == "ppeok-payout"] == [b_reads, b_reads.replace(
            "from A", "from C")]


def test_ppeok_is_never_multiplied():
    """GOSTOP-RULES.md:65: A stops on 3 with ×4 nagari (12 each) and B's first-turn ppeok (3 from A and C)."""
    res = score(PLAIN, ppeok={"B": [1]}, nagari_carry=4)
    assert res.money == {"A": 2400 - 300, "B": -1200 + 600, "C": -1200 - 300}


def test_three_ppeok():
    """GOSTOP-RULES.md:66-67: B's three ppeok from turn 1 end the round: 7 (3뻑) + 3 + 6 + 12 = 28
    from each other player; B deals next."""
    res = score({"A": DRY[:3]}, stopped_by=None, ppeok={"B": [1, 2, 3]})
    check_sums(res)
    assert (res.outcome, res.winner, res.next_dealer) == ("three-ppeok", "B", "B")
    assert res.money == {"A": -2800, "B": 5600, "C": -2800}


@pytest.mark.parametrize(("carry", "cap", "after"), [(1, 8, 2), (2, 8, 4), (4, 8, 8), (8, 8, 8), (8, None, 16)],
                         ids=[cite(68) + f" ×{c} cap {k}" for c, k, _ in [(1, 8, 0), (2, 8, 0), (4, 8, 0), (8, 8, 0),
                                                                       (8, None, 0)]])
def test_nagari_doubles_up_to_the_cap(carry, cap, after):
    res = score({}, stopped_by=None, nagari_carry=carry, options={"nagari_cap": cap})
    assert (res.outcome, res.next_nagari_carry, res.money["A"]) == ("nagari", after, 0)


def test_sake_cup_goes_where_the_winner_earns_most():
    """GOSTOP-RULES.md:13: A's cup as an animal: samgwang 3; B 3, C ×2 광박 6 = 900.  As a pi: 9 + 2 =
    11 pi, pi 2, base 5; B (6 pi) 5, C 10 = 1500.  The referee picks pi; told animal, 900."""
    piles = {"A": DRY[:3] + PI[:9] + [CUP], "B": [RAIN, *PI[9:15]], "C": PI[15:21]}
    res = score(piles)
    assert (res.player("A").sake_cup, res.money["A"]) == ("pi", 1500)
    told = score(piles, sake_cup={"A": "animal"})
    assert (told.player("A").sake_cup, told.money["A"]) == ("animal", 900)


def test_a_losers_sake_cup_goes_where_it_costs_least():
    """GOSTOP-RULES.md:13: B holds the cup and 5 pi; as an animal B is pi-bak (4 ×2 = 8), as a pi B holds
    7 pi and pays 4.  The referee picks pi."""
    res = score({"A": DRY[:3] + PI[:10], "B": [RAIN, CUP, *PI[10:15]], "C": [DRY[3], *PI[15:21]]})
    assert (res.player("B").sake_cup, paid(res, "B")) == ("pi", 4)


def test_the_cup_as_pi_lifts_a_stopper_to_the_stop_points():
    """GOSTOP-RULES.md:13,33 (docs/GOSTOP.md): A's bi-samgwang 2 is below 3; with the cup as a pi A holds
    9 + 2 = 11 pi (2 points): base 4, so the referee counts the cup as a pi.  B 4, C ×2 광박 8."""
    res = score({"A": [*DRY[:2], RAIN, CUP, *PI[:9]], "B": [DRY[2], *PI[9:15]], "C": PI[15:21]})
    assert (res.player("A").sake_cup, res.player("A").base) == ("pi", 4)
    assert (paid(res, "B"), paid(res, "C")) == (4, 8)


def test_three_ppeok_takes_back_the_piles_lines():
    """docs/GOSTOP.md "Three ppeok with piles": A's samgwang is shown, then not scored."""
    res = score({"A": DRY[:3]}, stopped_by=None, ppeok={"B": [2, 4, 6]})
    a = [(x.code, x.points) for x in res.player("A").lines]
    assert a == [("samgwang", 300), ("not-scored", -300), ("three-ppeok", -700)]  # no run from turn 1
    check_sums(res)


def test_option_overrides_each_change_what_they_name():
    """Every option a house file can set, hand-computed (GOSTOP-RULES.md lines cited inline)."""
    # :66 three_ppeok_points 10 (Netmarble): 10 + 3 + 6 + 12 = 31 from each other player.
    assert score({}, stopped_by=None, ppeok={"B": [1, 2, 3]}, options={"three_ppeok_points": 10}).money["B"] == 6200
    # :65 ppeok_payouts [] (off): a first-turn ppeok pays nothing.
    assert score({}, stopped_by=None, ppeok={"B": [1]}, options={"ppeok_payouts": []}).money["B"] == 0
    # :11 ssangpi: a house that also doubles pine-chaff-1 counts 9 chaff as 10 pi.
    res = score({"A": PI[:9]}, stopped_by=None, options={"ssangpi": [*SSANGPI, "pine-chaff-1"]})
    assert res.player("A").pi == 10
    # :9 godori: a house list of birds makes godori from the cards it names.
    res = score({"A": ANIMALS[:3]}, stopped_by=None, options={"godori": ANIMALS[:3]})
    assert [y.code for y in res.player("A").points] == ["godori"]
    # :64 chongtong_points 7.
    assert score({}, stopped_by=None, instant=CHONGTONG, options={"chongtong_points": 7}).money["A"] == 1400
    # :33 stop_points 5: samgwang 3 is no longer enough.
    with pytest.raises(RefereeError, match="stopping takes 5"):
        score(PLAIN, options={"stop_points": 5})
