"""A session as a link opens it, and its standings.

``open_session(db, token)`` finds the session a link opens and the link's role; its rules are
loaded, and its family looked up, once, on first use (``Opened.loaded``), and every check of the
request reads them from there.  ``board(db, opened)`` replays the session's rounds once per
change (the session's ``rev``): every phone at the table polls, but a change is replayed once.

Part of the service (``referee.web.service``): imports no Flask and no view.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee import store
from referee.family import Family
from referee.web.board import Board, SessionRules, build_board, load_rules, session_family

if TYPE_CHECKING:
    from sqlite_utils import Database


@dataclass
class Opened:
    """A session as a link opened it: ``role`` is ``"edit"`` (the scorekeeper's link) or ``"view"``."""

    session: store.Session
    role: str = "edit"

    @functools.cached_property
    def loaded(self) -> SessionRules:
        """The session's rules and family, loaded on first use and then kept for the request."""
        return load_rules(self.session)

    @property
    def family(self) -> Family:
        """The session's game family, also when its rules fail to load; a stand-in for one no longer
        registered (``referee.web.board.session_family``)."""
        return self.loaded.family or session_family(self.session)


def open_session(db: Database, token: str) -> Opened:
    """The session a link (viewer or scorekeeper token) opens.  Raises ``store.NotFoundError``."""
    sess, role = store.find_session(db, token)
    return Opened(sess, role)


def saved(db: Database, opened: Opened) -> Opened:
    """The session as it is now, after a write (a new ``rev``); the rules already loaded are kept
    when the write left them as they were (a round saved, edited, deleted)."""
    sess = store.get_session(db, opened.session.id)
    again = Opened(sess, opened.role)
    same = (sess.ruleset, sess.options) == (opened.session.ruleset, opened.session.options)
    if same and "loaded" in opened.__dict__:
        again.loaded = opened.loaded
    return again


def cached(cache: OrderedDict, key: tuple, make: Callable[[], Any]) -> Any:
    """``cache[key]``, made on first use; the oldest of more than 256 entries are dropped."""
    value = cache.get(key)
    if value is None:
        value = cache[key] = make()
        while len(cache) > 256:
            cache.popitem(last=False)
    return value


#: Boards by (viewer token, rev): every phone polls, but a change is replayed once.
_BOARDS: OrderedDict[tuple[str, int], Board] = OrderedDict()


def board(db: Database, opened: Opened) -> Board:
    """The session's standings, replayed once per change (``referee.web.board.build_board``)."""
    sess = opened.session
    return cached(_BOARDS, (sess.view_token, sess.rev),
                  lambda: build_board(sess, store.rounds_of(db, sess.id), opened.loaded))
