"""Photo to score (issue 6): upload, detection as JSON and as the filled picker, corrections,
conflicts, deck checks, bad uploads, evidence (EXIF stripped, deleted with its round).

A stub detector stands in for the model: these tests are about the flow, not recognition.
"""

from __future__ import annotations

import io
import threading

import pytest
from PIL import Image
from web_helpers import text, web_app
from werkzeug.datastructures import MultiDict

from referee import store
from vision.detection import SUGGEST_FLOOR, Detection
from vision.errors import ModelError

ONE = [
    Detection("pine-crane", 0.97, (10, 10, 110, 170)),
    Detection("pine-poetry-ribbon", 0.91, (120, 10, 220, 170)),
    Detection("cherry-curtain", 0.62, (230, 10, 330, 170), uncertain=True),
]


def test_the_stub_photos_uncertain_card_is_worth_asking_about():
    # the tests below read it as a suggestion, so it must stay at or above the floor: it was
    # 0.42 until the floor rose to 0.43 with the box verifier (0.41 since the 8-bit localiser),
    # and three tests fell with it
    assert SUGGEST_FLOOR <= ONE[2].confidence < 1


def jpeg(w: int = 640, h: int = 480, *, gps: bool = False) -> bytes:
    """A plain JPEG made at test time; with ``gps``, EXIF carrying a location."""
    im = Image.new("RGB", (w, h), (30, 120, 60))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"
    if gps:
        exif[0x8825] = {1: "N", 2: (35.0, 39.0, 0.0), 3: "E", 4: (139.0, 44.0, 0.0)}
    buf = io.BytesIO()
    im.save(buf, "JPEG", exif=exif.tobytes())
    return buf.getvalue()



def _first_round(app, keeper: str):
    """The first saved round of the keeper's session and the photos kept with it (store rows)."""
    with app.app_context():
        from referee.web import get_db

        sess, _ = store.find_session(get_db(), keeper)
        rnd = store.rounds_of(get_db(), sess.id)[0]
        return rnd, store.photos_of_round(get_db(), sess.id, rnd.id)

def bomb_png() -> bytes:
    """A PNG header claiming 20000 x 20000 pixels (400 MP), with no pixel data."""
    import struct
    import zlib

    ihdr = struct.pack(">IIBBBBB", 20000, 20000, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    head = struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))
    idat = struct.pack(">I", 0) + b"IDAT" + struct.pack(">I", zlib.crc32(b"IDAT"))
    return b"\x89PNG\r\n\x1a\n" + head + idat


class Stub:
    """Returns ``by_call`` detections in turn (the last one repeats); counts its calls."""

    def __init__(self, *by_call, error: Exception | None = None):
        self.by_call = list(by_call) or [ONE]
        self.calls = 0
        self.error = error
        self.images = []

    def detect(self, image):
        self.images.append(image)
        self.calls += 1
        if self.error:
            raise self.error
        return self.by_call[min(self.calls - 1, len(self.by_call) - 1)]


def make_app(tmp_path, stub, **cfg):
    return web_app(tmp_path, **{"PHOTO_DETECTOR": lambda: stub, **cfg})


@pytest.fixture
def stub():
    return Stub()


@pytest.fixture
def app(tmp_path, stub):  # overrides the web conftest's app: same config plus the stub
    return make_app(tmp_path, stub)


def nonce() -> str:
    """A round-form token signed as the app signs it (SECRET_KEY "test")."""
    from referee.web.nonces import sign_nonce

    return sign_nonce("test", "n-1")


def snap(client, keeper, slot="pile-0", data=None, form=None, name="pile.jpg"):
    body = MultiDict(form or {"nonce": nonce(), "tab": "0", "dealer": "Aki"})
    body.add(f"snap-{slot}", (io.BytesIO(jpeg() if data is None else data), name))
    body.add("snap", slot)
    return client.post(f"/s/{keeper}/round/photo", data=body, content_type="multipart/form-data", follow_redirects=True)


def step(client, keeper, form):
    """Post the round form to the photo route without a file (a correction, Keep with, Yes / No)."""
    return client.post(f"/s/{keeper}/round/photo", data=form, follow_redirects=True)


def checked(html: str, slot: str) -> set[str]:
    """Card ids ticked in a picker, from the rendered page."""
    import re

    out = set()
    for m in re.finditer(r"<input type=\"checkbox\" name=\"([\w-]+)\" value=\"([\w-]+)\"[^>]*?>", html):
        if m.group(1) == slot and " checked" in m.group(0):
            out.add(m.group(2))
    return out


def photo_ids(html: str) -> list[str]:
    import re

    return re.findall(r'name="photo" value="([\w-]+)"', html)


# ---- the API ------------------------------------------------------------------------


