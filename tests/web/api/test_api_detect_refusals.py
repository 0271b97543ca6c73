"""What ``POST /api/v1/detect`` refuses, and that the OpenAPI document it serves says so.

The API's convention (README "JSON API"): a body that breaks the request schema (a required
field missing, or of the wrong type) is 422 ``bad-request`` naming the field, as is a
well-formed value the server cannot use (an empty or unreadable photo: 422 ``bad-image``); a
body that is not of the route's encoding at all is 400.  For detect the required field is the
multipart file ``image``, and the encoding ``multipart/form-data``.
"""

from __future__ import annotations

import io

import pytest
from web_helpers import web_app

#: Each a function giving the test client's keywords (a file's stream is closed once sent).
NO_PHOTO = [
    pytest.param(lambda: {"data": {"note": "pile 1"}, "content_type": "multipart/form-data"}, id="no-file-part"),
    pytest.param(lambda: {"data": {}, "content_type": "multipart/form-data"}, id="no-part-at-all"),
    pytest.param(lambda: {"data": {"image": (io.BytesIO(b""), "")}}, id="no-file-chosen"),  # an empty file input
    pytest.param(lambda: {"data": {"photo": (io.BytesIO(b"never read"), "pile.jpg")}}, id="wrong-field-name"),
    pytest.param(lambda: {"data": {"image": "pile.jpg"}, "content_type": "multipart/form-data"}, id="text-not-a-file"),
]

NOT_MULTIPART = [
    pytest.param(dict, id="no-body"),
    pytest.param(lambda: {"json": {"image": "pile.jpg"}}, id="json"),
    pytest.param(lambda: {"data": {"image": "pile.jpg"}}, id="urlencoded"),
]


@pytest.fixture
def app(tmp_path):
    return web_app(tmp_path, PHOTO_DETECTOR=lambda: (lambda image: []))


def documented(client) -> dict[str, str]:
    """The statuses the served OpenAPI document gives for ``POST /detect``, with their words."""
    doc = client.get("/api/v1/openapi.json").get_json()
    return {status: r["description"] for status, r in doc["paths"]["/detect"]["post"]["responses"].items()}


@pytest.mark.parametrize("request_kw", NO_PHOTO)
def test_a_request_with_no_photo_is_refused_as_a_missing_field(client, request_kw):
    r = client.post("/api/v1/detect", **request_kw())
    assert r.status_code == 422
    body = r.get_json()
    assert body["error"] == "bad-request"
    assert body["message"].startswith('"image" ')  # names the field, as a JSON route does


# Bug: the document said a request with no image was 400; the server answered 422 (or, for some, 400).
@pytest.mark.parametrize("request_kw", NO_PHOTO)
def test_the_status_a_request_with_no_photo_gets_is_documented_as_that(client, request_kw):
    said = documented(client)
    status = str(client.post("/api/v1/detect", **request_kw()).status_code)
    assert status in said
    assert "image" in said[status]
    assert not [s for s, words in said.items() if s != status and "image" in words]  # no other status claims it


@pytest.mark.parametrize("request_kw", NOT_MULTIPART)
def test_a_body_that_is_not_multipart_is_400_as_documented(client, request_kw):
    r = client.post("/api/v1/detect", **request_kw())
    assert r.status_code == 400
    assert r.get_json() == {"error": "bad-request", "message": r.get_json()["message"]}
    assert "multipart/form-data" in r.get_json()["message"]
    assert "multipart/form-data" in documented(client)["400"]


def test_an_empty_photo_is_a_bad_image_as_documented(client):
    r = client.post("/api/v1/detect", data={"image": (io.BytesIO(b""), "pile.jpg")})
    assert r.status_code == 422
    assert r.get_json()["error"] == "bad-image"
    assert "image" in documented(client)["422"]
