"""Fixtures of the web app's tests: ``app``, ``client`` and ``runner`` on a temporary database."""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path

import pytest
from web_helpers import web_app
from werkzeug.datastructures import MultiDict
from werkzeug.serving import make_server

from referee.cards import CARDS
from referee.web.nonces import sign_nonce

PLAYERS = ["Aki", "Ben", "Chiyo"]


@pytest.fixture
def app(tmp_path):
    return web_app(tmp_path)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def locked(app):
    """Another connection holds the database's write lock (a busy database: a save answers 503)."""
    other = sqlite3.connect(app.config["DATABASE"])
    other.execute("BEGIN EXCLUSIVE")
    yield
    other.rollback()
    other.close()


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


# ---- Accessibility: axe-core (bundled by the axe-playwright-python package, never fetched). ----
#: What a page must not have: axe-core's two worst impact levels.
BLOCKING = ("serious", "critical")


def axe_violations(page) -> list[dict]:
    """axe-core's violations on the page as it is now (every rule axe runs by default)."""
    axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright", reason="needs axe-playwright-python")
    return axe_sync.Axe().run(page).response["violations"]


def assert_accessible(page) -> list[dict]:
    """Fail on any serious or critical axe-core violation, naming rule, impact and the first elements;
    returns the violations of lesser impact (reported, not failed)."""
    found = axe_violations(page)
    bad = [v for v in found if v["impact"] in BLOCKING]
    assert not bad, "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}" for v in bad
    ) + f"\n on {page.url}"
    return [v for v in found if v["impact"] not in BLOCKING]


#: Page scripts of the checks below (tests/web/*.js), run with ``page.evaluate``.
def _page_script(name: str) -> str:
    lines = (Path(__file__).parent / name).read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.startswith("//"))


SMALL_TARGETS_JS = _page_script("small_targets.js")
CONTROL_CONTRAST_JS = _page_script("control_contrast.js")


def assert_thumb_friendly(page) -> None:
    """Every control at least 44 px each way, and every control's border at least 3:1."""
    small = page.evaluate(SMALL_TARGETS_JS)
    assert not small, f"tap targets under 44 px on {page.url}: {small[:8]}"
    faint = page.evaluate(CONTROL_CONTRAST_JS)
    assert not faint, f"control borders under 3:1 on {page.url}: {faint[:8]}"


class Taps:
    """Counts the taps of a journey: every ``tap`` is one click a player makes."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def tap(self, locator) -> None:
        (self.page.locator(locator) if isinstance(locator, str) else locator).click()
        self.count += 1


Helpers.accessible = staticmethod(assert_accessible)
Helpers.thumb_friendly = staticmethod(assert_thumb_friendly)
Helpers.Taps = Taps
