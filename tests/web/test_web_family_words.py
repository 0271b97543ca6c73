"""Each family's words for the things every game has (``Family.words``): the dealer (Roppyakken's
oya 親, Go-Stop's seon 선), the card kinds, the void round and the money, on every screen that names
them and in the explanation's glossary link, so no template names a game."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from referee import families
from referee.family import Words
from referee.web.glossary import TERM_IDS, TERMS

EXAMPLES = Path(__file__).resolve().parents[2] / "referee" / "examples"


def visible(r) -> str:
    """The page's text as a player reads it: no tags, attributes or entities; runs of space as one."""
    body = r.get_data(as_text=True)
    body = re.sub(r"<(script|style)\b.*?</\1>", "", body, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", body))
    return re.sub(r"\s+", " ", text).replace("( ", "(").replace(" )", ")").replace(" ,", ",")


def example_session(client, name: str) -> tuple[str, dict]:
    """A session holding the rounds of ``referee/examples/<name>-game.json``: (scorekeeper token, game)."""
    game = json.loads((EXAMPLES / f"{name}-game.json").read_text(encoding="utf-8"))
    r = client.post("/api/v1/sessions", json={"name": "Chuseok", "ruleset": game["ruleset"],
                                              "players": game["players"], "dealer": game["dealer"]})
    token = r.get_json()["edit_token"]
    for rnd in game["rounds"]:
        assert client.post(f"/api/v1/sessions/{token}/rounds", json=rnd).status_code == 201
    return token, game


def gostop_pages(client) -> dict[str, str]:
    token, _ = example_session(client, "gostop")
    round_id = client.get(f"/api/v1/sessions/{token}").get_json()["rounds"][0]["id"]
    return {
        "scoreboard": visible(client.get(f"/s/{token}")),
        "round entry": visible(client.get(f"/s/{token}/round/new")),
        "totals entry": visible(client.get(f"/s/{token}/round/new?entry=totals")),
        "delete": visible(client.get(f"/s/{token}/round/{round_id}/delete")),
        "new session": visible(client.get("/new?ruleset=gostop")),
    }


def test_a_gostop_table_calls_the_dealer_seon_on_every_screen(client):
    # Bug: every screen said 親 oya, Japanese for the dealer, to a Korean table.
    pages = gostop_pages(client)
    for name, text in pages.items():
        assert "親" not in text, name
        assert not re.search(r"\boya\b", text), f"{name}: {re.search(r'.{30}oya.{30}', text, re.S)}"
    assert "선 seon" in pages["scoreboard"]  # the badge on who deals next
    assert "seon" in pages["scoreboard"].split("Rounds", 1)[1]  # the rounds' dealer column
    assert "seon: Seoyeon" in pages["round entry"] or "seon: Jiwoo" in pages["round entry"]
    assert re.search(r"seon: \w+", pages["totals entry"])
    assert "Pick the first dealer (seon, 선)" in pages["new session"]


def test_a_roppyakken_table_still_calls_the_dealer_oya(client, keeper):
    assert "親 oya" in visible(client.get(f"/s/{keeper}"))
    assert "Pick the first dealer (oya, 親)" in visible(client.get("/new?ruleset=roppyakken"))


@pytest.mark.parametrize(("example", "link"), [
    ("gostop", "Words (광 열 띠 피, seon, nagari, 점, 점당…)"),
    ("hachihachi", "Words (光 種 短 カス, oya, kan, mon…)"),
    ("koikoi", "Words (光 種 短 カス, oya…)"),
    ("roppyakken", "Words (光 種 短 カス, oya, fuke…)"),
], ids=["gostop", "hachihachi", "koikoi", "roppyakken"])
def test_the_explanations_glossary_link_names_the_familys_words(client, example, link):
    # Bug: Go-Stop's link said "kan, mon" (Hachi-hachi's money) and Koi-Koi's "fuke" (no such round there).
    path = EXAMPLES / f"{example}-game.json"
    if path.exists():
        token, _ = example_session(client, example)
    else:  # no game example: the round example as a one-round session
        rnd = json.loads((EXAMPLES / f"{example}-round.json").read_text(encoding="utf-8"))
        r = client.post("/api/v1/sessions", json={"name": "One", "ruleset": rnd["ruleset"], "players": rnd["players"],
                                                  "dealer": rnd.get("dealer", rnd["players"][0])})
        token = r.get_json()["edit_token"]
        body = {k: v for k, v in rnd.items() if k not in ("ruleset", "options", "players")}
        assert client.post(f"/api/v1/sessions/{token}/rounds", json=body).status_code == 201, body
    text = visible(client.get(f"/s/{token}"))
    assert link in text


def test_a_gostop_nagari_result_is_marked_nagari_not_fuke(client):
    # Bug: the scored nagari said "fuke · void round", Roppyakken's void.
    token, _ = example_session(client, "gostop")
    r = client.post(f"/s/{token}/round/new", data={"action": "score", "stopped_by": "", "pile-0": "pine-crane"},
                    follow_redirects=True)
    text = visible(r)
    assert "nagari · void round" in text
    assert "fuke" not in text


@pytest.mark.parametrize("family", list(families.REGISTRY.values()), ids=lambda f: f.name)
def test_every_familys_dealer_and_void_words_are_explained_in_the_glossary(family):
    words = family.words
    assert words.dealer in TERM_IDS
    assert not words.void or words.void in TERM_IDS
    spelled = " ".join(f"{t.word} {t.kanji}" for t in TERMS)
    assert all(m in spelled for m in words.money), words.money
    assert words.dealer_native in spelled


def test_words_must_name_the_four_card_kinds():
    with pytest.raises(ValueError, match=r"Words.kinds has 3 names; expected 4 \(bright, animal, ribbon, chaff\)"):
        Words(kinds=("광", "열", "띠"))


@pytest.mark.parametrize(("example", "bright", "chip"), [
    ("gostop", "광", "Brights 광 ×3"),
    ("koikoi", "光", "Brights 光 ×"),
], ids=["gostop", "koikoi"])
def test_the_card_kinds_are_badged_in_the_familys_script(client, example, bright, chip):
    # Bug: Go-Stop's picker tiles and explanation chips said 光 種 短 カス, the Japanese kinds.
    token, _ = example_session(client, example)
    page = client.get(f"/s/{token}/round/new").get_data(as_text=True)
    # the tile may show the card's picture before its badge (issue 18: pictures by default)
    assert re.search(rf'value="pine-crane"[^>]*><span class="face">(?:<img[^>]*>)?<b>{bright}</b>', page)
    assert chip in visible(client.get(f"/s/{token}"))
    other = "光" if bright == "광" else "광"
    assert f"<b>{other}</b>" not in page


def test_the_explanations_local_names_carry_the_familys_language(client):
    # Bug: Go-Stop's 삼광, 3고, 피박 were marked lang="ja" (the local-name slot is "ja" in the JSON).
    token, _ = example_session(client, "gostop")
    board = client.get(f"/s/{token}").get_data(as_text=True)
    assert '<span lang="ko">삼광</span>' in board
    assert '<span lang="ja">' not in board


TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


# Bug (screen walk-through): the conflict page branched on ``s.family != 'roppyakken'`` (and lost a Roppyakken
# round's field); a template reads what the family provides (``family_words``, ``EntryForm.facts``) instead.
def test_no_template_branches_on_a_family_or_preset_name():
    compares = re.compile(r"\b(?:family|ruleset)\s*(?:==|!=|\bin\b)\s*[\[(]?\s*['\"]")
    found = [f"{p.relative_to(TEMPLATES)}: {m.group(0)}" for p in sorted(TEMPLATES.rglob("*.html"))
             for m in compares.finditer(p.read_text(encoding="utf-8"))]
    assert not found


def test_every_entry_form_names_a_facts_partial_that_exists():
    from referee.web.forms.rounds import ENTRY_FORMS

    for kind, form in ENTRY_FORMS.items():
        assert (TEMPLATES / form.facts).is_file(), kind
