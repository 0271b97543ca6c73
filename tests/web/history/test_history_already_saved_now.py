"""A form sent again is answered "saved" (or "already applied") as its first Save was; when a later
change replaced what it saved, the answer also says what is in effect now, in players' words."""

from __future__ import annotations

import html
import re

from web_helpers import rounds, text


def _nonce(page: str) -> str:
    return re.search(r'name="nonce" value="([^"]+)"', page).group(1)


def _flashes(client, r) -> str:
    """The notice the answer's page shows last (the answer to ``r``)."""
    assert r.status_code == 303, r.status_code
    page = html.unescape(client.get(r.headers["Location"]).get_data(as_text=True))
    return " ".join(re.findall(r'<p class="flash"[^>]*>(.*?)</p>', page, flags=re.S)[-1].split())


def _edit(client, keeper, rnd_id: int, piles, h, nonce: str) -> None:
    version = str(rounds(client, keeper)[0]["version"])
    r = client.post(f"/s/{keeper}/round/{rnd_id}/edit", data=h.round_form(piles, nonce=nonce, version=version))
    assert r.status_code == 303


# Bug (new-user try): a new-round form sent again after its round was edited said only "Round 1 was already
# saved", though round 1 no longer had those cards.
def test_a_round_form_sent_again_after_an_edit_says_what_the_round_is_now(client, keeper, h):
    first = h.round_form(h.piles(0), nonce="back")
    assert client.post(f"/s/{keeper}/round/new", data=first).status_code == 303
    (rnd,) = rounds(client, keeper)
    _edit(client, keeper, rnd["id"], h.piles(2), h, "someone-else")
    said = _flashes(client, client.post(f"/s/{keeper}/round/new", data=first))
    assert "Round 1 saved. This form was sent twice" in said
    assert "It was changed after that: round 1 now scores Aki 50, Ben 220, Chiyo 70" in said


def test_a_round_form_sent_again_unchanged_since_says_only_saved_once(client, keeper, h):
    first = h.round_form(h.piles(0), nonce="back")
    assert client.post(f"/s/{keeper}/round/new", data=first).status_code == 303
    said = _flashes(client, client.post(f"/s/{keeper}/round/new", data=first))
    assert said == "Round 1 saved. This form was sent twice: the second send changed nothing."


def test_an_edit_form_sent_again_after_a_later_edit_says_what_the_round_is_now(client, keeper, h):
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0))).status_code == 303
    (rnd,) = rounds(client, keeper)
    url = f"/s/{keeper}/round/{rnd['id']}/edit"
    mine = h.round_form(h.piles(2), nonce="mine", version=str(rnd["version"]))
    assert client.post(url, data=mine).status_code == 303
    _edit(client, keeper, rnd["id"], h.piles(0), h, "later")
    said = _flashes(client, client.post(url, data=mine))
    assert "Round 1 updated; totals and later dealers recomputed. This form was sent twice" in said
    assert "It was changed after that: round 1 now scores Aki 70, Ben 50, Chiyo 220" in said


def test_the_form_back_after_save_says_when_its_round_was_changed_since(client, keeper, h):
    first = h.round_form(h.piles(0), nonce="back", action="score")
    step = client.post(f"/s/{keeper}/round/new", data=first)
    first["action"] = "save"
    assert client.post(f"/s/{keeper}/round/new", data=first).status_code == 303
    (rnd,) = rounds(client, keeper)
    _edit(client, keeper, rnd["id"], h.piles(2), h, "later")
    page = text(client.get(step.headers["Location"]).get_data(as_text=True))  # Back onto the scored form
    assert "Round 1 is saved" in page
    assert "It was changed after that: round 1 now scores Aki 50, Ben 220, Chiyo 70" in page


# Bug (new-user try): an "Apply these rules" form sent again after another rules change said "These rules were
# already applied from this form", not which rules score the session now.
def test_a_rule_fix_sent_again_after_another_says_which_rules_are_in_effect_now(client, keeper):
    def apply_form(extra: str) -> dict[str, str]:
        page = client.get(f"/s/{keeper}/what-if", query_string={"ruleset": "roppyakken", "extra": extra})
        body = page.get_data(as_text=True)
        form = body[body.index('<form method="post"'):]
        return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form[: form.index("</form>")]))

    first, second = apply_form("target=300"), apply_form("target=900")
    assert client.post(f"/s/{keeper}/what-if", data=first).status_code == 303
    assert client.post(f"/s/{keeper}/what-if", data=second).status_code == 303
    said = _flashes(client, client.post(f"/s/{keeper}/what-if", data=first))
    assert "already applied from this form" in said
    assert "They were changed after that: the session is now scored with Roppyakken" in said
    assert "target=900" in said
