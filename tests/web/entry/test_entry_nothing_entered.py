"""A round of nothing: the preview says no card is entered yet, and Save refuses it (no card, no
points on the totals pad, an edit that takes every card out), in the words of the page it is on."""

from __future__ import annotations

import html
import re

import pytest
from web_helpers import rounds, session
from werkzeug.datastructures import MultiDict

from referee.cards import BY_ID, CARDS
from referee.web.forms.rounds import sentence


# Bug (web QA): a round of no card was scored without a warning.
def test_an_empty_round_warns_before_saving_but_may_be_saved(client, keeper, h):
    r = client.post(f"/s/{keeper}/round/new", data=h.round_form({}, action="score"), follow_redirects=True)
    assert "No cards entered yet" in r.get_data(as_text=True)
    r = client.post(f"/s/{keeper}/round/preview", data=h.round_form({}), headers={"HX-Request": "true"})
    assert "No cards entered yet" in r.get_data(as_text=True)
    r = client.post(f"/s/{keeper}/round/preview", data=h.round_form(h.piles(0)), headers={"HX-Request": "true"})
    assert "No cards entered yet" not in r.get_data(as_text=True)


FAMILIES = [
    ("roppyakken", ["Aki", "Ben", "Chiyo"]),
    ("hachihachi", ["Aki", "Ben", "Chiyo"]),
]


# Bug (phone QA): Save with no card tapped stored an empty round.
@pytest.mark.parametrize(("preset", "players"), FAMILIES, ids=[f for f, _ in FAMILIES])
def test_a_web_save_of_no_cards_saves_nothing_and_says_why(client, h, preset, players):
    """README "Round input" (and the API since issue 10): a round is its cards or its points.  Found on a
    phone: "Save" on the round page with no card tapped stored an empty round (a void round in
    Roppyakken) while the API refuses the same round.  (A Koi-Koi draw, "the hands ran out", saves without
    cards: test_entry_koikoi_how_it_ended.)"""
    token = h.new_session(client, players=players, ruleset=preset)
    r = client.post(f"/s/{token}/round/new", data=h.round_form({}, nonce="empty-1"))
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert "Nothing was saved: no card is entered" in page
    assert rounds(client, token) == []


# Bug (phone QA): an edit taking every card out saved an empty round.
def test_an_edit_that_removes_every_card_saves_nothing(client, h, keeper):
    """The same refusal when an edit takes every card out of a saved round."""
    client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0)))
    rid = rounds(client, keeper)[0]["id"]
    form = h.round_form({}, nonce="edit-empty")
    form["version"] = "1"
    r = client.post(f"/s/{keeper}/round/{rid}/edit", data=form)
    assert r.status_code == 422
    assert rounds(client, keeper)[0]["input"] == {"piles": h.piles(0)}


# Bug (phone QA): blank totals were refused in words about cards.
def test_a_totals_save_with_no_number_asks_for_the_points(client, h, keeper):
    """The refusal in the words of the page it is on: "Enter totals only" with every box blank asks for the
    points, not for cards."""
    form = h.round_form({}, nonce="totals-blank", entry="totals")
    for i in range(3):
        form[f"total-{i}"] = ""
    r = client.post(f"/s/{keeper}/round/new", data=form)
    assert r.status_code == 422
    assert "Nothing was saved: no points are entered" in r.get_data(as_text=True)
    assert rounds(client, keeper) == []


#: What every cards form says of a round with no card in it, by how it was sent (docs: README "Round input").
NO_CARD_SCORED = ("No card is entered. Tap the cards each player took into their pile (or snap it), or use “Enter "
                  "totals only” for a round scored on paper.")
NO_CARD_SAVED = ("Nothing was saved: no card is entered. Tap the cards each player took into their pile (or snap it), "
                 "or use “Enter totals only” for a round scored on paper.")
THREE, TWO = ["Aki", "Ben", "Chiyo"], ["Aki", "Ben"]
CARD_NAMES = [c.name for c in CARDS]

# (preset, players, fields beside the action, action, what the page says, rule source)
EMPTY_ROUNDS = [
    ("roppyakken", THREE, [], "score", NO_CARD_SCORED, "RULES.md Roppyakken: a round is its piles"),
    ("roppyakken", THREE, [], "save", NO_CARD_SAVED, "RULES.md Roppyakken: a round is its piles"),
    ("sambong", THREE, [], "score", NO_CARD_SCORED, "sambong.toml: a round is its piles"),
    ("hachihachi", THREE, [("multiplier", "1")], "score", NO_CARD_SCORED, "RULES.md Hachi-hachi: all 48 played"),
    ("hachihachi", THREE, [("multiplier", "1")], "save", NO_CARD_SAVED, "RULES.md Hachi-hachi: all 48 played"),
    ("hachihachi", TWO, [("multiplier", "1")], "score", NO_CARD_SCORED, "FudaWiki Hachi-Hachi for Two Players"),
    ("koikoi", TWO, [("stopped_by", "Aki")], "score", NO_CARD_SCORED, "KOIKOI-RULES.md:50 a stop needs a yaku"),
    ("koikoi", TWO, [("stopped_by", "Aki")], "save", NO_CARD_SAVED, "KOIKOI-RULES.md:50 a stop needs a yaku"),
    ("koikoi", TWO, [], "score", "Say how the round ended: who stopped (勝負), or “Nobody: the hands ran out”. "
     "Nothing is scored until you choose.", "docs/KOIKOI.md The web form: asked first"),
    ("gostop", THREE, [("stopped_by", "Aki")], "score", NO_CARD_SCORED, "GOSTOP-RULES.md:89 a stop needs points"),
    ("gostop", THREE, [("stopped_by", "Aki")], "save", NO_CARD_SAVED, "GOSTOP-RULES.md:89 a stop needs points"),
    ("matgo", TWO, [("stopped_by", "Aki")], "score", NO_CARD_SCORED, "matgo.toml: a stop needs 7 points"),
    ("gostop", THREE, [], "score", "Say how the round ended: who stopped (스톱), or “Nobody stopped” (나가리, 3뻑 or "
     "chongtong). Nothing is scored until you choose.", "docs/GOSTOP.md The web form: asked first"),
    # Bug (walk-through): Score on an empty totals pad said "Nothing was saved: …", an answer to a Save not made.
    ("roppyakken", THREE, [("entry", "totals")], "score", "No points are entered. Enter what each "
     "player adds this round (0 if none).", "README Entered totals"),
    ("hachihachi", THREE, [("entry", "totals"), ("kan-0", ""), ("mon-0", "")], "score", "No "
     "amounts are entered. Enter what each player won or paid this round, in kan and mon (0 if none).",
     "README Entered totals: kan and mon"),
    ("hachihachi", THREE, [("entry", "totals"), ("kan-0", ""), ("mon-0", "")], "save", "Nothing was saved: no "
     "amounts are entered. Enter what each player won or paid this round, in kan and mon (0 if none).",
     "README Entered totals: kan and mon"),
    ("gostop", THREE, [("entry", "totals")], "save", "Nothing was saved: no points are entered. Enter what each "
     "player adds this round (0 if none).", "README Entered totals: 점"),
]


