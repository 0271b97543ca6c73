"""The Koi-Koi ruleset: options, yaku and lucky-hand tables, as frozen data.

A preset file (``referee/rulesets/koikoi*.toml``, ``game = "koikoi"``) has an
``[options]`` table (every option of shared/KOIKOI-RULES.md is a field of ``Options``),
a ``[yaku.<id>]`` table per yaku and a ``[teyaku.<id>]`` table per lucky hand.
``from_table`` validates it and compiles each yaku into card masks with the options
already applied (its group, whether its extras count), so scoring reads no option that
only shapes yaku.  Pure core.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.cards import select
from referee.errors import RefereeError
from referee.schema import FieldError, build, opt
from referee.wording import rounds_words

#: Card kinds a yaku may count (CARDS.tsv ``kind``); the sake cup counts by option ``sake_cup``.
KINDS = ("bright", "animal", "ribbon", "chaff")
#: Most rounds in a game: one per month.
MAX_ROUNDS = 12


@dataclass(frozen=True)
class Options:
    """House-rule options of Koi-Koi (KOIKOI-RULES.md)."""

    sake_cup: str = opt(
        "both",
        "The sake cup (菊に盃) is an animal; both: also one chaff; animal: animal only; either: "
        "the use that scores more (a tie: animal); two-chaff: an animal and two chaff.",
        choices=("both", "animal", "either", "two-chaff"),
        label="How the sake cup counts", group="Yaku",
    )
    special_extras: bool = opt(
        True, "inoshikacho, akatan, aotan and akatan-aotan add +1 per card past theirs (false: fixed values).",
        label="Special yaku add +1 per extra card", group="Yaku",
    )
    special_stacks_with_generic: bool = opt(
        False, "inoshikacho stacks with tane, and akatan/aotan/akatan-aotan with tanzaku (brights stay exclusive).",
        label="Special yaku stack with the plain ones", group="Yaku",
    )
    viewing: str = opt(
        "always",
        "hanami-zake and tsukimi-zake: always; limited (only beside another yaku); never.",
        choices=("always", "limited", "never"),
        label="Viewing yaku (Cherry-blossom and Moon Viewing)", group="Yaku",
    )
    rain_spoils_viewing: str = opt(
        "never",
        "The scorer's own pile voids the viewings: never; rain-man; rain-or-lightning; any-willow.",
        choices=("never", "rain-man", "rain-or-lightning", "any-willow"),
        label="Rain spoils the viewings", group="Yaku",
    )
    tsukifuda: bool = opt(
        False, "Tsukifuda (月札): the four cards of the round's month score 4.",
        label="Month cards (tsukifuda 月札)", group="Yaku",
    )
    lucky_hands: bool = opt(
        True, "Lucky hands (teshi, kuttsuki) in the dealt hands win the round at the deal.",
        label="Lucky hands at the deal", group="Lucky hands",
    )
    teshi_counts_as_pairs: bool = opt(
        False, "A four in the dealt hand also counts as two pairs toward kuttsuki (both then score).",
        label="A four in hand also counts as two pairs", group="Lucky hands",
    )
    seven_plus_double: bool = opt(
        True, "×2 when the stopper's yaku total is 7 or more.",
        label="Double at 7 points or more", group="Doubling",
    )
    opponent_koikoi: str = opt(
        "once",
        "The other player called koi-koi: once (×2 for any calls); per-call (×(1 + calls)); "
        "double-per-call (×2 per call); off.",
        choices=("once", "per-call", "double-per-call", "off"),
        label="Double when the other player called koi-koi", group="Doubling",
    )
    own_koikoi: str = opt(
        "off",
        "The stopper's own koi-koi calls: off; once (×2); per-call (×(1 + calls)); double-per-call (×2 per call).",
        choices=("off", "once", "per-call", "double-per-call"),
        label="Double for the stopper's own koi-koi", group="Doubling",
    )
    exhausted: str = opt(
        "nobody",
        "Hands run out and nobody stopped: nobody scores; dealer (oya-ken: the dealer scores "
        "oyaken_points); higher (the higher yaku total scores it; a tie: the dealer); "
        "last-caller (the last player who called koi-koi scores their yaku total).",
        choices=("nobody", "dealer", "higher", "last-caller"),
        label="When the hands run out", group="Game",
    )
    oyaken_points: int = opt(
        6, "Points the dealer scores under exhausted = dealer (oya-ken, 親権).", min=0,
        label="Dealer's points when the hands run out (oya-ken)", group="Game",
    )
    draw_dealer: str = opt(
        "stays", "Nobody scored: the dealer stays or passes to the other player.", choices=("stays", "passes"),
        label="Dealer after a round nobody scored", group="Game",
    )
    rounds: int = opt(
        12, "Rounds in a game (1 to 12); round n is month n.", min=1,
        label="Rounds in a game", group="Game",
    )
    tie: str = opt(
        "draw",
        "Equal totals after the last round: draw; dealer (the next dealer wins); "
        "extra-round (one more round at a time until the totals differ).",
        choices=("draw", "dealer", "extra-round"),
        label="Level totals at the end", group="Game",
    )


@dataclass(frozen=True)
class YakuTable:
    """One ``[yaku.<id>]`` table as written in a ruleset file.

    A yaku counts either ``cards`` (selectors: a card id, ``kind:``, ``tag:``, ``month:``;
    ``exclude`` removes cards from them) or, with ``kind``, the cards of a kind (the sake cup
    counted by option ``sake_cup``); ``need`` of them make it (0: all the cards).  ``require``
    cards must all be in the pile.  ``round_month``: the cards are the round's month.
    ``extra_kind``/``extra_past``: +``extra_points`` per card of that kind past ``extra_past``.
    ``group``: only the yaku worth most in a group scores; ``special`` yaku leave their group
    under ``special_stacks_with_generic`` and keep their extras only with ``special_extras``.
    ``viewing``: hanami-zake and tsukimi-zake (options ``viewing``, ``rain_spoils_viewing``).
    """

    en: str
    ja: str
    points: int
    cards: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    kind: str = opt("", "Count the cards of this kind instead of 'cards'.", choices=("", *KINDS))
    need: int = 0
    require: tuple[str, ...] = ()
    round_month: bool = False
    extra_kind: str = opt("", "The kind whose cards past 'extra_past' add points.", choices=("", *KINDS))
    extra_past: int = 0
    extra_points: int = 1
    group: str = ""
    special: bool = False
    replaces: tuple[str, ...] = ()
    viewing: bool = False
    enabled: bool = True
    enabled_if: str = ""


@dataclass(frozen=True)
class TeyakuTable:
    """One ``[teyaku.<id>]`` table: a lucky hand in the dealt hand.

    ``rule``: ``four`` (all four cards of a month) or ``pairs`` (``pairs`` pairs of a month;
    a four counts as two pairs only with option ``teshi_counts_as_pairs``).
    """

    en: str
    ja: str
    points: int
    rule: str = opt("four", "How the hand is read.", choices=("four", "pairs"))
    pairs: int = 4
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class Yaku:
    """A compiled yaku: options applied, card sets as 48-bit masks (``referee.cards``).

    ``group`` is empty for a yaku that stacks with everything; ``extra_past`` is 0 when its
    extras do not count.
    """

    id: str
    en: str
    ja: str
    points: int
    pool: int
    kind: str
    need: int
    require: int
    round_month: bool
    extra_kind: str
    extra_past: int
    extra_points: int
    group: str
    replaces: tuple[str, ...]
    viewing: bool


@dataclass(frozen=True, slots=True)
class Teyaku:
    """A compiled lucky hand (teyaku)."""

    id: str
    en: str
    ja: str
    points: int
    rule: str
    pairs: int


@dataclass(frozen=True)
class KoikoiRules:
    """A validated Koi-Koi ruleset: ``yaku`` and ``teyaku`` hold only the active entries, in file order."""

    name: str
    title: str
    description: str
    options: Options
    yaku: tuple[Yaku, ...]
    teyaku: tuple[Teyaku, ...] = field(default=())
    game: str = "koikoi"

    @property
    def goal(self) -> str:
        """How the game is won, in a few words, as the options say it (the new-session form's "How it is won"
        and the scoreboard's subtitle, whose round count then never repeats the rounds planned):
        KOIKOI-RULES.md "The game".  After the last of option ``rounds`` the higher total wins; level
        totals by option ``tie``: a draw, the next dealer wins, or one more round at a time."""
        tie = {"draw": "a tie is a draw", "dealer": "a tie goes to the next dealer",
               "extra-round": "a tie plays one more round at a time"}[self.options.tie]
        return f"highest total after {rounds_words(self.options.rounds)} wins; {tie}"


def _bad(source: str, path: str, value: Any, expected: str) -> RefereeError:
    return FieldError(source, path, value, expected)


def _compile_yaku(yid: str, t: YakuTable, o: Options, source: str) -> Yaku | None:
    p = f"yaku.{yid}"
    if t.enabled_if:
        flag = getattr(o, t.enabled_if, None)
        if type(flag) is not bool:
            raise _bad(source, p + ".enabled_if", t.enabled_if, "the name of a true/false option")
        if not flag:
            return None
    if not t.enabled or (t.viewing and o.viewing == "never"):
        return None
    for name in ("points", "need", "extra_past", "extra_points"):
        if getattr(t, name) < 0:
            raise _bad(source, f"{p}.{name}", getattr(t, name), "0 or more")
    sources = bool(t.cards) + bool(t.kind) + t.round_month
    if sources != 1:
        raise RefereeError("bad-ruleset", f"{source}: table {p!r} needs exactly one of 'cards', 'kind' and "
                           "'round_month'")
    pool = select(t.cards, source, p + ".cards") & ~select(t.exclude, source, p + ".exclude") if t.cards else 0
    need = t.need or (pool.bit_count() if t.cards else 4 if t.round_month else 0)
    if not need:
        raise _bad(source, p + ".need", t.need, "how many cards of the kind make the yaku (1 or more)")
    if t.cards and need > pool.bit_count():
        raise _bad(source, p + ".need", need, f"at most {pool.bit_count()}, the cards it names")
    extras = t.extra_kind and t.extra_past and (o.special_extras or not t.special)
    return Yaku(
        id=yid, en=t.en, ja=t.ja, points=t.points, pool=pool, kind=t.kind, need=need,
        require=select(t.require, source, p + ".require"), round_month=t.round_month,
        extra_kind=t.extra_kind if extras else "", extra_past=t.extra_past if extras else 0,
        extra_points=t.extra_points, replaces=t.replaces, viewing=t.viewing,
        group="" if t.special and o.special_stacks_with_generic else t.group,
    )


def _tables(table: dict, key: str, source: str) -> dict[str, dict]:
    entries = table.get(key, {})
    if not isinstance(entries, dict) or not all(isinstance(v, dict) for v in entries.values()):
        raise _bad(source, key, entries, "a table of tables")
    return entries


def from_table(table: dict[str, Any], source: str) -> KoikoiRules:
    """Validate a merged ``game = "koikoi"`` table and compile it.

    Raises ``RefereeError('bad-ruleset')`` naming ``source``, the field, the value given
    and the value expected.  Rule source: KOIKOI-RULES.md.
    """
    known = {"game", "name", "title", "description", "options", "yaku", "teyaku"}
    for key in table:
        if key not in known:
            raise RefereeError("bad-ruleset", f"{source}: field {key!r} is unknown; expected one of {sorted(known)}")
    options = build(Options, table.get("options", {}), source, "options")
    if options.rounds > MAX_ROUNDS:
        raise _bad(source, "options.rounds", options.rounds, f"1 to {MAX_ROUNDS} (a round per month)")
    yaku_tables = _tables(table, "yaku", source)
    yaku = []
    for yid, raw in yaku_tables.items():
        compiled = _compile_yaku(yid, build(YakuTable, raw, source, f"yaku.{yid}"), options, source)
        if compiled:
            yaku.append(compiled)
    for y in yaku:
        for r in y.replaces:
            if r not in yaku_tables:
                raise _bad(source, f"yaku.{y.id}.replaces", r, f"one of {', '.join(yaku_tables)}")
    teyaku = []
    for tid, raw in _tables(table, "teyaku", source).items():
        t = build(TeyakuTable, raw, source, f"teyaku.{tid}")
        if t.points < 0 or t.pairs < 1:
            raise RefereeError("bad-ruleset", f"{source}: table 'teyaku.{tid}' has points {t.points} and pairs "
                               f"{t.pairs}; expected points >= 0 and pairs >= 1")
        if t.enabled and options.lucky_hands:
            teyaku.append(Teyaku(tid, t.en, t.ja, t.points, t.rule, t.pairs))
    meta = {k: table.get(k, "") for k in ("name", "title", "description")}
    for k, v in meta.items():
        if not isinstance(v, str):
            raise _bad(source, k, v, "a string")
    return KoikoiRules(options=options, yaku=tuple(yaku), teyaku=tuple(teyaku), **meta)


__all__ = ["KINDS", "MAX_ROUNDS", "KoikoiRules", "Options", "Teyaku", "Yaku", "from_table"]
