"""Fixtures of the web app's tests: ``app``, ``client`` and ``runner`` on a temporary database."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterable

import pytest
from werkzeug.datastructures import MultiDict
from werkzeug.serving import make_server

from referee.cards import CARDS
from referee.web import create_app
from referee.web.sessions import sign_nonce

PLAYERS = ["Aki", "Ben", "Chiyo"]


@pytest.fixture
def app(tmp_path):
    return create_app(
        {
            "TESTING": True,
            "DATA_DIR": str(tmp_path),
            "SECRET_KEY": "test",
            "HTMX_LOCAL": True,
            "DB_TIMEOUT": 0.2,
        }
    )


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


def signed(nonce: str) -> str:
    """A one-time round form token as the test app (secret key "test") issues it."""
    return sign_nonce("test", nonce)


def made_up_piles(offset: int, months: Iterable[int] = range(2, 13, 2)) -> dict[str, list[str]]:
    """A round of modest scores: two cards of each listed month to one player, two to another.

    offset 0 scores Aki 70, Ben 50, Chiyo 220; offset 2 scores Aki 50, Ben 220, Chiyo 70.
    """
    out: dict[str, list[str]] = {p: [] for p in PLAYERS}
    for m in months:
        ids = [c.id for c in CARDS if c.month == m]
        out[PLAYERS[(m + offset) % 3]] += ids[:2]
        out[PLAYERS[(m * 2 + offset + 1) % 3]] += ids[2:]
    return out


def round_form(piles: dict[str, list[str]], action: str = "save", nonce: str = "nonce-1", **extra: str) -> MultiDict:
    """The round entry form as a browser without JavaScript submits it (``nonce`` is signed as the app does)."""
    form = MultiDict({"action": action, "nonce": signed(nonce), **extra})
    for i, p in enumerate(PLAYERS):
        for cid in piles.get(p, []):
            form.add(f"pile-{i}", cid)
    return form


def new_session(client, name: str = "Friday", players=PLAYERS, **fields: str) -> str:
    """Create a session through the form; returns its scorekeeper token."""
    form = {"name": name, "ruleset": "roppyakken", "dealer": "0", **fields}
    for i, p in enumerate(players):
        form[f"player-{i}"] = p
    r = client.post("/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    return r.headers["Location"].rsplit("/", 1)[-1]


@pytest.fixture
def keeper(client):
    """A 3-player Roppyakken session: its scorekeeper token."""
    return new_session(client)


@pytest.fixture
def viewer(client, keeper):
    """The same session's viewer token."""
    return client.get(f"/api/v1/sessions/{keeper}").get_json()["view_token"]


class Helpers:
    """The helper functions above, for test modules (as a fixture, so no test imports conftest)."""

    players = PLAYERS
    piles = staticmethod(made_up_piles)
    round_form = staticmethod(round_form)
    new_session = staticmethod(new_session)
    signed = staticmethod(signed)


@pytest.fixture
def h() -> type[Helpers]:
    return Helpers


# ---- Browser tests: Debian chromium through Playwright; never downloads a browser. ----
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def live(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()
    server.server_close()


@pytest.fixture
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the browser extra (playwright)")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}: install Debian's chromium (apt-get install -y chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
