"""A table without the internet: htmx from the app itself when the CDN is out of reach, and phones
on the same Wi-Fi told how to reach the app."""

from __future__ import annotations


# Bug (web QA): an offline table had no htmx.
def test_the_cdn_htmx_falls_back_to_the_vendored_copy(tmp_path):
    from referee.web import HTMX_SRI, HTMX_VERSION, create_app

    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "SECRET_KEY": "t", "HTMX_LOCAL": False})
    body = app.test_client().get("/new").get_data(as_text=True)
    assert f'integrity="{HTMX_SRI}"' in body
    assert "onerror=" not in body  # an inline handler: the Content-Security-Policy blocks it (issue 10, item 7)
    assert f'src="/static/htmx-fallback.js" data-local="/static/vendor/htmx-{HTMX_VERSION}.min.js"' in body
    with app.test_client().get(f"/static/vendor/htmx-{HTMX_VERSION}.min.js") as js:
        assert js.status_code == 200


# Bug (web QA): the README did not say how phones reach the app.
def test_the_readme_says_how_phones_reach_the_app():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "--host 0.0.0.0" in readme
