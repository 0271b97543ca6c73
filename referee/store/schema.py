"""The database's tables, as the migrations that build them, in the order they run.

Each step keeps its name for ever (``m001_initial`` ... ``m018_deleted_sessions``): a
database records the names it ran, so a stored file opens unchanged and only the steps it
lacks run.  A new table or column is a new step at the end of this file, never an edit of an
old one.  Steps are registered in file order, which is the order they run
(``sqlite_utils.Migrations``); they read the tables with their own SQL, never through the
store's other modules, so an old step means what it meant when it ran.

Imports nothing else of ``referee.store`` (it is the package's bottom); must not import Flask.
The rules core is read in one place only, lazily, by ``m011_explicit_round_endings``
(``referee.families``, to give old rounds their ending).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from sqlite_utils import Database, Migrations

#: The store's migrations (``open_db`` and ``migrate`` apply those a database lacks).
migrations = Migrations("hanafuda-referee")


@migrations()
def m001_initial(db: Database) -> None:
    db["sessions"].create(
        {
            "id": int,
            "name": str,
            "ruleset": str,
            "family": str,
            "options": str,
            "players": str,
            "dealer": str,
            "view_token": str,
            "edit_token": str,
            "created": str,
            "updated": str,
            "rev": int,
        },
        pk="id",
        not_null={"name", "ruleset", "family", "players", "dealer", "view_token", "edit_token"},
        defaults={"rev": 0, "options": "{}"},
    )
    db["sessions"].create_index(["view_token"], unique=True)
    db["sessions"].create_index(["edit_token"], unique=True)
    db["rounds"].create(
        {
            "id": int,
            "session_id": int,
            "position": int,
            "data": str,
            "version": int,
            "created": str,
            "updated": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
        defaults={"version": 1},
    )
    db["rounds"].create_index(["session_id", "position"])
    # The undo log: each change keeps the session's rounds as they were before it.
    db["changes"].create(
        {"id": int, "session_id": int, "kind": str, "summary": str, "before": str, "created": str},
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
    )
    db["changes"].create_index(["session_id"])
    # One-time form tokens: a round form submitted twice saves one round.
    db["form_tokens"].create(
        {"token": str, "session_id": int, "round_id": int, "created": str},
        pk="token",
    )


# ---- pile photos (issue 6) --------------------------------------------------


@migrations()
def m002_photos(db: Database) -> None:
    db["photos"].create(
        {
            "id": str,
            "session_id": int,
            "round_id": int,
            "slot": str,
            "file": str,
            "width": int,
            "height": int,
            "detections": str,
            "error": str,
            "created": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
    )
    db["photos"].create_index(["session_id", "round_id"])


# ---- drafts: round forms kept between steps (issue 9; referee.store.drafts) ----------


@migrations()
def m003_photo_drafts(db: Database) -> None:
    db["photo_drafts"].create(
        {"id": str, "session_id": int, "form": str, "errors": str, "created": str},
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
    )
    db["photo_drafts"].create_index(["created"])


# ---- the service's migrations (issue 10) --------------------------------------


def _steps_between(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    """The undo steps (in recording order) that turn the rounds ``after`` back into ``before``."""
    old = {r["id"]: r for r in before}
    new = {r["id"]: r for r in after}
    keys = ("id", "position", "data", "created", "updated")
    apply = [["delete", rid] for rid in new if rid not in old]
    apply += [
        ["insert", {k: r[k] for k in keys}] for r in sorted(before, key=lambda r: r["position"]) if r["id"] not in new
    ]
    apply += [
        ["restore", {k: old[rid][k] for k in keys}]
        for rid in new
        if rid in old and new[rid]["data"] != old[rid]["data"]
    ]
    return apply[::-1]


def _round_records(db: Database, session_id: int) -> list[dict[str, Any]]:
    """A session's rounds now, in play order, as the undo steps record a round."""
    rows = db["rounds"].rows_where("session_id = ?", [session_id], order_by="position")
    return [
        {
            "id": r["id"],
            "position": r["position"],
            "data": json.loads(r["data"]),
            "created": r["created"],
            "updated": r["updated"],
        }
        for r in rows
    ]


