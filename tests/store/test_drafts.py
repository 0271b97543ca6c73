"""Drafts (``referee.store.drafts``): one store for every unsaved round form kept between steps:
a photo step, the Score step, a refused Save, and the live preview's own draft of the page."""

from __future__ import annotations

import pytest

from referee import store


def test_a_step_keeps_the_form_as_a_new_draft(db, make_session):
    sess = make_session()
    form = [("pile-0", "pine-crane"), ("pile-0", "pine-chaff-1"), ("action", "score")]
    first = store.keep_draft(db, sess.id, form)
    second = store.keep_draft(db, sess.id, form, {"pile-0": "The photo is empty"})
    assert first.id != second.id
    assert store.get_draft(db, sess.id, first.id) == first
    assert first.form == form
    assert first.errors == {}
    assert second.errors == {"pile-0": "The photo is empty"}  # a photo step's errors stay with its draft


def test_the_page_keeps_one_draft_replaced_at_each_tap(db, make_session):
    sess = make_session()
    store.keep_draft(db, sess.id, [("pile-0", "pine-crane")], draft_id="page-draft-1")
    kept = store.keep_draft(db, sess.id, [("pile-1", "plum-chaff-1")], draft_id="page-draft-1")
    assert kept.id == "page-draft-1"
    assert store.get_draft(db, sess.id, "page-draft-1").form == [("pile-1", "plum-chaff-1")]


def test_another_sessions_draft_is_neither_read_nor_replaced(db, make_session):
    mine, theirs = make_session("Mine"), make_session("Theirs")
    store.keep_draft(db, theirs.id, [("pile-0", "pine-crane")], draft_id="shared-id-1")
    kept = store.keep_draft(db, mine.id, [("pile-0", "plum-chaff-1")], draft_id="shared-id-1")
    assert kept.id != "shared-id-1"
    assert store.get_draft(db, theirs.id, "shared-id-1").form == [("pile-0", "pine-crane")]
    with pytest.raises(store.NotFoundError):
        store.get_draft(db, mine.id, "shared-id-1")


def test_old_drafts_are_pruned(db, make_session):
    sess = make_session()
    kept = store.keep_draft(db, sess.id, [("pile-0", "pine-crane")])
    assert store.prune_drafts(db, "2000-01-01T00:00:00+00:00") == 0
    assert store.prune_drafts(db, "9999-01-01T00:00:00+00:00") == 1
    with pytest.raises(store.NotFoundError):
        store.get_draft(db, sess.id, kept.id)


def test_the_drafts_kept_since_a_time_come_latest_first(db, make_session):
    sess, other = make_session(), make_session("Other")
    first = store.keep_draft(db, sess.id, [("pile-0", "pine-crane")])
    second = store.keep_draft(db, sess.id, [("pile-0", "plum-chaff-1")])
    store.keep_draft(db, other.id, [("pile-0", "pine-crane")])
    assert [d.id for d in store.drafts_since(db, sess.id, "2000-01-01T00:00:00+00:00")] == [second.id, first.id]
    assert store.drafts_since(db, sess.id, "9999-01-01T00:00:00+00:00") == []
    # The page's own draft replaced at a tap is the latest again.
    store.keep_draft(db, sess.id, [("pile-0", "pine-chaff-1")], draft_id=first.id)
    assert store.drafts_since(db, sess.id, "2000-01-01T00:00:00+00:00")[0].id == first.id


# Bug (phone walk-through): "Start again" on a round left half entered did not stick: the same draft was
# offered again the next time the round page opened.  The store now keeps the draft (its ?step= page still
# opens) marked dismissed.
def test_a_dismissed_draft_is_kept_and_says_so(db, make_session):
    sess = make_session()
    kept = store.keep_draft(db, sess.id, [("pile-0", "pine-crane")], draft_id="page-draft-1")
    assert kept.dismissed is False
    assert store.dismiss_draft(db, sess.id, "page-draft-1") is True
    dismissed = store.get_draft(db, sess.id, "page-draft-1")
    assert dismissed.dismissed is True
    assert dismissed.form == kept.form
    assert store.drafts_since(db, sess.id, "2000-01-01T00:00:00+00:00")[0].dismissed is True


def test_a_new_tap_on_a_dismissed_draft_makes_it_a_draft_to_offer_again(db, make_session):
    sess = make_session()
    store.keep_draft(db, sess.id, [("pile-0", "pine-crane")], draft_id="page-draft-1")
    store.dismiss_draft(db, sess.id, "page-draft-1")
    again = store.keep_draft(db, sess.id, [("pile-0", "pine-crane"), ("pile-0", "pine-chaff-1")],
                             draft_id="page-draft-1")
    assert again.dismissed is False


def test_another_sessions_or_an_unknown_draft_is_not_dismissed(db, make_session):
    mine, theirs = make_session("Mine"), make_session("Theirs")
    store.keep_draft(db, theirs.id, [("pile-0", "pine-crane")], draft_id="shared-id-1")
    assert store.dismiss_draft(db, mine.id, "shared-id-1") is False
    assert store.dismiss_draft(db, mine.id, "no-such-draft") is False
    assert store.get_draft(db, theirs.id, "shared-id-1").dismissed is False
