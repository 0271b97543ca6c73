"""Photo to score (issue 6): upload, detection as JSON and as the filled picker, corrections,
conflicts, deck checks, bad uploads, evidence (EXIF stripped, deleted with its round).

A stub detector stands in for the model: these tests are about the flow, not recognition.
"""

from __future__ import annotations

import io
import threading
import time

import pytest
from PIL import Image
from werkzeug.datastructures import MultiDict

from referee import store
from referee.web import create_app
from vision.detection import Detection
from vision.errors import ModelError

ONE = [
    Detection("pine-crane", 0.97, (10, 10, 110, 170)),
    Detection("pine-poetry-ribbon", 0.91, (120, 10, 220, 170)),
    Detection("cherry-curtain", 0.42, (230, 10, 330, 170), uncertain=True),
]


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

    def __init__(self, *by_call, delay: float = 0.0, error: Exception | None = None):
        self.by_call = list(by_call) or [ONE]
        self.calls = 0
        self.delay, self.error = delay, error
        self.images = []

    def detect(self, image):
        self.images.append(image)
        self.calls += 1
        if self.delay:
            time.sleep(self.delay)
        if self.error:
            raise self.error
        return self.by_call[min(self.calls - 1, len(self.by_call) - 1)]


def make_app(tmp_path, stub, **cfg):
    return create_app(
        {
            "TESTING": True,
            "DATA_DIR": str(tmp_path),
            "SECRET_KEY": "test",
            "HTMX_LOCAL": True,
            "DB_TIMEOUT": 0.2,
            "PHOTO_DETECTOR": lambda: stub,
            **cfg,
        }
    )


@pytest.fixture
def stub():
    return Stub()


@pytest.fixture
def app(tmp_path, stub):  # overrides the web conftest's app: same config plus the stub
    return make_app(tmp_path, stub)


def nonce() -> str:
    """A round-form token signed as the app signs it (SECRET_KEY "test")."""
    from referee.web.sessions import sign_nonce

    return sign_nonce("test", "n-1")


def snap(client, keeper, slot="pile-0", data=None, form=None, name="pile.jpg"):
    body = MultiDict(form or {"nonce": nonce(), "tab": "0", "dealer": "Aki"})
    body.add(f"snap-{slot}", (io.BytesIO(jpeg() if data is None else data), name))
    body.add("snap", slot)
    return client.post(f"/s/{keeper}/round/photo", data=body, content_type="multipart/form-data")


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


def test_slow_detection_times_out_and_other_requests_still_answer(tmp_path):
    stub = Stub(delay=1.5)
    app = make_app(tmp_path, stub, PHOTO_TIMEOUT=0.3)
    c = app.test_client()
    out = {}
    t = threading.Thread(
        target=lambda: out.setdefault("r", c.post("/api/v1/detect", data={"image": (io.BytesIO(jpeg()), "a.jpg")}))
    )
    t0 = time.perf_counter()
    t.start()
    time.sleep(0.05)
    assert app.test_client().get("/").status_code == 200  # not stalled by the detection
    assert time.perf_counter() - t0 < 1.0
    t.join()
    assert out["r"].status_code == 504
    assert "longer than 0.3 s" in out["r"].get_json()["message"]


# ---- the round form ------------------------------------------------------------------


def test_snap_fills_the_players_picker_with_confidences(client, keeper, stub):
    r = snap(client, keeper, "pile-1")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert checked(html, "pile-1") == {"pine-crane", "pine-poetry-ribbon", "cherry-curtain"}
    assert checked(html, "pile-0") == set()
    assert 'class="det uncertain' in html
    assert "42% ?" in html
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
    assert "3 cards seen in 2 photos" in html


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
    html = client.post(f"/s/{keeper}/round/photo", data=form).get_data(as_text=True)
    assert "pine-crane" in checked(html, "pile-1")
    assert "pine-crane" not in checked(html, "pile-0")
    assert 'data-conflict="pine-crane"' not in html
    assert 'data-conflict="pine-poetry-ribbon"' in html  # the others still wait for a tap


