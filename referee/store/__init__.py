"""The web app's storage: sessions, their rounds, the undo log, photos and drafts, in SQLite via sqlite-utils.

This package is the one place that writes to the database; views call its functions and
write no SQL.  Import it as ``from referee import store`` and call ``store.add_round(...)``:
every public name is re-exported here, so callers never need to know which file holds it.
The files name the data model, from the bottom up (each imports only those above it here):

- ``schema``: the tables, as the migrations ``m001_initial`` ... ``m018_deleted_sessions``
  in the order they run (a new table or column is a new step at its end);
- ``database``: ``open_db``, ``migrate``, ``check``, the writers' queue and ``writing`` (one short
  ``BEGIN IMMEDIATE`` transaction per write, taken in turn), ``guarded``, and the base errors;
- ``sessions``: a game at one table, its players, rules and links (``Session``);
- ``form_tokens``: a round form's one-time token (the API's idempotency key), and the change an
  edit, delete or rules form's token made;
- ``rounds``: a session's rounds and the undo log (``RoundRow``, ``change()``, ``ChangeLog``,
  ``undo``, ``set_rules``);
- ``deleted``: a session deleted (soft: its rows stay) and restored, the undo of its delete
  (``delete_session``, ``restore_session``, ``deleted_sessions``);
- ``photos``: pile photos;
- ``drafts``: the one store of unsaved round forms kept between steps (photo steps, Score steps,
  the live preview).

A session stores its players, ruleset and options; a round stores only its *input* (the
round JSON of the ``score`` CLI, without the session-wide keys), so totals and every round's
dealer (oya) are recomputed from the inputs on every read and editing an early round is
always correct.  Every change of a session bumps its ``rev`` and is recorded through
``change()``, so Undo covers it.

Must not import Flask or the rules core: it stores JSON, it does not score (one migration
reads the family registry, lazily).
Errors: ``NotFoundError``, ``ConflictError`` (a round changed since it was opened),
``RoundTakenError`` (another save took the round's place), ``SpentFormTokenError`` (a form
token whose round is gone), ``FormTokenReusedError``, ``ChangeTokenUsedError`` (an edit, delete
or rules form sent again), ``UndoMismatchError`` (an undo of a change already undone),
``DeletedSessionError`` (a link to a deleted session; a ``NotFoundError``) and
``StoreUnavailableError`` (the database file is locked or read-only); all are ``StoreError``.
"""

from __future__ import annotations

from referee.store.database import (
    NotFoundError,
    StoreError,
    StoreUnavailableError,
    check,
    guarded,
    migrate,
    open_db,
    writing,
)
from referee.store.deleted import (
    DELETE_SESSION,
    DeletedSession,
    NotADeleteError,
    delete_session,
    deleted_session,
    deleted_sessions,
    restore_session,
)
from referee.store.drafts import (
    Draft,
    PhotoDraft,
    add_photo_draft,
    dismiss_draft,
    drafts_since,
    get_draft,
    get_photo_draft,
    keep_draft,
    prune_drafts,
    prune_photo_drafts,
)
from referee.store.form_tokens import (
    ChangeTokenUsedError,
    FormTokenReusedError,
    SpentFormTokenError,
    check_change_token,
    form_token_digest,
    round_of_form_token,
)
from referee.store.photos import (
    PhotoRow,
    add_photo,
    attach_photos,
    get_photo,
    photos_by_ids,
    photos_of_round,
    prune_photos,
    set_photo_detections,
    set_photo_slot,
)
from referee.store.rounds import (
    Change,
    ChangeLog,
    ConflictError,
    RoundRow,
    RoundTakenError,
    UndoMismatchError,
    UnknownChangeError,
    add_round,
    change,
    delete_round,
    get_round,
    last_change,
    latest_change,
    rounds_of,
    saved_with_form_token,
    set_rules,
    undo,
    undo_discards,
    update_round,
)
from referee.store.schema import (
    m001_initial,
    m002_photos,
    m003_photo_drafts,
    m004_service_undo_steps,
    m005_service_form_tokens_per_session,
    m006_service_form_token_digest,
    m010_rules_change_log,
    m011_explicit_round_endings,
    m012_rematches,
    m013_session_form_tokens,
    m015_session_form_token_digest,
    m016_change_form_tokens,
    m017_dismissed_drafts,
    m018_deleted_sessions,
    migrations,
)
from referee.store.sessions import (
    SESSION_FIELDS,
    DeletedSessionError,
    Session,
    SessionKeyReusedError,
    create_rematch,
    create_session,
    create_sessions_once,
    find_session,
    get_session,
    list_sessions,
    move_revs_past,
    sessions_by_tokens,
)

__all__ = [
    "DELETE_SESSION",
    "SESSION_FIELDS",
    "Change",
    "ChangeLog",
    "ChangeTokenUsedError",
    "ConflictError",
    "DeletedSession",
    "DeletedSessionError",
    "Draft",
    "FormTokenReusedError",
    "NotADeleteError",
    "NotFoundError",
    "PhotoDraft",
    "PhotoRow",
    "RoundRow",
    "RoundTakenError",
    "Session",
    "SessionKeyReusedError",
    "SpentFormTokenError",
    "StoreError",
    "StoreUnavailableError",
    "UndoMismatchError",
    "UnknownChangeError",
    "add_photo",
    "add_photo_draft",
    "add_round",
    "attach_photos",
    "change",
    "check",
    "check_change_token",
    "create_rematch",
    "create_session",
    "create_sessions_once",
    "delete_round",
    "delete_session",
    "deleted_session",
    "deleted_sessions",
    "dismiss_draft",
    "drafts_since",
    "find_session",
    "form_token_digest",
    "get_draft",
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
    "m012_rematches",
    "m013_session_form_tokens",
    "m015_session_form_token_digest",
    "m016_change_form_tokens",
    "m017_dismissed_drafts",
    "m018_deleted_sessions",
    "migrate",
    "migrations",
    "move_revs_past",
    "open_db",
    "photos_by_ids",
    "photos_of_round",
    "prune_drafts",
    "prune_photo_drafts",
    "prune_photos",
    "restore_session",
    "round_of_form_token",
    "rounds_of",
    "saved_with_form_token",
    "sessions_by_tokens",
    "set_photo_detections",
    "set_photo_slot",
    "set_rules",
    "undo",
    "undo_discards",
    "update_round",
    "writing",
]
