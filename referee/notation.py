"""Card notation: turn what players type into card ids from CARDS.tsv.

Accepted tokens: ids (``pine-crane``), English names (``Pine with Crane``),
Japanese names (``松に鶴``), and the generic chaff forms ``pine-chaff`` /
``松のカス``, which take the next free chaff of that month, since same-month
chaff are interchangeable for scoring.  Case is ignored; space, ``-`` and ``_``
are the same.  Pure core: standard library only.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping

from referee.cards import BY_ID, CARD_IDS, CARDS
from referee.errors import RefereeError


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
    return {k: tuple(v) for k, v in aliases.items()}


#: normalised token -> candidate ids (several only for interchangeable chaff).
ALIASES: dict[str, tuple[str, ...]] = _build_aliases()


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


def resolve(token: str) -> tuple[str, ...]:
    """Candidate ids for one token.

    Raises ``RefereeError('unknown-card')`` naming the token and the nearest ids.
    """
    if not isinstance(token, str):
        raise RefereeError("unknown-card", f"card must be a string, got {token!r}")
    # Stored rounds hold exact ids: look them up before normalising (re-scoring a long history).
    cands = ALIASES.get(token) or ALIASES.get(normalise(token))
    if cands is None:
        near = suggest(token)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
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

    Raises ``RefereeError``: ``unknown-card``; ``duplicate-card`` naming the card
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
                raise RefereeError("duplicate-card", f"{cid} appears twice in {label(owner)}")
            raise RefereeError("duplicate-card", f"{cid} is in both {label(prev)} and {label(owner)}")
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
