"""How the web app names things to players: card kinds in English with the Japanese, merged warnings,
a number of cards ("1 card", "5 cards": ``referee.cards.count_cards``).

Template helpers only (registered by ``init_app``); the rules core's explanation lines are shown
as they are, its notes without the rule sources they cite (``player_words``).  Must not import the store.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from flask import Flask

from referee import families
from referee.cards import BY_ID, count_cards
from referee.errors import RefereeError
from referee.family import Words

#: Card kind -> its English name on a chip ("Brights 光 ×1"); the badge is ``art.KIND_BADGE``.
KIND_NAMES = {"bright": "Brights", "animal": "Animals", "ribbon": "Ribbons", "chaff": "Chaff"}
_KIND_ORDER = tuple(KIND_NAMES)

#: What the answer to a form sent twice (a double tap, Back and Save again: its one-time token used) adds to the
#: notice its first send got: the same confirmation, not an "already saved" that reads as someone else's save.
SENT_TWICE = "This form was sent twice: the second send changed nothing."


def cards_by_kind(cards: Iterable[str]) -> list[tuple[str, list[str]]]:
    """``[(kind, card ids)]`` in the order brights, animals, ribbons, chaff; unknown ids are left out."""
    groups: dict[str, list[str]] = {}
    for c in cards:
        card = BY_ID.get(c)
        if card is not None:
            groups.setdefault(card.kind, []).append(c)
    return [(k, groups[k]) for k in _KIND_ORDER if k in groups]


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


#: A rule source the core cites in a note (the API and the CLI keep it): the rule texts, the seeds, FudaWiki.
_SOURCE = r"(?:[A-Z]+-)?RULES(?:-DECISIONS)?\.md|docs/[\w./-]+|seeds?(?:/\w+| \d{3})|FudaWiki"
#: A bracket that only cites: "(RULES.md, Instant wins and the end of the game)", "(FudaWiki)".
_CITATION = re.compile(rf"\s*\((?:{_SOURCE})\b[^()]*\)")
#: A citation after what a bracket says: "(house rule first_to_target_wins, seed 002 local rule)".
_TRAILING_CITATION = re.compile(rf"[,;]\s*(?:{_SOURCE})\b[^()]*(?=\))")
#: A house rule named by its option key: "house rule first_to_target_wins".
_HOUSE_RULE_KEY = re.compile(r"\bhouse rule ([a-z]+(?:_[a-z]+)+)\b")


def player_words(note: str) -> str:
    """A core note as players read it: without the rule source it cites (a developer's document), and a house
    rule named in words, not by its option key ("(house rule: first to target wins)")."""
    note = _TRAILING_CITATION.sub("", _CITATION.sub("", note))
    return _HOUSE_RULE_KEY.sub(lambda m: "house rule: " + m.group(1).replace("_", " "), note)


def merge_warnings(warnings: Iterable[str], players: Sequence[str]) -> list[str]:
    """Warnings as players read them (``player_words``), those that differ only by the player they name said
    once ("no hand reported for A, B and C: teyaku not scored"); the others as they are, in their first order."""
    warnings = [player_words(w) for w in warnings]
    names = sorted(players, key=len, reverse=True)
    pattern = re.compile(r"\b(" + "|".join(re.escape(p) for p in names) + r")\b") if names else None
    groups: dict[str, list[str]] = {}
    order: list[str] = []
    for w in warnings:
        found = pattern.findall(w) if pattern else []
        key = pattern.sub("\0", w, count=1) if len(found) == 1 else w
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(found[0] if len(found) == 1 else w)
    out = []
    for key in order:
        who = groups[key]
        out.append(key.replace("\0", _join(who)) if "\0" in key else key)
    return out


def family_words(family: str) -> Words:
    """The dealer, card kinds, void round and money as the family's players say them
    (``Family.words``); the default words for a family not registered (its session still shows)."""
    try:
        return families.get(family).words
    except RefereeError:
        return Words()


def init_app(app: Flask) -> None:
    """Register the helpers as template globals."""
    from referee.web.chart import player_colours

    app.jinja_env.globals.update(KIND_NAMES=KIND_NAMES, cards_by_kind=cards_by_kind, merge_warnings=merge_warnings,
                                 family_words=family_words, player_colours=player_colours, count_cards=count_cards)