def test_correcting_a_detection_replaces_or_removes_the_card(client, keeper):
    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    pid = photo_ids(html)[0]
    form = _state(html)
    form[f"as-{pid}-2"] = "cherry-poetry-ribbon"  # the uncertain one was misread
    form[f"as-{pid}-1"] = ""  # not a card
    html = client.post(f"/s/{keeper}/round/photo", data=form).get_data(as_text=True)
    assert checked(html, "pile-0") == {"pine-crane", "cherry-poetry-ribbon"}
    # the correction is kept with the photo
    form = _state(html)
    html = client.post(f"/s/{keeper}/round/photo", data=form).get_data(as_text=True)
    assert checked(html, "pile-0") == {"pine-crane", "cherry-poetry-ribbon"}


def test_saving_keeps_the_corrected_cards_and_the_photo(client, keeper, app, tmp_path):
    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    pid = photo_ids(html)[0]
    form = _state(html)
    form[f"as-{pid}-2"] = ""
    form["action"] = "save"
    r = client.post(f"/s/{keeper}/round/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    with app.app_context():
        from referee.web import get_db

        sess, _ = store.find_session(get_db(), keeper)
        rnd = store.rounds_of(get_db(), sess.id)[0]
        assert rnd.data["piles"]["Aki"] == ["pine-crane", "pine-poetry-ribbon"]
        photos = store.photos_of_round(get_db(), sess.id, rnd.id)
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
    with app.app_context():
        from referee.web import get_db

        sess, _ = store.find_session(get_db(), keeper)
        rid = store.rounds_of(get_db(), sess.id)[0].id
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


def test_hachihachi_deck_check_shows_the_gap_to_264(client, h):
    keeper = h.new_session(client, ruleset="hachihachi")
    form = MultiDict({"pile-0": "pine-crane"})  # a bright: 20 points
    html = client.post(f"/s/{keeper}/round/deck-check", data=form).get_data(as_text=True)
    assert "Piles total 20 of 264 points: 244 missing" in html
    page = client.get(f"/s/{keeper}/round/new").get_data(as_text=True)
    assert 'name="snap-hand-f"' in page  # the field (multiplier) can be snapped too
    assert 'name="snap-pile-0"' in page
    hands = client.get(f"/s/{keeper}/round/hands").get_data(as_text=True)  # loaded when opened
    assert 'name="snap-hand-0"' in hands


def test_score_then_save_keeps_the_photo_with_the_round(client, keeper, app):
    # once lost: "Score round" re-rendered the form without the photo ids, so Save dropped the photo
    html = snap(client, keeper, "pile-0").get_data(as_text=True)
    pid = photo_ids(html)[0]
    form = _state(html)
    form["action"] = "score"
    html = client.post(f"/s/{keeper}/round/new", data=form).get_data(as_text=True)
    assert photo_ids(html) == [pid]
    form = _state(html)
    form["action"] = "save"
    assert client.post(f"/s/{keeper}/round/new", data=form).status_code == 303
    with app.app_context():
        from referee.web import get_db

        sess, _ = store.find_session(get_db(), keeper)
        rid = store.rounds_of(get_db(), sess.id)[0].id
        assert [p.id for p in store.photos_of_round(get_db(), sess.id, rid)] == [pid]


def test_slow_detection_in_the_round_form_keeps_the_photo_and_the_taps(tmp_path, h):
    client = make_app(tmp_path, Stub(delay=0.8), PHOTO_TIMEOUT=0.2).test_client()
    keeper = h.new_session(client)
    form = MultiDict({"nonce": "n-1", "tab": "0", "pile-2": "plum-bush-warbler"})
    html = snap(client, keeper, "pile-0", form=form).get_data(as_text=True)
    assert "longer than 0.2 s" in html
    assert len(photo_ids(html)) == 1
    assert checked(html, "pile-2") == {"plum-bush-warbler"}
    assert checked(html, "pile-0") == set()
