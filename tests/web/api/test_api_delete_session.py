"""The API's delete of a session (``DELETE /api/v1/sessions/<token>``, with its idempotency key) and its
restore (``POST .../restore``): each bad request says what happened, and nothing is lost."""

from __future__ import annotations

import pytest


def api(token: str, tail: str = "") -> str:
    return f"/api/v1/sessions/{token}{tail}"


def add_round(client, h, token: str) -> int:
    r = client.post(api(token, "/rounds"), json={"piles": h.piles(0)})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"]


def test_a_deleted_session_leaves_the_list_and_answers_404_session_deleted(client, keeper, viewer):
    assert client.delete(api(keeper)).status_code == 204
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []
    for token in (keeper, viewer):
        for path in (api(token), api(token, "/export")):
            r = client.get(path)
            assert r.status_code == 404, path
            assert r.get_json()["error"] == "session-deleted", path
    assert "/restore brings it back" in client.get(api(keeper)).get_json()["message"]


def test_restore_brings_it_back_as_it_was(client, h, keeper):
    add_round(client, h, keeper)
    before = client.get(api(keeper)).get_json()
    client.delete(api(keeper))
    r = client.post(api(keeper, "/restore"), json={})
    assert r.status_code == 200
    body = r.get_json()
    assert body["restored"] is True
    assert body["session"]["totals"] == before["totals"]
    assert body["session"]["last_change"] == before["last_change"]
    assert client.get(api(keeper)).status_code == 200


def test_a_retry_with_the_same_key_deletes_once_and_answers_204_again(client, keeper):
    assert client.delete(api(keeper, "?form_token=k1")).status_code == 204
    assert client.delete(api(keeper, "?form_token=k1")).status_code == 204


def test_a_second_delete_without_a_key_is_404_already_deleted(client, keeper):
    client.delete(api(keeper))
    r = client.delete(api(keeper))
    assert r.status_code == 404
    assert r.get_json()["error"] == "session-deleted"
    assert "already deleted; nothing more was deleted" in r.get_json()["message"]


def test_a_key_whose_delete_was_restored_is_spent(client, keeper):
    client.delete(api(keeper, "?form_token=k1"))
    client.post(api(keeper, "/restore"), json={})
    r = client.delete(api(keeper, "?form_token=k1"))
    assert r.status_code == 409
    assert r.get_json()["error"] == "form-token-spent"
    assert client.get(api(keeper)).status_code == 200  # nothing deleted


def test_a_key_used_for_another_request_is_refused(client, h, keeper):
    rid = add_round(client, h, keeper)
    assert client.delete(api(keeper, f"/rounds/{rid}?form_token=k1")).status_code == 204
    r = client.delete(api(keeper, "?form_token=k1"))
    assert r.status_code == 422
    assert r.get_json()["error"] == "form-token-reused"
    assert client.get(api(keeper)).status_code == 200


@pytest.mark.parametrize(("method", "tail"), [("delete", ""), ("post", "/restore")])
def test_an_unknown_session_is_404(client, method, tail):
    r = getattr(client, method)(api("nope", tail), **({"json": {}} if method == "post" else {}))
    assert r.status_code == 404
    assert r.get_json()["error"] == "not-found"
    assert r.get_json()["message"].startswith("No session has this link")  # not "no such page": the route is there


def test_the_viewer_token_can_neither_delete_nor_restore(client, keeper, viewer):
    assert client.delete(api(viewer)).status_code == 403
    assert client.get(api(keeper)).status_code == 200
    client.delete(api(keeper))
    assert client.post(api(viewer, "/restore"), json={}).status_code == 403
    assert client.get(api(keeper)).status_code == 404


def test_a_restore_of_a_session_not_deleted_changes_nothing(client, keeper):
    r = client.post(api(keeper, "/restore"), json={})
    assert r.status_code == 200
    assert r.get_json()["restored"] is False


def test_a_restore_naming_an_earlier_delete_restores_nothing(client, keeper):
    client.delete(api(keeper))
    client.post(api(keeper, "/restore"), json={})
    earlier = client.get(api(keeper)).get_json()["last_change"]  # None: the delete was undone with its change
    client.delete(api(keeper))
    r = client.post(api(keeper, "/restore"), json={"change": 1})  # the first delete's id
    assert earlier is None
    assert r.status_code == 409
    assert r.get_json()["error"] == "already-undone"
    assert r.get_json()["last_change"]["summary"] == "delete session"
    assert client.get(api(keeper)).status_code == 404


# Bug (tester): a restore naming "add round 1" (change 1), an id never given out or -1 was answered 409
# already-undone, "that delete was already undone, and the session was deleted again since": neither was true.
@pytest.mark.parametrize("change", [1, 999999, -1, 0, "other-session"])
def test_a_restore_naming_a_change_that_is_no_delete_of_this_session_restores_nothing(client, h, keeper, change):
    add_round(client, h, keeper)  # change 1: "add round 1"
    if change == "other-session":
        other = h.new_session(client, "Saturday")
        add_round(client, h, other)
        change = client.get(api(other)).get_json()["last_change"]["id"]
    client.delete(api(keeper))
    r = client.post(api(keeper, "/restore"), json={"change": change})
    assert r.status_code == 422, r.get_json()
    body = r.get_json()
    assert body["error"] == "not-a-delete"
    assert body["message"].startswith(f"change {change} is not a delete of this session, so nothing was restored")
    assert body["last_change"]["summary"] == "delete session"  # the one to send
    assert client.get(api(keeper)).status_code == 404
    r = client.post(api(keeper, "/restore"), json={"change": body["last_change"]["id"]})
    assert r.status_code == 200
    assert r.get_json()["restored"] is True


@pytest.mark.parametrize("body", [{"change": "1"}, {"other": 1}, []], ids=["string", "unknown-field", "not-object"])
def test_a_restore_body_that_breaks_its_schema_restores_nothing(client, keeper, body):
    client.delete(api(keeper))
    r = client.post(api(keeper, "/restore"), json=body)
    assert r.status_code in (400, 422)
    assert client.get(api(keeper)).status_code == 404


def test_the_openapi_document_has_the_delete_and_the_restore(client):
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    assert "delete" in paths["/sessions/{token}"]
    assert "post" in paths["/sessions/{token}/restore"]
