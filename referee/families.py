"""The registry of game families: the one place that names them.

``REGISTRY`` maps a ruleset's ``game`` value to its family (``referee.family.Family``).
The ruleset loader, ``referee.api`` (and through it the CLI) and the web app read it;
no other module imports a family package or compares a family's name.  Adding a game
family is a package beside ``referee/roppyakken/`` exposing ``FAMILY`` and one entry
below (README "Where things live").  Pure core.
"""

from __future__ import annotations

from referee import gostop, hachihachi, koikoi, roppyakken
from referee.errors import RefereeError
from referee.family import Family

#: Every game family, by name, in the order the app lists them.
REGISTRY: dict[str, Family] = {f.name: f for f in (roppyakken.FAMILY, hachihachi.FAMILY, koikoi.FAMILY,
                                                     gostop.FAMILY)}
#: The preset a round or session without a ``ruleset`` uses.
DEFAULT_RULESET = "roppyakken"


def get(name: object, source: str = "ruleset") -> Family:
    """The family named ``name``.

    Raises ``RefereeError('bad-ruleset')`` naming ``source``, the value and the families known.
    """
    family = REGISTRY.get(name) if isinstance(name, str) else None
    if family is None:
        raise RefereeError("bad-ruleset", f"{source}: field 'game' is {name!r}; expected one of {', '.join(REGISTRY)}")
    return family


def of(rules: object) -> Family:
    """The family of a loaded rules object (its ``game``)."""
    return get(getattr(rules, "game", None))