def test_detect_api_returns_the_cli_json(client, stub):
    r = client.post("/api/v1/detect", data={"image": (io.BytesIO(jpeg()), "table.jpg")})
    assert r.status_code == 200
    assert r.get_json() == {"image": "table.jpg", "detections": [d.to_dict() for d in ONE]}
    assert stub.calls == 1


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (b"", 422, "empty"),
        (b"this is not a photo at all", 422, "not a photo this app can open"),
        (jpeg()[:400], 422, "truncated"),
        (bomb_png(), 422, "limit"),  # 20000 x 20000 pixels claimed: refused before decoding
    ],
    ids=["empty", "not-an-image", "truncated", "bomb"],
)
def test_detect_api_bad_images(tmp_path, body, status, words):
    from vision.detector import Detector  # noqa: F401  (the real loader path decodes)

    app = make_app(tmp_path, lambda image: __import__("vision").load_image(image) and [])
    r = app.test_client().post("/api/v1/detect", data={"image": (io.BytesIO(body), "x.jpg")})
    assert r.status_code == status, r.get_data(as_text=True)
    assert words in r.get_json()["message"]


def test_detect_api_too_large_is_413_with_a_message(tmp_path, stub):
    app = make_app(tmp_path, stub, PHOTO_MAX_BYTES=10_000)
    r = app.test_client().post("/api/v1/detect", data={"image": (io.BytesIO(b"x" * 20_000), "big.jpg")})
    assert r.status_code == 413
    assert "too large" in r.get_json()["message"]
    assert stub.calls == 0


def test_detect_api_without_a_model_is_503(tmp_path):
    def missing():
        raise ModelError("model file 'localiser.onnx' not found")

    app = make_app(tmp_path, None)
    app.extensions["photo_runner"]._make = missing
    r = app.test_client().post("/api/v1/detect", data={"image": (io.BytesIO(jpeg()), "a.jpg")})
    assert r.status_code == 503
    assert "localiser.onnx" in r.get_json()["message"]


class Blocking:
    """A detector that signals when it starts and then waits until the test releases it."""

    def __init__(self):
        self.started, self.release, self.finished = threading.Event(), threading.Event(), threading.Event()

    def detect(self, image):
        self.started.set()
        self.release.wait(30)
        self.finished.set()
        return ONE


def test_slow_detection_times_out_and_other_requests_still_answer(tmp_path):
    # Issue 10, item 12: once asserted a wall-clock time after a sleep.  Now it checks the
    # behaviour: while the detector is known to be busy (an event it sets), a page answers,
    # and the detect call gives up with 504 while the detector still has not returned.
    det = Blocking()
    app = make_app(tmp_path, det, PHOTO_TIMEOUT=0.3)
    c = app.test_client()
    out = {}
    t = threading.Thread(
        target=lambda: out.setdefault("r", c.post("/api/v1/detect", data={"image": (io.BytesIO(jpeg()), "a.jpg")}))
    )
    t.start()
    try:
        assert det.started.wait(30), "the detector never started"
        assert app.test_client().get("/").status_code == 200  # not stalled by the running detection
        t.join(30)
        assert not t.is_alive()
        assert not det.finished.is_set()  # the 504 came while the detector was still busy
        assert out["r"].status_code == 504
        assert "longer than 0.3 s" in out["r"].get_json()["message"]
    finally:
        det.release.set()


# ---- the round form ------------------------------------------------------------------


def test_snap_fills_the_players_picker_with_confidences(client, keeper, stub):
    r = snap(client, keeper, "pile-1")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    # issue 9: only the certain cards are tapped in; the 62% one is a suggestion beside the photo
    assert checked(html, "pile-1") == {"pine-crane", "pine-poetry-ribbon"}
    assert checked(html, "pile-0") == set()
    assert "Cherry with Curtain 桜に幕?" in html
    assert "62% sure" in html
    assert "97%" in html
    assert 'capture="environment"' in html
    assert 'accept="image/*"' in html
    assert len(photo_ids(html)) == 1
    # the detector saw the downscaled, oriented image, not the upload bytes
    assert isinstance(stub.images[0], Image.Image)


def test_two_photos_of_one_pile_merge(tmp_path, h):
    stub = Stub(ONE[:2], [ONE[1], Detection("pine-chaff-1", 0.8, (0, 0, 50, 80))])
    client = make_app(tmp_path, stub).test_client()
    keeper = h.new_session(client)
    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    form = MultiDict({"nonce": "n-1", "tab": "0"})
    for pid in photo_ids(html):
        form.add("photo", pid)
    for c in checked(html, "pile-0"):
        form.add("pile-0", c)
    html = snap(client, keeper, "pile-0", form=form).get_data(as_text=True)
    assert checked(html, "pile-0") == {"pine-crane", "pine-poetry-ribbon", "pine-chaff-1"}
    assert "3 cards tapped in from 2 photos" in html


def _state(html: str, slots=("pile-0", "pile-1", "pile-2")) -> MultiDict:
    """The round form as the page shows it: its token, photos and ticked cards."""
    import re

    form = MultiDict({"nonce": re.search(r'name="nonce" value="([^"]+)"', html).group(1), "tab": "0"})
    for pid in photo_ids(html):
        form.add("photo", pid)
    for s in slots:
        for c in checked(html, s):
            form.add(s, c)
    return form


