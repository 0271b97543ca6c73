"""Nothing lost or counted twice at a real table (issue 18): two phones, Back, Reload, photos.

Each test names the row of issue 18 it pins.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from web_helpers import web_app
from werkzeug.datastructures import MultiDict

from referee import store


def text(r) -> str:
    return r.get_data(as_text=True)


def words(r) -> str:
    """The page's text as a reader sees it: tags dropped, spaces folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text(r))).split())


class _Forms(HTMLParser):
    """The page's forms: each one's action and (name, value) pairs, buttons apart."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action", ""), "fields": [], "buttons": []})
        elif self.forms and tag == "input" and a.get("name"):
            if a.get("type") not in ("checkbox", "radio") or "checked" in a:
                self.forms[-1]["fields"].append((a["name"], a.get("value", "")))
        elif self.forms and tag == "button" and a.get("name"):
            self.forms[-1]["buttons"].append((a["name"], a.get("value", "")))


def forms_of(r) -> list[dict]:
    parser = _Forms()
    parser.feed(text(r))
    return parser.forms


def opened_form(client, keeper, h, piles, nonce_field="nonce") -> MultiDict:
    """The new-round form as a phone opens it (its hidden fields), with ``piles`` tapped in."""
    page = client.get(f"/s/{keeper}/round/new")
    (form,) = [f for f in forms_of(page) if f["action"].startswith(f"/s/{keeper}/round/new")]
    data = MultiDict([(k, v) for k, v in form["fields"] if not k.startswith("pile-")])
    for i, p in enumerate(h.players):
        for cid in piles.get(p, []):
            data.add(f"pile-{i}", cid)
    data["action"] = "save"
    return data


def rounds(client, keeper) -> list:
    return client.get(f"/api/v1/sessions/{keeper}").get_json()["rounds"]


# ---- row 1: two phones save the same round number ---------------------------------------


def test_a_second_phone_saving_the_same_round_is_stopped_with_the_diff_and_a_choice(client, keeper, h):
    first = opened_form(client, keeper, h, h.piles(0))
    second = opened_form(client, keeper, h, h.piles(2))  # nearly the same cards, other piles
    assert first["round_number"] == second["round_number"] == "1"
    assert client.post(f"/s/{keeper}/round/new", data=first).status_code == 303
    stopped = client.post(f"/s/{keeper}/round/new", data=second)
    assert stopped.status_code == 409
    said = words(stopped)
    assert "Round 1 was just saved on another phone" in said
    assert "only in yours" in said
    assert "only in the saved one" in said
    assert len(rounds(client, keeper)) == 1  # nothing counted twice
    # "Save mine as round 2" saves it once, as round 2
    (offer,) = [f for f in forms_of(stopped) if f["action"].startswith(f"/s/{keeper}/round/new")]
    assert ("action", "save") in offer["buttons"]
    assert "Save mine as round 2" in said
    again = MultiDict(offer["fields"])
    again["action"] = "save"
    saved = client.post(offer["action"].split("#")[0], data=again)
    assert saved.status_code == 303
    assert "Round 2 saved" in text(client.get(saved.headers["Location"]))
    assert [r["round"] for r in rounds(client, keeper)] == [1, 2]
    assert client.post(offer["action"].split("#")[0], data=again).status_code == 303  # a double tap: once
    assert len(rounds(client, keeper)) == 2
    # "Discard mine" goes back to the scoreboard, where round 1 stays as saved
    assert f'href="/s/{keeper}"' in text(stopped)


def test_a_round_number_taken_between_check_and_write_is_refused_by_the_store(tmp_path):
    db = store.open_db(tmp_path / "t.sqlite3")
    sess = store.create_session(
        db, name="t", ruleset="roppyakken", family="roppyakken", options={}, players=["A", "B"], dealer="A"
    )
    first, _ = store.add_round(db, sess.id, {"piles": {"A": ["pine-crane"]}}, "tok-1", expected_position=1)
    rev = store.get_session(db, sess.id).rev
    with pytest.raises(store.RoundTakenError) as taken:
        store.add_round(db, sess.id, {"piles": {"B": ["pine-crane"]}}, "tok-2", expected_position=1)
    assert (taken.value.position, taken.value.next_position, taken.value.current.id) == (1, 2, first.id)
    assert len(store.rounds_of(db, sess.id)) == 1
    assert store.get_session(db, sess.id).rev == rev  # nothing written, not even the rev
    # the same token again is still "already saved", not a conflict
    row, created = store.add_round(db, sess.id, {"piles": {"A": ["pine-crane"]}}, "tok-1", expected_position=1)
    assert (row.id, created) == (first.id, False)


# ---- row 8: one score on one screen ------------------------------------------------------


def _bar_and_table(page: str) -> tuple[list[str], list[str]]:
    bar = page.split('id="preview"', 1)[1].split('class="bar-buttons"', 1)[0]
    table = page.split('id="result"', 1)[1].split("</table>", 1)[0]
    return re.findall(r'class="num">([^<]*)<', bar), re.findall(r"<td><strong>([^<]*)</strong></td>", table)


def test_a_scored_incomplete_round_shows_the_result_tables_scores_in_the_bar(client, keeper, h):
    # Aki's brights and ribbons alone: Ben and Chiyo hold nothing yet, so fuke voids the round.
    aki = ["pine-crane", "cherry-curtain", "pampas-moon"]
    aki += ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon"]
    r = client.post(f"/s/{keeper}/round/new", data=h.round_form({"Aki": aki}, action="score", nonce="inc"))
    page = text(client.get(r.headers["Location"].split("#")[0]))
    bar, table = _bar_and_table(page)
    assert table == ["0", "0", "0"]  # void by fuke, as the table says
    assert bar == table
    state = page.split('class="state"', 1)[1].split("</p>", 1)[0]
    assert "incomplete" in state
    assert "void (fuke)" in state


# ---- row 7: Back after Save -------------------------------------------------------------


def test_back_after_save_shows_the_saved_round_with_no_second_save_and_its_totals_before(client, keeper, h):
    scored = client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0), action="score", nonce="back7"))
    step = scored.headers["Location"].split("#")[0]
    assert 'value="save"' in text(client.get(step))
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0), nonce="back7")).status_code == 303
    client.get(f"/s/{keeper}")  # the scoreboard, where "Round 1 saved." is shown
    back = client.get(step)  # Back onto the scored page
    assert back.status_code == 200
    page = text(back)
    assert 'value="save"' not in page
    assert "Save round" not in page
    (saved,) = rounds(client, keeper)
    assert "Edit round 1" in words(back)
    assert "Round 1 is saved" in words(back)
    # the bar's totals are those before round 1 (0), never round 1 counted a second time
    after = re.findall(r'class="after">total (-?\d+) → (-?\d+)<', page)
    assert [int(a) for a, _ in after] == [0, 0, 0]
    assert [int(b) for _, b in after] == [saved["totals"][p] for p in h.players]


# ---- row 3: two photos, each with one of a month's two chaff ----------------------------


class _Stub:
    """A detector returning ``by_call`` in turn (the model is not what these tests are about)."""

    def __init__(self, *by_call):
        self.by_call, self.calls = list(by_call), 0

    def detect(self, image):
        self.calls += 1
        return self.by_call[min(self.calls - 1, len(self.by_call) - 1)]


def _jpeg() -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (320, 240), (30, 120, 60)).save(buf, "JPEG")
    return buf.getvalue()


def _photo_client(tmp_path, *by_call):
    app = web_app(tmp_path, PHOTO_DETECTOR=lambda: _Stub(*by_call))
    return app.test_client()


def _snap(client, keeper, slot: str, page=None):
    """Snap ``slot`` with the round form as ``page`` (the last page) shows it."""
    import io

    body = _page_form(page) if page is not None else MultiDict({"nonce": "n", "tab": "0", "dealer": "Aki"})
    body.add(f"snap-{slot}", (io.BytesIO(_jpeg()), "pile.jpg"))
    body.add("snap", slot)
    return client.post(f"/s/{keeper}/round/photo", data=body, content_type="multipart/form-data",
                       follow_redirects=True)


def _page_form(page) -> MultiDict:
    (form,) = [f for f in forms_of(page) if f["action"].endswith("#result")]
    return MultiDict([(k, v) for k, v in form["fields"]])


def _pile(page, seat: int) -> list[str]:
    return sorted(v for k, v in _page_form(page).items(multi=True) if k == f"pile-{seat}")


def _det(card: str, x: int = 0):
    from vision.detection import Detection

    return Detection(card, 0.95, (x, 0, x + 40, 60))


def test_two_piles_photos_each_with_one_cherry_chaff_are_two_cards_not_a_conflict(tmp_path, h):
    client = _photo_client(tmp_path, [_det("cherry-chaff-1"), _det("pine-crane", 50)], [_det("cherry-chaff-1")])
    keeper = h.new_session(client)
    page = _snap(client, keeper, "pile-0")
    page = _snap(client, keeper, "pile-1", page)
    assert _pile(page, 0) == ["cherry-chaff-1", "pine-crane"]
    assert _pile(page, 1) == ["cherry-chaff-2"]
    assert "data-conflict" not in text(page)
    assert "counts once" not in words(page)
    assert "1 card tapped in from 1 photo" in words(page)
    assert "2 cards tapped in from 1 photo" in words(page)


def test_two_photos_of_half_a_pile_each_add_up(tmp_path, h):
    # The capture guide's advice: two photos, half a pile each; both halves hold a pine chaff.
    first = [_det("pine-chaff-1"), _det("pine-crane", 50)]
    second = [_det(c, 50 * i) for i, c in enumerate(
        ["pine-chaff-1", "plum-chaff-1", "plum-chaff-2", "cherry-chaff-1", "maple-chaff-1", "iris-chaff-1"])]
    client = _photo_client(tmp_path, first, second)
    keeper = h.new_session(client)
    page = _snap(client, keeper, "pile-0", _snap(client, keeper, "pile-0"))
    assert len(_pile(page, 0)) == 8
    assert {"pine-chaff-1", "pine-chaff-2"} <= set(_pile(page, 0))
    assert "8 cards tapped in from 2 photos" in words(page)


def test_a_third_cherry_chaff_is_still_a_conflict_and_the_count_matches_the_pile(tmp_path, h):
    two = [_det("cherry-chaff-1"), _det("cherry-chaff-2", 50)]
    client = _photo_client(tmp_path, two, [_det("cherry-chaff-1"), _det("pine-crane", 50)])
    keeper = h.new_session(client)
    page = _snap(client, keeper, "pile-1", _snap(client, keeper, "pile-0"))
    assert _pile(page, 1) == ["pine-crane"]  # the deck has two cherry chaff: a third is flagged
    assert 'data-conflict="cherry-chaff-1"' in text(page)
    assert "1 card tapped in from 1 photo" in words(page)  # as the tab shows, not 2


# ---- row 6: "every card in no pile" only on the last pile; clear a pile, with undo -------


def _shown_buttons(page, kind: str) -> set[str]:
    return {m.group(1) for m in re.finditer(rf'<button class="{kind}" name="action" value="([\w-]+)"[^>]*>', text(page))
            if " hidden" not in m.group(0)}


def test_every_card_left_is_offered_on_the_last_pile_only(client, keeper, h):
    assert _shown_buttons(client.get(f"/s/{keeper}/round/new"), "rest") == set()  # not on the first tab
    piles = h.piles(0)
    two = {"Aki": piles["Aki"], "Ben": piles["Ben"]}
    r = client.post(f"/s/{keeper}/round/new", data=h.round_form(two, action="score", nonce="rest"))
    page = client.get(r.headers["Location"].split("#")[0])
    assert _shown_buttons(page, "rest") == {"rest-2"}  # Chiyo's, the last pile


def test_a_pile_can_be_cleared_and_the_clear_undone(client, keeper, h):
    piles = h.piles(0)
    r = client.post(f"/s/{keeper}/round/new", data=h.round_form(piles, action="clear-0", nonce="clr"))
    page = client.get(r.headers["Location"].split("#")[0])
    form = _page_form(page)
    assert form.getlist("pile-0") == []
    assert sorted(form.getlist("pile-1")) == sorted(piles["Ben"])  # the other piles stay
    n = len(piles["Aki"])
    assert f"Aki's pile was cleared ({n} cards)" in words(page)
    assert "clear-0" not in _shown_buttons(page, "clear")  # nothing left to clear
    form["action"] = "unclear-0"
    back = client.get(client.post(f"/s/{keeper}/round/new", data=form).headers["Location"].split("#")[0])
    assert sorted(_page_form(back).getlist("pile-0")) == sorted(piles["Aki"])
    assert "was cleared" not in words(back)
    assert rounds(client, keeper) == []  # neither step saved anything


# ---- row 2: Reload mid-entry, Back after Score, Reload after a Snap ---------------------


HX = {"HX-Request": "true"}


def test_every_tap_is_kept_on_the_server_and_reload_shows_it_unscored(client, keeper, h):
    opened = opened_form(client, keeper, h, {"Aki": h.piles(0)["Aki"][:5]})
    del opened["action"]
    tap = client.post(f"/s/{keeper}/round/preview", data=opened, headers=HX)
    url = tap.headers["HX-Replace-Url"]
    assert url.startswith(f"/s/{keeper}/round/new?step=")
    opened.add("pile-1", h.piles(0)["Ben"][0])  # one more tap: the same draft, now with it
    assert client.post(f"/s/{keeper}/round/preview", data=opened, headers=HX).headers["HX-Replace-Url"] == url
    reloaded = client.get(url)  # Reload (or Back to the page, or the tab reloaded after the camera)
    assert reloaded.status_code == 200
    form = _page_form(reloaded)
    assert sorted(form.getlist("pile-0")) == sorted(h.piles(0)["Aki"][:5])
    assert form.getlist("pile-1") == [h.piles(0)["Ben"][0]]
    assert form["nonce"] == opened["nonce"]  # the same one-time token: Save still saves once
    assert 'id="result"' not in text(reloaded)  # shown as typed, not scored
    assert 'id="save"' not in text(reloaded)  # no Save button (the hint may name it)
    assert rounds(client, keeper) == []


def test_the_edit_pages_taps_are_kept_under_its_own_route(client, keeper, h):
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0), nonce="e")).status_code == 303
    rid = rounds(client, keeper)[0]["id"]
    form = h.round_form(h.piles(2), action="score", round_id=str(rid))
    del form["action"]
    url = client.post(f"/s/{keeper}/round/preview", data=form, headers=HX).headers["HX-Replace-Url"]
    assert url.startswith(f"/s/{keeper}/round/{rid}/edit?step=")
    assert sorted(_page_form(client.get(url)).getlist("pile-0")) == sorted(h.piles(2)["Aki"])


def test_a_draft_id_of_another_session_is_not_overwritten(client, keeper, h):
    other = h.new_session(client, name="Other")
    form = h.round_form(h.piles(0), draft="shared-draft-id")
    del form["action"]
    mine = client.post(f"/s/{keeper}/round/preview", data=form, headers=HX).headers["HX-Replace-Url"]
    theirs = client.post(f"/s/{other}/round/preview", data=h.round_form({}, draft="shared-draft-id"), headers=HX)
    assert theirs.headers["HX-Replace-Url"].split("step=")[1] != "shared-draft-id"
    assert sorted(_page_form(client.get(mine)).getlist("pile-0")) == sorted(h.piles(0)["Aki"])


# ---- row 5: a photo snapped on the wrong tab: move it, or remove it, in one tap ----------


def _photo_step(client, keeper, page, fix: str):
    body = _page_form(page)
    body["fix"] = fix
    return client.post(f"/s/{keeper}/round/photo", data=body, follow_redirects=True)


def test_a_photo_moves_to_another_pile_with_its_cards_and_is_removed_with_them(tmp_path, h):
    client = _photo_client(tmp_path, [_det("pine-crane"), _det("pine-poetry-ribbon", 50)])
    keeper = h.new_session(client)
    page = _snap(client, keeper, "pile-0")
    (pid,) = _page_form(page).getlist("photo")
    assert f'value="move:{pid}:pile-1"' in text(page)
    moved = _photo_step(client, keeper, page, f"move:{pid}:pile-1")
    assert _pile(moved, 0) == []
    assert _pile(moved, 1) == ["pine-crane", "pine-poetry-ribbon"]
    assert _page_form(moved)["tab"] == "1"  # the page opens on Ben's pile, where the photo went
    ben = text(moved).split('id="photos-pile-1"', 1)[1].split('class="photo-slot"', 1)[0]
    assert f'name="photo" value="{pid}"' in ben  # the photo is Ben's now
    assert "2 cards tapped in from 1 photo" in words(moved)
    gone = _photo_step(client, keeper, moved, f"drop:{pid}")
    assert _pile(gone, 1) == []
    assert _page_form(gone).getlist("photo") == []


def test_removing_one_of_two_photos_keeps_the_cards_the_other_still_shows(tmp_path, h):
    first = [_det("pine-crane"), _det("pine-poetry-ribbon", 50)]
    client = _photo_client(tmp_path, first, [_det("pine-poetry-ribbon"), _det("plum-bush-warbler", 50)])
    keeper = h.new_session(client)
    page = _snap(client, keeper, "pile-0", _snap(client, keeper, "pile-0"))
    second = _page_form(page).getlist("photo")[1]
    left = _photo_step(client, keeper, page, f"drop:{second}")
    assert _pile(left, 0) == ["pine-crane", "pine-poetry-ribbon"]


# ---- same kind: a save that disagrees with itself ---------------------------------------


def test_setting_the_same_rules_through_the_store_keeps_the_rev_and_logs_nothing(tmp_path):
    db = store.open_db(tmp_path / "t.sqlite3")
    sess = store.create_session(db, name="t", ruleset="roppyakken", family="roppyakken",
                                options={"target": 600}, players=["A", "B", "C"], dealer="A")
    same = store.set_rules(db, sess.id, "roppyakken", {"target": 600}, "rules: nothing")
    assert (same.rev, same.updated) == (sess.rev, sess.updated)
    assert store.latest_change(db, sess.id) is None
    changed = store.set_rules(db, sess.id, "roppyakken", {"target": 300}, "target 300")
    assert changed.rev == sess.rev + 1
    assert store.latest_change(db, sess.id).summary == "target 300"


def test_a_changed_form_sent_again_with_a_used_token_is_refused_not_taken_for_the_saved_round(client, keeper, h):
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0), nonce="dig")).status_code == 303
    changed = h.piles(0)
    changed["Aki"], changed["Ben"] = changed["Ben"], changed["Aki"]
    refused = client.post(f"/s/{keeper}/round/new", data=h.round_form(changed, nonce="dig"))
    assert refused.status_code == 409
    assert "this form already saved round 1, with other cards" in words(refused)
    assert sorted(_page_form(refused).getlist("pile-0")) == sorted(changed["Aki"])  # the typing is kept
    (saved,) = rounds(client, keeper)
    assert sorted(saved["input"]["piles"]["Aki"]) == sorted(h.piles(0)["Aki"])  # round 1 as it was saved
    # the same form again, taps in another order, is the same save: "already saved"
    same = h.piles(0)
    same["Aki"] = same["Aki"][::-1]
    again = client.post(f"/s/{keeper}/round/new", data=h.round_form(same, nonce="dig"))
    assert again.status_code == 303
    assert "Round 1 saved. This form was sent twice" in text(client.get(again.headers["Location"]))
    assert len(rounds(client, keeper)) == 1


def test_a_refused_save_names_a_get_that_shows_it_again_for_back_and_reload(client, keeper, h):
    # Chiyo's pile holds Aki's crane too: "a card in two piles", 422, answered from the POST.
    piles = h.piles(0)
    piles["Chiyo"] = [*piles["Chiyo"], piles["Aki"][0]]
    refused = client.post(f"/s/{keeper}/round/new", data=h.round_form(piles, nonce="fail"))
    assert refused.status_code == 422
    url = re.search(r'<body data-replace-url="([^"]+)"', text(refused)).group(1)
    assert url.startswith(f"/s/{keeper}/round/new?step=")
    shown = client.get(html.unescape(url))  # what Back onto the page, or Reload, asks for now
    assert shown.status_code == 200
    error = re.search(r'<p class="error" role="alert">([^<]+)', text(refused)).group(1)
    assert error in text(shown)
    assert sorted(_page_form(shown).getlist("pile-2")) == sorted(piles["Chiyo"])
    assert rounds(client, keeper) == []
    assert "data-replace-url" not in text(shown)  # a GET is already what Reload repeats


# ---- smaller: the capture guide takes the first screen only until it has been seen -------


def test_the_capture_guide_is_folded_once_this_phone_has_seen_it(tmp_path, h):
    client = _photo_client(tmp_path, [_det("pine-crane"), _det("cherry-curtain", 50)])
    keeper = h.new_session(client)
    first = text(client.get(f"/s/{keeper}/round/new"))
    assert first.count('<details class="photo-guide-fold" open>') == 3  # a new phone: shown
    client.set_cookie("guide-seen", "1")  # what app.js sets once it was shown
    later = text(client.get(f"/s/{keeper}/round/new"))
    assert '<details class="photo-guide-fold" open>' not in later
    assert later.count('<details class="photo-guide-fold">') == 3  # folded, one tap away
    assert "How to photograph a pile" in later


# ---- beyond: "Rematch with these players" when a game ends ------------------------------


def test_a_finished_game_offers_a_rematch_with_the_same_seats_rules_and_the_next_oya(client, h):
    keeper = h.new_session(client, **{"opt.target": "100"})
    assert client.post(f"/s/{keeper}/rematch").status_code == 409  # not before the game is over
    assert "Rematch with these players" not in text(client.get(f"/s/{keeper}"))
    done = client.post(f"/api/v1/sessions/{keeper}/rounds", json={"totals": {"Aki": 20, "Ben": 150, "Chiyo": 0}})
    assert done.status_code == 201, done.get_json()
    before = client.get(f"/api/v1/sessions/{keeper}").get_json()
    assert before["winner"] == "Ben"
    assert "Rematch with these players" in text(client.get(f"/s/{keeper}"))
    r = client.post(f"/s/{keeper}/rematch")
    assert r.status_code == 303
    new = r.headers["Location"].rsplit("/", 1)[-1]
    after = client.get(f"/api/v1/sessions/{new}").get_json()
    assert after["players"] == before["players"]
    assert (after["ruleset"], after["options"]) == (before["ruleset"], before["options"])
    assert after["dealer"] == before["next_dealer"]
    assert after["rounds"] == []
    assert after["name"] == "Friday · rematch"


def test_rematch_tapped_twice_starts_one_game(app, client, h):
    # bug (issue 18 leftover): Rematch had no double-tap guard, so two taps made two sessions
    keeper = h.new_session(client, **{"opt.target": "100"})
    done = client.post(f"/api/v1/sessions/{keeper}/rounds", json={"totals": {"Aki": 20, "Ben": 150, "Chiyo": 0}})
    assert done.status_code == 201
    from referee.web.db import get_db

    def sessions() -> int:
        with app.app_context():
            return len(store.list_sessions(get_db()))

    sessions_before = sessions()
    first = client.post(f"/s/{keeper}/rematch")
    second = client.post(f"/s/{keeper}/rematch")
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert sessions() == sessions_before + 1
    assert "rematch had already started" in text(client.get(second.headers["Location"]))
