"""The app as a real service, end to end (issue 10): waitress serving, Chromium with the CDN blocked
and the Content-Security-Policy enforced, and ``hanafuda-referee serve`` itself.

Browser tests use Debian's chromium through Playwright (tests/web/conftest.py ``browser``) and
never download a browser; they skip, saying why, without one.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from urllib.parse import quote

import pytest
import waitress

from referee.web import create_app

pytestmark = pytest.mark.slow


@pytest.fixture
def cdn_app(tmp_path):
    """The app as installed: the pinned CDN htmx (not the vendored copy), fake card recognition."""
    return create_app(
        {
            "TESTING": True,
            "DATA_DIR": str(tmp_path),
            "SECRET_KEY": "t",
            "HTMX_LOCAL": False,
            "PHOTO_DETECTOR": lambda: lambda image: [],
        }
    )


@pytest.fixture
def served(cdn_app):
    """``cdn_app`` on waitress (as ``serve`` runs it) on a free loopback port."""
    server = waitress.create_server(cdn_app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()
    thread.join(timeout=10)


def offline(browser):
    """A phone without internet: every request off this machine fails, the CDN's included."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda route: route.abort("internetdisconnected"))
    page = context.new_page()
    refused = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    return context, page, refused


def tap(page, seat: int, card_id: str) -> None:
    page.locator(f'input[name="pile-{seat}"][value="{card_id}"] + .face').click()


def test_offline_the_vendored_htmx_starts_and_the_policy_blocks_nothing(served, browser, h):
    context, page, refused = offline(browser)
    page.goto(f"{served}/new")
    page.fill('input[name="name"]', "Offline table")
    for i, p in enumerate(h.players):
        page.fill(f'input[name="player-{i}"]', p)
    page.get_by_role("button", name="Create session").click()
    page.wait_for_selector("#board")
    # the fallback loads htmx after the CDN's script has failed, which may come after #board is
    # drawn (seen on a loaded CI machine): wait for it, then check that it started
    page.wait_for_function("typeof window.htmx !== 'undefined'", timeout=15000)
    assert page.evaluate("typeof window.htmx") == "object"  # the fallback loaded htmx, and it started:
    viewer_url = page.locator(".share a").first.get_attribute("href")
    page.get_by_text("Enter round 1").click()
    piles = h.piles(0)
    for seat, player in enumerate(h.players):
        page.locator(f'label[for="tab-{seat}"]').click()
        for cid in piles[player]:
            tap(page, seat, cid)
    page.locator("#preview").get_by_text("24 of 48").wait_for(timeout=5000)  # the live preview (hx-post)
    viewer_context, viewer, viewer_refused = offline(browser)
    viewer.goto(viewer_url)
    page.get_by_role("button", name="Score round").click()
    page.get_by_role("button", name="Save round 1").click()
    viewer.wait_for_selector("#round-1", timeout=8000)  # the viewer's board polls (hx-trigger every 2s)
    assert refused == []
    assert viewer_refused == []
    context.close()
    viewer_context.close()


def test_the_policy_refuses_an_injected_inline_script(served, browser, h, cdn_app):
    """The CSP is really enforced: an inline script, had one slipped into a page, would not run."""
    client = cdn_app.test_client()
    token = h.new_session(client, name="<script>window.pwned=1</script>")
    context, page, refused = offline(browser)
    page.goto(f"{served}/s/{token}")
    assert page.evaluate("window.pwned") is None
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<img src=x onerror=\"window.pwned=2\">')")
    page.wait_for_timeout(300)
    assert page.evaluate("window.pwned") is None
    assert any("inline event handler" in m or "script-src" in m for m in refused)
    context.close()


def test_what_if_the_rule_fix_its_undo_and_the_player_pages_run_under_the_policy(served, browser, h, cdn_app):
    """The pages issue 11 and 12 added (What if…, fixing a rule, player pages) work offline with the
    policy enforced, and their core actions are plain forms."""
    context, page, refused = offline(browser)
    page.goto(f"{served}/new")
    page.fill('input[name="name"]', "Rules table")
    for i, p in enumerate(h.players):
        page.fill(f'input[name="player-{i}"]', p)
    page.get_by_role("button", name="Create session").click()
    page.wait_for_selector("#board")
    edit = page.url.rsplit("/", 1)[-1]
    api = cdn_app.test_client()
    assert api.post(f"/api/v1/sessions/{edit}/rounds", json={"piles": h.piles(0)}).status_code == 201
    page.goto(f"{served}/s/{edit}")
    page.get_by_role("link", name="What if…").click()
    page.fill('textarea[name="extra"]', "fuke.threshold=40")
    page.get_by_role("button", name="Compare").click()
    page.get_by_text("Round by round").wait_for()
    page.get_by_role("button", name="Apply these rules to the session").click()
    undo = page.get_by_role("button", name=re.compile(r"Undo change rules to Roppyakken.* with fuke\.threshold=40"))
    undo.wait_for()  # back on the scoreboard, with the rule change in the change log
    assert api.get(f"/api/v1/sessions/{edit}").get_json()["options"] == {"fuke.threshold": 40}
    undo.click()
    page.get_by_role("button", name=re.compile(r"Undo add round 1")).wait_for()
    assert api.get(f"/api/v1/sessions/{edit}").get_json()["options"] == {}
    page.goto(f"{served}/players")
    page.get_by_role("link", name=re.compile(h.players[0])).first.click()
    page.get_by_role("heading", name=re.compile(h.players[0])).first.wait_for()
    assert refused == []
    context.close()


# ---- hanafuda-referee serve ---------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port: int, path: str) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        conn.close()


def test_serve_runs_waitress_prints_the_host_key_and_backs_up(tmp_path):
    port = free_port()
    env = {**os.environ, "HANAFUDA_REFEREE_DATA": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee.cli", "serve", "--port", str(port), "--threads", "4"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    try:
        for line in proc.stdout:
            lines.append(line)
            if "stop with Ctrl+C" in line:
                break
        key = (tmp_path / "host_key").read_text().strip()
        assert any(key in line for line in lines), lines
        for _ in range(100):
            try:
                status, headers, body = get(port, "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        assert status == 200, body
        assert headers["Server"] == "hanafuda-referee"  # waitress, not Flask's development server
        assert "development server" not in "".join(lines)
        # A session named in Japanese downloads through a real HTTP/1.1 server (issue 10, item 1).
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request(
            "POST",
            "/api/v1/sessions",
            body=json.dumps({"name": "花札の夜", "players": ["A", "B"]}),
            headers={"Content-Type": "application/json"},
        )
        token = json.loads(conn.getresponse().read())["view_token"]
        conn.close()
        status, headers, body = get(port, f"/s/{token}/export.csv")
        assert status == 200
        assert f"filename*=UTF-8''{quote('花札の夜.csv')}" in headers["Content-Disposition"]
        assert body.startswith("\ufeffround,".encode())
        for _ in range(100):  # the backup at start, made on its own thread
            if list((tmp_path / "backups").glob("auto-*.sqlite3")):
                break
            time.sleep(0.1)
        assert list((tmp_path / "backups").glob("auto-*.sqlite3"))
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        proc.stdout.close()