@migrations()
def m004_service_undo_steps(db: Database) -> None:
    """The undo log keeps each change once: the steps that revert it, not a copy of every
    round before it (which grew with the square of the rounds: 15.9 MB for 400).

    A database that already ran ``m010_rules_change_log`` (issue 12, before this step
    existed) also kept a rule change's ruleset and options in ``rules_before``: that becomes
    the change's ``session`` step, and the column goes with ``before``.
    """
    db["changes"].add_column("undo", str)
    with_rules = "rules_before" in db["changes"].columns_dict
    for (sid,) in db.execute("SELECT DISTINCT session_id FROM changes").fetchall():
        rows = list(db["changes"].rows_where("session_id = ?", [sid], order_by="id"))
        current = _round_records(db, sid)
        snapshots = [json.loads(r["before"] or "[]") for r in rows] + [current]
        for i, row in enumerate(rows):
            steps = _steps_between(snapshots[i], snapshots[i + 1])
            if with_rules and row["rules_before"]:
                rules = json.loads(row["rules_before"])
                old = {
                    "ruleset": rules["ruleset"],
                    "options": json.dumps(dict(rules["options"])),
                }  # as the columns hold them
                steps.insert(0, ["session", old])
            db["changes"].update(row["id"], {"undo": json.dumps(steps, ensure_ascii=False, separators=(",", ":"))})
    db["changes"].transform(drop={"before", "rules_before"} if with_rules else {"before"})


@migrations()
def m005_service_form_tokens_per_session(db: Database) -> None:
    """A round form's one-time token (the API's idempotency key) belongs to its session."""
    db["form_tokens"].transform(pk=("session_id", "token"))


@migrations()
def m006_service_form_token_digest(db: Database) -> None:
    """A form token keeps a digest of the request that used it, so a reuse by another request is
    refused (tokens saved before have none and are not compared)."""
    db["form_tokens"].add_column("digest", str)


# ---- fixing a rule afterwards (issue 12) -------------------------------------


@migrations()
def m010_rules_change_log(db: Database) -> None:
    """Nothing to do since the undo log holds steps: a rule change logs a ``session`` step.

    Kept by name: databases made before the undo steps (issue 10) ran it to add a
    ``rules_before`` column, which ``m004_service_undo_steps`` folds into their undo steps.
    """


# ---- explicit round endings (issue 20 QA) -----------------------------------
# A Go-Stop or Koi-Koi round must say how it ended (``stopped_by``: a player, or null), or a
# forgotten stopper is scored as a nagari.  Rounds stored before dropped a null ``stopped_by``:
# their family's ``explicit_ending`` gives them back the meaning they had (nobody stopped).


def _explicit(family: str, data: Any) -> Any:
    """A stored round (its object) with its ending said; unchanged where nothing is missing."""
    from referee import families  # read here only, by this migration
    from referee.errors import RefereeError

    try:
        upgrade = families.get(family).explicit_ending
    except RefereeError:  # a family this install does not know: its rounds stay as they are
        return data
    return upgrade(data) if upgrade is not None and isinstance(data, dict) else data


@migrations()
def m011_explicit_round_endings(db: Database) -> None:
    """Stored Go-Stop and Koi-Koi rounds with no ``stopped_by`` get ``stopped_by: null`` (what they
    meant), in the rounds and in the undo log's steps, so they still score as before."""
    family = {r["id"]: r["family"] for r in db["sessions"].rows}
    for row in list(db["rounds"].rows):
        old = json.loads(row["data"])
        new = _explicit(family.get(row["session_id"], ""), old)
        if new != old:
            db["rounds"].update(row["id"], {"data": json.dumps(new)})
    for row in list(db["changes"].rows):
        steps = json.loads(row["undo"] or "[]")
        changed = False
        for step in steps:
            if step[0] in ("insert", "restore") and isinstance(step[1], dict) and "data" in step[1]:
                new = _explicit(family.get(row["session_id"], ""), step[1]["data"])
                changed = changed or new != step[1]["data"]
                step[1]["data"] = new
        if changed:
            db["changes"].update(row["id"], {"undo": json.dumps(steps, ensure_ascii=False, separators=(",", ":"))})


# ---- rematches (issue 18 leftover: a double tap on Rematch made two sessions) ---------------


@migrations()
def m012_rematches(db: Database) -> None:
    """``rematches``: the one session started as the rematch of a finished one (``of_session``
    is the primary key, so a second rematch of the same game cannot be stored)."""
    db["rematches"].create({"of_session": int, "session_id": int, "created": str}, pk="of_session")


# ---- new-session form tokens (a double tap on "New session" or Import made two sessions) ------


