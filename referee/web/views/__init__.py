"""The web app's views: one module per screen group, each a Flask blueprint of thin views that
parse the request, call the service (``referee.web.service``) or the rules core, save through
the store, and render.  Each group's templates sit under ``templates/<blueprint>/``.

- ``home``: the sessions this browser knows, a new session (or a rematch), the host's page, About;
- ``scoreboard``: the board (kept live by polling), the totals chart, the viewer link's QR code;
- ``entry``: round entry: the form, its live preview and steps, and the photo flow;
- ``history``: a saved round edited or deleted, undo, and What if (re-scoring under other rules);
- ``deleted``: a session deleted (soft) and brought back, and the deleted sessions' list;
- ``transfer``: export (JSON, CSV) and import;
- ``api``: the JSON API under ``/api/v1`` (the same service as the screens);
- ``help``: the glossary, how each game scores, credits;
- ``players``: the players across sessions, with their history and stats;
- ``homescreen``: the web app manifests (Add to Home Screen);
- ``health``: ``/healthz`` and ``/ping``.

A view module imports no other view module (``tests/web/test_views_are_independent.py``): what
two screens share lives below them (``referee.web.access``, ``drafts``, ``round_page``,
``round_submit``, the service).  A new screen is a module here, registered in
``referee.web.create_app``.
"""

#: Every view module, in the order ``create_app`` registers their blueprints.
SCREENS = (
    "home",
    "scoreboard",
    "entry",
    "history",
    "deleted",
    "transfer",
    "api",
    "help",
    "players",
    "homescreen",
    "health",
)