def test_card_in_two_piles_is_flagged_on_both_and_never_scored_twice(client, keeper):
    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    html = snap(client, keeper, "pile-1", form=_state(html)).get_data(as_text=True)
    # the second photo's copies are not tapped in; the conflict shows on both piles
    assert checked(html, "pile-1") == set()
    assert html.count('data-conflict="pine-crane"') == 2
    assert 'value="keep:pine-crane:pile-1"' in html
    # one tap resolves it: keep the crane with Ben
    form = _state(html)
    form["fix"] = "keep:pine-crane:pile-1"
    html = step(client, keeper, form).get_data(as_text=True)
    assert "pine-crane" in checked(html, "pile-1")
    assert "pine-crane" not in checked(html, "pile-0")
    assert 'data-conflict="pine-crane"' not in html
    assert 'data-conflict="pine-poetry-ribbon"' in html  # the others still wait for a tap


# Bug (phone walk): the line read "Keep it with: [Keep with Chiyo's pile]", saying it twice.
def test_a_conflict_line_says_keep_with_once_on_each_button(client, keeper):
    import re

    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    html = snap(client, keeper, "pile-1", form=_state(html)).get_data(as_text=True)
    line = re.search(r'<p class="warning conflict" data-conflict="pine-crane">.*?</p>', html, re.S).group(0)
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", line)).strip().replace("&#39;", "'")
    assert said.endswith("it counts once at most. Keep with Aki's pile Keep with Ben's pile")
    assert said.count("Keep") == 2


def test_correcting_a_detection_replaces_or_removes_the_card(client, keeper):
    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    pid = photo_ids(html)[0]
    form = _state(html)
    form[f"as-{pid}-2"] = "cherry-poetry-ribbon"  # the uncertain one was misread
    form[f"as-{pid}-1"] = ""  # not a card
    html = step(client, keeper, form).get_data(as_text=True)
    assert checked(html, "pile-0") == {"pine-crane", "cherry-poetry-ribbon"}
    # the correction is kept with the photo
    form = _state(html)
    html = step(client, keeper, form).get_data(as_text=True)
    assert checked(html, "pile-0") == {"pine-crane", "cherry-poetry-ribbon"}


