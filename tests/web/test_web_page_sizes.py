"""Issue 11: "each page under 100 KB without card art (measure it)".

Measured by ``scripts/bench_pages.py`` (figures in docs/BENCHMARKS.md); this test runs the same
measurement and holds the line: every HTML document under 100 KB, and every first visit (the
page with its CSS and JS) under 100 KB as the app sends it to a browser that accepts
compression (the HTML compressed).  The uncompressed first visit of a round entry page is over 100 KB (htmx alone
is 50 KB) and is reported, not asserted.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from referee.web import create_app

LIMIT = 100 * 1024


@pytest.fixture(scope="module")
def sizes(tmp_path_factory):
    path = Path(__file__).resolve().parents[2] / "scripts" / "bench_pages.py"
    spec = importlib.util.spec_from_file_location("bench_pages", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path_factory.mktemp("sizes")), "SECRET_KEY": "x",
                      "HTMX_LOCAL": True, "CARD_ART": False})
    return bench.measure(app)


def test_every_page_is_measured(sizes):
    names = {r["page"] for r in sizes}
    assert {"home", "new session", "round entry (3 players)", "Hachi-hachi round entry (6 players)"} <= names


@pytest.mark.parametrize("key", ["html", "sent"], ids=["html-document", "first-visit-as-sent"])
def test_pages_are_under_100_kb(sizes, key):
    over = {r["page"]: r[key] for r in sizes if r[key] > LIMIT}
    assert not over, f"over 100 KB ({key}): {over}"
