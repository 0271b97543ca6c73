"""A round form says the core's refusal of one of its fields in its own words from the error's parts
(``referee.errors.RoundFieldError``: field, rule, player, value, limit, players, index, cards), never by reading the
core's message: the message is the command line's and the API's, and may change without the form's words changing.
Among them: a name that is not one of the players (``referee.errors.one_of_the_players``), in every form, and the
Hachi-hachi piles that do not fit the deal (``referee.hachihachi.deal.DeckCheck.refusal``), cards by their names."""

from __future__ import annotations

import pytest

from referee import families
from referee.cards import CARD_IDS
from referee.errors import RoundFieldError
from referee.gostop.inputs import make_round as gostop_round
from referee.hachihachi import settle_round
from referee.hachihachi.round import make_round as hachihachi_round
from referee.koikoi.round import make_round as koikoi_round
from referee.ruleset import load_ruleset
from referee.web.forms import rounds
from referee.web.forms.rounds import entry_form, in_form_words

THREE = ["Aki", "Ben", "Cho"]
FIVE = [*THREE, "Dai", "Eri"]
JANUARY = ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1", "pine-chaff-2"]


def _piles(options=None, piles=None, **fields):
    return lambda: gostop_round(load_ruleset("gostop", options or {}), THREE, piles, **fields)


def _money(players=THREE, options=None, **fields):
    return lambda: hachihachi_round(load_ruleset("hachihachi", options or {}), players=players, **fields)


def _calls(**fields):
    return lambda: koikoi_round(load_ruleset("koikoi"), ["Aki", "Ben"], **fields)


def _settled(players, cards=(), piles=None, **fields):
    """A Hachi-hachi round settled on card points (no dekiyaku): its ``piles``, or ``cards`` dealt in turn into
    the piles."""
    piles = piles or {p: list(cards[i::len(players)]) for i, p in enumerate(players)}
    return lambda: settle_round(load_ruleset("hachihachi"), players=players, multiplier=1, piles=piles, **fields)


