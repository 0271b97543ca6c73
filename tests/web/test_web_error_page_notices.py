"""A notice ("Session created", "Round 3 deleted") shows on the page it belongs to: an error page in
between (404, 403, 405, 413) neither shows it nor uses it up, so the next page shows it, once."""

from __future__ import annotations

import pytest
from web_helpers import text

CREATED = "Session created."


def _session(client) -> tuple[str, str]:
    """A session made through the form, its redirect not followed yet: the notice waits.  Its
    (scorekeeper, viewer) tokens."""
    r = client.post("/new", data={"name": "Friday", "ruleset": "roppyakken", "dealer": "0",
                                  "player-0": "Aki", "player-1": "Ben", "player-2": "Chiyo"})
    assert r.status_code == 303
    token = r.headers["Location"].rsplit("/", 1)[-1]
    view = client.get(f"/api/v1/sessions/{token}").get_json()["view_token"]
    return token, view


#: An error page: (its status, the method, the address ({token}, {view}: the session's links), the
#: field posted too large for the body limit, if any).
ERRORS = {
    "404 page": (404, "get", "/no-such-page", None),
    "404 session": (404, "get", "/s/no-such-session", None),
    "403 viewer": (403, "get", "/s/{view}/round/new", None),
    "405": (405, "post", "/players", None),
    "413 import": (413, "post", "/import", "text"),
    "413 round": (413, "post", "/s/{token}/round/new", "round_json"),
}


# Bug: the notice of a session just created showed on the next page whatever it was, an error page too
# (a 413 upload, a 404), where it belonged to nothing, and was gone from the scoreboard.
@pytest.mark.parametrize("case", ERRORS.values(), ids=ERRORS.keys())
def test_an_error_page_leaves_a_notice_for_the_page_it_belongs_to(client, app, case):
    status, method, path, field = case
    token, view = _session(client)
    data = {field: "x" * (app.config["MAX_CONTENT_LENGTH"] + 10)} if field else None
    r = getattr(client, method)(path.format(token=token, view=view), data=data)
    assert r.status_code == status
    assert CREATED not in text(r.get_data(as_text=True))
    board = text(client.get(f"/s/{token}").get_data(as_text=True))
    assert board.count(CREATED) == 1
    assert CREATED not in text(client.get(f"/s/{token}").get_data(as_text=True))  # shown once
