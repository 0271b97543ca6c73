"""The service: the one way a request goes from a view to the rules core and the store.

The HTML screens (``referee.web.views``) and the JSON API (``referee.web.views.api``) both call
it, and neither borrows from the other.  A save reads top to bottom::

    opened = session.open_session(db, token)        # the session; its rules loaded once, on first use
    board = session.board(db, opened)               # the standings, replayed once per change
    result = rounds.score(opened, data, dealer, context)   # the round scored once
    rounds.first_to_target(opened, board, ...)      # who to ask "who got there first?"
    rounds.replay_error(opened, board, data)        # the board can replay what is saved
    row, created = rounds.add(db, opened, data, ...)  # through referee.store
    board = session.board(db, session.saved(db, opened))  # the standings after it, built once

- ``session``: open a session by its link, its standings (``board``), the session after a write;
- ``rounds``: score, check and save a round; the digests that name a save for its one-time token;
- ``archive``: a session as JSON and back (Export JSON, the API, ``export --all``, Import);
- ``rules``: what-if re-scoring and changing a session's rules afterwards.

Every function takes the database (``referee.store.Database``) it works on.  The service imports
no Flask and no view: a missing session is ``referee.store.NotFoundError``, a round or session the
rules refuse is ``referee.errors.RefereeError``, and the views turn those into pages or JSON.
"""
