"""A game family registered in ``referee.families`` plays a whole web session with no web code:
the new-session form offers its preset and options, its rounds are entered with the entry form
it names, and the scoreboard and the JSON API show its totals and winner (issue 13)."""

from __future__ import annotations

from werkzeug.datastructures import MultiDict


def test_a_registered_family_plays_a_web_session(toy, client, h):
    page = client.get("/new?ruleset=toy").get_data(as_text=True)
    assert "Toy: a point a card" in page
    assert "opt.target" in page
    r = client.post("/new", data={"name": "Toy table", "ruleset": "toy", "dealer": "0",
                                  "player-0": "Aki", "player-1": "Ben", "opt.target": "3"})
    assert r.status_code == 303, r.get_data(as_text=True)[:1000]
    token = r.headers["Location"].rsplit("/", 1)[-1]
    entry = client.get(f"/s/{token}/round/new").get_data(as_text=True)
    assert 'name="pile-0"' in entry
    assert 'name="pile-1"' in entry
    form = MultiDict({"action": "save", "nonce": h.signed("toy-1")})
    for cid in ("pine-crane", "pine-chaff-1", "plum-chaff-1"):
        form.add("pile-0", cid)
    form.add("pile-1", "cherry-curtain")
    r = client.post(f"/s/{token}/round/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:1000]
    session = client.get(f"/api/v1/sessions/{token}").get_json()
    assert session["family"] == "toy"
    assert session["totals"] == {"Aki": 3, "Ben": 1}
    assert session["winner"] == "Aki"
    assert "Aki wins" in client.get(f"/s/{token}").get_data(as_text=True)
