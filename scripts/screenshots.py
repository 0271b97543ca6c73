"""Take phone-sized screenshots of the web app with headless Chromium (Debian's ``chromium``).

Usage: ``python scripts/screenshots.py [--out docs/screenshots] [--width 390] [--height 844]
[--art ../shared/cards/art/mantia]``.  Starts the app on a free port with a temporary data
folder, creates a 3-player Roppyakken session with three rounds, a 4-player Hachi-hachi
session and a Koi-Koi session, and saves home, new session, scoreboard, round entry (mid-entry,
and scored with Save in the bar), the Hachi-hachi and Koi-Koi screens, and the Help, rules,
player and totals-entry pages as PNGs.  Needs the ``browser`` extra (Playwright's Python
package, no browser download) and, for the Japanese, a CJK font (Debian: ``fonts-noto-cjk``).
Screenshots taken with ``--art`` show licensed card art: never commit them.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
from pathlib import Path

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def piles(offset: int, months) -> dict[str, list[str]]:
    """A made-up round: two cards of each listed month to one player, two to another."""
    from referee.cards import CARDS

    players = ["Aki", "Ben", "Chiyo"]
    out: dict[str, list[str]] = {p: [] for p in players}
    for m in months:
        ids = [c.id for c in CARDS if c.month == m]
        out[players[(m + offset) % 3]] += ids[:2]
        out[players[(m * 2 + offset + 1) % 3]] += ids[2:]
    return out


def hachihachi_session(client) -> str:
    """A 4-player Hachi-hachi session holding the example round; returns its scorekeeper token."""
    example = json.loads((ROOT / "referee" / "examples" / "hachihachi-round.json").read_text())
    r = client.post(
        "/api/v1/sessions",
        json={
            "name": "Eighty-eight",
            "ruleset": "hachihachi",
            "players": example["players"],
            "dealer": example["dealer"],
        },
    )
    token = r.get_json()["edit_token"]
    body = {k: v for k, v in example.items() if k not in ("ruleset", "options", "players")}
    r = client.post(f"/api/v1/sessions/{token}/rounds", json=body)
    assert r.status_code == 201, r.get_json()
    return token


def koikoi_session(client) -> str:
    """A Koi-Koi session with the example round (month 1 here) and a round the hands ran out."""
    example = json.loads((ROOT / "referee" / "examples" / "koikoi-round.json").read_text())
    r = client.post("/api/v1/sessions", json={"name": "Koi-Koi with Ben", "ruleset": "koikoi",
                                              "players": example["players"], "dealer": "Ben"})
    token = r.get_json()["edit_token"]
    rounds = [{k: example[k] for k in ("piles", "calls", "stopped_by")}, {"piles": {}, "stopped_by": None}]
    for rnd in rounds:
        r = client.post(f"/api/v1/sessions/{token}/rounds", json=rnd)
        assert r.status_code == 201, r.get_json()
    return token


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    from referee.web import create_app

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--width", type=int, default=390)
    ap.add_argument("--height", type=int, default=844)
    ap.add_argument("--art", default=None,
                    help="card art folder with MAPPING.tsv (default: the shipped thumbnails; none: text tiles)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data = tempfile.mkdtemp()
    app = create_app({"DATA_DIR": data, "HTMX_LOCAL": True, "SECRET_KEY": "shots", "CARD_ART": args.art})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    example = json.loads((ROOT / "referee" / "examples" / "roppyakken-round.json").read_text())
    client = app.test_client()
    r = client.post(
        "/api/v1/sessions",
        json={
            "name": "Friday at Aki's",
            "ruleset": "roppyakken",
            "players": example["players"],
            "dealer": "Aki",
        },
    )
    token = r.get_json()["edit_token"]
    for offset in (0, 2, 0):
        r = client.post(f"/api/v1/sessions/{token}/rounds", json={"piles": piles(offset, range(2, 13, 2))})
        assert r.status_code == 201, r.get_json()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": args.width, "height": args.height}, device_scale_factor=1)
        page.goto(f"{base}/s/{token}")  # sets the keeper cookie, so home links to the scorekeeper page
        page.goto(base + "/")
        page.screenshot(path=str(out / "home.png"))
        page.goto(f"{base}/s/{token}")
        page.locator("#round-3 details summary").click()
        page.screenshot(path=str(out / "scoreboard.png"), full_page=True)
        page.goto(f"{base}/s/{token}/round/new")
        for cid in ["pine-crane", "pine-chaff-1", "cherry-curtain", "cherry-chaff-1", "pampas-moon", "pampas-chaff-1"]:
            page.locator(f'#panel-0 input[value="{cid}"] + .face').click()
        page.locator('label[for="tab-1"]').click()
        for cid in ["plum-bush-warbler", "plum-poetry-ribbon", "wisteria-cuckoo", "wisteria-chaff-1"]:
            page.locator(f'#panel-1 input[value="{cid}"] + .face').click()
        page.wait_for_timeout(800)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(out / "round-entry.png"))
        page.locator('label[for="tab-2"]').click()
        page.get_by_role("button", name="Every card in no pile goes to Chiyo").click()
        page.wait_for_timeout(800)
        page.get_by_role("button", name="Score round").click()
        page.locator("#result").wait_for()
        page.wait_for_timeout(300)
        page.screenshot(path=str(out / "round-scored.png"))
        page.goto(f"{base}/new")
        page.get_by_text("House rules").click()
        page.screenshot(path=str(out / "new-session.png"), full_page=True)
        hh = hachihachi_session(client)
        page.goto(f"{base}/s/{hh}")
        page.locator("#round-1 details summary").click()
        page.screenshot(path=str(out / "hachihachi-scoreboard.png"), full_page=True)
        page.goto(f"{base}/s/{hh}/round/new")
        page.screenshot(path=str(out / "hachihachi-round-entry.png"), full_page=True)
        kk = koikoi_session(client)
        page.goto(f"{base}/s/{kk}")
        page.locator("#round-1 details summary").click()
        page.screenshot(path=str(out / "koikoi-scoreboard.png"), full_page=True)
        page.goto(f"{base}/s/{kk}/round/new")
        page.get_by_label("Aki stopped").check()
        page.select_option('select[name="call-0"]', "Ben")
        for cid in ["pine-poetry-ribbon", "pine-chaff-1", "plum-poetry-ribbon", "plum-chaff-1"]:
            page.locator(f'#panel-0 input[value="{cid}"] + .face').click()
        page.wait_for_timeout(600)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(out / "koikoi-round-entry.png"))
        page.goto(f"{base}/help")
        page.screenshot(path=str(out / "help.png"))
        page.goto(f"{base}/s/{token}/rules#yaku")
        page.screenshot(path=str(out / "help-rules.png"))
        page.goto(f"{base}/players/aki")
        page.screenshot(path=str(out / "player.png"), full_page=True)
        page.goto(f"{base}/s/{token}/round/new?entry=totals")
        page.screenshot(path=str(out / "totals-entry.png"))
        browser.close()
    server.shutdown()
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
