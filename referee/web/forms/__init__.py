"""Form parsing: pure functions from a ``MultiDict``-like form to plain data and field errors, so
views stay thin.

- ``limits``: the limits the forms, the API and import share (players, names, rounds, numbers);
- ``options``: a ruleset's house-rule fields (generated from its option schema) and free
  ``KEY=VALUE`` lines, for the new-session form and the What if page;
- ``session``: the new-session form;
- ``rounds``: the round entry forms (``ENTRY_FORMS``, by the kind a family names) and the round
  a posted form holds (its entry form, its JSON box or the totals pad);
- ``piles``: the round form's pile steps, and what differs between two versions of a round.

Must not import Flask's request or the store (but for its types).
"""

from __future__ import annotations

from typing import Any, Protocol


class FormData(Protocol):
    """What a Werkzeug ``MultiDict`` offers."""

    def get(self, key: str, default: Any = None) -> Any: ...
    def getlist(self, key: str) -> list[str]: ...
