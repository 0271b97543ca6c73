"""An edit that gives a round the input it already has writes nothing and logs nothing (no change to undo)."""

from __future__ import annotations

from referee import store


# Bug (new-user try): an edit that changed nothing was logged as "edit round 1", which Undo then offered.
def test_an_edit_to_the_same_input_writes_and_logs_nothing(db, sess):
    row, _ = store.add_round(db, sess.id, {"piles": {"A": ["pine-crane", "pine-ribbon"]}})
    before = store.latest_change(db, sess.id)
    same = store.update_round(db, sess.id, row.id, {"piles": {"A": ["pine-crane", "pine-ribbon"]}}, row.version,
                              "form-1")
    assert same.version == row.version
    assert store.latest_change(db, sess.id) == before
    assert store.get_session(db, sess.id).rev == sess.rev + 1  # the add's rev, no more


def test_an_edit_the_caller_calls_the_same_round_writes_nothing(db, sess):
    row, _ = store.add_round(db, sess.id, {"piles": {"A": ["pine-crane", "pine-ribbon"]}})
    reordered = {"piles": {"A": ["pine-ribbon", "pine-crane"]}}  # the same cards, tapped in another order
    same = store.update_round(db, sess.id, row.id, reordered, row.version,
                              same=lambda a, b: {p: sorted(c) for p, c in a["piles"].items()}
                              == {p: sorted(c) for p, c in b["piles"].items()})
    assert (same.version, same.data) == (row.version, row.data)
    assert store.latest_change(db, sess.id).summary == "add round 1"
    edited = store.update_round(db, sess.id, row.id, reordered, row.version)  # as stored, it differs
    assert edited.version > row.version
    assert store.latest_change(db, sess.id).summary == "edit round 1"
