"""The store: migrations, sessions, rounds, one-time form tokens, conflicts, undo, a locked file."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from referee import store
from referee.cards import CARDS


def test_migrations_are_named_and_applied_once(db):
    applied = [m.name for m in store.migrations.applied(db)]
    assert applied[0] == "m001_initial"
    assert "m002_photos" in applied  # issue 6
    store.migrate(db)  # idempotent
    assert [m.name for m in store.migrations.applied(db)] == applied
    assert {"sessions", "rounds", "changes", "form_tokens"} <= set(db.table_names())


def test_tokens_open_the_session_with_their_role(db, sess):
    assert store.find_session(db, sess.edit_token) == (sess, "edit")
    assert store.find_session(db, sess.view_token) == (sess, "view")
    assert sess.view_token != sess.edit_token
    assert len(sess.view_token) >= 20
    with pytest.raises(store.NotFoundError):
        store.find_session(db, "nope")


def test_a_form_token_saves_one_round(db, sess):
    first, created = store.add_round(db, sess.id, {"piles": {"A": ["pine-crane"]}}, "tok")
    again, created_again = store.add_round(db, sess.id, {"piles": {"A": ["pine-crane"]}}, "tok")
    assert created
    assert not created_again
    assert again.id == first.id
    assert len(store.rounds_of(db, sess.id)) == 1


def test_a_stale_version_is_a_conflict_not_an_overwrite(db, sess):
    row, _ = store.add_round(db, sess.id, {"piles": {"A": ["pine-crane"]}})
    mine = store.update_round(db, sess.id, row.id, {"piles": {"B": ["pine-crane"]}}, row.version)
    with pytest.raises(store.ConflictError) as e:
        store.update_round(db, sess.id, row.id, {"piles": {"A": []}}, row.version)
    assert e.value.current == mine
    assert store.get_round(db, sess.id, row.id).data == {"piles": {"B": ["pine-crane"]}}


def test_delete_renumbers_and_undo_restores_each_change(db, sess):
    rows = [
        store.add_round(db, sess.id, {"piles": {"A": [c]}})[0] for c in ("pine-crane", "plum-chaff-1", "iris-chaff-1")
    ]
    store.delete_round(db, sess.id, rows[0].id)
    assert [(r.position, r.data["piles"]["A"]) for r in store.rounds_of(db, sess.id)] == [
        (1, ["plum-chaff-1"]),
        (2, ["iris-chaff-1"]),
    ]
    assert store.last_change(db, sess.id) == "delete round 1"
    assert store.undo(db, sess.id) == "delete round 1"
    assert [r.id for r in store.rounds_of(db, sess.id)] == [r.id for r in rows]
    with pytest.raises(store.ConflictError):  # the undo gave every round a new version
        store.update_round(db, sess.id, rows[1].id, {"piles": {"A": []}}, rows[1].version)
    current = store.get_round(db, sess.id, rows[1].id)
    edited = store.update_round(db, sess.id, rows[1].id, {"piles": {"A": []}}, current.version)
    assert store.undo(db, sess.id) == "edit round 2"
    restored = store.get_round(db, sess.id, rows[1].id)
    assert restored.data == rows[1].data
    assert restored.version not in (
        current.version,
        edited.version,
    )  # forms opened before the undo conflict
    assert store.undo(db, sess.id) == "add round 3"
    assert len(store.rounds_of(db, sess.id)) == 2


def test_undo_with_nothing_to_undo(db, sess):
    assert store.undo(db, sess.id) is None


def test_import_creates_session_and_rounds_in_one_transaction(db):
    s = store.create_session(
        db,
        name="I",
        ruleset="roppyakken",
        family="roppyakken",
        options={"target": 300},
        players=["A", "B"],
        dealer="B",
        rounds=[{"piles": {}}, {"piles": {"A": []}}],
    )
    assert s.options == {"target": 300}
    assert s.dealer == "B"
    assert [r.position for r in store.rounds_of(db, s.id)] == [1, 2]


def test_a_locked_database_is_a_clear_error_and_saves_nothing(tmp_path):
    path = tmp_path / "x.sqlite3"
    db = store.open_db(path, timeout=0.1)
    s = store.create_session(
        db,
        name="T",
        ruleset="roppyakken",
        family="roppyakken",
        options={},
        players=["A", "B"],
        dealer="A",
    )
    other = sqlite3.connect(path)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(store.StoreUnavailableError, match="busy"):
            store.add_round(db, s.id, {"piles": {}})
    finally:
        other.rollback()
        other.close()
    assert store.rounds_of(db, s.id) == []
    db.close()


# ---- issue 10: the undo log keeps each change once ----------------------------------------------

#: A realistic stored round: two piles holding all 48 cards.
FULL_ROUND = {"piles": {"A": [c.id for c in CARDS[:24]], "B": [c.id for c in CARDS[24:]]}}


def log_bytes(db) -> int:
    return db.execute("SELECT coalesce(sum(length(undo)), 0) FROM changes").fetchone()[0]


def test_a_thousand_rounds_keep_a_small_undo_log_and_undo_still_works(db, sess):
    rows = [store.add_round(db, sess.id, FULL_ROUND)[0] for _ in range(1000)]
    adds = log_bytes(db)
    # An add is undone by its round's id: a few bytes each, never a copy of the session
    # (the old log held every round before each change: quadratic, 15.9 MB for 400 rounds).
    assert adds <= 1000 * 40, adds
    round_bytes = len(json.dumps(FULL_ROUND))
    for r in rows[:100]:
        store.update_round(
            db, sess.id, r.id, {"piles": {"A": ["pine-crane"]}}, store.get_round(db, sess.id, r.id).version
        )
    store.delete_round(db, sess.id, rows[500].id)
    # An edit or a delete keeps that one round as it was.
    assert log_bytes(db) - adds <= 101 * (round_bytes + 200)
    assert store.undo(db, sess.id) == "delete round 501"
    assert store.get_round(db, sess.id, rows[500].id).position == 501
    assert store.undo(db, sess.id) == "edit round 100"
    assert store.get_round(db, sess.id, rows[99].id).data == FULL_ROUND
    assert store.get_round(db, sess.id, rows[98].id).data == {"piles": {"A": ["pine-crane"]}}
    for _ in range(99):
        store.undo(db, sess.id)
    assert store.undo(db, sess.id) == "add round 1000"
    assert len(store.rounds_of(db, sess.id)) == 999
    assert [r.position for r in store.rounds_of(db, sess.id)] == list(range(1, 1000))


def test_undo_names_its_change_so_a_double_tap_undoes_one(db, sess):
    store.add_round(db, sess.id, {"piles": {"A": ["pine-crane"]}})
    store.add_round(db, sess.id, {"piles": {"A": ["plum-chaff-1"]}})
    latest = store.latest_change(db, sess.id)
    assert latest.summary == "add round 2"
    assert store.undo(db, sess.id, latest.id) == "add round 2"
    with pytest.raises(store.UndoMismatchError) as e:
        store.undo(db, sess.id, latest.id)
    assert e.value.latest.summary == "add round 1"
    assert len(store.rounds_of(db, sess.id)) == 1


# Bug: change ids were SQLite rowids, which reuse the largest id once it is deleted, so the Undo button of a
# tab opened before an undo named the next change as well and undid it (a round entered since).
def test_an_undone_changes_id_is_never_given_again_so_a_stale_undo_undoes_nothing(db, sess):
    store.add_round(db, sess.id, {"piles": {"A": ["pine-crane"]}})
    store.add_round(db, sess.id, {"piles": {"A": ["plum-chaff-1"]}})
    stale = store.latest_change(db, sess.id)
    store.undo(db, sess.id, stale.id)
    store.add_round(db, sess.id, {"piles": {"A": ["cherry-curtain"]}})
    assert store.latest_change(db, sess.id).id != stale.id
    with pytest.raises(store.UndoMismatchError):
        store.undo(db, sess.id, stale.id)  # the old tab's Undo
    assert len(store.rounds_of(db, sess.id)) == 2


def test_change_ids_keep_rising_across_sessions_and_after_reopening(tmp_path):
    path = tmp_path / "x.sqlite3"
    db = store.open_db(path)
    s = store.create_session(db, name="T", ruleset="roppyakken", family="roppyakken", options={},
                             players=["A", "B"], dealer="A")
    store.add_round(db, s.id, {"piles": {"A": ["pine-crane"]}})
    first = store.latest_change(db, s.id).id
    store.undo(db, s.id, first)
    db.close()
    db = store.open_db(path)
    store.add_round(db, s.id, {"piles": {"A": ["pine-crane"]}})
    assert store.latest_change(db, s.id).id > first


def test_a_database_from_before_m014_keeps_its_changes_and_stops_reusing_ids(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = store.open_db(path, apply_migrations=False)
    store.migrations.apply(old, stop_before="m014_change_ids")
    s = store.create_session(old, name="T", ruleset="roppyakken", family="roppyakken", options={},
                             players=["A", "B"], dealer="A")
    store.add_round(old, s.id, {"piles": {"A": ["pine-crane"]}})
    store.add_round(old, s.id, {"piles": {"A": ["plum-chaff-1"]}})
    before = [dict(r) for r in old["changes"].rows]
    store.migrate(old)
    assert [dict(r) for r in old["changes"].rows] == before
    stale = store.latest_change(old, s.id)
    store.undo(old, s.id, stale.id)
    store.add_round(old, s.id, {"piles": {"A": ["cherry-curtain"]}})
    assert store.latest_change(old, s.id).id > stale.id
    assert store.undo(old, s.id) == "add round 2"  # the log still undoes, newest first
    assert store.undo(old, s.id) == "add round 1"
    old.close()


def test_another_module_records_an_undoable_change(db, sess):
    """The public change API (for a rule correction that re-scores the history)."""
    row, _ = store.add_round(db, sess.id, {"piles": {"A": ["pine-crane"]}})
    with store.change(db, sess.id, "rules") as c:
        before = c.update_session(options={"target": 300})
        c.update_round(row.id, {"piles": {"B": ["pine-crane"]}})
        c.summary = "correct the target to 300"
    assert before.options == {}
    assert store.get_session(db, sess.id).options == {"target": 300}
    assert store.last_change(db, sess.id) == "correct the target to 300"
    assert store.undo(db, sess.id) == "correct the target to 300"
    assert store.get_session(db, sess.id).options == {}
    assert store.get_round(db, sess.id, row.id).data == {"piles": {"A": ["pine-crane"]}}
    with pytest.raises(ValueError, match="cannot set"), store.change(db, sess.id, "x") as c:
        c.update_session(edit_token="mine")
    assert store.last_change(db, sess.id) == "add round 1"  # the failed change left nothing


def test_an_old_snapshot_log_is_converted_and_still_undoes(tmp_path):
    """A database from before issue 10: its log held every round before each change."""
    path = tmp_path / "old.sqlite3"
    old = store.open_db(path, apply_migrations=False)
    store.migrations.apply(old, stop_before="m004_service_undo_steps")
    sid = (
        old["sessions"]
        .insert(
            {
                "name": "T",
                "ruleset": "roppyakken",
                "family": "roppyakken",
                "options": "{}",
                "players": '["A", "B"]',
                "dealer": "A",
                "view_token": "v",
                "edit_token": "e",
                "created": "",
                "updated": "",
                "rev": 3,
            }
        )
        .last_pk
    )

    def rnd(rid, pos, card):
        return {
            "id": rid,
            "position": pos,
            "data": {"piles": {"A": [card]}},
            "version": 1,
            "created": "",
            "updated": "",
        }

    # add round 1, add round 2, edit round 1, delete round 1: each change kept the rounds before it.
    history = [
        ("add round 1", []),
        ("add round 2", [rnd(1, 1, "pine-crane")]),
        ("edit round 1", [rnd(1, 1, "pine-crane"), rnd(2, 2, "plum-chaff-1")]),
        ("delete round 1", [rnd(1, 1, "iris-chaff-1"), rnd(2, 2, "plum-chaff-1")]),
    ]
    for summary, before in history:
        old["changes"].insert(
            {
                "session_id": sid,
                "kind": summary.split()[0],
                "summary": summary,
                "before": json.dumps(before),
                "created": "",
            }
        )
    old["rounds"].insert(
        {
            "id": 2,
            "session_id": sid,
            "position": 1,
            "data": json.dumps({"piles": {"A": ["plum-chaff-1"]}}),
            "version": 1,
            "created": "",
            "updated": "",
        }
    )
    old["form_tokens"].insert({"token": "t", "session_id": sid, "round_id": 2, "created": ""})
    old.close()
    db = store.open_db(path)
    assert "before" not in db["changes"].columns_dict
    assert store.undo(db, sid) == "delete round 1"
    assert [(r.id, r.position, r.data["piles"]["A"]) for r in store.rounds_of(db, sid)] == [
        (1, 1, ["iris-chaff-1"]),
        (2, 2, ["plum-chaff-1"]),
    ]
    assert store.undo(db, sid) == "edit round 1"
    assert store.get_round(db, sid, 1).data == {"piles": {"A": ["pine-crane"]}}
    assert store.undo(db, sid) == "add round 2"
    assert store.undo(db, sid) == "add round 1"
    assert store.rounds_of(db, sid) == []
    assert store.round_of_form_token(db, sid, "t") == 2  # the form tokens came along, now per session
    db.close()


def test_set_rules_is_one_undo_step_that_puts_the_old_rules_back(db, sess):
    """Fixing a rule afterwards (issue 12) is logged as the session fields it changed, nothing more."""
    store.add_round(db, sess.id, {"piles": {"A": ["pine-crane"]}})
    changed = store.set_rules(db, sess.id, "sanbyakuken", {"target": 300}, "change rules to sanbyakuken")
    assert (changed.ruleset, changed.options, changed.family) == ("sanbyakuken", {"target": 300}, "roppyakken")
    log = json.loads(db.execute("SELECT undo FROM changes ORDER BY id DESC LIMIT 1").fetchone()[0])
    assert log == [["session", {"ruleset": "roppyakken", "options": "{}"}]]
    assert store.undo(db, sess.id) == "change rules to sanbyakuken"
    back = store.get_session(db, sess.id)
    assert (back.ruleset, back.options) == ("roppyakken", {})
    assert len(store.rounds_of(db, sess.id)) == 1  # the rounds were never touched


def test_setting_the_same_rules_again_logs_nothing_so_one_undo_restores_the_old_rules(db, sess):
    """A retried rule change (two requests racing past the web layer's ``same_rules`` check)
    writes no second change: Undo still restores the rules before the fix (RULES-DECISIONS)."""
    store.set_rules(db, sess.id, "sanbyakuken", {"target": 300, "fuke.threshold": 40}, "change rules")
    store.set_rules(db, sess.id, "sanbyakuken", {"fuke.threshold": 40, "target": 300}, "change rules again")
    assert db.execute("SELECT count(*) FROM changes").fetchone()[0] == 1
    assert store.undo(db, sess.id) == "change rules"
    back = store.get_session(db, sess.id)
    assert (back.ruleset, back.options) == ("roppyakken", {})
    assert store.undo(db, sess.id) is None  # nothing else was logged


def test_a_change_logs_only_the_session_fields_it_changed(db, sess):
    store.set_rules(db, sess.id, "roppyakken", {"target": 300}, "raise the target")
    log = json.loads(db.execute("SELECT undo FROM changes ORDER BY id DESC LIMIT 1").fetchone()[0])
    assert log == [["session", {"options": "{}"}]]  # the ruleset did not change


def test_a_database_from_before_the_undo_steps_with_rule_changes_migrates(tmp_path):
    """A database made by main before issue 10's undo steps were merged: it had already run
    m010_rules_change_log (a ``rules_before`` column beside the ``before`` snapshots).  m004 then
    runs after it, turns ``rules_before`` into a session step, and undo still restores the rules."""
    path = tmp_path / "rules.sqlite3"
    old = store.open_db(path, apply_migrations=False)
    store.migrations.apply(old, stop_before="m004_service_undo_steps")
    old["changes"].add_column("rules_before", str)  # what that m010 did
    old["_sqlite_migrations"].insert(
        {"migration_set": store.migrations.name, "name": "m010_rules_change_log", "applied_at": ""}
    )
    sid = (
        old["sessions"]
        .insert(
            {
                "name": "T",
                "ruleset": "sanbyakuken",
                "family": "roppyakken",
                "options": json.dumps({"target": 200}),
                "players": '["A", "B"]',
                "dealer": "A",
                "view_token": "v",
                "edit_token": "e",
                "created": "",
                "updated": "",
                "rev": 3,
            }
        )
        .last_pk
    )
    one = {"id": 1, "position": 1, "data": {"piles": {"A": ["pine-crane"]}}, "version": 1, "created": "", "updated": ""}
    history = [  # (summary, rounds before, rules before)
        ("add round 1", [], None),
        ("change rules to sanbyakuken", [one], {"ruleset": "roppyakken", "options": {}}),
        ("change rules to target 200", [one], {"ruleset": "sanbyakuken", "options": {"target": 300}}),
    ]
    for summary, before, rules in history:
        old["changes"].insert(
            {
                "session_id": sid,
                "kind": "rules" if rules else "add",
                "summary": summary,
                "before": json.dumps(before),
                "rules_before": json.dumps(rules) if rules else None,
                "created": "",
            }
        )
    old["rounds"].insert({**one, "session_id": sid, "data": json.dumps(one["data"])})
    old.close()
    db = store.open_db(path)
    assert not store.migrations.pending(db)
    assert {"before", "rules_before"}.isdisjoint(db["changes"].columns_dict)
    assert store.undo(db, sid) == "change rules to target 200"
    assert (store.get_session(db, sid).ruleset, store.get_session(db, sid).options) == ("sanbyakuken", {"target": 300})
    assert store.undo(db, sid) == "change rules to sanbyakuken"
    assert (store.get_session(db, sid).ruleset, store.get_session(db, sid).options) == ("roppyakken", {})
    assert len(store.rounds_of(db, sid)) == 1
    assert store.undo(db, sid) == "add round 1"
    assert store.rounds_of(db, sid) == []
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()


def test_twenty_threads_saving_at_once_all_save(tmp_path):
    """Writers wait in line for the write lock instead of failing as busy (issue 10, item 10;
    the timing is measured in scripts/bench_writers.py, not here)."""
    path = tmp_path / "busy.sqlite3"
    first = store.open_db(path, timeout=5)
    sid = store.create_session(
        first, name="T", ruleset="roppyakken", family="roppyakken", options={}, players=["A", "B"], dealer="A"
    ).id
    errors = []

    def writer(n: int) -> None:
        db = store.open_db(path, timeout=5, apply_migrations=False)
        try:
            for i in range(10):
                store.add_round(db, sid, FULL_ROUND, f"w{n}-{i}")
        except store.StoreError as e:
            errors.append(e)
        finally:
            db.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(store.rounds_of(first, sid)) == 200
    assert [r.position for r in store.rounds_of(first, sid)] == list(range(1, 201))
    first.close()


def test_old_rounds_with_no_stopper_say_what_they_meant(tmp_path):
    """Before issue 20's QA a Go-Stop nagari or a Koi-Koi round whose hands ran out was stored with no
    "stopped_by"; the JSON now requires it, so m011 gives those rounds (and the undo log's) a null one."""
    path = tmp_path / "old.sqlite3"
    old = store.open_db(path, apply_migrations=False)
    store.migrations.apply(old, stop_before="m011_explicit_round_endings")
    gs = store.create_session(old, name="G", ruleset="gostop", family="gostop", options={},
                              players=["A", "B", "C"], dealer="A")
    kk = store.create_session(old, name="K", ruleset="koikoi", family="koikoi", options={},
                              players=["A", "B"], dealer="A")
    nagari = {"piles": {"A": ["pine-chaff-1"]}}
    store.add_round(old, gs.id, nagari)
    gone, _ = store.add_round(old, gs.id, nagari)
    store.delete_round(old, gs.id, gone.id)
    store.add_round(old, gs.id, {"piles": {}, "ppeok": {"B": [1, 2, 3]}})  # 3뻑 says how it ended
    store.add_round(old, kk.id, {"piles": {"A": ["pine-crane"]}})
    store.add_round(old, kk.id, {"hands": {"A": ["pine-crane"]}})  # a lucky hand at the deal
    store.migrate(old)
    assert [r.data for r in store.rounds_of(old, gs.id)] == [{**nagari, "stopped_by": None},
                                                              {"piles": {}, "ppeok": {"B": [1, 2, 3]}}]
    assert [r.data for r in store.rounds_of(old, kk.id)] == [{"piles": {"A": ["pine-crane"]}, "stopped_by": None},
                                                              {"hands": {"A": ["pine-crane"]}}]
    store.undo(old, gs.id)  # the 3뻑 round goes
    store.undo(old, gs.id)  # the deleted round comes back, as the migration left it
    assert [r.data for r in store.rounds_of(old, gs.id)] == [{**nagari, "stopped_by": None}] * 2
    old.close()


def test_a_game_has_one_rematch(tmp_path):
    db = store.open_db(tmp_path / "t.sqlite3")
    fields = {"ruleset": "roppyakken", "family": "roppyakken", "options": {}, "players": ["A", "B"], "dealer": "A"}
    game = store.create_session(db, name="Friday", **fields)
    first, made = store.create_rematch(db, game, name="Friday · rematch", **fields)
    again, made_again = store.create_rematch(db, game, name="Friday · rematch", **fields)
    assert (made, made_again) == (True, False)
    assert again == first
    assert [s.name for s in store.list_sessions(db)].count("Friday · rematch") == 1


# Bug (phone walk-through): one tap of Undo took the round just entered off for good; the scoreboard now asks
# first when the undo throws a round's entry away, and only then.
def test_undo_discards_names_the_rounds_an_undo_throws_away(db, sess):
    first, _ = store.add_round(db, sess.id, {"piles": {"A": ["pine-crane"]}})
    second, _ = store.add_round(db, sess.id, {"piles": {"A": ["plum-chaff-1"]}})
    added = store.latest_change(db, sess.id)
    assert [r.data for r in store.undo_discards(db, sess.id, added.id)] == [second.data]  # the round it adds
    store.update_round(db, sess.id, first.id, {"piles": {"A": []}}, first.version)
    edited = store.latest_change(db, sess.id)
    assert [r.data for r in store.undo_discards(db, sess.id, edited.id)] == [{"piles": {"A": []}}]  # as edited
    store.delete_round(db, sess.id, second.id)
    assert store.undo_discards(db, sess.id, store.latest_change(db, sess.id).id) == []  # undone, it comes back
    other = store.create_session(db, name="U", ruleset="roppyakken", family="roppyakken", options={},
                                 players=["A", "B"], dealer="A")
    assert store.undo_discards(db, other.id, edited.id) == []  # another session's change


# A session creation under an idempotency key with the request's digest (the API's form_token).
NEW = {
    "name": "T", "ruleset": "roppyakken", "family": "roppyakken", "options": {}, "players": ["A", "B"], "dealer": "A",
}


def test_a_key_with_its_digest_creates_once_and_refuses_another_request(db):
    made, fresh = store.create_sessions_once(db, "api:k", [NEW], "a" * 64)
    again, fresh_again = store.create_sessions_once(db, "api:k", [NEW], "a" * 64)
    assert (fresh, fresh_again) == (True, False)
    assert again[0].id == made[0].id
    with pytest.raises(store.SessionKeyReusedError, match="different request"):
        store.create_sessions_once(db, "api:k", [NEW], "b" * 64)
    assert len(store.list_sessions(db)) == 1


# Bug (fresh-user try): a key holding a NUL character never matched (SQLite's length() stops at it).
@pytest.mark.parametrize(
    "key", ["api:a\x00b", "api:\x00", "api:松のカス🎴", "api:a#b"], ids=["nul", "only-nul", "unicode", "hash"]
)
def test_any_key_matches_itself(db, key):
    made, _ = store.create_sessions_once(db, key, [NEW], "a" * 64)
    again, fresh = store.create_sessions_once(db, key, [NEW], "a" * 64)
    assert fresh is False
    assert again[0].id == made[0].id
    with pytest.raises(store.SessionKeyReusedError):
        store.create_sessions_once(db, key, [NEW], "b" * 64)


def test_a_digest_must_be_a_sha256(db):
    with pytest.raises(ValueError, match="64 hex"):
        store.create_sessions_once(db, "api:k", [NEW], "abc")


# Before m015 an API key was kept packed with its request's digest as one token, "api:<key>#<digest>",
# and found by a scan of the whole table; m015 splits those rows into token and digest.
def test_a_database_from_before_m015_splits_packed_api_keys_and_still_finds_them(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = store.open_db(path, apply_migrations=False)
    store.migrations.apply(old, stop_before="m015_session_form_token_digest")
    keys = {key: store.create_session(old, **NEW).id for key in ("api:k", "api:a\x00b", "api:a#b", "api:" + "x" * 200)}
    for key, sid in keys.items():  # as the code before m015 wrote them
        old["session_form_tokens"].insert({"token": f"{key}#{'a' * 64}", "session_id": sid, "created": ""})
    form = store.create_session(old, **NEW).id  # a web form's one-time token: no digest
    old["session_form_tokens"].insert({"token": "n-1.sig", "session_id": form, "created": ""})
    store.migrate(old)
    rows = {r["token"]: (r["session_id"], r["digest"]) for r in old["session_form_tokens"].rows}
    assert rows == {**{key: (sid, "a" * 64) for key, sid in keys.items()}, "n-1.sig": (form, None)}
    for key, sid in keys.items():
        again, fresh = store.create_sessions_once(old, key, [NEW], "a" * 64)
        assert (fresh, [s.id for s in again]) == (False, [sid])
        with pytest.raises(store.SessionKeyReusedError):
            store.create_sessions_once(old, key, [NEW], "b" * 64)
    again, fresh = store.create_sessions_once(old, "n-1.sig", [NEW])
    assert (fresh, [s.id for s in again]) == (False, [form])
    assert len(store.list_sessions(old)) == len(keys) + 1
    old.close()


def test_a_key_is_found_through_the_index_not_a_scan(db):
    store.create_sessions_once(db, "api:k", [NEW], "a" * 64)
    statements: list[str] = []
    db.conn.set_trace_callback(statements.append)
    try:
        store.create_sessions_once(db, "api:k", [NEW], "a" * 64)
    finally:
        db.conn.set_trace_callback(None)
    lookups = [s for s in statements if s.lstrip().upper().startswith("SELECT") and "session_form_tokens" in s]
    assert lookups
    for sql in lookups:
        plan = [row[-1] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall()]
        assert any(step.startswith("SEARCH session_form_tokens USING") for step in plan), plan
        assert not any(step.startswith("SCAN session_form_tokens") for step in plan), plan
