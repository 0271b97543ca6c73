"""Fuke and instant wins: RULES.md "Fuke (吹き消し)" and "Instant wins and the end of the game"."""

import pytest
from helpers import GRASS, LOW, POETRY, SAFE, SHIKO, score

SEVEN = [*POETRY, *GRASS, "willow-ribbon"]


@pytest.mark.parametrize(
    ("other", "options", "void"),
    [
        (["wisteria-cuckoo", "iris-bridge", "pampas-geese"], {}, True),
        (SAFE, {}, False),
        (SAFE, {"fuke.threshold": 40}, True),
        (POETRY, {}, False),
        (POETRY, {"fuke.count_yaku": False}, True),
        (["willow-rain-man", "paulownia-phoenix", "wisteria-cuckoo"], {}, False),
        (["willow-rain-man", "paulownia-phoenix", "wisteria-cuckoo"], {"fuke.excluded_months": [11, 12]}, True),
        ([], {"fuke.enabled": False}, False),
    ],
    ids=[
        "RULES.md fuke: 30 points is at the threshold",
        "RULES.md fuke: 40 points is safe",
        "RULES.md option fuke.threshold=40",
        "RULES.md fuke.count_yaku default: kozan lifts 30 to 130",
        "RULES.md fuke.count_yaku=false: card points only",
        "RULES.md fuke: every month counts by default",
        "RULES.md fuke.excluded_months [11, 12] (Japanese text)",
        "RULES.md option fuke.enabled=false",
    ],
)
def test_fuke(other, options, void):
    result = score(LOW, others=(other,), **{k.replace(".", "__"): v for k, v in options.items()})
    assert result.void is void
    if void:
        assert "B" in result.fuke_by
        assert all(p.round_score == 0 for p in result.players)
        assert result.next_dealer == result.dealer


def test_void_round_lines_still_sum_to_zero():
    result = score([*SHIKO[:3], "maple-deer"], others=([],))
    a = result.player("A")
    assert a.raw_score > 0
    assert a.round_score == 0 == sum(line.points for line in a.lines)
    assert a.lines[-1].code == "fuke"


def test_roppyakken_ja_preset_fuke_ignores_willow_and_paulownia():
    result = score(SAFE, "roppyakken-ja", others=(["willow-rain-man", "paulownia-phoenix", "maple-deer"],))
    assert result.void


def test_shiko_wins_at_once_and_overrides_fuke():
    # issue 2 case: 200 + shiko 600 + matsu-kiri-bozu 150 = 950, and that player wins at once.
    result = score(SHIKO, others=([], []))
    assert result.player("A").raw_score == 950
    assert result.instant_win == "A"
    assert result.void


def test_nanatan_is_voided_by_fuke():
    result = score(SEVEN, others=([],))
    assert result.void
    assert result.instant_win is None


def test_nanatan_wins_when_the_round_stands():
    assert score(SEVEN).instant_win == "A"


def test_shiko_beats_nanatan_held_by_another_player():
    result = score(SEVEN, others=(SHIKO,))
    assert result.instant_win == "B"


def test_instant_wins_off_means_totals_only():
    assert score(SHIKO, instant_wins=False).instant_win is None


def test_yukbaek_has_no_fuke_and_shiko_without_warbler_wins_nothing():
    result = score(SHIKO, "yukbaek", others=([], []))
    assert not result.void
    assert result.instant_win is None
    assert result.player("A").round_score == 350


def test_sambong_shiko_does_not_end_the_game():
    assert score(SHIKO, "sambong").instant_win is None