def test_saving_keeps_the_corrected_cards_and_the_photo(client, keeper, app, tmp_path):
    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    pid = photo_ids(html)[0]
    form = _state(html)
    form[f"as-{pid}-2"] = ""
    form["action"] = "save"
    r = client.post(f"/s/{keeper}/round/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    rnd, photos = _first_round(app, keeper)
    assert rnd.data["piles"]["Aki"] == ["pine-crane", "pine-poetry-ribbon"]
    assert [p.id for p in photos] == [pid]
    page = client.get(f"/s/{keeper}/round/{rnd.id}/photos").get_data(as_text=True)
    assert f"/photo/{pid}.jpg" in page
    assert "<rect" in page
    assert client.get(f"/s/{keeper}/round/{rnd.id}/edit").get_data(as_text=True).count(f'value="{pid}"') == 1


def test_evidence_is_downscaled_without_exif_and_deleted_with_its_round(client, keeper, app, tmp_path):
    html = snap(client, keeper, "pile-0", data=jpeg(4000, 3000, gps=True)).get_data(as_text=True)
    pid = photo_ids(html)[0]
    files = list((tmp_path / "photos").rglob("*.jpg"))
    assert len(files) == 1
    with Image.open(files[0]) as im:
        assert max(im.size) == 1600
        assert not im.getexif()
    assert b"Exif" not in files[0].read_bytes()[:2000]
    with client.get(f"/s/{keeper}/photo/{pid}.jpg") as r:
        assert r.data == files[0].read_bytes()
    form = _state(html)
    form["action"] = "save"
    assert client.post(f"/s/{keeper}/round/new", data=form).status_code == 303
    rid = _first_round(app, keeper)[0].id
    assert client.post(f"/s/{keeper}/round/{rid}/delete").status_code == 303
    assert not files[0].exists()
    assert client.get(f"/s/{keeper}/photo/{pid}.jpg").status_code == 404


@pytest.mark.parametrize(
    ("body", "words"),
    [(b"", "empty"), (b"GIF89a-not-really", "could not be read"), (jpeg()[:300], "truncated")],
    ids=["empty", "not-an-image", "truncated"],
)
def test_bad_photo_keeps_the_taps_and_says_why(client, keeper, stub, body, words):
    form = MultiDict({"nonce": "n-1", "tab": "0", "pile-2": "plum-bush-warbler"})
    r = snap(client, keeper, "pile-0", data=body, form=form)
    html = r.get_data(as_text=True)
    assert words in html
    assert checked(html, "pile-2") == {"plum-bush-warbler"}
    assert stub.calls == 0


# Bug: Detect cards pressed with no photo chosen did nothing and said nothing.
@pytest.mark.parametrize("sent", ["empty-file-field", "no-file-field"])
def test_detect_cards_without_a_photo_says_choose_one_and_keeps_the_taps(client, keeper, stub, sent):
    body = MultiDict({"nonce": nonce(), "tab": "0", "dealer": "Aki", "pile-2": "plum-bush-warbler", "snap": "pile-0"})
    if sent == "empty-file-field":
        body.add("snap-pile-0", (io.BytesIO(b""), ""))  # what a browser sends for a file input left empty
    r = client.post(f"/s/{keeper}/round/photo", data=body, content_type="multipart/form-data")
    assert r.status_code == 303
    assert r.headers["Location"].endswith("#photos-pile-0")
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    slot = html.split('id="photos-pile-0"', 1)[1].split('class="photo-slot"', 1)[0]
    assert "Choose or take a photo first" in slot
    assert checked(html, "pile-2") == {"plum-bush-warbler"}
    assert stub.calls == 0


def test_photo_js_says_the_same_when_no_photo_is_chosen():
    from pathlib import Path

    from referee.web.photos import NO_PHOTO

    assert f'var NO_PHOTO = "{NO_PHOTO}";' in (Path(__file__).parents[3] / "templates/static/photo.js").read_text()


def test_detector_failure_keeps_the_photo_and_the_picker(tmp_path, h):
    stub = Stub(error=RuntimeError("onnx exploded"))
    client = make_app(tmp_path, stub).test_client()
    keeper = h.new_session(client)
    form = MultiDict({"nonce": "n-1", "tab": "0", "pile-2": "plum-bush-warbler"})
    html = snap(client, keeper, "pile-0", form=form).get_data(as_text=True)
    assert "Card recognition failed" in html
    assert "onnx exploded" in html
    assert len(photo_ids(html)) == 1  # the photo is kept
    assert checked(html, "pile-2") == {"plum-bush-warbler"}


def test_missing_model_in_the_round_form_says_so(tmp_path, h):
    def missing():
        raise ModelError("model file 'classifier.onnx' not found")

    client = make_app(tmp_path, None, PHOTO_DETECTOR=missing).test_client()
    keeper = h.new_session(client)
    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    assert "not available on this server" in html
    assert "classifier.onnx" in html
    assert len(photo_ids(html)) == 1


def test_huge_photo_in_the_round_form_is_413(tmp_path, stub, h):
    client = make_app(tmp_path, stub, PHOTO_MAX_BYTES=10_000).test_client()
    keeper = h.new_session(client)
    r = snap(client, keeper, "pile-0", data=b"x" * 20_000)
    assert r.status_code == 413
    assert "too large" in r.get_data(as_text=True)


def test_viewer_cannot_snap(client, keeper, viewer):
    assert snap(client, viewer, "pile-0").status_code == 403


# ---- deck checks --------------------------------------------------------------------


def test_deck_check_flags_odd_piles_and_cards_in_no_pile(client, keeper):
    form = MultiDict({"pile-0": "pine-crane", "pile-1": "plum-bush-warbler"})
    form.add("pile-1", "plum-poetry-ribbon")
    html = client.post(f"/s/{keeper}/round/deck-check", data=form).get_data(as_text=True)
    assert "3 of 48" in html
    assert "Aki's pile has an odd number" in html
    assert "Ben's pile has" not in html
    assert "45 cards in no pile" in html


# Bug (screen walk-through): "1 cards in no pile".
def test_deck_check_says_one_card_in_no_pile(client, keeper):
    from referee.cards import CARDS

    form = MultiDict([("pile-0", c.id) for c in CARDS[1:]])
    html = client.post(f"/s/{keeper}/round/deck-check", data=form).get_data(as_text=True)
    assert "47 of 48" in html
    assert "1 card in no pile" in html
    assert "1 cards" not in html


COVERED_ONE = [Detection("pine-chaff-1", 0.1, (10, 10, 90, 150), uncertain=True, covered=True, visible=0.1)]


@pytest.mark.parametrize(
    ("in_piles", "covered", "named"),
    [
        (47, 1, True),  # one card in no pile, one too covered to read: it must be that card
        (46, 1, False),  # two cards in no pile: either could be the covered one
        (47, 2, False),  # two covered cards for one missing card: no way to tell which
    ],
    ids=["one missing, one covered", "two missing", "two covered"],
)
def test_deck_check_names_a_covered_card_by_elimination(client, keeper, stub, in_piles, covered, named):
    from referee.cards import CARD_IDS

    stub.by_call = [COVERED_ONE * covered]
    pid = photo_ids(snap(client, keeper, "pile-0").get_data(as_text=True))[0]
    # the missing card is the last in deck order, not the detector's guess (pine chaff)
    form = MultiDict([("photo", pid), *((f"pile-{i % 2}", c) for i, c in enumerate(CARD_IDS[:in_piles]))])
    html = client.post(f"/s/{keeper}/round/deck-check", data=form).get_data(as_text=True)
    line = "shows a card too covered to read, and Paulownia chaff is the only card in no pile: that must be it."
    assert (line in html) is named
    if named:
        assert "Tap it into Aki&#39;s pile." in html or "Tap it into Aki's pile." in html


def test_hachihachi_deck_check_shows_the_gap_to_264(client, h):
    keeper = h.new_session(client, ruleset="hachihachi")
    form = MultiDict({"pile-0": "pine-crane"})  # a bright: 20 points
    html = client.post(f"/s/{keeper}/round/deck-check", data=form).get_data(as_text=True)
    assert "Piles total 20 of 264 points: 244 missing" in html
    page = client.get(f"/s/{keeper}/round/new").get_data(as_text=True)
    field = client.get(f"/s/{keeper}/round/hands?part=field").get_data(as_text=True)  # loaded when opened
    assert 'name="snap-hand-f"' in field  # the field (multiplier) can be snapped too
    assert 'name="snap-pile-0"' in page
    hands = client.get(f"/s/{keeper}/round/hands").get_data(as_text=True)  # loaded when opened
    assert 'name="snap-hand-0"' in hands


def test_score_then_save_keeps_the_photo_with_the_round(client, keeper, app):
    # once lost: "Score round" re-rendered the form without the photo ids, so Save dropped the photo
    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    pid = photo_ids(html)[0]
    form = _state(html)
    form["action"] = "score"
    html = client.post(f"/s/{keeper}/round/new", data=form, follow_redirects=True).get_data(as_text=True)
    assert photo_ids(html) == [pid]
    form = _state(html)
    form["action"] = "save"
    assert client.post(f"/s/{keeper}/round/new", data=form).status_code == 303
    assert [p.id for p in _first_round(app, keeper)[1]] == [pid]


def test_slow_detection_in_the_round_form_keeps_the_photo_and_the_taps(tmp_path, h):
    det = Blocking()
    client = make_app(tmp_path, det, PHOTO_TIMEOUT=0.2).test_client()
    keeper = h.new_session(client)
    form = MultiDict({"nonce": "n-1", "tab": "0", "pile-2": "plum-bush-warbler"})
    try:
        html = snap(client, keeper, "pile-0", form=form).get_data(as_text=True)
    finally:
        det.release.set()
    assert "longer than 0.2 s" in html
    assert len(photo_ids(html)) == 1
    assert checked(html, "pile-2") == {"plum-bush-warbler"}
    assert checked(html, "pile-0") == set()


# ---- issue 9: only certain cards are tapped in; the rest are Yes / No suggestions ----------
# The thresholds belong to vision (calibrated there): these tests place their stub
# detections relative to vision.SUGGEST_FLOOR and flag them with Detection.uncertain, so
# they hold whatever values the vision lead ships.
ABOVE = min(1.0, SUGGEST_FLOOR + 0.05)  # uncertain, but worth asking
BELOW = SUGGEST_FLOOR / 2  # under the floor: never shown


def ask_ids(html: str, slot: str = "pile-0") -> set[str]:
    """Cards offered as suggestions for ``slot`` on the page."""
    import re

    return set(re.findall(rf'<li class="ask" id="ask-{slot}-([\w-]+)"', html))


def box_titles(html: str) -> list[str]:
    """The boxes drawn on the photos, in words ("2: Maple with Deer? 20%")."""
    import re

    return re.findall(r'<g class="box[^"]*" id="box-[\w-]+">\s*<title>([^<]*)</title>', html)


def test_suggest_floor_is_the_vision_contract():
    import vision

    assert vision.SUGGEST_FLOOR is SUGGEST_FLOOR
    assert isinstance(SUGGEST_FLOOR, float)
    assert 0.0 < SUGGEST_FLOOR < 1.0


@pytest.mark.parametrize(
    ("det", "tapped", "asked", "shown"),
    [
        (Detection("maple-deer", 0.99, (10, 10, 90, 150)), True, False, True),
        (Detection("maple-deer", ABOVE, (10, 10, 90, 150), uncertain=True), False, True, True),
        (Detection("maple-deer", BELOW, (10, 10, 90, 150), uncertain=True), False, False, False),
        (Detection("maple-deer", BELOW, (10, 10, 90, 150), uncertain=False), False, False, False),
    ],
    ids=["certain-tapped-in", "uncertain-above-floor-asked", "below-floor-hidden", "below-floor-hidden-if-certain"],
)
def test_what_a_detection_becomes_in_the_photo_flow(tmp_path, h, det, tapped, asked, shown):
    # Issue 9, item 4: certain -> tapped in; uncertain at or above SUGGEST_FLOOR -> a
    # suggestion beside the photo; below the floor -> nothing (no box, no question, not kept).
    stub = Stub([det])
    client = make_app(tmp_path, stub).test_client()
    keeper = h.new_session(client)
    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    assert ("maple-deer" in checked(html, "pile-0")) is tapped
    assert ("maple-deer" in ask_ids(html)) is asked
    assert any("Maple with Deer" in t for t in box_titles(html)) is shown
    if asked:
        assert "Maple with Deer 紅葉に鹿?" in html  # the card in players' words, English and Japanese
        assert 'value="yes:maple-deer:pile-0"' in html
        assert 'value="no:maple-deer:pile-0"' in html
        assert 'href="#ask-pile-0-maple-deer"' in html  # its box on the photo leads to the question
    if not shown:
        assert "Maple with Deer" not in html.split('id="photos-pile-0"')[1].split('class="picker"')[0]


@pytest.mark.parametrize("slot", ["pile-0", "hand-1"], ids=["pile", "dealt-hand"])
def test_yes_taps_a_suggestion_in_and_no_dismisses_it(tmp_path, h, slot):
    stub = Stub(
        [
            Detection("pine-crane", 0.97, (10, 10, 110, 170)),
            Detection("maple-deer", ABOVE, (120, 10, 220, 170), uncertain=True),
            Detection("cherry-curtain", ABOVE, (230, 10, 330, 170), uncertain=True),
        ]
    )
    client = make_app(tmp_path, stub).test_client()
    keeper = h.new_session(client)
    html = snap(client, keeper, slot).get_data(as_text=True)
    assert checked(html, slot) == {"pine-crane"}
    assert ask_ids(html, slot) == {"maple-deer", "cherry-curtain"}
    assert "2 to confirm" in html
    assert any(t.startswith("3: Cherry with Curtain?") for t in box_titles(html))  # its box, marked

    form = _state(html, (slot,))
    form["ask"] = f"yes:maple-deer:{slot}"
    html = step(client, keeper, form).get_data(as_text=True)
    assert checked(html, slot) == {"pine-crane", "maple-deer"}
    assert ask_ids(html, slot) == {"cherry-curtain"}

    form = _state(html, (slot,))
    form["ask"] = f"no:cherry-curtain:{slot}"
    html = step(client, keeper, form).get_data(as_text=True)
    assert checked(html, slot) == {"pine-crane", "maple-deer"}
    assert ask_ids(html, slot) == set()
    assert "Cherry with Curtain" not in "".join(box_titles(html))  # its box is gone too
    assert "to confirm" not in html
    # the answers are kept with the photo: the page shown again says the same
    html = step(client, keeper, _state(html, (slot,))).get_data(as_text=True)
    assert checked(html, slot) == {"pine-crane", "maple-deer"}
    assert ask_ids(html, slot) == set()


def test_a_no_holds_when_another_photo_of_the_pile_merges_unless_it_is_certain_there(tmp_path, h):
    unsure = Detection("maple-deer", ABOVE, (120, 10, 220, 170), uncertain=True)
    sure = Detection("maple-deer", 0.98, (20, 20, 120, 180))
    other = Detection("pine-crane", 0.97, (10, 10, 110, 170))
    stub = Stub([unsure], [other, unsure], [unsure], [sure])
    client = make_app(tmp_path, stub).test_client()
    keeper = h.new_session(client)
    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    form = _state(html)
    form["ask"] = "no:maple-deer:pile-0"
    html = step(client, keeper, form).get_data(as_text=True)
    # a second photo of the pile offers the deer again: it stays dismissed
    html = snap(client, keeper, "pile-0", form=_state(html)).get_data(as_text=True)
    assert ask_ids(html) == set()
    assert checked(html, "pile-0") == {"pine-crane"}
    assert "1 card tapped in from 2 photos" in html
    # another pile is not bound by Aki's answer
    html = snap(client, keeper, "pile-1", form=_state(html)).get_data(as_text=True)
    assert ask_ids(html, "pile-1") == {"maple-deer"}
    # a third photo of Aki's pile sees the deer as certain: it is tapped in
    html = snap(client, keeper, "pile-0", form=_state(html)).get_data(as_text=True)
    assert checked(html, "pile-0") == {"pine-crane", "maple-deer"}


def test_photos_of_one_pile_offer_a_card_once_and_one_yes_answers_both(tmp_path, h, app):
    a = Detection("maple-deer", ABOVE, (120, 10, 220, 170), uncertain=True)
    b = Detection("maple-deer", min(1.0, ABOVE + 0.02), (30, 30, 130, 190), uncertain=True)
    stub = Stub([a], [b])
    app = make_app(tmp_path, stub)
    client = app.test_client()
    keeper = h.new_session(client)
    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    html = snap(client, keeper, "pile-0", form=_state(html)).get_data(as_text=True)
    assert html.count('id="ask-pile-0-maple-deer"') == 1  # merged (vision.merge): asked once
    first, second = photo_ids(html)
    # beside the photo with the surer sighting, whose box it highlights
    assert f'data-box="box-{second}-0"' in html
    assert html.count('href="#ask-pile-0-maple-deer"') == 2  # both boxes lead to the one question
    form = _state(html)
    form["ask"] = "yes:maple-deer:pile-0"
    html = step(client, keeper, form).get_data(as_text=True)
    assert checked(html, "pile-0") == {"maple-deer"}
    with app.app_context():
        from referee.web import get_db

        sess, _ = store.find_session(get_db(), keeper)
        rows = store.photos_by_ids(get_db(), sess.id, [first, second])
    assert [d["ask"] for p in rows for d in p.detections] == ["yes", "yes"]


def test_a_card_tapped_by_hand_is_not_asked_again(tmp_path, h):
    stub = Stub([Detection("maple-deer", ABOVE, (120, 10, 220, 170), uncertain=True)])
    client = make_app(tmp_path, stub).test_client()
    keeper = h.new_session(client)
    html = snap(client, keeper, "pile-0", form={"nonce": nonce(), "tab": "0", "pile-0": "maple-deer"}).get_data(
        as_text=True
    )
    assert checked(html, "pile-0") == {"maple-deer"}
    assert ask_ids(html) == set()


def test_an_uncertain_card_raises_no_conflict_until_it_is_confirmed(client, keeper, stub):
    # The reported bug: a close-up of Ben's pile put two wrong 8-20% cards into it, and one of
    # them (already in Aki's pile) raised a false "Keep with ..." conflict.
    stub.by_call = [
        [Detection("pine-crane", 0.97, (10, 10, 110, 170))],
        [
            Detection("pine-crane", ABOVE, (0, 0, 600, 470), uncertain=True),
            Detection("willow-lightning", ABOVE, (40, 40, 300, 400), uncertain=True),
        ],
    ]
    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    html = snap(client, keeper, "pile-1", form=_state(html)).get_data(as_text=True)
    assert checked(html, "pile-1") == set()
    assert "data-conflict" not in html
    assert ask_ids(html, "pile-1") == {"pine-crane", "willow-lightning"}
    assert "now in Aki&#39;s pile" in html or "now in Aki's pile" in html
    # Yes makes it a tapped card: now it conflicts like one, and "Keep with" settles it
    form = _state(html)
    form["ask"] = "yes:pine-crane:pile-1"
    html = step(client, keeper, form).get_data(as_text=True)
    assert html.count('data-conflict="pine-crane"') == 2
    form = _state(html)
    form["fix"] = "keep:pine-crane:pile-1"
    html = step(client, keeper, form).get_data(as_text=True)
    assert checked(html, "pile-1") == {"pine-crane"}
    assert checked(html, "pile-0") == set()
    assert "data-conflict" not in html


def test_a_photo_step_answers_303_and_reloading_it_uploads_nothing(client, keeper, stub):
    body = MultiDict({"nonce": nonce(), "tab": "1"})
    body.add("snap-pile-1", (io.BytesIO(jpeg()), "pile.jpg"))
    body.add("snap", "pile-1")
    r = client.post(f"/s/{keeper}/round/photo", data=body, content_type="multipart/form-data")
    assert r.status_code == 303
    location = r.headers["Location"]
    assert f"/s/{keeper}/round/photo/" in location
    assert location.endswith("#photos-pile-1")
    first = client.get(location).get_data(as_text=True)
    again = client.get(location).get_data(as_text=True)
    assert stub.calls == 1
    assert len(photo_ids(first)) == 1
    assert photo_ids(again) == photo_ids(first)
    assert checked(again, "pile-1") == {"pine-crane", "pine-poetry-ribbon"}
    assert 'id="tab-1" checked' in again
    # the viewer link cannot read a scorekeeper's draft, and a draft that is gone says so
    viewer = client.get(f"/api/v1/sessions/{keeper}").get_json()["view_token"]
    assert client.get(location.replace(keeper, viewer)).status_code == 403
    gone = client.get(f"/s/{keeper}/round/photo/no-such-draft")
    assert gone.status_code == 404
    assert "Open the round again" in gone.get_data(as_text=True)


def test_a_saved_round_keeps_what_was_answered(client, keeper, app, stub):
    html = snap(client, keeper, "pile-0").get_data(as_text=True)  # ONE: two certain, cherry-curtain asked
    form = _state(html)
    form["ask"] = "no:cherry-curtain:pile-0"
    html = step(client, keeper, form).get_data(as_text=True)
    form = _state(html)
    form["action"] = "save"
    assert client.post(f"/s/{keeper}/round/new", data=form).status_code == 303
    rnd = _first_round(app, keeper)[0]
    assert rnd.data["piles"]["Aki"] == ["pine-crane", "pine-poetry-ribbon"]
    page = client.get(f"/s/{keeper}/round/{rnd.id}/photos").get_data(as_text=True)
    assert "2 cards after corrections and answers" in page
    assert "Cherry" not in "".join(box_titles(page))  # dismissed: not drawn
    edit = client.get(f"/s/{keeper}/round/{rnd.id}/edit").get_data(as_text=True)
    assert ask_ids(edit) == set()
    assert "data-conflict" not in edit


def test_photos_kept_before_suggestions_still_count_as_tapped_in():
    # Records stored before issue 9 have no "ask": their uncertain cards were tapped in and
    # saved that way, so they keep counting (and claiming) as they did.
    from dataclasses import dataclass

    from referee.web.photo_review import active, review

    @dataclass
    class Old:
        id: str
        slot: str
        detections: list

    old = {"card": "maple-deer", "confidence": 0.4, "box": [0, 0, 9, 9], "uncertain": True, "fixed": "maple-deer"}
    assert active(old) == "maple-deer"
    r = review("pile-0", [Old("old", "pile-0", [old])])
    assert r.suggestions == []
    assert r.tapped == 1


# ---- issue 9, item 5: the capture guide on the Snap slots ------------------------------


def guides(html: str) -> dict[str, str]:
    """slot -> why its capture guide shows (first, unclear, none)."""
    import re

    return dict(re.findall(r'<figure class="photo-guide" id="guide-([\w-]+)" data-guide="(\w+)"', html))


def test_the_capture_guide_shows_before_the_first_snap(client, keeper, h):
    page = client.get(f"/s/{keeper}/round/new").get_data(as_text=True)
    assert guides(page) == {f"pile-{i}": "first" for i in range(3)}
    hands = client.get(f"/s/{keeper}/round/hands").get_data(as_text=True)  # the hands load when opened
    assert guides(hands) == {f"hand-{i}": "first" for i in range(3)}
    # a picture with a text alternative, and the advice in words (no JavaScript needed)
    assert 'role="img" aria-labelledby="guide-pile-0-alt"' in page
    assert '<title id="guide-pile-0-alt">Drawing: eight cards face up in two rows' in page
    assert "Face up in rows, each card showing at least its top half, or side by side; not heaped." in page
    assert "A big pile: two photos, half each; they merge." in page
    money = h.new_session(client, name="Hachi", ruleset="hachihachi")
    field = client.get(f"/s/{money}/round/hands?part=field").get_data(as_text=True)  # loaded when opened
    assert guides(field)["hand-f"] == "first"


@pytest.mark.parametrize(
    ("dets", "why"),
    [
        ([Detection("pine-crane", 0.97, (10, 10, 110, 170))], None),
        (ONE, "unclear"),
        ([Detection("maple-deer", BELOW, (0, 0, 9, 9), uncertain=True)], "none"),
        ([], "none"),
    ],
    ids=["all-certain-no-guide", "uncertain-cards-guide-again", "only-below-floor-nothing-found", "nothing-found"],
)
def test_the_capture_guide_comes_back_after_a_photo_with_uncertain_cards(tmp_path, h, dets, why):
    client = make_app(tmp_path, Stub(dets)).test_client()
    keeper = h.new_session(client)
    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    assert guides(html).get("pile-0") == why
    assert guides(html)["pile-1"] == "first"  # other piles still have theirs
    if why == "unclear":
        assert "Some cards were unclear." in html
        assert "snap again like this; photos of a pile merge" in html


def slot_html(html: str, slot: str) -> str:
    """One picker's part of the round page: its photos, its guide and its picker (up to the next slot's)."""
    start = html.index(f'id="photos-{slot}"')
    end = html.find('class="photo-slot"', start)
    return html[start:end if end > 0 else None]


# Bug (new-user try): a photo with no card found showed "Apply corrections", with nothing to correct,
# and did not say plainly what to do; a photo with only Yes / No questions showed it too.
@pytest.mark.parametrize(
    ("dets", "apply", "none_found"),
    [
        ([], False, True),
        ([Detection("maple-deer", BELOW, (0, 0, 9, 9), uncertain=True)], False, True),
        ([Detection("cherry-curtain", 0.62, (230, 10, 330, 170), uncertain=True)], False, False),
        ([Detection("pine-crane", 0.97, (10, 10, 110, 170))], True, False),
    ],
    ids=["nothing-found", "only-below-floor", "only-questions", "a-card-to-correct"],
)
def test_apply_corrections_shows_only_with_a_card_to_correct(tmp_path, h, dets, apply, none_found):
    client = make_app(tmp_path, Stub(dets)).test_client()
    keeper = h.new_session(client)
    part = slot_html(snap(client, keeper, "pile-0").get_data(as_text=True), "pile-0")
    assert ("Apply corrections" in part) is apply
    said = "No card was found in this photo. Snap it again (tips below), or tap the cards in by hand."
    assert (said in text(part)) is none_found
    if none_found:
        assert "tapped in from" not in part  # no "0 cards tapped in" beside it


def test_a_photo_the_detector_failed_on_is_not_said_to_hold_no_card(tmp_path, h):
    client = make_app(tmp_path, Stub(error=RuntimeError("onnx exploded"))).test_client()
    keeper = h.new_session(client)
    part = slot_html(snap(client, keeper, "pile-0").get_data(as_text=True), "pile-0")
    assert "Card recognition failed" in part
    assert "No card was found" not in part
    assert "Apply corrections" not in part


# Bug (screen walk-through): "1 cards after corrections and answers".
def test_the_photos_page_says_one_card(client, keeper, app):
    html = snap(client, keeper, "pile-0").get_data(as_text=True)  # ONE: two certain, cherry-curtain asked
    pid = photo_ids(html)[0]
    form = _state(html)
    form[f"as-{pid}-1"] = ""  # the ribbon was not there
    form["ask"] = "no:cherry-curtain:pile-0"
    form = _state(step(client, keeper, form).get_data(as_text=True))
    form["action"] = "save"
    assert client.post(f"/s/{keeper}/round/new", data=form).status_code == 303
    rnd = _first_round(app, keeper)[0]
    assert rnd.data["piles"]["Aki"] == ["pine-crane"]
    page = client.get(f"/s/{keeper}/round/{rnd.id}/photos").get_data(as_text=True)
    assert "1 card after corrections and answers" in page
