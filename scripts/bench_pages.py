"""Benchmark: how many bytes each page of the web app weighs, without card art.

Usage: python scripts/bench_pages.py [--write docs/BENCHMARKS.md]

Builds the app on a temporary data folder (no card art, htmx served from the app as with
``HTMX_LOCAL``), creates the sessions a table really has (Roppyakken with 3 players and 10
rounds; Hachi-hachi with 3 and with 6 players and a saved round), then fetches every screen
through Flask's test client and reports, per page:

- ``html``: the HTML document, bytes;
- ``first visit``: the document plus every same-origin stylesheet and script it loads
  (what a phone downloads the first time, before caching), bytes;
- ``sent``: the same first visit as the app sends it to a browser that accepts compression
  (every phone browser): the HTML compressed by flask-compress, CSS and JS as they are, bytes.

Issue 11's target: each page under 100 KB (102,400 bytes) without card art.  Sizes, not
timings: they do not depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START, END = "<!-- bench_pages:start -->", "<!-- bench_pages:end -->"
LIMIT = 100 * 1024
ASSET = re.compile(r'<(?:link[^>]+href|script[^>]+src)="(/static/[^"]+)"')


def _piles(offset: int) -> dict[str, list[str]]:
    from referee.cards import CARDS

    players = ["Aki", "Ben", "Chiyo"]
    out: dict[str, list[str]] = {p: [] for p in players}
    for m in range(2, 13, 2):
        ids = [c.id for c in CARDS if c.month == m]
        out[players[(m + offset) % 3]] += ids[:2]
        out[players[(m * 2 + offset + 1) % 3]] += ids[2:]
    return out


def pages(client) -> dict[str, str]:
    """Page name -> path, after creating the sessions the pages show."""
    r = client.post("/api/v1/sessions", json={"name": "Friday at Aki's", "ruleset": "roppyakken",
                                              "players": ["Aki", "Ben", "Chiyo"]})
    ropp = r.get_json()
    for i in range(10):
        client.post(f"/api/v1/sessions/{ropp['edit_token']}/rounds", json={"piles": _piles(2 * (i % 2))})
    rounds = client.get(f"/api/v1/sessions/{ropp['edit_token']}").get_json()["rounds"]
    first = rounds[0]["id"]
    example = json.loads((ROOT / "referee" / "examples" / "hachihachi-round.json").read_text(encoding="utf-8"))
    hh = client.post("/api/v1/sessions", json={"name": "Eighty-eight", "ruleset": "hachihachi",
                                               "players": example["players"], "dealer": example["dealer"]}).get_json()
    body = {k: v for k, v in example.items() if k not in ("ruleset", "options", "players")}
    client.post(f"/api/v1/sessions/{hh['edit_token']}/rounds", json=body)
    six = client.post("/api/v1/sessions", json={"name": "Six", "ruleset": "hachihachi",
                                                "players": ["A", "B", "C", "D", "E", "F"]}).get_json()
    return {
        "home": "/",
        "new session": "/new",
        "import": "/import",
        "about": "/about",
        "scoreboard (keeper, 10 rounds)": f"/s/{ropp['edit_token']}",
        "scoreboard (viewer, 10 rounds)": f"/s/{ropp['view_token']}",
        "round entry (3 players)": f"/s/{ropp['edit_token']}/round/new",
        "dealt hands (fetched when opened)": f"/s/{ropp['edit_token']}/round/hands",
        "edit round": f"/s/{ropp['edit_token']}/round/{first}/edit",
        "delete round": f"/s/{ropp['edit_token']}/round/{first}/delete",
        "Hachi-hachi scoreboard (4 players)": f"/s/{hh['edit_token']}",
        "Hachi-hachi round entry (4 players)": f"/s/{hh['edit_token']}/round/new",
        "Hachi-hachi round entry (6 players)": f"/s/{six['edit_token']}/round/new",
    }


def measure(app) -> list[dict]:
    """``[{page, path, html, first_visit, sent}]`` (bytes) for every page."""
    client = app.test_client()
    zipped = {"Accept-Encoding": "gzip, deflate, br"}
    assets: dict[str, tuple[int, int]] = {}
    rows = []
    for name, path in pages(client).items():
        r = client.get(path)
        if r.status_code != 200:
            raise RuntimeError(f"{path}: status {r.status_code}")
        html = r.get_data()
        sent = len(client.get(path, headers=zipped).get_data())
        plain = len(html)
        for url in dict.fromkeys(ASSET.findall(html.decode("utf-8"))):
            if url not in assets:
                a, z = client.get(url), client.get(url, headers=zipped)
                assets[url] = (len(a.get_data()), len(z.get_data()))
                a.close()
                z.close()
            plain += assets[url][0]
            sent += assets[url][1]
        rows.append({"page": name, "path": path, "html": len(html), "first_visit": plain, "sent": sent})
    return rows


def table(rows: list[dict]) -> str:
    lines = [
        "| page | HTML | first visit: HTML + CSS + JS | first visit as sent (HTML compressed) |",
        "|---|---|---|---|",
    ]
    kb = lambda n: f"{n / 1024:.1f} KB"  # noqa: E731
    for r in rows:
        lines.append(f"| {r['page']} | {kb(r['html'])} | {kb(r['first_visit'])} | {kb(r['sent'])} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from referee.web import create_app

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", help="replace the bench_pages section of this Markdown file")
    args = ap.parse_args(argv)
    app = create_app({"DATA_DIR": tempfile.mkdtemp(), "SECRET_KEY": "bench", "HTMX_LOCAL": True, "CARD_ART": False})
    rows = measure(app)
    out = table(rows)
    print(out)
    for key, what in (("html", "HTML document"), ("first_visit", "first visit, uncompressed"),
                      ("sent", "first visit as sent")):
        over = [r["page"] for r in rows if r[key] > LIMIT]
        print(f"over 100 KB ({what}): {', '.join(over) or 'none'}")
    if args.write:
        doc = Path(args.write)
        text = doc.read_text(encoding="utf-8")
        section = f"{START}\n{out}\n{END}"
        if START in text:
            text = text[: text.index(START)] + section + text[text.index(END) + len(END):]
        else:
            head = __doc__.split(chr(10))[0]
            text += f"\n## Page sizes (web app)\n\n`python scripts/bench_pages.py`: {head}\n\n{section}\n"
        doc.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
