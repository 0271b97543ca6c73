"""The store: migrations, sessions, rounds, one-time form tokens, conflicts, undo, a locked file."""

from __future__ import annotations

import sqlite3

import pytest

from referee import store


@pytest.fixture
def db():
    d = store.open_db(None)
    yield d
    d.close()


@pytest.fixture
def sess(db):
    return store.create_session(
        db,
        name="T",
        ruleset="roppyakken",
        family="roppyakken",
        options={},
        players=["A", "B"],
        dealer="A",
    )


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
