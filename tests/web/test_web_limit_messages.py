"""Every size or limit message names the real value and the real limit (issue 10, item 5).

The issue's case: a 196 MP photo was refused as "over 240 megapixels" when it was 196 and
the limit 120 (its vision-side tests: tests/vision/test_decode_bounds.py).  The same kind
here: upload sizes (413), name lengths, and the photo queue.
"""

from __future__ import annotations

import html
import io
import json
import re
import struct
import zlib

import pytest

from referee.web import create_app
from referee.web.errors import byte_size
from referee.web.evidence import DetectionBusyError, DetectionRunner


def png_header(width: int, height: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = chunk(b"IDAT", zlib.compress(b"\x00" * 16))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + idat + chunk(b"IEND", b"")


@pytest.fixture
def photo_app(tmp_path):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "SECRET_KEY": "test", "HTMX_LOCAL": True,
                       "PHOTO_DETECTOR": lambda: (lambda image: []), "PHOTO_MAX_BYTES": 64 * 1024})


def test_a_196_megapixel_photo_is_refused_with_its_size_and_the_limit(photo_app):
    r = photo_app.test_client().post("/api/v1/detect", data={"image": (io.BytesIO(png_header(14000, 14000)), "a.png")})
    assert r.status_code == 422
    message = r.get_json()["message"]
    assert "14000x14000 pixels, 196 megapixels; the limit is 120 megapixels" in message
    assert "240" not in message


def test_an_upload_over_the_size_limit_names_its_size_and_the_limit(photo_app):
    r = photo_app.test_client().post("/api/v1/detect", data={"image": (io.BytesIO(b"x" * 100_000), "big.jpg")})
    assert r.status_code == 413
    message = r.get_json()["message"]
    assert re.search(r"too large: 9\d\.\d KB sent; the limit here is 64 KB", message)  # the body: file + form
    assert "A photo may be up to 64 KB and a session export up to 1 MB" in message


def test_an_oversized_import_names_its_own_limit(client, app):
    r = client.post("/import", data={"text": "x" * (app.config["MAX_CONTENT_LENGTH"] + 10)})
    assert r.status_code == 413
    assert "MB sent; the limit here is 1 MB" in html.unescape(r.get_data(as_text=True))


@pytest.mark.parametrize(
    ("n", "words"),
    [(20 * 1024 * 1024, "20 MB"), (21_500_000, "20.5 MB"), (10_000, "9.8 KB"), (512, "512 bytes")],
    ids=["whole MB", "tenths", "KB", "bytes"],
)
def test_byte_sizes_in_words(n, words):
    assert byte_size(n) == words


LONG = "長" * 41


@pytest.mark.parametrize(
    ("game", "api_says", "import_says"),
    [
        ({"players": [LONG, "Ben", "Chiyo"]}, '"players.0" has 41 characters; at most 40 characters',
         "has 41 characters; keep player names to 40 characters"),
        ({"players": ["Aki", "Ben", "Chiyo"], "name": "n" * 101}, '"name" has 101 characters; at most 100',
         '"name" has 101 characters; at most 100'),
    ],
    ids=["player name", "session name"],
)
def test_api_name_limits_name_the_length_and_the_limit(client, game, api_says, import_says):
    # The API's schema (referee/web/schemas/) names the field as sent; the import page names the player.
    r = client.post("/api/v1/sessions", json={"name": "Friday", **game})
    assert r.status_code == 422
    assert api_says in r.get_json()["message"]
    body = {"name": "Friday", **game}
    r = client.post("/import", data={"text": json.dumps({"name": body.pop("name"), "game": body})})
    assert import_says in html.unescape(r.get_data(as_text=True))


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"name": "n" * 130, "player-0": "Aki", "player-1": "Ben"},
         "The name has 130 characters; keep it to 100 characters."),
        ({"name": "Friday", "player-0": "A" * 45, "player-1": "Ben"},
         "has 45 characters; keep player names to 40 characters."),
    ],
    ids=["session name", "player name"],
)
def test_form_name_limits_name_the_length_and_the_limit(client, fields, says):
    r = client.post("/new", data={"ruleset": "roppyakken", "dealer": "0", **fields})
    assert says in html.unescape(r.get_data(as_text=True))


def test_a_full_photo_queue_says_how_many_it_takes():
    import threading

    release, running = threading.Event(), threading.Event()
    runner = DetectionRunner(lambda: (lambda image: running.set() or (release.wait(10) and [])), queue=1, timeout=10)
    t = threading.Thread(target=runner.detect, args=(object(),))
    t.start()
    try:
        assert running.wait(10)  # the first photo holds the only place
        with pytest.raises(DetectionBusyError, match="1 photos are already waiting or being read"):
            runner.detect(object())
    finally:
        release.set()
        t.join(10)
