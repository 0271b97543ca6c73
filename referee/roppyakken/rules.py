"""The Roppyakken family's ruleset: options, yaku and teyaku tables, as frozen data.

A preset file (``referee/rulesets/*.toml`` with ``game = "roppyakken"``) has an
``[options]`` table, a ``[yaku.<id>]`` table per yaku and a ``[teyaku.<id>]``
table per lucky hand.  ``from_table`` validates it and compiles each yaku into
bitmasks with the options already applied, so scoring never looks at options
that only shape yaku.  Option names and defaults follow ``shared/RULES.md``
(section "Roppyakken (六百間) and its family").  Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from referee.cards import select
from referee.errors import RefereeError, shown
from referee.schema import FieldError, build, opt
from referee.wording import rounds_words


@dataclass(frozen=True)
class FukeOptions:
    """Fuke (吹き消し, the round void). RULES.md "Fuke"."""

    enabled: bool = opt(
        True, "Void the round when a player's fuke count is at or below the threshold.",
        label="Use fuke: a low score voids the round", group="Fuke (the void round)",
    )
    threshold: int = opt(
        30, "Fuke threshold in points (at or below voids the round).", min=0,
        label="Fuke at or below (points)", group="Fuke (the void round)",
    )
    count_yaku: bool = opt(
        True, "The fuke count includes yaku points (false: card points only).",
        label="Yaku points count toward fuke", group="Fuke (the void round)",
    )
    excluded_months: tuple[int, ...] = opt(
        (), "Months whose cards do not count toward fuke (the Japanese text leaves out Willow (柳, month 11) "
        "and Paulownia (桐, month 12)).",
        label="Months left out of the fuke count", group="Fuke (the void round)", unit="month",
    )


@dataclass(frozen=True)
class Options:
    """House-rule options of the Roppyakken family (RULES.md)."""

    players: tuple[int, ...] = opt((2, 3), "Allowed player counts.", label="Allowed numbers of players", group="Game")
    target: int = opt(600, "Points that end the game.", min=1, label="Target score", group="Game")
    rounds: int = opt(
        0, "Fixed number of scored rounds (0: play to the target).", min=0,
        label="Number of rounds (0: play to the target)", group="Game",
    )
    winner: str = opt("highest-total", "Who wins at the end.",
                      choices=("highest-total", "most-times-over-target"),
        label="Who wins", group="Game",
    )
    match_games: int = opt(
        1, "Best-of-N match: games to play at most (odd; 1 is a single game).", min=1,
        label="Games in a match (best of)", group="Game",
    )
    instant_wins: bool = opt(
        True, "shiko (then nanatan) wins the game at once.",
        label="Four Brights or Seven Ribbons win at once", group="Yaku",
    )
    first_to_target_wins: bool = opt(
        False, "The first player to reach the target during the round wins, even if another ends it higher; "
        "a round where two or more reach it asks who got there first.",
        label="The first to reach the target wins", group="Game", source="seed 002 local rule",
    )
    exact_instant_yaku: bool = opt(
        False, "shiko void with the rain man; nanatan void with 8+ ribbons.",
        label="Exact instant wins only", group="Yaku",
    )
    rain_spoils_viewing: str = opt("never", "Willow cards void the viewing yaku.",
                                   choices=("never", "any-willow", "unless-crane"),
        label="Rain spoils the viewing yaku", group="Yaku",
    )
    willow_ribbon_in_seven_ribbons: bool = opt(
        True, "The willow ribbon counts toward nanatan.",
        label="Willow ribbon counts for Seven Ribbons", group="Yaku",
    )
    teppo_replaces_viewing: bool = opt(
        True, "teppo replaces hanami and tsukimi (false: they stack).",
        label="Gun (teppo) replaces the viewing yaku", group="Yaku",
    )
    lucky_hands: bool = opt(
        True, "Score lucky hands (teyaku) from the dealt hands.",
        label="Score lucky hands", group="Lucky hands and misdeals",
    )
    hand_four_misdeal: bool = opt(
        True, "Four of a month in a dealt hand is a misdeal.",
        label="Four of a month in a hand is a misdeal", group="Lucky hands and misdeals",
    )
    field_four_misdeal: bool = opt(
        True, "Four of a month on the field is a misdeal.",
        label="Four of a month on the field is a misdeal", group="Lucky hands and misdeals",
    )
    triple_hand_three: int = opt(
        0, "Points for three threes in a 10-card hand (0: scores as futatesan).", min=0,
        label="Points for three threes in a hand", group="Lucky hands and misdeals",
    )
    korean_ribbon_yaku: bool = opt(False, "Use the Korean extra ribbon yaku.", label="Korean ribbon yaku", group="Yaku")
    korean_values: bool = opt(
        False, "Use the Korean alternative yaku values.",
        label="Korean yaku values", group="Yaku",
    )
    settlement: str = opt("plain", "Round settlement: plain, difference (Yukbaek), round-up (Sambong).",
                          choices=("plain", "difference", "round-up"),
        label="How a round is settled", group="Settling a round",
    )
    round_up_to: int = opt(
        100, "Round-up settlement: round each round score up to a multiple of this.", min=1,
        label="Round scores up to a multiple of", group="Settling a round",
    )
    fuke: FukeOptions = field(default_factory=FukeOptions)


@dataclass(frozen=True)
class YakuTable:
    """One ``[yaku.<id>]`` table as written in a ruleset file.

    ``cards`` are selectors: a card id, ``kind:<kind>``, ``tag:<tag>`` or
    ``month:<n>``.  ``need`` is how many of them make the yaku (0: all).
    """

    en: str
    ja: str
    points: int
    cards: tuple[str, ...]
    need: int = 0
    enabled: bool = True
    enabled_if: str = ""
    cards_if: dict[str, tuple[str, ...]] = opt({}, "Cards added to the pool while an option is true.")
    require: tuple[str, ...] = ()
    replaces: tuple[str, ...] = ()
    replaces_if: str = ""
    viewing: bool = False
    instant_win: int = 0
    beats_fuke: bool = False
    exact_void: tuple[str, ...] = ()
    exact_max: int = 0
    extra_cards: tuple[str, ...] = ()
    extra_points: int = 0
    max_points: int = 0
    korean_points: int = 0
    chaff_upgrade: int = 0


@dataclass(frozen=True)
class TeyakuTable:
    """One ``[teyaku.<id>]`` table: a lucky hand.

    ``rule``: ``all-zero`` (every hand card worth 0 points) or ``month-sets``
    (``sets`` months with at least ``size`` cards each).
    """

    en: str
    ja: str
    points: int
    rule: str = opt("month-sets", "How the hand is read.", choices=("all-zero", "month-sets"))
    size: int = 3
    sets: int = 1
    replaces: tuple[str, ...] = ()
    enabled: bool = True
    points_from: str = ""
    korean_points: int = 0
    korean_month_points: dict[str, int] = opt({}, "Korean values for a month (month -> points).")


@dataclass(frozen=True, slots=True)
class Yaku:
    """A compiled yaku: options applied, card sets as 48-bit masks (see ``referee.cards``)."""

    id: str
    en: str
    ja: str
    points: int
    pool: int
    need: int
    require: int
    replaces: tuple[str, ...]
    viewing: bool
    instant_win: int
    beats_fuke: bool
    exact_void: int
    exact_max: int
    extra: int
    extra_points: int
    max_points: int
    chaff_upgrade: int


@dataclass(frozen=True, slots=True)
class Teyaku:
    """A compiled lucky hand (teyaku)."""

    id: str
    en: str
    ja: str
    points: int
    rule: str
    size: int
    sets: int
    replaces: tuple[str, ...]
    month_points: MappingProxyType


@dataclass(frozen=True)
class RoppyakkenRules:
    """A validated Roppyakken-family ruleset.

    ``yaku`` and ``teyaku`` hold only the active entries, in file order;
    ``teyaku_sizes`` the month sizes of the month-sets teyaku, smallest first.
    """

    name: str
    title: str
    description: str
    options: Options
    yaku: tuple[Yaku, ...]
    teyaku: tuple[Teyaku, ...]
    game: str = "roppyakken"
    teyaku_sizes: tuple[int, ...] = ()

    def yaku_by_id(self, yaku_id: str) -> Yaku:
        """The active yaku with this id; ``KeyError`` if absent."""
        for y in self.yaku:
            if y.id == yaku_id:
                return y
        raise KeyError(yaku_id)

    @property
    def ends_at_target(self) -> bool:
        """Whether reaching the target ends the game (RULES.md "Instant wins and the end of the game"): a game
        played to the target; not one of fixed ``rounds``, which the rounds end (the scoreboard's "to go" and
        progress bars toward the target show only here)."""
        return not self.options.rounds

    @property
    def goal_target(self) -> int | None:
        """The points the game is won by reaching, as ``goal`` says it: the target of a game played to it,
        or the one each time over which counts (``winner = most-times-over-target``); None for a game of
        fixed ``rounds`` won by the highest total, where the target plays no part (RULES.md "Instant wins and
        the end of the game").  The scoreboard's chart draws it; the API's session ``goal`` gives it."""
        o = self.options
        return o.target if not o.rounds or o.winner == "most-times-over-target" else None

    @property
    def plays_first_to_target(self) -> bool:
        """``first_to_target_wins`` decides games played to the target (not fixed rounds)."""
        o = self.options
        return o.first_to_target_wins and not o.rounds and o.winner == "highest-total"

    @property
    def goal(self) -> str:
        """How the game is won, in a few words, as the options say it (the new-session form's "How it is won"
        and the scoreboard's subtitle): RULES.md "Instant wins and the end of the game".  Played to the
        target, the highest total wins unless ``first_to_target_wins``; with ``rounds`` the rounds decide (by
        the total, where the target plays no part, or by ``winner = most-times-over-target``); a match of
        ``match_games`` says "best of N games"."""
        o = self.options
        if o.rounds and o.winner == "most-times-over-target":
            won = f"most times to {o.target} points in {rounds_words(o.rounds)} wins"
        elif o.rounds:
            won = f"highest total after {rounds_words(o.rounds)} wins"
        elif self.plays_first_to_target:
            won = f"first to {o.target} points wins"
        else:
            won = f"to {o.target} points: highest total wins"
        return f"{won}; best of {o.match_games} games" if o.match_games > 1 else won

    def target_crossers(self, totals: Mapping[str, int], scores: Mapping[str, int]) -> tuple[str, ...]:
        """The players whose total (points) reaches the target with this round's ``scores``, in the
        order of ``totals``, when ``first_to_target_wins`` must decide among them: two or more, in a
        game played to the target.  Empty otherwise.  The web app asks who was first only then."""
        if not self.plays_first_to_target:
            return ()
        crossed = self.reaching_target(totals, {p: t + scores.get(p, 0) for p, t in totals.items()})
        return crossed if len(crossed) >= 2 else ()

    def reaching_target(self, before: Mapping[str, int], after: Mapping[str, int]) -> tuple[str, ...]:
        """The players whose total (points) reaches the target in one round, in the order of
        ``before``: below it before the round, at or over it after (a total exactly on the target
        has reached it).  The one place this is written: the game's ``first_to_target_wins``
        (``referee.roppyakken.game``) and the web app's question (``target_crossers``) read it."""
        target = self.options.target
        return tuple(p for p, t in before.items() if t < target <= after[p])


def _option(options: Options, name: str, kind: type, source: str, path: str):
    """The value of the option a yaku or teyaku field names; it must be of ``kind`` (bool or int)."""
    value = getattr(options, name, None)
    if type(value) is not kind:
        raise RefereeError("bad-ruleset", f"{source}: field {path!r} is {name!r}; "
                           f"expected the name of a {'true/false' if kind is bool else 'whole-number'} option")
    return value


def _bool_option(options: Options, name: str, source: str, path: str) -> bool:
    return _option(options, name, bool, source, path)


def _compile_yaku(yid: str, t: YakuTable, o: Options, source: str) -> Yaku | None:
    p = f"yaku.{yid}"
    if t.enabled_if and not _bool_option(o, t.enabled_if, source, p + ".enabled_if"):
        return None
    if not t.enabled:
        return None
    for name in ("points", "need", "extra_points", "max_points", "korean_points", "chaff_upgrade", "instant_win"):
        if getattr(t, name) < 0:
            raise RefereeError("bad-ruleset", f"{source}: field '{p}.{name}' is {getattr(t, name)}; "
                               "expected 0 or more")
    pool = select(t.cards, source, p + ".cards")
    for opt_name, extra in t.cards_if.items():
        if _bool_option(o, opt_name, source, f"{p}.cards_if"):
            pool |= select(extra, source, f"{p}.cards_if.{opt_name}")
    replaces = t.replaces
    if t.replaces_if and not _bool_option(o, t.replaces_if, source, p + ".replaces_if"):
        replaces = ()
    need = t.need or pool.bit_count()
    if need > pool.bit_count():
        raise RefereeError("bad-ruleset", f"{source}: field '{p}.need' is {need}; expected at most {pool.bit_count()}")
    return Yaku(
        id=yid, en=t.en, ja=t.ja,
        points=t.korean_points if (o.korean_values and t.korean_points) else t.points,
        pool=pool, need=need, require=select(t.require, source, p + ".require"),
        replaces=replaces, viewing=t.viewing, instant_win=t.instant_win if o.instant_wins else 0,
        beats_fuke=t.beats_fuke,
        exact_void=select(t.exact_void, source, p + ".exact_void") if o.exact_instant_yaku else 0,
        exact_max=t.exact_max if o.exact_instant_yaku else 0,
        extra=select(t.extra_cards, source, p + ".extra_cards"),
        extra_points=t.extra_points, max_points=t.max_points, chaff_upgrade=t.chaff_upgrade,
    )


def _compile_teyaku(tid: str, t: TeyakuTable, o: Options, source: str) -> Teyaku | None:
    if t.points < 0 or t.size not in range(1, 5) or t.sets < 1:
        raise RefereeError("bad-ruleset", f"{source}: table 'teyaku.{tid}' has points {t.points}, size {t.size}, "
                           f"sets {t.sets}; expected points >= 0, size 1-4 and sets >= 1")
    points = t.points
    if t.points_from:
        points = _option(o, t.points_from, int, source, f"teyaku.{tid}.points_from")
        if not points:
            return None
    if not t.enabled or not o.lucky_hands:
        return None
    month_points: dict[int, int] = {}
    if o.korean_values:
        if t.korean_points:
            points = t.korean_points
        for month, pts in t.korean_month_points.items():
            if not month.isdigit() or not 1 <= int(month) <= 12:
                raise RefereeError("bad-ruleset", f"{source}: field 'teyaku.{tid}.korean_month_points' has "
                                   f"{shown(month)}; expected a month 1-12")
            month_points[int(month)] = pts
    return Teyaku(tid, t.en, t.ja, points, t.rule, t.size, t.sets, t.replaces, MappingProxyType(month_points))


def _compile_all(table: dict, key: str, cls: type, compile_one, options: Options, source: str) -> tuple:
    """Build and compile every ``[key.<id>]`` table; check that ``replaces`` names known ids."""
    entries = table.get(key, {})
    if not isinstance(entries, dict):
        raise RefereeError("bad-ruleset", f"{source}: field {key!r} is {shown(entries)}; expected a table of tables")
    out = []
    for eid, raw in entries.items():
        if not isinstance(raw, dict):
            raise RefereeError("bad-ruleset", f"{source}: field '{key}.{eid}' is {shown(raw)}; expected a table")
        compiled = compile_one(eid, build(cls, raw, source, f"{key}.{eid}"), options, source)
        if compiled:
            out.append(compiled)
    for c in out:
        for r in c.replaces:
            if r not in entries:
                raise RefereeError("bad-ruleset", f"{source}: field '{key}.{c.id}.replaces' names {r!r}; "
                                   f"expected one of {', '.join(entries)}")
    return tuple(out)


def from_table(table: dict[str, Any], source: str) -> RoppyakkenRules:
    """Validate a merged ruleset table and compile it.

    Raises ``RefereeError('bad-ruleset')`` naming ``source``, the field, the
    value given and the value expected.
    """
    known = {"game", "name", "title", "description", "options", "yaku", "teyaku"}
    for key in table:
        if key not in known:
            raise RefereeError("bad-ruleset", f"{source}: field {key!r} is unknown; expected one of {sorted(known)}")
    options = build(Options, table.get("options", {}), source, "options")
    if not options.players or any(n < 2 for n in options.players):
        raise FieldError(source, "options.players", list(options.players), "counts of 2 or more")
    if options.match_games % 2 == 0:
        raise FieldError(source, "options.match_games", options.match_games, "an odd number")
    yaku = _compile_all(table, "yaku", YakuTable, _compile_yaku, options, source)
    teyaku = _compile_all(table, "teyaku", TeyakuTable, _compile_teyaku, options, source)
    meta = {k: table.get(k, "") for k in ("name", "title", "description")}
    for k, v in meta.items():
        if not isinstance(v, str):
            raise RefereeError("bad-ruleset", f"{source}: field {k!r} is {shown(v)}; expected a string")
    sizes = tuple(sorted({t.size for t in teyaku if t.rule == "month-sets"}))
    return RoppyakkenRules(options=options, yaku=yaku, teyaku=teyaku, teyaku_sizes=sizes, **meta)


__all__ = ["FukeOptions", "Options", "RoppyakkenRules", "Teyaku", "Yaku", "from_table"]
