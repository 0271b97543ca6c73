"""A missing or wrong value is said in players' words in every family's JSON, never in Python's
(``None``, ``True``): "it is missing", "true" (issue 20 QA)."""

import pytest

from referee.errors import RefereeError


# QA (issue 20): messages leaked Python ("it is None", "got None", "is True"); they say what is missing
# in players' words, in every family.
@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"ruleset": "gostop", "piles": {}}, ['"players" must be a list of names', "but it is missing"]),
        (
            {"ruleset": "gostop", "players": ["A", "B", "C"], "piles": {}, "instant": {"type": "chongtong"}},
            ['"instant.player" is missing; expected one of the players'],
        ),
        (
            {
                "ruleset": "gostop",
                "players": ["A", "B", "C"],
                "stopped_by": "A",
                "gos": {"B": 1, "C": 1},
                "piles": {"A": ["pine-crane", "cherry-curtain", "pampas-moon"], "B": ["willow-rain-man"]},
            },
            ['say which called last in "last_go"', "it is missing"],
        ),
        (
            {"ruleset": "gostop", "players": ["A", "B", "C"], "stopped_by": None, "gos": {"A": True}},
            ['"gos" of A is true; expected a whole number'],
        ),
        (
            {"ruleset": "koikoi", "players": ["A", "B"], "stopped_by": None, "calls": [{"player": None}]},
            ['"calls[0].player" is missing'],
        ),
        ({"ruleset": "koikoi", "piles": {}}, ["but it is missing"]),
        ({"ruleset": "roppyakken", "piles": {}}, ["but it is missing"]),
        ({"ruleset": "hachihachi", "players": None, "multiplier": 1, "piles": {}}, ["players is missing"]),
    ],
    ids=[
        "gostop players",
        "gostop instant.player",
        "gostop last_go",
        "gostop a true count",
        "koikoi call player",
        "koikoi players",
        "roppyakken players",
        "hachihachi players",
    ],
)
def test_a_missing_value_is_said_in_players_words(data, words):
    from referee import api

    with pytest.raises(RefereeError) as e:
        api.score_json(data)
    for w in words:
        assert w in e.value.message
    assert "None" not in e.value.message
    assert "True" not in e.value.message
