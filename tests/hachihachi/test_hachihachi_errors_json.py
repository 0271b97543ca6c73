"""User errors with their codes, and the JSON entry points (issue "Bad input")."""

import json
from importlib import resources

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
)

from referee.errors import RefereeError, RoundFieldError
from referee.hachihachi import settle_round_json

HANDS = {"A": HAND_KARASU, "B": HAND_HANEKEN, "C": HAND_NOTHING}
AKATAN = ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon"]
AOTAN = ["peony-blue-ribbon", "chrysanthemum-blue-ribbon", "maple-blue-ribbon"]


def base(**changes):
    data = {
        "ruleset": "hachihachi",
        "options": {},
        "players": ["A", "B", "C"],
        "dealer": "A",
        "field": FIELD_SMALL,
        "hands": HANDS,
        "piles": PILES,
    }
    data.update(changes)
    return data


ERRORS = [
    (
        "hand-of-six",
        base(hands={**HANDS, "A": HAND_KARASU[:6]}),
        "card-count",
        "hand A has 6 cards",
    ),
    ("field-of-five", base(field=FIELD_SMALL[:5]), "card-count", "field has 5 cards"),
    # Bug (screen walk-through): "1 cards".
    ("hand-of-one", base(hands={**HANDS, "A": HAND_KARASU[:1]}), "card-count", "hand A has 1 card;"),
    ("field-of-one", base(field=FIELD_SMALL[:1]), "card-count", "field has 1 card;"),
    (
        "field-four-of-a-month",
        base(
            field=[
                "pine-crane",
                "pine-poetry-ribbon",
                "pine-chaff-1",
                "pine-chaff-2",
                "iris-ribbon",
                "peony-blue-ribbon",
            ],
            hands={},
        ),
        "misdeal",
        "month 1",
    ),
    (
        "card-in-two-hands",
        base(hands={**HANDS, "C": [*HAND_NOTHING[:6], "pine-crane"]}),
        "duplicate-card",
        "pine-crane",
    ),
    (
        "card-in-hand-and-field",
        base(field=[*FIELD_SMALL[:5], "maple-deer"]),
        "duplicate-card",
        "maple-deer",
    ),
    (
        "card-in-two-piles",
        base(piles={**PILES, "C": [*PILE_C, "pine-crane"]}),
        "duplicate-card",
        "pine-crane",
    ),
    (
        "piles-missing-cards",
        base(piles={**PILES, "C": PILE_C[1:]}),
        "pile-points",
        "244 of 264 points (20 missing)",
    ),
    ("hand-for-unseated-player", base(hands={**HANDS, "Z": HAND_KARASU}), "unknown-player", "'Z'"),
    ("dealer-not-seated", base(dealer="Q"), "unknown-player", "'Q'"),
    (
        "two-dekiyaku-no-order",
        base(hands={}, piles={"A": AKATAN, "B": AOTAN, "C": []}),
        "missing-decision",
        "who completed which first",
    ),
    (
        "claim-not-in-pile",
        base(
            hands={},
            piles={"A": AKATAN, "B": [], "C": []},
            dekiyaku=[{"player": "A", "yaku": "aotan", "decision": "stop"}],
        ),
        "bad-decision",
        "A claims Blue Ribbons 青短",
    ),
    (
        "call-after-stop",
        base(
            hands={},
            piles={"A": AKATAN, "B": AOTAN, "C": []},
            dekiyaku=[
                {"player": "A", "yaku": "akatan", "decision": "stop"},
                {"player": "B", "yaku": "aotan", "decision": "stop"},
            ],
        ),
        "bad-decision",
        "A stopped",
    ),
    (
        "unknown-decision",
        base(
            hands={},
            piles={"A": AKATAN, "B": [], "C": []},
            dekiyaku=[{"player": "A", "yaku": "akatan", "decision": "koikoi"}],
        ),
        "bad-decision",
        "'koikoi'",
    ),
    (
        "stopper-is-hatto",
        base(
            hands={},
            piles={"A": AKATAN, "B": [], "C": []},
            hatto=["A"],
            dekiyaku=[{"player": "A", "yaku": "akatan", "decision": "stop"}],
        ),
        "bad-decision",
        "cannot be hatto",
    ),
    ("seven-players", base(players=list("ABCDEFG")), "player-count", "got 7"),
    ("dropout-with-three", base(dropped={"C": {"order": 1}}), "bad-round", "nobody drops out"),
    (
        "late-voluntary-drop",
        base(players=["A", "B", "C", "D"], dropped={"D": {"order": 1}}),
        "bad-round",
        "forced out",
    ),
    ("unknown-card", base(field=[*FIELD_SMALL[:5], "pine-dragon"]), "unknown-card", "pine-dragon"),
    ("unknown-key", base(mulitplier=2), "bad-round", "mulitplier"),
    ("bad-multiplier", base(multiplier=3, field=None), "bad-round", "multiplier is 3"),
    ("multiplier-disagrees-with-field", base(multiplier=2), "bad-round", "disagrees"),
    ("roppyakken-ruleset", base(ruleset="roppyakken"), "bad-ruleset", "not hachihachi"),
]


