"""A round saved is a round the scoreboard replays (issue 18, same kind).

The API and the round form once scored a round alone, while the scoreboard replays the game:
a Roppyakken round of dealt hands only was saved (201, "created": true) and then shown as an
error row ("expected an object with piles").  Both now pass one check, ``board.replay_error``;
these tests walk each family's round shapes through the API and the form and require that
whatever either accepts, the board replays, and that both answer alike.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parents[2] / "referee" / "examples"
SESSION_KEYS = ("ruleset", "options", "players", "dealer", "month")


def example(name: str) -> dict:
    data = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if k not in SESSION_KEYS}


def _roppyakken_piles():
    from referee.cards import CARDS

    out = {"Aki": [], "Ben": [], "Chiyo": []}
    for i, c in enumerate(CARDS):
        out[("Aki", "Ben", "Chiyo")[i // 2 % 3]].append(c.id)
    return out


R_PLAYERS = ["Aki", "Ben", "Chiyo"]
EIGHT = ["pine-crane", "pine-chaff-1", "plum-chaff-1", "cherry-chaff-1", "iris-chaff-1", "maple-chaff-1",
         "peony-chaff-1", "wisteria-chaff-1"]
SHAPES = [
    pytest.param("roppyakken", R_PLAYERS, {"piles": _roppyakken_piles()}, True, id="roppyakken: piles"),
    pytest.param("roppyakken", R_PLAYERS, {"piles": _roppyakken_piles(), "hands": {"Aki": EIGHT}}, True,
                 id="roppyakken: piles and a hand"),
    # once saved (201) and then an error row on the scoreboard
    pytest.param("roppyakken", R_PLAYERS, {"hands": {"Aki": EIGHT}}, False, id="roppyakken: dealt hands only"),
    pytest.param("roppyakken", R_PLAYERS, {"totals": {"Aki": 120, "Ben": 0, "Chiyo": 40}}, True,
                 id="roppyakken: totals"),
    pytest.param("roppyakken", R_PLAYERS, {"totals": {"Aki": 0, "Ben": 0, "Chiyo": 0}, "void": True}, True,
                 id="roppyakken: a void round as totals"),
    pytest.param("koikoi", ["Aki", "Ben"], example("koikoi-round.json"), True, id="koikoi: the example round"),
    pytest.param("koikoi", ["Aki", "Ben"], {"totals": {"Aki": 6, "Ben": 0}}, True, id="koikoi: totals"),
    pytest.param("koikoi", ["Aki", "Ben"], {"hands": {"Aki": EIGHT}}, None, id="koikoi: dealt hands only"),
    pytest.param("hachihachi", ["A", "D", "B", "C"], example("hachihachi-round.json"), True,
                 id="hachihachi: the example round"),
    pytest.param("hachihachi", ["A", "D", "B", "C"], {"totals": {"A": 24, "D": -8, "B": -8, "C": -8}}, True,
                 id="hachihachi: totals"),
]


def _session(client, ruleset: str, players) -> str:
    r = client.post("/api/v1/sessions", json={"name": "t", "ruleset": ruleset, "players": players})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["edit_token"]


def _error_rows(client, token) -> list:
    return [r["error"] for r in client.get(f"/api/v1/sessions/{token}").get_json()["rounds"] if r["error"]]


@pytest.mark.parametrize(("ruleset", "players", "body", "accepted"), SHAPES)
def test_a_round_the_api_or_the_form_accepts_is_one_the_board_replays(client, h, ruleset, players, body, accepted):
    api = _session(client, ruleset, players)
    r = client.post(f"/api/v1/sessions/{api}/rounds", json={**body, "form_token": "t-1"})
    assert r.status_code in (201, 422), r.get_json()
    saved = client.get(f"/api/v1/sessions/{api}").get_json()["rounds"]
    assert _error_rows(client, api) == []
    assert len(saved) == (r.status_code == 201)
    form = _session(client, ruleset, players)
    page = client.post(f"/s/{form}/round/new", data={"round_json": json.dumps(body), "action": "save",
                                                     "nonce": h.signed("f-1")})
    assert page.status_code in (303, 422), page.get_data(as_text=True)[:500]
    assert _error_rows(client, form) == []
    assert (page.status_code == 303) == (r.status_code == 201)  # the API and the form answer alike
    if accepted is not None:
        assert (r.status_code == 201) is accepted
    if r.status_code == 422:
        assert r.get_json()["message"]  # refused in words, at the door


# Bug: board.replay_error rebuilt a plain RefereeError of the game's message, so a refusal the round form says from
# its parts (a RoundFieldError: field, rule...) lost them at Save.
@pytest.mark.parametrize(("ruleset", "players", "saved", "data", "said"), [
    ("koikoi", ["Aki", "Ben"], {"piles": {}, "stopped_by": None}, {"piles": {}, "calls": [{"player": "Zed"}]},
     "Koi-koi call 1 must be one of the players (Aki, Ben); the form sent “Zed”."),
    ("gostop", ["Aki", "Ben", "Cho"], {"piles": {}, "stopped_by": None}, {"piles": {}, "stopped_by": "Zed"},
     "Who stopped must be one of the players (Aki, Ben, Cho); the form sent “Zed”."),
], ids=["koikoi", "gostop"])
def test_a_saved_games_replayed_error_keeps_its_parts(app, ruleset, players, saved, data, said):
    from referee import families, store
    from referee.errors import RoundFieldError
    from referee.web import get_db
    from referee.web.forms.rounds import in_form_words
    from referee.web.service import rounds, session

    with app.app_context():
        db = get_db()
        sess = store.create_session(db, name="T", ruleset=ruleset, family=ruleset, options={}, players=players,
                                    dealer=players[0])
        store.add_round(db, sess.id, saved, "saved")
        opened = session.open_session(db, sess.edit_token)
        error = rounds.replay_error(opened, session.board(db, opened), data)
    assert isinstance(error, RoundFieldError), error
    assert (error.code, error.rule, error.round_number) == ("unknown-player", "not-a-player", None)
    assert error.message.startswith('"'), error.message  # said beside the round: no "round 2: "
    reworded = error.without_round_number()  # a copy, to reword
    reworded.message, reworded.args = "reworded", ("reworded",)
    assert in_form_words({}, families.get(ruleset), error) == said
    assert in_form_words({}, families.get(ruleset), reworded) == said
