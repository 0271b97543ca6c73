"""A round form too large to send (413) loses nothing: "bad input gets a clear error and loses nothing".

Without JavaScript a snapped photo goes up whole with the round form (``photo.js`` shrinks it
first), so a photo over ``PHOTO_MAX_BYTES`` used to land on a bare "Too large" page with only
a Home link: every tap since the last step was gone.  Now the page says the photo was too large
and the limit, and links back to the same round with the form as it was sent (the photo left
out); the page's own draft (the live preview's) is left as it was.
"""

from __future__ import annotations

import html
import io
import re

import pytest
from web_helpers import web_app, words
from werkzeug.datastructures import MultiDict

from referee.web.nonces import sign_nonce

PHOTO_LIMIT = 10_000


@pytest.fixture
def app(tmp_path):
    return web_app(tmp_path, PHOTO_DETECTOR=lambda: (lambda image: []), PHOTO_MAX_BYTES=PHOTO_LIMIT,
                   MAX_CONTENT_LENGTH=8_000)


def ticked(page: str, slot: str) -> set[str]:
    """Card ids ticked in a picker, from the rendered page."""
    return {m.group(2) for m in re.finditer(r'<input type="checkbox" name="([\w-]+)" value="([\w-]+)"[^>]*?>', page)
            if m.group(1) == slot and " checked" in m.group(0)}


def back_link(r) -> str:
    """The 413 page's way back to the round (the first link into the session's round pages)."""
    links = [html.unescape(h) for h in re.findall(r'href="([^"]+)"', r.get_data(as_text=True))]
    back = [h for h in links if "/round/" in h]
    assert back, links
    return back[0]


def round_form(slot_cards: dict[str, list[str]], **fields: str) -> MultiDict:
    form = MultiDict({"nonce": sign_nonce("test", "n-1"), "tab": "0", "dealer": "Aki", "round_number": "1", **fields})
    for slot, cards in slot_cards.items():
        for c in cards:
            form.add(slot, c)
    return form


def test_a_photo_too_large_says_so_and_links_back_to_the_round_with_every_tap(client, h):
    keeper = h.new_session(client)
    form = round_form({"pile-0": ["pine-crane", "plum-bush-warbler"], "pile-1": ["cherry-curtain"]})
    form.add("snap-pile-0", (io.BytesIO(b"x" * 20_000), "pile.jpg"))
    form.add("snap", "pile-0")
    r = client.post(f"/s/{keeper}/round/photo", data=form, content_type="multipart/form-data")
    assert r.status_code == 413
    said = words(r)
    assert "photo is too large" in said
    assert re.search(r"2\d\.\d KB sent; the limit here is 9\.8 KB", said)  # the photo limit, not the app-wide one
    assert "Nothing you entered is lost" in said
    page = client.get(back_link(r))
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert ticked(body, "pile-0") == {"pine-crane", "plum-bush-warbler"}
    assert ticked(body, "pile-1") == {"cherry-curtain"}
    assert "too large" in words(page)  # said again beside the pile's photo


def test_a_photo_too_large_on_the_edit_page_goes_back_to_that_round(client, h):
    keeper = h.new_session(client)
    r = client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0)))
    assert r.status_code == 303
    round_id = client.get(f"/api/v1/sessions/{keeper}").get_json()["rounds"][0]["id"]
    form = round_form({"pile-0": ["pine-crane"]}, round_id=str(round_id), version="1")
    form.add("snap-pile-0", (io.BytesIO(b"x" * 20_000), "pile.jpg"))
    form.add("snap", "pile-0")
    r = client.post(f"/s/{keeper}/round/photo", data=form, content_type="multipart/form-data")
    assert r.status_code == 413
    page = client.get(back_link(r))
    assert "Edit round 1" in words(page)
    assert ticked(page.get_data(as_text=True), "pile-0") == {"pine-crane"}


def test_a_round_form_too_large_without_a_photo_keeps_its_cards_and_saves_nothing(client, h):
    # Score or Save of a form over MAX_CONTENT_LENGTH (here a pasted field of 9,000 characters).
    keeper = h.new_session(client)
    form = h.round_form(h.piles(0), pad="x" * 9_000)
    r = client.post(f"/s/{keeper}/round/new", data=form)
    assert r.status_code == 413
    assert "too large" in words(r)
    back = back_link(r)
    assert back.startswith(f"/s/{keeper}/round/new?step=")
    page = client.get(back)
    assert ticked(page.get_data(as_text=True), "pile-0") == set(h.piles(0)["Aki"])
    assert client.get(f"/api/v1/sessions/{keeper}").get_json()["rounds"] == []


