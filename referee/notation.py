"""Card notation: turn what players type into card ids from CARDS.tsv.

Accepted tokens: ids (``pine-crane``), English names (``Pine with Crane``),
Japanese names (``松に鶴``), Korean hwatu names (``비광``, ``송학 광``, ``국진``:
``referee/data/hwatu_names.tsv``, with or without the space), and the generic chaff
forms ``pine-chaff`` / ``松のカス`` / ``송학 피``, which take the next free chaff of that
month, since same-month chaff are interchangeable for scoring.  A Korean name of a month
or a set (``송학``, ``고도리``) is not one card: the error lists the cards it could mean.
Case is ignored; space, ``-`` and ``_`` are the same.  Pure core: standard library only.
"""

from __future__ import annotations

import csv
import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources

from referee.cards import BY_ID, CARD_IDS, CARDS
from referee.errors import RefereeError, given


def normalise(token: str) -> str:
    """Lower-case, map space/``_`` to ``-``, drop brackets and other punctuation."""
    t = token.strip().lower()
    t = re.sub(r"[\s_\-]+", "-", t)
    t = re.sub(r"[()（）,.'\"]", "", t)
    return t.strip("-")


def _build_aliases() -> dict[str, tuple[str, ...]]:
    aliases: dict[str, list[str]] = {}

    def add(key: str, cid: str) -> None:
        ids = aliases.setdefault(normalise(key), [])
        if cid not in ids:
            ids.append(cid)

    for c in CARDS:
        add(c.id, c.id)
        add(c.name, c.id)
        short = re.sub(r"\s*\(.*?\)", "", c.name)  # "Pine with Crane (and Sun)" -> "Pine with Crane"
        if short != c.name:
            add(short, c.id)
        add(c.name_ja, c.id)
        if c.kind == "chaff" and c.roppyakken_points == 0 and "lightning" not in c.tags:
            # Generic same-month chaff: "pine-chaff" / 松のカス.
            add(f"{c.plant}-chaff", c.id)
    for row in HWATU_NAMES:
        if row["use"] == "card":
            for key in _korean_keys(row["name"]):
                for cid in row["ids"].split():
                    add(key, cid)
    return {k: tuple(v) for k, v in aliases.items()}


def _load_hwatu_names() -> tuple[dict[str, str], ...]:
    text = resources.files("referee").joinpath("data/hwatu_names.tsv").read_text(encoding="utf-8")
    rows = tuple(csv.DictReader(text.splitlines(), delimiter="\t"))
    for row in rows:
        unknown = [c for c in row["ids"].split() if c not in BY_ID]
        if unknown or row["use"] not in ("card", "month", "set"):
            raise ValueError(f"hwatu_names.tsv: {row['name']!r} has ids {unknown} not in CARDS.tsv or use "
                             f"{row['use']!r}; expected card ids and use card, month or set")
    return rows


def _korean_keys(name: str) -> set[str]:
    """A Korean name as players type it: with its space (``송학 광``) or without (``송학광``)."""
    key = normalise(name)
    return {key, key.replace("-", "")}


#: Korean hwatu names (화투): ``name``, ``ids`` (space-separated; several: interchangeable chaff,
#: the next free one is taken) and ``use``: ``card`` (accepted), ``month`` or ``set`` (a name of
#: several cards, answered with the cards it could mean).  Hwatu numbers: 11월 오동, 12월 비.
HWATU_NAMES: tuple[dict[str, str], ...] = _load_hwatu_names()
#: normalised token -> candidate ids (several only for interchangeable chaff).
ALIASES: dict[str, tuple[str, ...]] = _build_aliases()
#: Korean id -> its first Korean card name, for hints (``비광 (willow-rain-man)``).
KOREAN_NAME: dict[str, str] = {}
for _row in HWATU_NAMES:
    for _cid in _row["ids"].split():
        if _row["use"] == "card":
            KOREAN_NAME.setdefault(_cid, _row["name"])
#: normalised Korean name of a month or a set -> (its name, its use, the cards it names).
SEVERAL: dict[str, tuple[str, str, tuple[str, ...]]] = {
    key: (row["name"], row["use"], tuple(row["ids"].split()))
    for row in HWATU_NAMES if row["use"] != "card" for key in _korean_keys(row["name"])
}
_HANGUL = re.compile(r"[\uac00-\ud7a3]")


def _named(ids: Iterable[str], korean: bool) -> str:
    """Card ids in a hint, each with its Korean name first when the player typed Korean (interchangeable
    chaff, which share a name, once)."""
    if not korean:
        return ", ".join(ids)
    seen: dict[str, str] = {}
    for cid in ids:
        seen.setdefault(KOREAN_NAME.get(cid, cid), cid)
    return ", ".join(f"{name} ({cid})" if name != cid else cid for name, cid in seen.items())


def _several_hint(token: str, name: str, use: str, ids: tuple[str, ...]) -> str:
    what = "a month" if use == "month" else "a set"
    return (f"unknown card {token!r}: {name} is {what} of {len(ids)} cards, not one card; did you mean "
            f"{_named(ids, True)}?")


