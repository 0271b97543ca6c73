"""Help and credits: the glossary, how each game scores, and who made what.

- ``/help``: the glossary (``referee.web.glossary``), one anchor per term, and
  the games, listed from the preset files;
- ``/help/<preset>``: how a preset scores, generated from its ruleset file
  (``referee.describe``), with one anchor per section and per yaku (``y-<id>``);
- ``/s/<token>/rules``: the same for a session's ruleset with its house rules;
- ``/credits``: the card art's credits, htmx and the Python libraries with their licences.

Every "Why?" links its lines here (``help_link``).  Views only read.  A view module: imports no
other view module.
"""

from __future__ import annotations

import importlib.metadata
import re
from typing import Any

from flask import Blueprint, Flask, abort, current_app, render_template, url_for

from referee import api, store
from referee.describe import how_it_scores
from referee.errors import RefereeError
from referee.ruleset import load_ruleset
from referee.web.access import load, require_installed
from referee.web.art import credit_html
from referee.web.board import installed
from referee.web.errors import error_response
from referee.web.glossary import TERMS, kind_cards, line_anchor

bp = Blueprint("help", __name__)
#: The app's own distribution, whose runtime dependencies the Credits page lists.
DISTRIBUTION = "hanafuda-referee"


def presets() -> list[dict[str, Any]]:
    """Every bundled preset: ``{name, title, description, game}``, from the ruleset files."""
    out = []
    for name in api.preset_names():
        try:
            info = api.ruleset_json(name)
        except (RefereeError, ImportError):
            continue  # a family whose module is not installed
        out.append({k: info[k] for k in ("name", "title", "description", "game")})
    return out


@bp.get("/help")
def glossary():
    """The glossary and the list of games."""
    return render_template("help/help.html", terms=TERMS, kind_cards=kind_cards, presets=presets())


@bp.get("/help/<name>")
def preset_rules(name: str):
    """How a bundled preset scores."""
    # The Help page lists the games: the way on from a game not there.
    help_page = {"back": url_for("help.glossary"), "back_label": "The Help page"}
    if name not in api.preset_names():
        abort(error_response(404, f"There is no game called {name[:40]!r}. The Help page lists them all.",
                             **help_page))
    try:
        how = how_it_scores(load_ruleset(name))
    except (RefereeError, ImportError, KeyError) as e:
        abort(error_response(404, f"This game cannot be described here ({e}). The Help page lists the games.",
                             **help_page))
    return render_template("help/help_rules.html", how=how, s=None)


@bp.get("/s/<token>/rules")
def session_rules(token: str):
    """How a session's game scores, with its house rules (any link to the session opens it)."""
    opened = load(token)
    require_installed(opened, 404)
    sess = opened.session
    try:
        how = how_it_scores(load_ruleset(sess.ruleset, sess.options))
    except (RefereeError, ImportError, KeyError) as e:
        abort(404, f"This session's rules cannot be described ({e}).")
    return render_template("help/help_rules.html", how=how, s=sess)


def help_link(code: str, sess: store.Session | None = None, ruleset: str | None = None) -> str:
    """The Help address that explains an explanation line's ``code``: a glossary term, or a
    section or yaku of the session's (or ``ruleset``'s) rules page."""
    page, anchor = line_anchor(code)
    if page == "rules" and sess is not None and not installed(sess):
        page = "glossary"  # its rules page cannot describe a game not installed here: the general help
    if page == "rules" and sess is not None:
        return url_for("help.session_rules", token=sess.view_token, _anchor=anchor)
    if page == "rules" and ruleset in api.preset_names():
        return url_for("help.preset_rules", name=ruleset, _anchor=anchor)
    return url_for("help.glossary", _anchor=anchor if page == "glossary" else None)


# ---- credits ------------------------------------------------------------------


def _licence(meta: importlib.metadata.PackageMetadata) -> str:
    """A distribution's licence in a few words: its SPDX expression, its short licence field or classifier."""
    expression = meta.get("License-Expression")
    if expression:
        return expression
    text = (meta.get("License") or "").strip()
    if text and "\n" not in text and len(text) <= 60:
        return text
    classifiers = [c.rsplit(" :: ", 1)[-1] for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
    return ", ".join(c for c in classifiers if c != "OSI Approved") or "see the package"


def libraries() -> list[dict[str, str]]:
    """The libraries this app runs on, its dependencies and theirs: ``{name, version, licence,
    summary}``, read from the installed packages' metadata (so the list follows ``pyproject.toml``)."""
    seen: dict[str, dict[str, str]] = {}
    todo = [DISTRIBUTION]
    while todo:
        dist = todo.pop()
        try:
            requires = importlib.metadata.requires(dist) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        for req in requires:
            if "extra ==" in req:
                continue  # optional: not installed with the app
            name = re.split(r"[\s<>=!~;\[(]", req, maxsplit=1)[0]
            key = re.sub(r"[-_.]+", "-", name).lower()
            if key in seen:
                continue
            try:
                meta = importlib.metadata.metadata(name)
            except importlib.metadata.PackageNotFoundError:
                continue  # a marker excluded it on this platform
            seen[key] = {"name": meta["Name"], "version": meta["Version"], "licence": _licence(meta),
                         "summary": meta.get("Summary") or ""}
            todo.append(name)
    return sorted(seen.values(), key=lambda d: d["name"].lower())


@bp.get("/credits")
def credits():
    """Card art credits, htmx and the Python libraries, with their licences."""
    art = current_app.extensions.get("card_art")
    credits = [(name, credit_html(name, text)) for name, text in art.credits] if art else []
    return render_template("help/credits.html", art=art, credits=credits, libraries=libraries())


def init_app(app: Flask) -> None:
    """Register the blueprint and ``help_link`` for the templates."""
    app.register_blueprint(bp)
    app.jinja_env.globals.update(help_link=help_link)
