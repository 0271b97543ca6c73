"""A Go-Stop evening: the nagari carry and the dealer carried by the referee (GOSTOP-RULES.md:68,104)."""

from __future__ import annotations

from gs_cases import BIRDS, DRY, HONGDAN, PI, RAIN, game

from referee import api


def test_three_rounds_with_a_nagari_carried():
    """Round 1: nagari (B's go never paid off), A deals again, ×2 next.  Round 2: B stops on samgwang
    3 ×2 nagari = 6 from A and C (both hold a bright), B deals next.  Round 3: C stops on godori 5,
    ×1 again: A 5 and B 5 (B holds no bright, but godori is no bright line: no 광박)."""
    rounds = [
        {"piles": {"A": PI[:4], "B": DRY[:2]}, "gos": {"B": 1}, "stopped_by": None},
        {"piles": {"B": DRY[:3], "A": [RAIN], "C": [DRY[3]]}, "stopped_by": "B"},
        {"piles": {"C": BIRDS, "A": [RAIN], "B": PI[:2]}, "stopped_by": "C"},
    ]
    g = game(rounds)
    outcomes = [(r.dealer, r.result.outcome, r.result.nagari_carry) for r in g.rounds]
    assert outcomes == [("A", "nagari", 1), ("A", "stopped", 2), ("B", "stopped", 1)]
    assert [dict(r.totals) for r in g.rounds] == [
        {"A": 0, "B": 0, "C": 0},
        {"A": -600, "B": 1200, "C": -600},
        {"A": -1100, "B": 700, "C": 400},
    ]
    assert (g.next_dealer, g.next_nagari_carry) == ("C", 1)


def test_nagaris_in_a_row_double_to_the_cap():
    """GOSTOP-RULES.md:68: four nagaris carry ×2, ×4, ×8, ×8 (cap 8)."""
    g = game([{"stopped_by": None}] * 4)
    assert [r.result.nagari_carry for r in g.rounds] == [1, 2, 4, 8]
    assert g.next_nagari_carry == 8


def test_matgo_game_json():
    """The game JSON: rounds with round, dealer, totals; money totals; next dealer and carry."""
    out = api.game_json({"ruleset": "matgo", "players": ["Jun", "Min"], "dealer": "Min",
                         "rounds": [{"piles": {"Jun": BIRDS + HONGDAN, "Min": [RAIN, *PI[:8]]}, "stopped_by": "Jun",
                                     "gos": {"Min": 1}}]})
    assert out["totals"] == {"Jun": 1600, "Min": -1600}
    assert (out["rounds"][0]["round"], out["rounds"][0]["dealer"], out["next_dealer"]) == (1, "Min", "Jun")
    assert out["rounds"][0]["totals"] == out["totals"]
