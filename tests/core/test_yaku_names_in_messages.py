"""Messages, warnings and notes name a yaku, teyaku or dekiyaku as the round form's menus do
(``referee.wording.yaku_name``: "Poetry Ribbons 赤短"), never by its ruleset id ("akatan").

Bug (a new user's report): the Hachi-hachi round page said "The piles hold dekiyaku for 3 players
(Aki: gokou; Ben: akatan; Chie: aotan)" and "Ben's pile holds akatan, which no decision mentions"
while the menu offered "Poetry Ribbons 赤短".
"""

from __future__ import annotations

import re

import pytest
from helpers import SHIKO

from referee.errors import RefereeError
from referee.hachihachi import settle_round
from referee.koikoi.round import make_round as koikoi_round
from referee.koikoi.round import score_round as koikoi_score
from referee.roppyakken.round import make_round as roppyakken_round
from referee.roppyakken.round import score_round as roppyakken_score
from referee.ruleset import load_ruleset
from referee.wording import yaku_name

GOKOU = ["pine-crane", "cherry-curtain", "pampas-moon", "willow-rain-man", "paulownia-phoenix"]
AKATAN = ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon"]
AOTAN = ["peony-blue-ribbon", "chrysanthemum-blue-ribbon", "maple-blue-ribbon"]
PLAYERS = ["Aki", "Ben", "Chie"]
#: A forced-out hand holding a teyaku (three pairs, 喰付 kuttsuki).
KUTTSUKI = ["iris-chaff-1", "iris-chaff-2", "peony-chaff-1", "peony-chaff-2", "bush-clover-chaff-1",
            "bush-clover-chaff-2", "pampas-chaff-1"]


def call(player: str, yaku: str, decision: str = "stop", liable: str | None = None) -> dict:
    return {"player": player, "yaku": yaku, "decision": decision, **({"liable": liable} if liable else {})}


def hachihachi(piles, dekiyaku=None, **fields) -> list[str]:
    """What a Hachi-hachi round says to the players: its error, or its warnings and its explanation lines'
    English halves (the Japanese half sits beside each: "Dekiyaku Five Brights, stop" 出来役 五光 勝負)."""
    rules = load_ruleset("hachihachi")
    try:
        r = settle_round(rules, players=fields.pop("players", PLAYERS), dealer="Aki", piles=piles,
                         dekiyaku=dekiyaku, multiplier=1, **fields)
    except RefereeError as e:
        return [e.message]
    return [*r.warnings, *(line.en for line in r.lines)]


THREE = {"Aki": GOKOU, "Ben": AKATAN, "Chie": AOTAN}
HACHIHACHI = [
    ("three holders and no decision", lambda: hachihachi(THREE),
     "Aki: Five Brights 五光; Ben: Poetry Ribbons 赤短; Chie: Blue Ribbons 青短"),
    ("a dekiyaku no decision mentions", lambda: hachihachi(THREE, [call("Aki", "gokou")]),
     "Ben's pile holds Poetry Ribbons 赤短, which no decision mentions"),
    ("one holder and no decision", lambda: hachihachi({"Aki": [], "Ben": AKATAN, "Chie": []}),
     "Ben's pile holds Poetry Ribbons 赤短 and no decision was stated"),
    ("a claim the pile does not hold", lambda: hachihachi(THREE, [call("Ben", "gokou")]),
     "Ben claims Five Brights 五光, but"),
    ("a dekiyaku completed twice",
     lambda: hachihachi(THREE, [call("Ben", "akatan", "continue"), call("Ben", "akatan")]),
     "Ben completes Poetry Ribbons 赤短 twice"),
    ("a completion after a stop", lambda: hachihachi(THREE, [call("Aki", "gokou"), call("Ben", "akatan")]),
     "Ben's Poetry Ribbons 赤短 cannot come after"),
    ("a decision that is neither stop nor continue", lambda: hachihachi(THREE, [call("Ben", "akatan", "wait")]),
     "for Ben's Poetry Ribbons 赤短; expected"),
    ("a liable player who made it", lambda: hachihachi(THREE, [call("Ben", "akatan", liable="Ben")]),
     "Ben is named liable for Ben's Poetry Ribbons 赤短"),
    ("a forced-out hand's compensation",
     lambda: hachihachi({"Aki": GOKOU, "Ben": [], "Chie": []}, [call("Aki", "gokou")],
                        players=[*PLAYERS, "Dai"], dropped={"Dai": {"forced": True, "hand": KUTTSUKI, "order": 1}}),
     "hand compensation (Three Pairs"),
]


def koikoi(pile, **options) -> list[str]:
    rules = load_ruleset("koikoi", options)
    rnd = koikoi_round(rules, ["A", "B"], {"A": pile, "B": []}, stopped_by=None, dealer="A")
    return list(koikoi_score(rules, rnd).warnings)


def roppyakken(pile, **options) -> list[str]:
    rules = load_ruleset("roppyakken", options)
    rnd = roppyakken_round(rules, ["A", "B"], {"A": pile, "B": ["wisteria-cuckoo", "iris-bridge"]})
    return list(roppyakken_score(rules, rnd).warnings)


OTHERS = [
    ("Koi-Koi: a viewing the rain spoils",
     lambda: koikoi(["cherry-curtain", "chrysanthemum-sake-cup", "willow-rain-man"], rain_spoils_viewing="rain-man"),
     "Cherry-blossom Viewing 花見で一杯 void"),
    ("Koi-Koi: a viewing alone under viewing = limited",
     lambda: koikoi(["cherry-curtain", "chrysanthemum-sake-cup"], viewing="limited"),
     "Cherry-blossom Viewing 花見で一杯 void"),
    ("Roppyakken: exact_instant_yaku voids four brights with the rain man",
     lambda: roppyakken([*SHIKO, "willow-rain-man"], exact_instant_yaku=True), "Four Brights 四光 void"),
]


def _ids(preset: str) -> set[str]:
    rules = load_ruleset(preset)
    return {y.id for kind in ("yaku", "teyaku", "dekiyaku") for y in getattr(rules, kind, ())}


@pytest.mark.parametrize(("said", "expected"), [c[1:] for c in HACHIHACHI], ids=[c[0] for c in HACHIHACHI])
def test_hachihachi_messages_name_dekiyaku_as_the_menu_does(said, expected):
    messages = said()
    assert any(expected in m for m in messages), messages
    ids = _ids("hachihachi")
    assert not [m for m in messages if set(re.findall(r"[a-z][a-z-]+", m)) & ids]


@pytest.mark.parametrize(("said", "expected"), [c[1:] for c in OTHERS], ids=[c[0] for c in OTHERS])
def test_other_families_notes_name_yaku_as_the_menu_does(said, expected):
    messages = said()
    assert any(expected in m for m in messages), messages
    ids = _ids("koikoi") | _ids("roppyakken")
    assert not [m for m in messages if set(re.findall(r"[a-z][a-z-]+", m)) & ids]


def test_yaku_name_is_english_then_japanese():
    assert yaku_name("Poetry Ribbons", "赤短") == "Poetry Ribbons 赤短"
    assert yaku_name("Five Brights") == "Five Brights"