@pytest.mark.parametrize(
    ("data", "code", "text"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS]
)
def test_user_errors(data, code, text):
    with pytest.raises(RefereeError) as e:
        settle_round_json(data)
    assert e.value.code == code
    assert text in str(e.value)


FIVE = ["A", "B", "C", "D", "E"]
PARTS = [
    # (round, the error's parts), id
    ((base(multiplier=3, field=None), {"field": "multiplier", "rule": "choice", "value": 3, "limit": (1, 2, 4)}),
     "RULES.md:119 a stated field multiplier"),
    ((base(players=FIVE, dropped={"B": {"order": 1}, "C": {"order": 1}}),
     {"field": "dropped", "rule": "order", "value": (1, 1), "limit": 2, "players": ("B", "C")}),
     "RULES.md:147 drop-out orders number the players once each"),
    ((base(players=FIVE, dealer="C", dropped={"D": {"order": 2}, "E": {"order": 1}}),
     {"field": "dropped", "rule": "seating", "value": (2, 1), "players": ("C", "D", "E", "A", "B")}),
     "RULES.md:147 drop-out calls go round from the dealer"),
]


@pytest.mark.parametrize(("data", "parts"), [p for p, _ in PARTS], ids=[i for _, i in PARTS])
def test_a_refused_field_carries_its_parts_beside_its_message(data, parts):
    """The parts a form says the refusal from (``RoundFieldError``), without reading the message."""
    with pytest.raises(RoundFieldError) as e:
        settle_round_json(data)
    assert (e.value.code, {k: getattr(e.value, k) for k in parts}) == ("bad-round", parts)


def test_missing_cards_are_listed():
    with pytest.raises(RefereeError) as e:
        settle_round_json(base(piles={"A": PILE_A[1:], "B": PILE_B, "C": PILE_C}))
    assert "Cards in no pile: pine-crane" in str(e.value)


def test_piles_that_do_not_fit_the_deal_carry_their_parts():
    """RULES.md "Hachi-hachi" (seed 003 "Setup for each month"): three players play all 48 cards (264 points), two
    at most 34; the refusal's parts (``DeckCheck.refusal``) let a form name the cards without reading the message."""
    with pytest.raises(RoundFieldError) as e:
        settle_round_json(base(piles={"A": PILE_A[1:], "B": PILE_B[1:], "C": PILE_C}))
    parts = {k: getattr(e.value, k) for k in ("code", "field", "rule", "value", "limit", "players", "cards")}
    assert parts == {"code": "pile-points", "field": "piles", "rule": "whole-deck", "value": 224, "limit": 264,
                     "players": ("A", "B", "C"), "cards": ("pine-crane", "pampas-moon")}
    assert e.value.message.endswith("Cards in no pile: pine-crane, pampas-moon")


def test_json_output_shape():
    out = settle_round_json(base())
    assert set(out) >= {
        "multiplier",
        "carry",
        "payments",
        "net",
        "winner",
        "next_dealer",
        "warnings",
        "explanation",
    }
    assert set(out["payments"][0]) == {"from", "to", "mon", "reason", "label"}
    assert out["net"] == {"A": 23, "B": 59, "C": -82}
    assert out["net_text"]["C"] == "-7 kan 2 mon"
    assert out["players"]["C"] == {
        "net": -82,
        "net_text": "-7 kan 2 mon",
        "active": True,
        "card_points": 78,
    }
    json.dumps(out)  # JSON-able
    for player, net in out["net"].items():
        assert sum(line["points"] for line in out["explanation"] if line["player"] == player) == net


def test_card_names_are_accepted():
    piles = {"A": [*PILE_A[:-1], "Wisteria chaff"], "B": PILE_B, "C": PILE_C}
    assert settle_round_json(base(piles=piles))["net"] == {"A": 23, "B": 59, "C": -82}


def test_example_round_file_settles():
    text = resources.files("referee").joinpath("examples/hachihachi-round.json").read_text("utf-8")
    out = settle_round_json(json.loads(text))
    # docs/HACHIHACHI.md worked example, ×2 (pampas moon on the field):
    # D drops first: half of tatesanbon 3 + karasu 4 = 3.5 kan × 2 = 84 mon, 28 from A, B and C;
    # A karasu 4 kan × 2 = 96 (48 from B and C); B haneken 7 kan × 2 = 168 (84 from A and C);
    # A stops with akatan: 7 kan × 2 = 168, and C pays it alone because B was hatto;
    # D's 1 kan fee × 2 = 24 goes to the winner A.
    assert out["multiplier"] == 2
    assert out["net"] == {
        "A": -28 + 96 - 84 + 168 + 24,
        "B": -28 - 48 + 168,
        "C": -28 - 48 - 84 - 168,
        "D": 84 - 24,
    }
    assert out["winner"] == "A"
