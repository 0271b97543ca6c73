"""The store package keeps the names and the migrations that ``referee/store.py`` had.

The web app, the CLI and backups import ``from referee import store`` and call
``store.<name>``; stored databases record their migrations by name, in order.
"""

import pytest

from referee import store

# Every public name of the single-module store, before it became a package.
NAMES = [
    "Change",
    "ChangeLog",
    "ConflictError",
    "FormTokenReusedError",
    "NotFoundError",
    "PhotoDraft",
    "PhotoRow",
    "RoundRow",
    "RoundTakenError",
    "SESSION_FIELDS",
    "Session",
    "SpentFormTokenError",
    "StoreError",
    "StoreUnavailableError",
    "UndoMismatchError",
    "add_photo",
    "add_photo_draft",
    "add_round",
    "attach_photos",
    "change",
    "check",
    "create_session",
    "delete_round",
    "find_session",
    "get_photo",
    "get_photo_draft",
    "get_round",
    "get_session",
    "guarded",
    "keep_draft",
    "last_change",
    "latest_change",
    "list_sessions",
    "m001_initial",
    "m002_photos",
    "m003_photo_drafts",
    "m004_service_undo_steps",
    "m005_service_form_tokens_per_session",
    "m006_service_form_token_digest",
    "m010_rules_change_log",
    "m011_explicit_round_endings",
    "migrate",
    "migrations",
    "move_revs_past",
    "open_db",
    "photos_by_ids",
    "photos_of_round",
    "prune_photo_drafts",
    "prune_photos",
    "round_of_form_token",
    "rounds_of",
    "saved_with_form_token",
    "sessions_by_tokens",
    "set_photo_detections",
    "set_photo_slot",
    "set_rules",
    "undo",
    "update_round",
    "writing",
]

MIGRATIONS = [
    "m001_initial",
    "m002_photos",
    "m003_photo_drafts",
    "m004_service_undo_steps",
    "m005_service_form_tokens_per_session",
    "m006_service_form_token_digest",
    "m010_rules_change_log",
    "m011_explicit_round_endings",
]


@pytest.mark.parametrize("name", NAMES)
def test_every_public_name_is_importable_from_the_package(name):
    assert hasattr(store, name)
    assert name in store.__all__


def test_migrations_keep_their_names_and_order():
    db = store.open_db(None)
    assert [m.name for m in store.migrations.applied(db)] == MIGRATIONS


def test_the_store_errors_share_one_base():
    for name in NAMES:
        obj = getattr(store, name)
        if isinstance(obj, type) and issubclass(obj, Exception):
            assert issubclass(obj, store.StoreError), name