def test_the_page_draft_is_left_as_it_was(client, h):
    keeper = h.new_session(client)
    draft = "page-draft-1"
    client.post(f"/s/{keeper}/round/preview", data=round_form({"pile-0": ["pine-crane"]}, draft=draft))
    before = client.get(f"/s/{keeper}/round/new?step={draft}").get_data(as_text=True)
    form = round_form({"pile-0": ["pine-crane", "maple-deer"]}, draft=draft)
    form.add("snap-pile-0", (io.BytesIO(b"x" * 20_000), "pile.jpg"))
    form.add("snap", "pile-0")
    assert client.post(f"/s/{keeper}/round/photo", data=form, content_type="multipart/form-data").status_code == 413
    after = client.get(f"/s/{keeper}/round/new?step={draft}").get_data(as_text=True)
    assert ticked(after, "pile-0") == ticked(before, "pile-0") == {"pine-crane"}


def test_a_text_field_over_its_own_limit_is_not_blamed_on_the_photo(tmp_path, h):
    # Found with this fix: a field over MAX_FORM_MEMORY_SIZE in a body under the photo limit was
    # "That photo is too large to send: 2.6 KB sent; the limit here is 9.8 KB".
    client = web_app(tmp_path, PHOTO_DETECTOR=lambda: (lambda image: []), PHOTO_MAX_BYTES=PHOTO_LIMIT,
                     MAX_FORM_MEMORY_SIZE=1_000).test_client()
    keeper = h.new_session(client)
    form = round_form({"pile-0": ["pine-crane"]}, json="y" * 2_000)
    form.add("snap-pile-0", (io.BytesIO(b"x" * 100), "pile.jpg"))
    r = client.post(f"/s/{keeper}/round/photo", data=form, content_type="multipart/form-data")
    assert r.status_code == 413
    said = words(r)
    assert "photo is too large" not in said
    assert "one of its text fields holds more than 1000 bytes" in said


def test_the_photo_script_gets_the_same_words(client, h):
    # photo.js shows the page's first .error after "Upload failed (413): ".
    keeper = h.new_session(client)
    form = round_form({})
    form.add("snap-pile-0", (io.BytesIO(b"x" * 20_000), "photo.jpg"))
    r = client.post(f"/s/{keeper}/round/photo", data=form, content_type="multipart/form-data",
                    headers={"X-Photo": "1"})
    assert r.status_code == 413
    first_error = re.search(r'<p class="error"[^>]*>(.*?)</p>', r.get_data(as_text=True), re.S).group(1)
    assert "photo is too large" in first_error
    assert "9.8 KB" in first_error


@pytest.mark.parametrize("referer", ["http://evil.example/phish", "//evil.example/phish", "javascript:alert(1)"])
def test_the_way_back_never_echoes_another_site(client, h, referer):
    keeper = h.new_session(client)
    form = round_form({"pile-0": ["pine-crane"]})
    form.add("snap-pile-0", (io.BytesIO(b"x" * 20_000), "pile.jpg"))
    r = client.post(f"/s/{keeper}/round/photo", data=form, content_type="multipart/form-data",
                    headers={"Referer": referer})
    body = r.get_data(as_text=True)
    assert "evil.example" not in body
    assert "javascript:" not in body
    assert all(href.startswith("/") and not href.startswith("//") for href in re.findall(r'href="([^"]+)"', body))


def test_another_form_too_large_links_back_to_its_own_page(client, app):
    # The import form (not a round): the same words about the limit, and a way back to the form.
    r = client.post("/import", data={"text": "x" * 9_000})
    assert r.status_code == 413
    assert "the limit here is 7.8 KB" in words(r)
    assert 'href="/import"' in r.get_data(as_text=True)


def test_a_refused_body_is_read_again_for_its_text_only():
    from werkzeug.test import EnvironBuilder

    from referee.web.too_large import read_sent

    data = MultiDict([("pile-0", "pine-crane"), ("snap-pile-0", (io.BytesIO(b"x" * 50_000), "p.jpg")),
                      ("snap-pile-1", (io.BytesIO(b""), "")), ("json", "y" * 600), ("tab", "1")])
    environ = EnvironBuilder(method="POST", data=data, content_type="multipart/form-data").get_environ()
    sent = read_sent(environ, keep=500, parts=1000)
    assert sent.fields == [("pile-0", "pine-crane"), ("tab", "1")]  # the photo's bytes never kept
    assert sent.files == ["snap-pile-0"]  # an empty file input sends no file
    assert sent.left_out  # the 600-character field did not fit in 500 bytes

    environ = EnvironBuilder(method="POST", data={"pile-0": "pine-crane", "json": "y" * 600}).get_environ()
    assert read_sent(environ, keep=500, parts=1000).fields == [("pile-0", "pine-crane")]
    del environ["CONTENT_LENGTH"]  # a chunked body: nothing to read again safely
    assert read_sent(environ, keep=500, parts=1000) is None