# Bug (new-user walk-through): "Score round" on an empty Hachi-hachi round said "the piles hold 0 of 264 points…"
# and named all 48 cards, and an empty Roppyakken round scored as a void round "to check, then save".
@pytest.mark.parametrize(("preset", "players", "fields", "action", "said"), [c[:5] for c in EMPTY_ROUNDS],
                         ids=[f"{c[0]}-{c[3]}-{c[5]}" for c in EMPTY_ROUNDS])
def test_a_round_of_nothing_asks_for_the_cards_in_a_short_sentence(client, h, preset, players, fields, action, said):
    token = session(client, preset, players)
    form = MultiDict({"action": action, "nonce": h.signed(f"empty-{action}")})
    for k, v in fields:
        form.add(k, v)
    r = client.post(f"/s/{token}/round/new", data=form, follow_redirects=True)
    assert r.status_code == (422 if action == "save" else 200)
    assert _errors(r) == [said]
    assert said[0].isupper()
    assert not any(name in said for name in CARD_NAMES)
    assert rounds(client, token) == []


# Bug (new-user walk-through): one card tapped in on a three-player Hachi-hachi round listed the 47 others by name.
def test_a_hachihachi_round_of_far_too_few_cards_says_how_many_not_which(client, h):
    token = session(client, "hachihachi", THREE)
    for action in ("score", "save"):
        form = MultiDict({"action": action, "nonce": h.signed(f"few-{action}"), "multiplier": "1",
                          "pile-0": "pine-crane"})
        said = _errors(client.post(f"/s/{token}/round/new", data=form, follow_redirects=True))
        assert said == ["The piles hold 1 of the 48 cards; with 3 players every card is played, so a round settled "
                        "on card points needs all 48. Tap in the cards each player took: 47 are in no pile yet."]
    assert rounds(client, token) == []


def test_a_hachihachi_round_missing_a_few_cards_still_names_them(client, h):
    token = session(client, "hachihachi", THREE)
    held = [c.id for c in CARDS if c.id not in ("pine-crane", "pine-chaff-1")]
    form = MultiDict({"action": "score", "nonce": h.signed("near"), "multiplier": "1"})
    for i, cid in enumerate(held):
        form.add(f"pile-{i % 3}", cid)
    said = _errors(client.post(f"/s/{token}/round/new", data=form, follow_redirects=True))
    assert said == [f"The piles hold 243 of 264 points (21 missing); with 3 players every card is played, so a round "
                    f"settled on card points needs all 48 cards. Cards in no pile: {BY_ID['pine-crane'].name}, "
                    f"{BY_ID['pine-chaff-1'].name}."]


# Bug (new-user walk-through): the core's messages reached the page starting in lower case.
@pytest.mark.parametrize(("players", "said"), [
    (["Aki", "Ben"], "Aki stopped but holds no yaku; only a player with a yaku may stop"),
    (["aki", "Ben"], "aki stopped but holds no yaku; only a player with a yaku may stop"),  # a name is as typed
])
def test_the_cores_words_on_the_page_start_as_a_sentence_but_keep_a_players_name(client, h, players, said):
    token = session(client, "koikoi", players)
    form = MultiDict({"action": "score", "nonce": h.signed("kk"), "stopped_by": players[0],
                      "pile-0": "pine-crane"})
    assert _errors(client.post(f"/s/{token}/round/new", data=form, follow_redirects=True)) == [said]


@pytest.mark.parametrize(("message", "said"), [
    ("the piles hold dekiyaku for 2 players", "The piles hold dekiyaku for 2 players"),
    ("misdeal: a hand holds four cards of one month", "Misdeal: a hand holds four cards of one month"),
    ("first_to_target must name a player", "first_to_target must name a player"),  # a JSON key stays as written
    ("ben's total is empty", "ben's total is empty"),  # a player's name stays as typed
    ("Aki stopped", "Aki stopped"),
])
def test_a_message_shown_as_a_sentence_starts_with_a_capital(message, said):
    assert sentence(message, ["Aki", "ben"]) == said


def _errors(r) -> list[str]:
    body = html.unescape(r.get_data(as_text=True))
    return [" ".join(e.split()) for e in re.findall(r'<p class="error"[^>]*>(.*?)</p>', body, flags=re.S)]