#: (the game, the core's call that refuses, the form's words), id citing the rule the core applies.
CASES = [
    ("gostop", _piles(gos={"Aki": 13}),
     "Aki's Go 고 must be a whole number 0 to 12 (blank is 0); you entered 13.", "GOSTOP-RULES.md:49 gos"),
    ("gostop", _piles(shakes={"Cho": -1}),
     "Cho's Shake 흔들기 must be a whole number 0 to 12 (blank is 0); you entered -1.", "GOSTOP-RULES.md:49 shakes"),
    ("gostop", _piles(bombs={"Cho": [1, "x"]}),
     "Cho's Bomb 폭탄 must be a whole number 0 to 12 (blank is 0); you entered “1, x”.", "GOSTOP-RULES.md:50 bombs"),
    ("gostop", _piles(ppeok={"Aki": [99, 2]}),
     "Aki's ppeok (뻑) must be turn numbers 1 to 12, separated by commas, such as “1, 2”; you entered 99, 2.",
     "GOSTOP-RULES.md:65 ppeok turns"),
    ("gostop", _piles(ppeok={"Aki": [3, 2, 2, 3]}), "Aki's ppeok (뻑) names turn 2 twice; give each turn once.",
     "GOSTOP-RULES.md:65 a ppeok turn once"),
    ("gostop", _piles(ppeok={"Aki": [1, 2, 3, 4]}),
     "Aki's ppeok (뻑) lists 4 turns, but the third ends the round (3뻑); give at most three.",
     "GOSTOP-RULES.md:66 3뻑 ends the round"),
    ("gostop", _piles(ppeok={"Aki": [1, 2, 3]}, stopped_by="Ben"),
     "Aki made three ppeok (3뻑), which ends the round, so nobody stopped: choose “Nobody stopped”.",
     "GOSTOP-RULES.md:66 3뻑 nobody stops"),
    ("gostop", _piles(last_go="Aki", stopped_by="Ben"),
     "“Who called last” names Aki, who called no go (Aki's Go 고 is blank); choose the loser who called go last.",
     "GOSTOP-RULES.md:74 last_go called go"),
    ("gostop", _piles(dokbak="Aki", stopped_by="Aki"),
     "“독박 declared” names Aki, who stopped; choose the loser who fed the winner.",
     "GOSTOP-RULES.md:74 dokbak not the stopper"),
    ("gostop", _piles(instant={"type": "chongtong", "player": "Aki", "cards": [*JANUARY[:3], "plum-chaff-1"]}),
     "Chongtong (총통) by Aki: choose the month whose four cards Aki was dealt.",
     "GOSTOP-RULES.md:64 chongtong four of a month"),
    ("gostop", _piles(piles={"Ben": ["plum-chaff-1"]}, stopped_by="Ben", bombs={"Ben": 1},
                      instant={"type": "chongtong", "player": "Aki", "cards": JANUARY}),
     "Chongtong (총통) by Aki ends the round at the deal: leave the piles and Bomb 폭탄 empty and choose “Nobody "
     "stopped”, or clear the chongtong if the round was played.", "GOSTOP-RULES.md:64 chongtong at the deal"),
    ("gostop", _piles(bonus={"Aki": [2], "Ben": [2], "Cho": [2]}),
     "The bonus cards worth 2 pi are ticked 3 times (Aki 1, Ben 1, Cho 1), but the deck holds 2; tick each bonus "
     "card once, for the player who holds it.", "GOSTOP-RULES.md:15 bonus as many as the deck"),
    ("gostop", _piles(bonus={"Aki": [9]}),
     "Aki's bonus card is worth 9 pi, but these house rules' bonus cards are worth 2 or 3 pi; reload the round page "
     "and tick them again.", "GOSTOP-RULES.md:15 bonus value of the deck"),
    ("gostop", _piles(options={"bonus_cards": []}, bonus={"Aki": [2]}),
     "Aki's bonus card is worth 2 pi, but these house rules play without bonus cards; reload the round page and "
     "tick them again.", "GOSTOP-RULES.md:15 no bonus cards"),
    ("gostop", _piles(bonus={"Aki": [{"card": 1}], "Ben": [{"card": 1}]}),
     "Bonus card 1 (2 pi) is ticked for both Aki and Ben, but the deck has one of each bonus card: tick each bonus "
     "card once, for the player who holds it.", "GOSTOP-RULES.md:105 one bonus card in two piles"),
    ("gostop", _piles(options={"bonus_cards": [2, 3]}, bonus={"Cho": [{"card": 3}]}),
     "Cho's bonus card is not one of the 2 in this deck; reload the round page and tick them again.",
     "GOSTOP-RULES.md:15 a bonus card of the deck"),
    ("gostop", _piles(options={"sake_cup": "animal"}, piles={"Aki": ["chrysanthemum-sake-cup"]},
                      sake_cup={"Aki": "pi"}),
     "Under these house rules the sake cup is always an animal: leave “Sake cup (국진)” at “Best for its holder”.",
     "GOSTOP-RULES.md:12 sake_cup fixed"),
    ("hachihachi", _money(multiplier=3),
     "The field's multiplier must be ×1, ×2 or ×4; the form sent 3. Reload the round page and choose it again.",
     "RULES.md:119 field multiplier"),
    ("hachihachi", _money(players=FIVE, dropped={"Aki": {"order": 1}, "Ben": {"order": 1}}),
     "The call order of the players who drop out must number them 1 to 2, each once (Aki, Ben); you entered 1, 1.",
     "RULES.md:147 drop-out orders once"),
    ("hachihachi", _money(players=FIVE, dropped={"Ben": {"order": 2}, "Cho": {"order": 1}}),
     "The call order of the players who drop out (2, 1) does not follow the seating from the dealer (Aki, Ben, "
     "Cho, Dai, Eri), in which they call.", "RULES.md:147 drop-out calls in seating order"),
    ("hachihachi", _settled(THREE, [c for c in CARD_IDS if c != "pine-crane"]),
     "The piles hold 244 of 264 points (20 missing); with 3 players every card is played, so a round settled on "
     "card points needs all 48 cards. Cards in no pile: Pine with Crane (and Sun).",
     "RULES.md Hachi-hachi: three players play all 48 cards"),
    ("hachihachi", _settled(FIVE[:4], piles={"Aki": CARD_IDS[2:20], "Ben": CARD_IDS[26:44]},  # no dekiyaku
                            dropped={"Cho": {"order": 1}, "Dai": {"order": 2}}),
     "The piles hold 36 cards; with 2 players 14 cards are never drawn, so at most 34 can be captured: a card is "
     "entered twice or belongs to another round.", "FudaWiki Hachi-Hachi for Two Players: 34 cards reach the table"),
    ("koikoi", _calls(calls=[{"player": "Aki"}, {"player": "Zed"}], stopped_by="Aki"),
     "Koi-koi call 2 must be one of the players (Aki, Ben); the form sent “Zed”.", "KOIKOI-RULES.md:51 calls"),
    ("koikoi", _calls(stopped_by="Zed"),
     "Who stopped must be one of the players (Aki, Ben); the form sent “Zed”.", "KOIKOI-RULES.md:50 stopped_by"),
    ("koikoi", _calls(dealer=7), "The dealer must be one of the players (Aki, Ben); the form sent 7.",
     "KOIKOI-RULES.md JSON dealer"),
    ("gostop", _piles(stopped_by="Zed"),
     "Who stopped must be one of the players (Aki, Ben, Cho); the form sent “Zed”.", "GOSTOP-RULES.md:89 stopped_by"),
    ("gostop", _piles(last_go="Zed", stopped_by="Aki"),
     "“Who called last” must be one of the players (Aki, Ben, Cho); the form sent “Zed”.",
     "GOSTOP-RULES.md:74 last_go a player"),
    ("gostop", _piles(dokbak=["x"], stopped_by="Aki"),
     "“독박 declared” must be one of the players (Aki, Ben, Cho); the form sent “x”.",
     "GOSTOP-RULES.md:74 dokbak a player"),
    ("gostop", _piles(instant={"type": "chongtong", "player": "Zed", "cards": JANUARY}),
     "Chongtong's “Who” must be one of the players (Aki, Ben, Cho); the form sent “Zed”.",
     "GOSTOP-RULES.md:64 chongtong by a player"),
]


