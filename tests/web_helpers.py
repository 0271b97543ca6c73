"""What the web tests post and read, shared by the screens' test folders (``tests/web/``): a session
made through the new-session form, the totals pad's form, a session's saved rounds, a page's words.

(The ``h`` fixture of ``tests/web/conftest.py`` has the round form and the made-up piles.)
"""

from __future__ import annotations

import html
import re


def web_app(tmp_path, **cfg):
    """The web app on a temporary database under ``tmp_path``, as every web test runs it (a short
    database timeout, htmx served locally), with ``cfg`` on top (e.g. ``PHOTO_DETECTOR``)."""
    from referee.web import create_app

    return create_app(
        {
            "TESTING": True,
            "DATA_DIR": str(tmp_path),
            "SECRET_KEY": "test",
            "HTMX_LOCAL": True,
            "DB_TIMEOUT": 0.2,
            **cfg,
        }
    )


def session(client, ruleset: str, players, **options: str) -> str:
    """Create a session through the new-session form (``options``: house rules, ``opt.<key>``);
    returns its scorekeeper token."""
    form = {"name": "Table", "ruleset": ruleset, "dealer": "0", **{f"opt.{k}": v for k, v in options.items()}}
    form.update({f"player-{i}": p for i, p in enumerate(players)})
    r = client.post("/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:800]
    return r.headers["Location"].rsplit("/", 1)[-1]


def totals(h, nonce: str, *values: int, action: str = "save") -> dict:
    """The totals pad ("Enter totals only") as a browser without JavaScript posts it: seat i's points."""
    return {"entry": "totals", "action": action, "nonce": h.signed(nonce),
            **{f"total-{i}": str(v) for i, v in enumerate(values)}}


def rounds(client, token: str) -> list[dict]:
    """The session's saved rounds, as the API gives them."""
    return client.get(f"/api/v1/sessions/{token}").get_json()["rounds"]


def words(r) -> str:
    """A response's words without tags, whitespace runs as one space."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


def text(page: str) -> str:
    """A page's words without tags, whitespace runs as one space (none before a colon or comma)."""
    return re.sub(r" ([:,])", r"\1", re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def undo_form(client, token: str) -> dict[str, str]:
    """The scoreboard's Undo form as sent once asked (the button also sends ``ask``): the id of the change it names."""
    latest = client.get(f"/api/v1/sessions/{token}").get_json()["last_change"]
    return {"change": str(latest["id"])} if latest else {}


def first_form_error(client, token: str, fields, signed) -> str:
    """Score a new round of session ``token`` through the round form as a browser posts it
    (``fields``: ``(name, value)`` pairs beside the action and a nonce signed by ``signed``,
    the ``h`` fixture's ``h.signed``); the page's first error, whitespace runs as one space."""
    from werkzeug.datastructures import MultiDict

    form = MultiDict({"action": "score", "nonce": signed("n-1")})
    for k, v in fields:
        form.add(k, v)
    body = html.unescape(client.post(f"/s/{token}/round/new", data=form, follow_redirects=True).get_data(as_text=True))
    found = re.findall(r'<p class="error"[^>]*>(.*?)</p>', body, flags=re.S)
    assert found, "no error on the page"
    return " ".join(found[0].split())


def assert_every_refusal_said(body: dict, problems: list[tuple[str, str]], source: str) -> None:
    """An API 422 ``bad-ruleset`` answer ``body`` names each refused option of ``problems`` ((key, the start
    of its refusal), in order) in its ``problems`` list and in its one ``message`` (refusals of ``source``)."""
    assert body["error"] == "bad-ruleset"
    assert [p["option"] for p in body["problems"]] == [key for key, _ in problems]
    for (key, said), problem in zip(problems, body["problems"], strict=True):
        assert problem["message"].startswith(said), key
        assert f"{key} ({said.removeprefix(f'{source}: ')}" in body["message"]  # the message names them all too


def ask_rules(client, route: str, token: str, body: dict):
    """The API's rules asked of session ``token``: ``"rescore"`` (``POST .../rescore``, the what-if) or
    ``"rules"`` (``PUT .../rules``, the rules fixed), with the JSON ``body``."""
    if route == "rescore":
        return client.post(f"/api/v1/sessions/{token}/rescore", json=body)
    return client.put(f"/api/v1/sessions/{token}/rules", json=body)
