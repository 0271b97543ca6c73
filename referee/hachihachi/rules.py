"""The Hachi-hachi ruleset: options, teyaku and dekiyaku tables, as frozen data.

A preset (``referee/rulesets/hachihachi*.toml``, ``game = "hachihachi"``) has an
``[options]`` table (with ``[options.special]``), one ``[teyaku.<id>]`` table per
hand yaku and one ``[dekiyaku.<id>]`` table per captured yaku.  ``from_table``
validates it (errors name the file, field, value and what was expected) and
compiles card selectors into 48-bit masks.  Option names and defaults follow
RULES.md "Hachi-hachi"; values in the tables are in kan.

Pure core: standard library and ``referee``'s core modules only (card selectors
come from ``referee.cards.select``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from referee.cards import select
from referee.errors import RefereeError
from referee.schema import FieldError, build, opt
from referee.wording import rounds_words


@dataclass(frozen=True)
class SpecialOptions:
    """Special yaku (特殊役, tokushu-yaku), values in kan. RULES.md "Special yaku"."""

    chaff_min: int = opt(
        16, "Sixteen Chaff (素十六): chaff cards needed (willow counts as chaff).", min=1,
        label="Sixteen Chaff: chaff cards needed", group="Special hands",
    )
    chaff_kan: int = opt(
        12, "Sixteen Chaff value in kan.", min=0,
        label="Sixteen Chaff: value (kan)", group="Special hands",
    )
    chaff_step_kan: int = opt(
        2, "Kan added per chaff card past chaff_min.", min=0,
        label="Sixteen Chaff: kan per extra chaff card", group="Special hands",
    )
    double_points: int = opt(
        168, "Double Eights (二八): card points needed.", min=1,
        label="Double Eights: card points needed", group="Special hands",
    )
    double_kan: int = opt(
        10, "Double Eights value in kan.", min=0,
        label="Double Eights: value (kan)", group="Special hands",
    )
    double_step_kan: int = opt(
        1, "Kan added per card point past double_points.", min=0,
        label="Double Eights: kan per extra card point", group="Special hands",
    )
    all_eights_kan: int = opt(
        20, "All Eights (総八): value in kan to the first in play order.", min=0,
        label="All Eights: value (kan)", group="Special hands",
    )


@dataclass(frozen=True)
class Options:
    """House-rule options of Hachi-hachi (RULES.md "Hachi-hachi")."""

    players: tuple[int, ...] = opt(
        (2, 3, 4, 5, 6), "Allowed numbers of seated players.",
        label="Allowed numbers of seated players", group="Game and money",
    )
    rounds: int = opt(
        12, "Rounds in a game: 12 (a year) or 6 (a half game).", choices=(6, 12),
        label="Rounds in a game", group="Game and money",
    )
    ante_kan: int = opt(
        0, "Ante per player in kan (0: 5 kan for 12 rounds, 3 kan for 6).", min=0,
        label="Ante per player (kan; 0: the usual)", group="Game and money",
    )
    mon_per_kan: int = opt(
        12, "Mon (文) in one kan (貫).", choices=(10, 12),
        label="Mon in one kan", group="Game and money",
    )
    payment_basis: str = opt(
        "split",
        "split: a gain of X is shared by the payers; each: every payer pays X.",
        choices=("split", "each"),
        label="Who pays a player's gain", group="Game and money",
    )
    field_multiplier: str = opt(
        "carry",
        "Several brights on the field: carry (queue the others) or stack (multiply them all).",
        choices=("carry", "stack"),
        label="Several brights on the field", group="Field (場)",
    )
    field_x2: tuple[str, ...] = opt(
        ("pine-crane", "cherry-curtain", "pampas-moon"),
        "Field brights that make a big field (大場, ×2).",
        label="Brights that make a big field (×2)", group="Field (場)", unit="card",
    )
    field_x4: tuple[str, ...] = opt(
        ("willow-rain-man", "paulownia-phoenix"),
        "Field brights that make a grand field (絶場, ×4).",
        label="Brights that make a grand field (×4)", group="Field (場)", unit="card",
    )
    inoshikacho: bool = opt(
        False, "Use the inoshikacho (猪鹿蝶) dekiyaku.",
        label="Boar, Deer, Butterflies (猪鹿蝶) dekiyaku", group="Teyaku and dekiyaku",
    )
    standing_months: tuple[int, ...] = opt(
        (4, 5, 7), "Months whose triplet is a standing triplet (立三本).",
        label="Months of a standing triplet", group="Teyaku and dekiyaku", unit="month",
    )
    standing_chaff_months: tuple[int, ...] = opt(
        (12,),
        "Months whose triplet of chaff only is a standing triplet (the three paulownia chaff).",
        label="Months whose chaff triplet stands", group="Teyaku and dekiyaku", unit="month",
    )
    willow_is_chaff: bool = opt(
        True, "Willow cards count as chaff for teyaku, dekiyaku and special yaku.",
        label="Willow cards count as chaff", group="Teyaku and dekiyaku",
    )
    dropout_fee_half_kan: int = opt(
        2, "First drop-out fee (逃げ料) in half kan (2 = 1 kan).", min=0,
        label="First drop-out fee (half kan)", group="Drop-outs and Mizuten",
    )
    dropout_step_half_kan: int = opt(
        1, "Fee increase per later drop-out, in half kan.", min=0,
        label="Fee increase per later drop-out (half kan)", group="Drop-outs and Mizuten",
    )
    forced_out_card_mon: int = opt(
        3, "Forced-out compensation: mon per uncounted dekiyaku card in hand.", min=0,
        label="Forced out: mon per dekiyaku card in hand", group="Drop-outs and Mizuten",
    )
    mizuten_kan: int = opt(
        1, "Mizuten (不見転) payment in kan.", min=0,
        label="Mizuten payment (kan)", group="Drop-outs and Mizuten",
    )
    mizuten_points: int = opt(
        89, "Card points the Mizuten dealer needs to collect.", min=0,
        label="Mizuten: card points the dealer needs", group="Drop-outs and Mizuten",
    )
    bonus_kan: int = opt(
        1, "The teyaku '+1 kan' bonus in kan.", min=0,
        label="Teyaku bonus (kan)", group="Teyaku and dekiyaku",
    )
    bonus_points: int = opt(
        89, "Card points a chaff-type teyaku needs for its bonus.", min=0,
        label="Card points for a chaff teyaku's bonus", group="Teyaku and dekiyaku",
    )
    exhausted_dekiyaku: str = opt(
        "last-continuer",
        "Hands run out after 'continue': last-continuer (the continuer scores half) "
        "or everyone-half (as FudaWiki plays it: every maker scores half; the first continuer wins).",
        choices=("last-continuer", "everyone-half"),
        label="Hands run out after “continue”", group="Teyaku and dekiyaku",
        source="seed 003 \"Rule of Continue playing\"; FudaWiki \"If the Hands Are Exhausted\"",
    )
    liable_thrower: bool = opt(
        False,
        "Liability (法度): a player who throws from hand the card that completes an opponent's "
        "dekiyaku pays every share alone (the dekiyaku decision names them as liable). Not when the card "
        "came from the draw pile or was the thrower's last hand card.",
        label="Liability: who throws the completing card pays alone", group="Teyaku and dekiyaku",
    )
    special: SpecialOptions = field(default_factory=SpecialOptions)


@dataclass(frozen=True)
class TeyakuTable:
    """One ``[teyaku.<id>]`` table as written (values in kan).

    Group ``a`` (suit distribution): ``shapes`` lists month-count shapes, largest
    first (``[3, 2, 2]``); ``standing`` is how many of the three-card months must
    be standing triplets (-1: any); ``shows`` is the smallest month count whose
    cards belong to the teyaku.  Group ``b`` (chaff type): ``bright``, ``animal``,
    ``ribbon``, ``chaff`` are ``[min, max]`` counts (willow as chaff).  ``bonus``:
    ``capture-month`` (+bonus_kan when the player captures all four cards of each
    triplet month) or ``points`` (+bonus_kan at bonus_points card points).
    Group ``field`` reads the dealt field too: mukou-sanbon (向三本), three cards
    of a month on the field and the fourth in the hand, ``kan`` for each such
    month.  ``kan = 0`` turns a teyaku off.
    """

    en: str
    ja: str
    kan: int
    group: str = opt("a", "Teyaku group.", choices=("a", "b", "field"))
    shapes: tuple[tuple[int, ...], ...] = ()
    standing: int = -1
    shows: int = 3
    bright: tuple[int, ...] = (0, 7)
    animal: tuple[int, ...] = (0, 7)
    ribbon: tuple[int, ...] = (0, 7)
    chaff: tuple[int, ...] = (0, 7)
    bonus: str = opt("", "The '+1 kan' condition.", choices=("", "capture-month", "points"))
    enabled: bool = True


@dataclass(frozen=True)
class DekiyakuTable:
    """One ``[dekiyaku.<id>]`` table: ``need`` of ``cards``, value in kan.

    ``cards`` are card ids or ``kind:``/``tag:``/``month:`` selectors.
    """

    en: str
    ja: str
    kan: int
    cards: tuple[str, ...]
    need: int = 0
    replaces: tuple[str, ...] = ()
    enabled: bool = True
    enabled_if: str = ""
    compensation: bool = False


@dataclass(frozen=True)
class Teyaku:
    """A compiled teyaku (手役, hand yaku); ``kinds`` maps kind -> (min, max)."""

    id: str
    en: str
    ja: str
    kan: int
    group: str
    shapes: frozenset[tuple[int, ...]]
    standing: int
    shows: int
    kinds: MappingProxyType
    bonus: str


@dataclass(frozen=True)
class Dekiyaku:
    """A compiled dekiyaku (出来役, captured yaku): ``need`` cards of ``pool`` (mask)."""

    id: str
    en: str
    ja: str
    kan: int
    pool: int
    need: int
    replaces: tuple[str, ...]
    compensation: bool


@dataclass(frozen=True)
class HachihachiRules:
    """A validated Hachi-hachi ruleset.

    ``field_values`` maps a field bright's id to its multiplier (2 or 4).
    ``teyaku`` and ``dekiyaku`` hold the active entries in file order.
    """

    name: str
    title: str
    description: str
    options: Options
    teyaku: tuple[Teyaku, ...]
    dekiyaku: tuple[Dekiyaku, ...]
    field_values: MappingProxyType
    game: str = "hachihachi"

    @property
    def mon_per_kan(self) -> int:
        """Mon in one kan."""
        return self.options.mon_per_kan

    def dekiyaku_by_id(self, yaku_id: str) -> Dekiyaku:
        """The active dekiyaku with this id; ``KeyError`` if absent."""
        for d in self.dekiyaku:
            if d.id == yaku_id:
                return d
        raise KeyError(yaku_id)

    @property
    def goal(self) -> str:
        """How the game is won, in a few words (the new-session form's "How it is won" and the scoreboard's
        subtitle, whose round count then never repeats the rounds planned): RULES.md "Hachi-hachi".  After
        the last round (of 12, or 6 for a half game: option ``rounds``) the highest total takes the
        jackpot of the antes; tied winners split it."""
        return f"highest total after {rounds_words(self.options.rounds)} takes the jackpot; a tie shares it"

    def ante_kan(self) -> int:
        """The ante per player in kan (seed 003: 5 for 12 rounds, 3 for 6)."""
        if self.options.ante_kan:
            return self.options.ante_kan
        return 5 if self.options.rounds == 12 else 3


def _bad(source: str, path: str, value: Any, expected: str) -> RefereeError:
    return FieldError(source, path, value, expected)


def _compile_teyaku(tid: str, t: TeyakuTable, source: str) -> Teyaku:
    p = f"teyaku.{tid}"
    if t.group == "a":
        if not t.shapes:
            raise _bad(source, p + ".shapes", [], "at least one shape for a group-a teyaku")
        for i, shape in enumerate(t.shapes):
            if sum(shape) != 7 or list(shape) != sorted(shape, reverse=True) or min(shape) < 1:
                raise _bad(
                    source,
                    f"{p}.shapes[{i}]",
                    list(shape),
                    "month counts, largest first, summing to 7",
                )
    kinds = {}
    for kind in ("bright", "animal", "ribbon", "chaff"):
        rng = getattr(t, kind)
        if len(rng) != 2 or not 0 <= rng[0] <= rng[1] <= 7:
            raise _bad(source, f"{p}.{kind}", list(rng), "[min, max] with 0 <= min <= max <= 7")
        kinds[kind] = (rng[0], rng[1])
    return Teyaku(
        tid,
        t.en,
        t.ja,
        t.kan,
        t.group,
        frozenset(t.shapes),
        t.standing,
        t.shows,
        MappingProxyType(kinds),
        t.bonus,
    )


def _compile_dekiyaku(did: str, t: DekiyakuTable, options: Options, source: str) -> Dekiyaku | None:
    p = f"dekiyaku.{did}"
    if t.enabled_if:
        value = getattr(options, t.enabled_if, None)
        if not isinstance(value, bool):
            raise _bad(source, p + ".enabled_if", t.enabled_if, "the name of a true/false option")
        if not value:
            return None
    if not t.enabled:
        return None
    pool = select(t.cards, source, p + ".cards")
    need = t.need or pool.bit_count()
    if need > pool.bit_count():
        raise _bad(source, p + ".need", need, f"at most {pool.bit_count()}")
    return Dekiyaku(did, t.en, t.ja, t.kan, pool, need, t.replaces, t.compensation)


def from_table(table: dict[str, Any], source: str) -> HachihachiRules:
    """Validate a merged ``game = "hachihachi"`` table and compile it.

    Raises ``RefereeError('bad-ruleset')`` naming ``source``, the field, the
    value given and what was expected.
    """
    known = {"game", "name", "title", "description", "options", "teyaku", "dekiyaku"}
    for key in table:
        if key not in known:
            raise _bad(
                source, key, table[key], f"no such field (known: {', '.join(sorted(known))})"
            )
    options = build(Options, table.get("options", {}), source, "options")
    if not options.players or any(not 2 <= n <= 6 for n in options.players):
        raise _bad(source, "options.players", list(options.players), "counts from 2 to 6")
    field_values: dict[str, int] = {}
    for name, value in (("field_x2", 2), ("field_x4", 4)):
        for cid in getattr(options, name):  # card ids (unit "card"): checked by schema.build
            field_values[cid] = value
    teyaku = []
    for tid, raw in table.get("teyaku", {}).items():
        if not isinstance(raw, dict):
            raise _bad(source, f"teyaku.{tid}", raw, "a table")
        t = build(TeyakuTable, raw, source, f"teyaku.{tid}")
        if t.kan < 0:
            raise _bad(source, f"teyaku.{tid}.kan", t.kan, "0 (off) or more kan")
        if t.enabled and t.kan:
            teyaku.append(_compile_teyaku(tid, t, source))
    dekiyaku = []
    for did, raw in table.get("dekiyaku", {}).items():
        if not isinstance(raw, dict):
            raise _bad(source, f"dekiyaku.{did}", raw, "a table")
        t = build(DekiyakuTable, raw, source, f"dekiyaku.{did}")
        if t.kan < 0:
            raise _bad(source, f"dekiyaku.{did}.kan", t.kan, "0 or more kan")
        d = _compile_dekiyaku(did, t, options, source)
        if d:
            dekiyaku.append(d)
    all_ids = set(table.get("dekiyaku", {}))
    for d in dekiyaku:
        for r in d.replaces:
            if r not in all_ids:
                raise _bad(source, f"dekiyaku.{d.id}.replaces", r, "a dekiyaku id")
    meta = {k: table.get(k, "") for k in ("name", "title", "description")}
    for k, v in meta.items():
        if not isinstance(v, str):
            raise _bad(source, k, v, "a string")
    return HachihachiRules(
        options=options,
        teyaku=tuple(teyaku),
        dekiyaku=tuple(dekiyaku),
        field_values=MappingProxyType(field_values),
        **meta,
    )
