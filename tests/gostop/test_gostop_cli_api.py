"""Go-Stop through the public contract: the CLI (score, game, rulesets), the JSON API and the
examples in referee/examples (docs/GOSTOP.md "Worked example")."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from referee import api
from referee.cli import main
from referee.errors import RefereeError

EXAMPLES = resources.files("referee").joinpath("examples")


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_score_the_worked_example(capsys):
    """docs/GOSTOP.md: Jiwoo 3 + 5 + 1 = 9, 3 gos +3 = 12, ×2 go ×2 shake ×2 nagari = 96 from Seoyeon;
    Minho ×2 피박 = 192; at 100 a point Jiwoo takes 28,800."""
    code, out, _ = run(["score", str(EXAMPLES / "gostop-round.json")], capsys)
    res = json.loads(out)
    assert code == 0
    assert res["money"] == {"Jiwoo": 28800, "Minho": -19200, "Seoyeon": -9600}
    assert (res["score"], res["multiplier"]) == (12, {"Minho": 16, "Seoyeon": 8})
    for player, v in res["players"].items():
        lines = [x for x in res["explanation"] if x["player"] == player]
        assert sum(x["points"] for x in lines) == v["money"]
        assert sum(x["jeom"] for x in lines) == v["net"]


def test_score_text_names_each_factor(capsys):
    code, out, _ = run(["score", str(EXAMPLES / "gostop-round.json"), "--format", "text"], capsys)
    assert code == 0
    assert "×2 피박: Minho holds 4 pi" in out
    assert "×2 3고: Jiwoo called go 3 times" in out


def test_game_example_carries_the_nagari(capsys):
    """docs/GOSTOP.md: round 1 is a nagari (Minho's first-turn ppeok still pays 3 from each), round 2
    is ×2, round 3 Jiwoo's go makes dokbak: Jiwoo pays Seoyeon 6 + Minho's 12."""
    code, out, _ = run(["game", str(EXAMPLES / "gostop-game.json")], capsys)
    g = json.loads(out)
    assert code == 0
    assert [r["nagari_carry"] for r in g["rounds"]] == [1, 2, 1]
    assert [r["dealer"] for r in g["rounds"]] == ["Seoyeon", "Seoyeon", "Jiwoo"]
    assert g["totals"] == {"Jiwoo": 26700, "Minho": -18600, "Seoyeon": -8100}
    assert [p["reason"] for p in g["rounds"][2]["payments"]] == ["round", "dokbak"]


def test_matgo_example(capsys):
    code, out, _ = run(["score", str(EXAMPLES / "matgo-round.json")], capsys)
    assert code == 0
    assert json.loads(out)["money"] == {"Jiwoo": 1800, "Minho": -1800}  # (5 + 1 + 3) ×2 고박


def test_option_on_the_command_line(capsys):
    _, out, _ = run(["score", str(EXAMPLES / "matgo-round.json"), "--option", "point_value=1000"], capsys)
    assert json.loads(out)["money"]["Jiwoo"] == 18000


def test_bad_input_is_one_line_and_status_2(capsys, tmp_path):
    data = json.loads((EXAMPLES / "gostop-round.json").read_text(encoding="utf-8"))
    data["piles"]["Minho"].append("pine-crane")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(["score", str(path)], capsys)
    assert code == 2
    assert err.strip().count("\n") == 0
    assert all(w in err for w in ("pine-crane", "pile Jiwoo", "pile Minho")), err


@pytest.mark.parametrize("preset", ["gostop", "matgo", "matgo-pmang", "gostop-sloperama"])
def test_rulesets_lists_every_option(capsys, preset):
    code, out, _ = run(["rulesets", preset], capsys)
    info = json.loads(out)
    assert code == 0
    assert info["game"] == "gostop"
    keys = {o["key"] for o in info["options"]}
    assert {"stop_points", "pibak_max", "go_factor", "dokbak", "nagari_cap", "ppeok_payouts", "sake_cup"} <= keys
    assert {y["id"] for y in info["yaku"]} >= {"ogwang", "godori", "hongdan", "pi"}


def test_entered_totals_and_a_void_nagari():
    """README "Entered totals": points (점) summing to zero; void is a nagari that doubles the next round."""
    g = api.game_json({"ruleset": "gostop", "players": ["A", "B", "C"], "dealer": "B", "rounds": [
        {"totals": {"A": 0, "B": 0, "C": 0}, "void": True},
        {"totals": {"A": -4, "B": 10, "C": -6}},
        {"piles": {"C": ["pine-crane", "cherry-curtain", "pampas-moon"], "A": ["willow-rain-man"],
                   "B": ["paulownia-phoenix"]}, "stopped_by": "C"},
    ]})
    assert [r["nagari_carry"] for r in g["rounds"]] == [1, 2, 1]
    assert g["totals"] == {"A": -700, "B": 700, "C": 0}  # -400 -300, +1000 -300, -600 +600
    assert g["next_dealer"] == "C"
    with pytest.raises(RefereeError, match="sum to 2"):
        api.score_json({"ruleset": "gostop", "players": ["A", "B", "C"], "totals": {"A": 2, "B": 0, "C": 0}})


def test_rescore_with_another_stake_is_in_money(capsys, tmp_path):
    """What if: the worked evening re-scored with a stake of 500 (every round ×5, in money)."""
    path = tmp_path / "game.json"
    path.write_text((EXAMPLES / "gostop-game.json").read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = run(["rescore", str(path), "--option", "point_value=500"], capsys)
    res = json.loads(out)
    assert code == 0
    assert res["unit"] == "money"
    assert res["after"]["totals"] == {"Jiwoo": 5 * 26700, "Minho": 5 * -18600, "Seoyeon": 5 * -8100}
    assert all(r["changed"] for r in res["rounds"])


def _text(data, capsys, tmp_path) -> str:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(["score", str(path), "--format", "text"], capsys)
    assert code == 0, err
    return out


NAGARI_WITH_PPEOK = {"ruleset": "gostop", "players": ["A", "B", "C"], "dealer": "A", "stopped_by": None,
                     "piles": {"B": ["pine-chaff-1"]}, "ppeok": {"B": [1]}}


def test_nagari_text_is_go_stop_words_and_says_ppeok_stands(capsys, tmp_path):
    """QA: a nagari read "Round void (fuke): nobody scores" (Roppyakken's words, false beside ppeok money)
    and its warning "nobody pays" while B's first-turn ppeok took 3 from A and C; "dealer (oya)"."""
    out = _text(NAGARI_WITH_PPEOK, capsys, tmp_path)
    assert "fuke" not in out
    assert "oya" not in out
    assert "나가리 (nagari): nobody stopped, so no round score is paid (ppeok payouts stand)" in out
    assert "only the ppeok payouts are paid, A deals again" in out
    assert "nobody pays" not in out
    assert "If another round is played, A deals it (선 seon)." in out


@pytest.mark.parametrize("extra", [
    {"instant": {"type": "chongtong", "player": "B", "cards": ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1",
                                                                  "pine-chaff-2"]}},
    {"ppeok": {"B": [1, 2, 3]}},
], ids=["chongtong", "3뻑"])
def test_an_instant_win_ends_the_round_not_the_game(capsys, tmp_path, extra):
    """QA: chongtong and 3뻑 printed "Instant win: chongtong wins the game"; a Go-Stop game has no end of its
    own (GOSTOP-RULES.md:104), so they win the round, and the winner is named."""
    data = {"ruleset": "gostop", "players": ["A", "B", "C"], "piles": {}, **extra}
    out = _text(data, capsys, tmp_path)
    assert "wins the game" not in out
    assert "B wins the round at once (" in out
    assert "the game goes on" in out


def test_other_families_keep_their_words(capsys):
    """Roppyakken's fuke and oya are its own words (the family's defaults)."""
    code, out, _ = run(["score", str(EXAMPLES / "koikoi-round.json"), "--format", "text"], capsys)
    assert code == 0
    assert "If another round is played, Aki deals it (親 oya)." in out


def test_a_round_in_korean_card_names():
    """QA: '비광', '송학', '국진' were "unknown card"; a round typed in hwatu names scores as its ids."""
    by_name = {"ruleset": "gostop", "players": ["A", "B", "C"], "stopped_by": "A",
               "piles": {"A": ["송학 광", "벚꽃 광", "공산 광"], "B": ["비광"], "C": ["국진", "똥광"]}}
    out = api.score_json(by_name)
    assert out["money"] == {"A": 600, "B": -300, "C": -300}  # samgwang 3 from each (both hold a bright)
    assert out["players"]["C"]["sake_cup"] == "animal"


BONUS_ROUND = {"ruleset": "gostop", "players": ["A", "B", "C"], "stopped_by": "A",
               "piles": {"A": ["pine-crane", "cherry-curtain", "pampas-moon"]}}


# Bug: one bonus card given to two players (the web form's "bonus card 1, 2 pi" ticked for A and for B) was
# scored as two cards.  By value, a card in two piles shows as more cards of a value than the deck holds.
@pytest.mark.parametrize(("bonus", "code", "says"), [
    ({"A": [{"card": 1}], "B": [{"card": 1}]}, "duplicate-card",
     'bonus card 1 (2 pi) is in both "bonus" of A and "bonus" of B'),
    ({"A": [3], "B": [3]}, "too-many-cards", '"bonus" has 2 bonus cards worth 3 pi (A 1, B 1)'),
], ids=["a card by its number", "the deck's one 3-pi card by value"])
def test_one_bonus_card_in_two_piles_is_refused_by_the_cli_and_the_api(capsys, tmp_path, bonus, code, says):
    path = tmp_path / "round.json"
    path.write_text(json.dumps({**BONUS_ROUND, "bonus": bonus}), encoding="utf-8")
    status, _, err = run(["score", str(path)], capsys)
    assert (status, err.strip().count("\n")) == (2, 0)
    assert says in err, err
    with pytest.raises(RefereeError) as e:
        api.score_json({**BONUS_ROUND, "bonus": bonus})
    assert (e.value.code, says in e.value.message) == (code, True)


def test_two_players_may_hold_the_decks_two_2_pi_cards():
    """GOSTOP-RULES.md "Cards": gostop's deck holds bonus cards [2, 2, 3], so 2 pi for A and for B are two cards,
    by value or by their numbers."""
    for bonus in ({"A": [2], "B": [2]}, {"A": [{"card": 1}], "B": [{"card": 2}]}, {"A": [{"card": 2}], "B": [2]}):
        out = api.score_json({**BONUS_ROUND, "bonus": bonus})
        assert (out["players"]["A"]["pi"], out["players"]["B"]["pi"]) == (2, 2), bonus
