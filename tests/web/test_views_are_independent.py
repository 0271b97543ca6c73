"""The screens stay independent (shared/STYLE.md "Everywhere": a request goes one way; two views of
the same thing share a service, neither borrows from the other).

- A view module (``referee/web/views/``, one blueprint per screen group) imports no other view
  module: what two screens share lives below them.
- Nothing below the views imports them (only ``create_app`` registers them), and every blueprint
  lives in ``referee/web/views/``.
- The service (``referee/web/service/``) imports no Flask, no view and none of the web helpers
  bound to a request; the pure form parsers (``referee/web/forms/``) import no Flask either.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "referee" / "web"
VIEWS = sorted(p for p in (WEB / "views").glob("*.py") if p.name != "__init__.py")
FLASK = ("flask", "werkzeug", "jinja2", "markupsafe", "itsdangerous", "flask_compress", "spectree")
#: What the service may import from the web package: itself and the pure modules below it.
SERVICE_MAY_USE = ("referee.web.service", "referee.web.board", "referee.web.round_shape", "referee.web.forms")


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def imports_of(text: str, module: str, is_package: bool = False) -> set[str]:
    """Every module the source ``text`` of ``module`` imports, by full name (``from referee.web
    import board`` counts as ``referee.web.board`` too; relative imports are resolved)."""
    package = module if is_package else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                anchor = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{anchor}.{base}" if base else anchor
            out.add(base)
            out |= {f"{base}.{a.name}" for a in node.names}
    return out


def imported(path: Path) -> set[str]:
    return imports_of(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py")


def test_the_check_sees_every_way_of_importing_a_view():
    for line in ("from referee.web.views import scoreboard", "import referee.web.views.scoreboard",
                 "from referee.web.views.scoreboard import board_html", "from . import scoreboard",
                 "from .scoreboard import board_html"):
        assert "referee.web.views.scoreboard" in imports_of(line, "referee.web.views.entry"), line


def test_every_screen_group_is_a_view_module():
    assert {p.stem for p in VIEWS} >= {"home", "scoreboard", "entry", "history", "transfer", "api", "help"}


@pytest.mark.parametrize("path", VIEWS, ids=lambda p: p.stem)
def test_a_view_module_imports_no_other_view_module(path):
    others = {module_name(p) for p in VIEWS} - {module_name(path)}
    bad = sorted(imported(path) & others)
    assert not bad, f"{module_name(path)} imports the view module(s) {bad}: move what they share below the views"


@pytest.mark.parametrize("path", sorted(p for p in WEB.rglob("*.py") if "views" not in p.relative_to(WEB).parts),
                         ids=lambda p: str(p.relative_to(WEB)))
def test_nothing_below_the_views_imports_them_or_holds_a_blueprint(path):
    if path == WEB / "__init__.py":
        return  # create_app registers the blueprints
    bad = sorted(n for n in imported(path) if n == "referee.web.views" or n.startswith("referee.web.views."))
    assert not bad, f"{module_name(path)} imports {bad}: code below the views must not reach up into them"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    blueprints = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "Blueprint"]
    assert not blueprints, f"{module_name(path)} makes a Blueprint: screens live in referee/web/views/"


@pytest.mark.parametrize("path", sorted((WEB / "service").glob("*.py")), ids=lambda p: p.stem)
def test_the_service_imports_no_flask_and_no_view(path):
    names = imported(path)
    flask = sorted(n for n in names if n.split(".")[0] in FLASK)
    assert not flask, f"{module_name(path)} imports {flask}: the service takes the database, raises the store's errors"
    web = sorted(n for n in names if n.startswith("referee.web.") and not n.startswith(SERVICE_MAY_USE))
    assert not web, f"{module_name(path)} imports {web}: only the service and the pure modules below it"


@pytest.mark.parametrize("path", sorted((WEB / "forms").glob("*.py")), ids=lambda p: p.stem)
def test_the_form_parsers_import_no_flask(path):
    flask = sorted(n for n in imported(path) if n.split(".")[0] in FLASK)
    assert not flask, f"{module_name(path)} imports {flask}"
