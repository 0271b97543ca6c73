"""Where an API idempotency key (``form_token``) holds, as the store keeps it (``referee.store.form_tokens``, the
``session_form_tokens`` table) and as the README says: a round's, an edit's, a delete's and a rules change's key
belong to their session; only a new session's key, sent before there is a session, is server-wide."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[3] / "README.md"
KEY = "same-key"


def test_a_key_belongs_to_its_session_on_every_round_and_rules_route(client, h):
    sessions = [h.new_session(client), h.new_session(client)]
    for token in sessions:  # the same keys in each session: each saves, edits, changes and deletes its own
        made = client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": h.piles(0), "form_token": "k-round"})
        assert made.status_code == 201
        rnd = made.get_json()
        edited = client.put(f"/api/v1/sessions/{token}/rounds/{rnd['id']}",
                            json={"piles": h.piles(2), "version": rnd["version"], "form_token": "k-edit"})
        assert (edited.status_code, edited.get_json()["changed"]) == (200, True)
        rules = client.put(f"/api/v1/sessions/{token}/rules",
                           json={"options": {"target": 300}, "form_token": "k-rules"})
        assert (rules.status_code, rules.get_json()["options"]) == (200, {"target": 300})
        gone = client.delete(f"/api/v1/sessions/{token}/rounds/{rnd['id']}", query_string={"form_token": "k-delete"})
        assert gone.status_code == 204


def test_a_new_sessions_key_is_server_wide(client, h):
    first = client.post("/api/v1/sessions", json={"name": "One", "players": h.players, "form_token": KEY})
    other = client.post("/api/v1/sessions", json={"name": "Two", "players": h.players, "form_token": KEY})
    assert first.status_code == 201
    assert (other.status_code, other.get_json()["error"]) == (422, "form-token-reused")


# Bug (API review): the README said every API key is server-wide, where the keys of a round, an edit, a delete
# and a rules change belong to their session (the two tests above).
def test_the_readme_says_where_each_key_holds():
    text = " ".join(README.read_text(encoding="utf-8").split())
    said = [s for s in re.split(r"(?<=\.) (?=[A-Z])", text) if "server-wide" in s or "belong to their session" in s]
    assert said == [
        "The keys of a round, an edit, a delete and a rules change belong to their session: the same key sent to "
        "another session is another key there.",
        "Only the key of `POST /api/v1/sessions`, sent before there is a session, is server-wide.",
    ]
