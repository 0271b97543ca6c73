"""The store package keeps the names and the migrations that ``referee/store.py`` had.

The web app, the CLI and backups import ``from referee import store`` and call ``store.<name>``
(or ``from referee.store import <name>``): every such name is found in the source with ``ast``
and must be exported by the package.  Stored databases record their migrations by name, in order.
"""

import ast
from pathlib import Path

import pytest

from referee import store

ROOT = Path(__file__).resolve().parents[2]
USERS = [*sorted((ROOT / "referee").rglob("*.py")), *sorted((ROOT / "tests").rglob("*.py"))]


def names_used(path: Path) -> set[str]:
    """``X`` of every ``store.X`` and ``from referee.store import X`` in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "store":
            used.add(node.attr)
        elif isinstance(node, ast.ImportFrom) and node.module == "referee.store":
            used |= {a.name for a in node.names}
    return used


PACKAGE = ROOT / "referee" / "store"
USED = sorted({n for p in USERS if PACKAGE not in p.parents and p != Path(__file__).resolve() for n in names_used(p)})


def test_the_app_uses_the_store():
    assert {"open_db", "add_round", "undo", "Session", "migrations"} <= set(USED)


@pytest.mark.parametrize("name", USED)
def test_every_name_the_app_uses_is_exported_by_the_package(name):
    assert name in store.__all__
    assert hasattr(store, name)


def test_migrations_keep_their_names_and_order():
    db = store.open_db(None)
    assert [m.name for m in store.migrations.applied(db)] == [
        "m001_initial",
        "m002_photos",
        "m003_photo_drafts",
        "m004_service_undo_steps",
        "m005_service_form_tokens_per_session",
        "m006_service_form_token_digest",
        "m010_rules_change_log",
        "m011_explicit_round_endings",
        "m012_rematches",
        "m013_session_form_tokens",
        "m014_change_ids",
        "m015_session_form_token_digest",
        "m016_change_form_tokens",
        "m017_dismissed_drafts",
        "m018_deleted_sessions",
    ]


def test_the_store_errors_share_one_base():
    errors = [getattr(store, n) for n in store.__all__ if n.endswith("Error")]
    assert len(errors) == 13  # NotADeleteError (a restore naming no delete) is the 13th
    assert all(issubclass(e, store.StoreError) for e in errors)
