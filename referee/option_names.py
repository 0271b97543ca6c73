"""An option named as players read it, for the messages the rules core writes (errors, warnings, notes).

A message names a house rule by its label (the new-session form's and the rules page's: ``opt(label=...)`` in
the family's options schema), never by its key: ``house rule “Points to stop”``, not ``option stop_points``;
a value it names reads as the form offers it (``“Viewing yaku …”: Limited``).  The keys stay the JSON's and
the ruleset files' (``options.stop_points`` in a file's error).  Pure core: standard library and
``referee.schema`` only.
"""

from __future__ import annotations

from typing import Any

from referee.schema import option_specs

_NO_VALUE = object()


def option_label(options: Any, key: str) -> str:
    """The label of option ``key`` (dotted for a nested one, ``fuke.threshold``) of a built options dataclass.

    Raises ``ValueError`` naming the key and the known ones when ``options`` has no such option (a programming
    mistake: the message names an option its family does not have)."""
    labels = {s.key: s.label for s in option_specs(options)}
    if key not in labels:
        raise ValueError(f"no option {key!r} in {type(options).__name__}; expected one of {sorted(labels)}")
    return labels[key]


def value_as_offered(value: Any) -> str:
    """An option's value as the new-session form offers it: a choice ``rain-man`` as ``Rain man``, ``true`` as
    ``yes``, a list joined by commas."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple | list):
        return ", ".join(map(value_as_offered, value)) or "none"
    if isinstance(value, str):
        return value.replace("-", " ").capitalize()
    return str(value)


def house_rule(options: Any, key: str, value: Any = _NO_VALUE) -> str:
    """``house rule “<label>”`` for option ``key`` of ``options`` (``option_label``), with ``: <value>`` when a
    value is given (``value_as_offered``), for a message's parenthesis: ``(house rule “Points to stop”)``."""
    said = f"house rule “{option_label(options, key)}”"
    return said if value is _NO_VALUE else f"{said}: {value_as_offered(value)}"