def _refusal(call) -> RoundFieldError:
    with pytest.raises(RoundFieldError) as e:
        call()
    return e.value


@pytest.mark.parametrize(("game", "call", "said"), [c[:3] for c in CASES], ids=[c[3] for c in CASES])
def test_a_refused_field_is_said_in_the_forms_words_from_the_errors_parts(game, call, said):
    error = _refusal(call)
    assert entry_form(game).words(error) == said
    assert in_form_words({}, families.get(game), error) == said


# The debt this pins: the forms matched the core's English message with regular expressions, so rewording a core
# message silently turned the form's words back into the round JSON's.
@pytest.mark.parametrize(("game", "call", "said"), [c[:3] for c in CASES], ids=[c[3] for c in CASES])
def test_the_forms_words_stay_when_the_core_rewords_its_message(game, call, said):
    reworded = _refusal(call)
    reworded.message, reworded.args = "the core says this another way now", ("the core says this another way now",)
    assert str(reworded) == "the core says this another way now"
    assert entry_form(game).words(reworded) == said
    assert in_form_words({}, families.get(game), reworded) == said


def test_every_rewording_of_the_forms_has_a_worked_example():
    seen = {(e.field, e.rule) for e in (_refusal(c[1]) for c in CASES)}
    assert seen == set(rounds._PILES_WORDS) | set(rounds._MONEY_WORDS) | set(rounds._PLAYER_WORDS)


@pytest.mark.parametrize("game", ["roppyakken", "hachihachi", "koikoi", "gostop"])
def test_every_form_says_a_name_that_is_not_a_player_from_its_parts(game):
    error = _refusal(_calls(stopped_by="Zed"))
    error.message, error.args = "reworded", ("reworded",)
    assert entry_form(game).words(error) == "Who stopped must be one of the players (Aki, Ben); the form sent “Zed”."


def test_the_json_box_keeps_the_cores_message():
    error = _refusal(_piles(gos={"Aki": 13}))
    assert in_form_words({"round_json": "{}"}, families.get("gostop"), error) == error.message