def suggest(token: str, n: int = 3) -> list[str]:
    """The nearest card ids to an unknown token (may be empty)."""
    key = normalise(token)
    near = difflib.get_close_matches(key, list(ALIASES), n=n * 2, cutoff=0.5)
    out: list[str] = []
    for k in near:
        for cid in ALIASES[k]:
            if cid not in out:
                out.append(cid)
    return out[:n]


class DuplicateCardError(RefereeError):
    """``duplicate-card``: one card in two groups of a round (``parse_groups``), or twice in one.  The message
    names the card by id, for the JSON's author; the parts let a form say it in players' words: ``card`` (its
    id), ``what`` the groups are (``pile``, ``hand``...) and ``owners`` (both, or the one that holds it twice)."""

    def __init__(self, message: str, card: str, what: str, owners: tuple[str, ...]) -> None:
        super().__init__("duplicate-card", message)
        self.card, self.what, self.owners = card, what, owners


class CardListError(RefereeError):
    """An entry of a card list (``option_cards``) that names no card, or a card already listed: ``index``
    is the entry's position (from 0), the message is in players' words."""

    def __init__(self, code: str, message: str, index: int) -> None:
        super().__init__(code, message)
        self.index = index


def option_cards(entries: Sequence[str]) -> tuple[str, ...]:
    """The card ids of a house rule that lists cards (Go-Stop's ``ssangpi``, Hachi-hachi's field brights), in
    the entries' order: each entry an id or a name as ``resolve`` reads it (``Willow lightning (gate)``, ``비쌍피``,
    any case); a generic chaff name (``pine chaff``) takes its month's next chaff that no entry names.

    Raises ``CardListError``: ``unknown-card`` (``not_a_card_id``) or ``duplicate-card`` naming the card and
    how it was written each time (``Willow lightning (gate) is listed twice (“willow-lightning” and “비쌍피”);
    list each card once``), at the later entry.
    """
    cands: list[tuple[str, ...]] = []
    for i, text in enumerate(entries):
        found = ALIASES.get(text) or ALIASES.get(normalise(text))
        if found is None:
            raise CardListError("unknown-card", not_a_card_id(text), i)
        cands.append(found)
    out: list[str | None] = [None] * len(entries)
    first: dict[str, int] = {}

    def place(i: int, cid: str) -> None:
        if cid in first:
            was, now = _cut(entries[first[cid]]), _cut(entries[i])
            how = f"(“{was}”) is listed twice" if was == now else f"is listed twice (“{was}” and “{now}”)"
            raise CardListError("duplicate-card", f"{BY_ID[cid].name} {how}; list each card once", i)
        first[cid] = i
        out[i] = cid

    for i, found in enumerate(cands):  # exact cards first: generic chaff takes what they leave
        if len(found) == 1:
            place(i, found[0])
    for i, found in enumerate(cands):
        if len(found) > 1:
            free = [c for c in found if c not in first]
            if not free:
                times = sum(1 for other in cands if other == found)
                plant = BY_ID[found[0]].plant.replace("-", " ")
                raise CardListError("duplicate-card", f"“{_cut(entries[i])}” is listed {times} times, but the deck "
                                    f"has only {len(found)} {plant} chaff; list each card once", i)
            place(i, free[0])
    return tuple(c for c in out if c is not None)


#: What separates the entries of a card list typed in one box (``split_card_list``).
_LIST_SEPARATORS = re.compile(r"[,;、，；\n]+")
#: The most words a card's name or id has, written with spaces (``Pine with Crane (and Sun)``).
_MOST_WORDS = max(len(key.split("-")) for key in ALIASES)


def _names_a_card(text: str) -> bool:
    return text in ALIASES or normalise(text) in ALIASES


def split_card_list(text: str) -> list[str]:
    """The entries of a card list typed in one box (a form's house rule): separated by commas (or ``;``,
    ``、``, new lines), and within a piece, read word by word with the longest run that names a card first,
    so spaces separate ids too (``willow-lightning paulownia-chaff-yellow``) while a name keeps its own
    (``Willow lightning (gate), 비쌍피``).  Words that name no card stay together up to the next word that
    starts one, as one entry for ``option_cards`` to quote.  Pure: never raises."""
    out: list[str] = []
    for piece in _LIST_SEPARATORS.split(text):
        words = piece.split()
        i = 0
        while i < len(words):
            end = _card_run(words, i)
            if end is None:  # no card starts here: up to the next word that starts one
                end = next((k for k in range(i + 1, len(words)) if _card_run(words, k) is not None), len(words))
            out.append(" ".join(words[i:end]))
            i = end
    return out


def _card_run(words: Sequence[str], i: int) -> int | None:
    """The end of the longest run of ``words`` from ``i`` that names one card, or None."""
    for end in range(min(len(words), i + _MOST_WORDS), i, -1):
        if _names_a_card(" ".join(words[i:end])):
            return end
    return None


