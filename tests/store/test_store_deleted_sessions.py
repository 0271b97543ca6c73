"""Deleted sessions in the store: a soft delete, logged as an undoable change, and its restore."""

from __future__ import annotations

import pytest

from referee import store


def _round(db, sess):
    return store.add_round(db, sess.id, {"piles": {"A": ["pine-crane"], "B": []}})[0]


def test_a_deleted_session_leaves_every_list_and_keeps_its_rounds(db, sess, make_session):
    other = make_session("Other")
    _round(db, sess)
    gone = store.delete_session(db, sess.id, "tok", "d")
    assert gone.deleted is not None
    assert [s.id for s in store.list_sessions(db)] == [other.id]
    assert [s.id for s in store.sessions_by_tokens(db, [sess.edit_token, sess.view_token])] == []
    assert len(store.rounds_of(db, sess.id)) == 1  # soft: nothing is lost
    [listed] = store.deleted_sessions(db)
    assert (listed.session.id, listed.rounds, listed.change.kind) == (sess.id, 1, store.DELETE_SESSION)


def test_a_link_to_a_deleted_session_says_which_and_by_what_role(db, sess):
    store.delete_session(db, sess.id)
    for token, role in ((sess.edit_token, "edit"), (sess.view_token, "view")):
        with pytest.raises(store.DeletedSessionError) as e:
            store.find_session(db, token)
        assert (e.value.session.id, e.value.role) == (sess.id, role)
        assert isinstance(e.value, store.NotFoundError)  # every page that 404s for no session 404s for it


def test_only_scorekeeper_links_list_a_deleted_session(db, sess):
    store.delete_session(db, sess.id)
    assert store.deleted_sessions(db, [sess.view_token]) == []
    assert [d.session.id for d in store.deleted_sessions(db, [sess.edit_token])] == [sess.id]


def test_the_same_delete_form_sent_twice_deletes_once(db, sess):
    store.delete_session(db, sess.id, "tok", "d")
    with pytest.raises(store.ChangeTokenUsedError) as e:
        store.delete_session(db, sess.id, "tok", "d")
    assert (e.value.summary, e.value.same) == ("delete session", True)


def test_deleting_a_deleted_session_without_a_token_is_refused(db, sess):
    store.delete_session(db, sess.id)
    with pytest.raises(store.DeletedSessionError):
        store.delete_session(db, sess.id)


def test_nothing_changes_a_deleted_session(db, sess):
    # a save racing the delete must not land in a session nobody sees
    store.delete_session(db, sess.id)
    with pytest.raises(store.DeletedSessionError):
        store.add_round(db, sess.id, {"piles": {"A": ["pine-crane"]}})
    assert store.rounds_of(db, sess.id) == []


def test_restore_brings_the_session_back_as_it_was(db, sess):
    _round(db, sess)
    before = store.latest_change(db, sess.id)
    gone = store.delete_session(db, sess.id)
    change = store.deleted_session(db, sess.id).change
    back = store.restore_session(db, sess.id, change.id)
    assert back.deleted is None
    assert back.rev > gone.rev
    assert store.find_session(db, sess.edit_token)[0].id == sess.id
    assert store.latest_change(db, sess.id) == before  # its Undo names the change before the delete again
    assert len(store.rounds_of(db, sess.id)) == 1


def test_a_restore_sent_twice_restores_nothing_more(db, sess):
    store.delete_session(db, sess.id)
    change = store.deleted_session(db, sess.id).change
    store.restore_session(db, sess.id, change.id)
    assert store.restore_session(db, sess.id, change.id) is None


def test_a_stale_restore_of_an_earlier_delete_restores_nothing(db, sess):
    store.delete_session(db, sess.id)
    first = store.deleted_session(db, sess.id).change
    store.restore_session(db, sess.id, first.id)
    store.delete_session(db, sess.id)
    with pytest.raises(store.UndoMismatchError) as e:
        store.restore_session(db, sess.id, first.id)
    assert e.value.latest.kind == store.DELETE_SESSION
    assert e.value.latest.id != first.id
    assert store.get_session(db, sess.id).deleted is not None


def test_a_delete_form_is_spent_once_its_delete_is_restored(db, sess):
    store.delete_session(db, sess.id, "tok", "d")
    store.restore_session(db, sess.id)
    with pytest.raises(store.ChangeTokenUsedError) as e:
        store.delete_session(db, sess.id, "tok", "d")
    assert e.value.summary is None  # undone: the page offers to delete again with a fresh form
    assert store.get_session(db, sess.id).deleted is None


def test_an_unknown_session_is_not_found(db):
    with pytest.raises(store.NotFoundError):
        store.delete_session(db, 999)
    with pytest.raises(store.NotFoundError):
        store.restore_session(db, 999)
    with pytest.raises(store.NotFoundError):
        store.deleted_session(db, 999)