@migrations()
def m013_session_form_tokens(db: Database) -> None:
    """``session_form_tokens``: the sessions a creating form's one-time token (new session,
    import) created, so the same form posted again gets them back instead of new ones."""
    db["session_form_tokens"].create(
        {"token": str, "session_id": int, "created": str}, pk=("token", "session_id")
    )


# ---- change ids never reused (a stale Undo undid the change logged after an undo) ---------------


@migrations()
def m014_change_ids(db: Database) -> None:
    """``changes.id`` becomes ``AUTOINCREMENT``: it was a plain rowid, which SQLite gives again
    once the largest is deleted, as undo deletes it, so the Undo button of a page opened before
    an undo named the next change too and undid it.  The table is rebuilt from its own
    definition (columns, order and rows unchanged); SQLite then never gives an id twice."""
    (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'changes'").fetchone()
    head = re.match(r'\s*CREATE TABLE\s+(?:"changes"|\[changes\]|changes)\s*\(', sql)
    key = re.search(r'(?:"id"|\[id\]|\bid)\s+INTEGER\s+PRIMARY\s+KEY\b', sql)
    if not head or not key:
        raise RuntimeError(f"m014_change_ids: unexpected definition of changes: {sql}")
    rebuilt = "CREATE TABLE [changes_new] (" + sql[head.end() : key.end()] + " AUTOINCREMENT" + sql[key.end() :]
    db.execute(rebuilt)
    db.execute("INSERT INTO changes_new SELECT * FROM changes")
    db.execute("DROP TABLE changes")
    db.execute("ALTER TABLE changes_new RENAME TO changes")
    db["changes"].create_index(["session_id"])


# ---- session keys kept apart from their digests (an API key was found by a scan of the table) ----

#: A row ``m015_session_form_token_digest`` splits: an API key (``api:`` and the client's key, as
#: ``POST /api/v1/sessions`` keeps it) packed with its request's digest, ``<token>#<64 hex>``.
_PACKED_API_KEY = re.compile(r"(api:.+)#([0-9a-f]{64})", re.DOTALL)


@migrations()
def m015_session_form_token_digest(db: Database) -> None:
    """``session_form_tokens.digest``: the digest of the request that used the token, beside it
    (as ``m006_service_form_token_digest`` gave the round forms' tokens), so a key is found by
    ``token = ?`` through the primary key's index.  API rows kept before as one packed
    ``api:<key>#<digest>`` token are split into the two; a web form's token has no digest."""
    db["session_form_tokens"].add_column("digest", str)
    for token, session_id in db.execute("SELECT token, session_id FROM session_form_tokens").fetchall():
        packed = _PACKED_API_KEY.fullmatch(token)
        if packed:
            db.execute(
                "UPDATE session_form_tokens SET token = ?, digest = ? WHERE token = ? AND session_id = ?",
                [packed[1], packed[2], token, session_id],
            )


# ---- change form tokens (an edit, delete or rules form sent twice changed the game twice) --------


@migrations()
def m016_change_form_tokens(db: Database) -> None:
    """``change_form_tokens``: the change (``changes.id``) a changing form's one-time token made (an
    edit, a delete, a rules fix), with the digest of what it sent, so the same form sent again changes
    nothing more; a token whose change is no longer logged was undone."""
    db["change_form_tokens"].create(
        {"session_id": int, "token": str, "change_id": int, "digest": str, "created": str},
        pk=("session_id", "token"),
    )


# ---- dismissed drafts ("Start again" on a round left half entered came back at the next visit) ------


@migrations()
def m017_dismissed_drafts(db: Database) -> None:
    """``photo_drafts.dismissed``: 1 once the player chose "Start again" on the offer of that draft (the
    round a page left half entered), so it is not offered again; the draft itself is kept (its ``?step=``
    page still opens), and the next tap that replaces it keeps it as 0 again."""
    db["photo_drafts"].add_column("dismissed", int, not_null_default=0)


# ---- deleted sessions (a practice session, or one made by mistake, could not be deleted) -------------


@migrations()
def m018_deleted_sessions(db: Database) -> None:
    """``sessions.deleted``: when the session was deleted (ISO time), NULL while it is live.  A deleted session
    keeps its rounds and photos and leaves every list and page; restoring it (the undo of its delete, logged in
    ``changes`` as kind ``delete-session``) sets it back to NULL."""
    db["sessions"].add_column("deleted", str)