def _cut(text: str) -> str:
    return text if len(text) <= 40 else text[:39] + "…"


def not_a_card_id(text: str) -> str:
    """Why ``text``, an entry of a card-list option (Go-Stop's ``ssangpi``: ``option_cards``), is no card, in
    players' words: ``“wilow-lightning” is not a card id: ids are the plant, then the card, such as
    willow-lightning (Help lists them all)``; the example is the nearest id (``suggest``), else the
    first card's.  Help's "Card ids" table lists every id."""
    near = suggest(text, 1)
    example = near[0] if near else CARD_IDS[0]
    return f"“{_cut(text)}” is not a card id: ids are the plant, then the card, such as {example} (Help lists them all)"


def resolve(token: str) -> tuple[str, ...]:
    """Candidate ids for one token.

    Raises ``RefereeError('unknown-card')`` naming the token and the nearest ids.
    """
    if not isinstance(token, str):
        raise RefereeError("unknown-card", f"card must be a string, {given(token)}")
    # Stored rounds hold exact ids: look them up before normalising (re-scoring a long history).
    cands = ALIASES.get(token) or ALIASES.get(normalise(token))
    if cands is None:
        several = SEVERAL.get(normalise(token))
        if several is not None:
            raise RefereeError("unknown-card", _several_hint(token, *several))
        near = suggest(token)
        hint = f"; did you mean {_named(near, bool(_HANGUL.search(token)))}?" if near else ""
        raise RefereeError("unknown-card", f"unknown card {token!r}{hint}")
    return cands


_IDS = frozenset(CARD_IDS)


def _exact_ids(groups: Mapping[str, Iterable[str]]) -> dict[str, tuple[str, ...]] | None:
    """The groups unchanged when every token is an exact card id and no card repeats (stored rounds,
    re-scoring a long history); None sends them through the full parser, which names any problem."""
    try:
        out = {owner: tuple(tokens) for owner, tokens in groups.items()}
        if not all(_IDS.issuperset(ids) for ids in out.values()):
            return None
    except TypeError:  # an unhashable token: the full parser says what is wrong
        return None
    if len(set().union(*out.values())) != sum(map(len, out.values())):
        return None
    return out


def parse_groups(groups: Mapping[str, Iterable[str]], *, what: str = "pile") -> dict[str, tuple[str, ...]]:
    """Parse several card lists that share one deck (the piles of a round).

    ``groups`` maps an owner (player name) to tokens; errors call an owner
    ``"{what} {owner}"`` (just the owner when ``what`` is empty).  Returns owner -> ids in
    input order.  Exact tokens are placed first; generic chaff then takes the
    lowest free chaff of its month, so ``pine-chaff`` in two piles yields
    ``pine-chaff-1`` and ``pine-chaff-2``.

    Raises ``RefereeError``: ``unknown-card``; ``duplicate-card`` (``DuplicateCardError``) naming the card
    and both owners; ``too-many-cards`` when more generic chaff are asked for
    than the deck holds.
    """
    exact = _exact_ids(groups)
    if exact is not None:
        return exact

    def label(owner: str) -> str:
        return f"{what} {owner}" if what else owner

    resolved = {owner: [resolve(t) for t in tokens] for owner, tokens in groups.items()}
    owner_of: dict[str, str] = {}

    def place(cid: str, owner: str) -> None:
        prev = owner_of.get(cid)
        if prev is not None:
            if prev == owner:
                raise DuplicateCardError(f"{cid} appears twice in {label(owner)}", cid, what, (owner,))
            raise DuplicateCardError(f"{cid} is in both {label(prev)} and {label(owner)}", cid, what, (prev, owner))
        owner_of[cid] = owner

    out: dict[str, list[str | None]] = {}
    for owner, cand_lists in resolved.items():
        out[owner] = [None] * len(cand_lists)
        for i, cands in enumerate(cand_lists):
            if len(cands) == 1:
                place(cands[0], owner)
                out[owner][i] = cands[0]
    for owner, cand_lists in resolved.items():
        for i, cands in enumerate(cand_lists):
            if len(cands) > 1:
                free = [c for c in cands if c not in owner_of]
                if not free:
                    plant = BY_ID[cands[0]].plant
                    raise RefereeError(
                        "too-many-cards",
                        f"more {plant} chaff than the deck holds ({len(cands)}) in {label(owner)}",
                    )
                place(free[0], owner)
                out[owner][i] = free[0]
    return {owner: tuple(ids) for owner, ids in out.items()}  # type: ignore[misc]


def parse_cards(tokens: Iterable[str]) -> tuple[str, ...]:
    """Parse one card list into ids (input order). Errors as ``parse_groups``."""
    return parse_groups({"": list(tokens)}, what="list")[""]


def sort_ids(ids: Iterable[str]) -> tuple[str, ...]:
    """Ids in deck (CARDS.tsv) order."""
    order = {cid: i for i, cid in enumerate(CARD_IDS)}
    return tuple(sorted(ids, key=order.__getitem__))
