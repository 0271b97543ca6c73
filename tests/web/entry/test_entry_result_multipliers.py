"""The scored result shows a multiplier only where one applied, and no yaku for a round entered as
totals.  Rule source: ../shared/KOIKOI-RULES.md; decisions where it is silent: docs/KOIKOI.md."""

from __future__ import annotations

import re

import pytest
from web_helpers import session, text
from werkzeug.datastructures import MultiDict

HANAMI = ["cherry-curtain", "chrysanthemum-sake-cup"]  # Hanami-zake (花見酒), 5 points


TESHI = ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1", "pine-chaff-2",
         "plum-chaff-1", "plum-chaff-2", "iris-chaff-1", "iris-chaff-2"]  # Teshi (手四), 6 points


def result_section(page: str) -> str:
    """The scored result (``#result``) as words, without the card chips ("Brights 光 ×1" counts cards)."""
    start = page.index('id="result"')
    section = page[start:page.index("</section>", start)]
    return text(re.sub(r'<span class="chip[^>]*>(?:(?!</span>).)*</span>[^<]*</span>', "", section))


# Bug (Koi-Koi QA): the result showed "×1" where nothing multiplied the round.
# KOIKOI-RULES.md "Lucky hands": a lucky hand wins at the deal and is never doubled; README "Totals
# only": a round entered as totals knows no yaku and no multiplier.  A plain stop with no factor
# ("The round": 7 points or more, koi-koi calls) is not multiplied either.  A multiplier is a line of
# its own (issue 13), so the table shows "×N" only where a factor applied, and the lines sum to the score.
@pytest.mark.parametrize(
    ("form", "score", "times"),
    [
        ({"hand-1": TESHI, "stopped_by": ""}, 6, ""),
        ({"entry": "totals", "total-0": "0", "total-1": "12"}, 12, ""),
        ({"pile-1": HANAMI, "stopped_by": "Ben"}, 5, ""),
        ({"pile-1": HANAMI, "stopped_by": "Ben", "call-0": "Aki"}, 10, "×2"),
    ],
    ids=["teshi-at-the-deal", "entered-totals", "plain-stop", "opponent-koikoi-x2"],
)
def test_the_result_shows_a_multiplier_only_where_one_applied(client, h, form, score, times):
    token = session(client, "koikoi", ["Aki", "Ben"])
    r = client.post(f"/s/{token}/round/new", data=MultiDict({"action": "score", "nonce": h.signed("m1"), **form}),
                    follow_redirects=True)
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    section = result_section(page)
    assert "×1" not in section
    row = re.search(r"<tr><th>Ben</th>(.*?)</tr>", page, re.S).group(1)
    assert re.findall(r"<td>(.*?)</td>", row)[1] == times
    assert re.search(rf"<strong>{score}</strong>", row)
    lines = re.search(r"<h4>Ben</h4>(.*?)</ul>", page, re.S).group(1)
    assert sum(int(n) for n in re.findall(r'<span class="pts">([+-]?\d+)</span>', lines)) == score


# Bug (Koi-Koi QA): a round of totals showed yaku it cannot know.
def test_a_round_of_totals_shows_no_yaku_it_does_not_know(client, h):
    # README "Totals only": the cards (so the yaku) of a round entered as totals are not known.
    token = session(client, "koikoi", ["Aki", "Ben"])
    form = {"action": "score", "nonce": h.signed("m2"), "entry": "totals", "total-0": "0", "total-1": "12"}
    page = client.post(f"/s/{token}/round/new", data=form, follow_redirects=True).get_data(as_text=True)
    row = re.search(r"<tr><th>Ben</th>(.*?)</tr>", page, re.S).group(1)
    assert re.findall(r"<td>(.*?)</td>", row)[0] == "–"


# Bug (Koi-Koi QA): a Hachi-hachi round of totals claimed "field ×1".
# Hachi-hachi rounds entered as totals: the field was not entered, so no "field ×1" is claimed for
# it (a multiplier carried into the round is still shown: RULES.md, big and grand fields carry over).
def test_a_hachihachi_round_of_totals_claims_no_field_multiplier(client, h):
    token = session(client, "hachihachi", ("Aki", "Ben", "Chiyo"))
    form = {"entry": "totals", "nonce": h.signed("m3"), "winner": "Aki",
            "sign-0": "+", "kan-0": "2", "mon-0": "0", "sign-1": "-", "kan-1": "2", "mon-1": "0",
            "sign-2": "+", "kan-2": "0", "mon-2": "0"}
    scored = client.post(f"/s/{token}/round/new", data={**form, "action": "score"},
                         follow_redirects=True).get_data(as_text=True)
    assert "×1" not in result_section(scored)
    assert client.post(f"/s/{token}/round/new", data={**form, "action": "save"}).status_code == 303
    assert "field ×1" not in client.get(f"/s/{token}").get_data(as_text=True)
