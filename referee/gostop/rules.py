"""The Go-Stop (고스톱) and Matgo (맞고) ruleset: options and point lines, as frozen data.

A preset file (``referee/rulesets/gostop*.toml``, ``matgo*.toml``, ``game = "gostop"``) has an
``[options]`` table (every option of shared/GOSTOP-RULES.md is a field of ``Options``, with its
help text) and a ``[yaku.<id>]`` table per point line ("Points from captures").  ``from_table``
validates it and compiles each line into card masks with the options applied.  House files
``extends = "gostop"`` and change what they need.  Pure core.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.cards import BY_ID, select
from referee.errors import RefereeError
from referee.schema import FieldError, build, opt

#: What a point line counts (GOSTOP-RULES.md "Points from captures"): a number of brights,
#: a fixed set of cards, or a count of animals, ribbons or pi value.
RULES = ("brights", "cards", "count")
#: What a ``count`` line counts.
COUNTS = ("animal", "ribbon", "pi")
#: Most bonus cards of one value a deck may list (the option is a deck, not a wish list).
MAX_BONUS_VALUE = 3


@dataclass(frozen=True)
class Options:
    """House-rule options of Go-Stop and Matgo (GOSTOP-RULES.md).  Help texts are players' words;
    ``source`` names the GOSTOP-RULES.md section each comes from."""

    players: tuple[int, ...] = opt(
        (3,), "How many may play: 3 (Go-Stop), 2 (Matgo, 맞고), or both (2, 3).",
        label="Allowed numbers of players", group="Table",
        source="Players and money",
    )
    point_value: int = opt(
        100, "Money per point (점당, the table's stake): each loser pays points × this.",
        min=1, label="Stake per point (점당)", group="Table", unit="",
        source="Players and money",
    )
    stop_points: int = opt(
        3, "Points a player needs to stop (3 with three players, 7 in Matgo). A stopper below it is an error.",
        min=1, label="Points to stop", group="Go and stop",
        source="Points from captures",
    )
    go_points: str = opt(
        "every", "Points the gos add: every (n gos add n: 3 gos +3); first-two (the first go +1, the second +1 "
        "more, so at most +2; later gos add no points but still multiply).",
        choices=("every", "first-two"), label="Points for each go", group="Go and stop",
        source="Go and stop",
    )
    go_factor: str = opt(
        "doubling", "From the third go: doubling (3 gos ×2, 4 ×4, 5 ×8, and on: ×2^(n−2), 6 gos ×16); "
        "linear (×2, ×3, ×4 ...: ×(n−1)). A round may state up to 12 gos.",
        choices=("doubling", "linear"), label="Multiplier from the third go",
        group="Go and stop",
        source="Go and stop",
    )
    dokbak: str = opt(
        "pays-all", "3 players, a loser who had called go (독박): pays-all (pays every loser's share); "
        "pays-all-double (and the own share ×2); double (no transfer: the own share ×2, as in Matgo).",
        choices=("pays-all", "pays-all-double", "double"),
        label="Dokbak (독박): a go-caller who lost", group="Go and stop",
        source="Players and money",
    )
    bomb_doubles: bool = opt(
        True, "Each bomb (폭탄) of the winner doubles the score (false: bombs do not).",
        label="Bombs double (폭탄)", group="Factors",
        source="Settlement factors",
    )
    meongbak: str = opt(
        "winner-seven", "winner-seven: ×2 to all when the winner holds 7 animals or more (멍따); loser-none: "
        "×2 on a loser with no animal when the winner scored animals or godori (멍박); off.",
        choices=("winner-seven", "loser-none", "off"),
        label="Animal bak (멍따 / 멍박)", group="Factors",
        source="Settlement factors",
    )
    pibak_max: int = opt(
        5, "Pi-bak (피박): a loser with this pi value or less pays ×2 when the winner scored pi (5 with "
        "three players, 7 in Matgo).", min=0, label="Pi-bak at this pi or less",
        group="Factors",
        source="Settlement factors",
    )
    pibak_zero_exempt: bool = opt(
        True, "A loser with no pi at all is not pi-bak.",
        label="No pi-bak with no pi at all", group="Factors",
        source="Settlement factors",
    )
    nagari_cap: int | None = opt(
        8, "Nagari (나가리): the next round is ×2, doubling on each nagari in a row up to this (empty: no cap).",
        min=1, label="Highest nagari multiplier", group="Nagari and instant wins",
        source="Instant wins, ppeok, nagari",
    )
    chongtong_points: int = opt(
        10, "Chongtong (총통, four of a month dealt): each other player pays this.",
        min=0, label="Chongtong (총통) points", group="Nagari and instant wins",
        source="Instant wins, ppeok, nagari",
    )
    three_ppeok_points: int = opt(
        7, "Three ppeok in a round (3뻑) end it: each other player pays this.",
        min=0, label="Three ppeok (3뻑) points", group="Nagari and instant wins",
        source="Instant wins, ppeok, nagari",
    )
    ppeok_payouts: tuple[int, ...] = opt(
        (3, 6, 12), "Points each other player pays for the 1st, 2nd, 3rd ppeok (뻑) of an unbroken run from a "
        "player's first turn; never multiplied (empty: none).",
        label="Ppeok (뻑) payouts", group="Nagari and instant wins",
        source="Instant wins, ppeok, nagari",
    )
    sagwang_dry: int = opt(
        4, "Points of four brights without the rain gwang (비광); with it, sagwang's own points.",
        min=0, label="Four brights without rain (사광)", group="Points",
        source="Points from captures",
    )
    willow_ribbon_counts: bool = opt(
        True, "The willow ribbon (비띠) counts toward five ribbons (it is never part of a dan).",
        label="Willow ribbon counts as a ribbon", group="Points",
        source="Cards",
    )
    sake_cup: str = opt(
        "choice", "The sake cup (국진) is an animal or a ssangpi: choice (the round says; else the best for its "
        "holder); animal; pi.", choices=("choice", "animal", "pi"),
        label="The sake cup (국진)", group="Points",
        source="Cards",
    )
    ssangpi: tuple[str, ...] = opt(
        ("willow-lightning", "paulownia-chaff-yellow"), "Chaff cards worth 2 pi (쌍피).",
        label="Double pi (쌍피)", group="Points", unit="card",
        source="Cards",
    )
    godori: tuple[str, ...] = opt(
        ("plum-bush-warbler", "wisteria-cuckoo", "pampas-geese"), "The three birds of godori (고도리).",
        label="Godori birds (고도리)", group="Points", unit="card",
        source="Cards",
    )
    bonus_cards: tuple[int, ...] = opt(
        (2, 2, 3), "The deck's bonus cards (보너스피) by pi value; more of a value in a round is an error.",
        label="Bonus cards in the deck", group="Points",
        source="Cards",
    )


@dataclass(frozen=True)
class YakuTable:
    """One ``[yaku.<id>]`` table: a point line (GOSTOP-RULES.md "Points from captures").

    ``rule``: ``brights`` (``need`` brights; ``rain``: ``any``, ``with`` or ``without`` the rain
    gwang; ``dry_points``: the option whose value it scores when the brights leave out the rain
    gwang), ``cards`` (all of ``cards``, or of the cards option named by ``cards_option``) or
    ``count`` (``count`` of ``animal``, ``ribbon`` or ``pi`` value: ``points`` at ``need``,
    +``extra_points`` for each more).  ``group``: only the line worth most in a group scores.
    """

    en: str
    ko: str
    points: int
    rule: str = opt("cards", "How the line is read.", choices=RULES)
    need: int = 0
    rain: str = opt("any", "Brights: with or without the rain gwang.", choices=("any", "with", "without"))
    dry_points: str = ""
    cards: tuple[str, ...] = ()
    cards_option: str = ""
    count: str = opt("", "What a count line counts.", choices=("", *COUNTS))
    extra_points: int = 1
    group: str = ""
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class Yaku:
    """A compiled point line: ``pool`` is a 48-bit mask (``referee.cards``); ``ja`` is its Korean
    name (the local name every family's line carries in that slot)."""

    id: str
    en: str
    ja: str
    points: int
    rule: str
    need: int
    rain: str
    dry_points: int | None
    pool: int
    count: str
    extra_points: int
    group: str


@dataclass(frozen=True)
class GostopRules:
    """A validated Go-Stop ruleset: ``yaku`` holds the active point lines in file order."""

    name: str
    title: str
    description: str
    options: Options
    yaku: tuple[Yaku, ...]
    game: str = "gostop"

    @property
    def goal(self) -> str:
        """How the game ends, in a few words (the scoreboard's subtitle): it has no end of its own
        (GOSTOP-RULES.md, the game input): each round is settled when it ends, and the table stops
        when it likes."""
        return "no set end: each round is settled as it ends"

    @property
    def ssangpi(self) -> frozenset[str]:
        """Ids of the chaff worth 2 pi."""
        return frozenset(self.options.ssangpi)


def _bad(source: str, path: str, value: Any, expected: str) -> RefereeError:
    return FieldError(source, path, value, expected)


def _check_options(o: Options, source: str) -> None:
    if not o.players or any(n not in (2, 3) for n in o.players):
        raise _bad(source, "options.players", list(o.players), "2 (Matgo) or 3 (Go-Stop)")
    for i, cid in enumerate(o.ssangpi):  # card ids (unit "card"): checked by schema.build
        if BY_ID[cid].kind != "chaff":
            raise FieldError(source, f"options.ssangpi[{i}]", cid, said=f"“{cid}” is {BY_ID[cid].name}, not a chaff "
                             "card: only chaff (피) can count double")
    for i, v in enumerate(o.bonus_cards):
        if not 1 <= v <= MAX_BONUS_VALUE:
            raise _bad(source, f"options.bonus_cards[{i}]", v, f"a pi value 1 to {MAX_BONUS_VALUE}")
    for i, v in enumerate(o.ppeok_payouts):
        if v < 0:
            raise _bad(source, f"options.ppeok_payouts[{i}]", v, "0 or more")
    if len(o.ppeok_payouts) > 3:
        raise _bad(source, "options.ppeok_payouts", list(o.ppeok_payouts),
                   "at most 3 payouts (the third ppeok ends the round)")


def _compile(yid: str, t: YakuTable, o: Options, source: str) -> Yaku:
    p = f"yaku.{yid}"
    for name in ("points", "need", "extra_points"):
        if getattr(t, name) < 0:
            raise _bad(source, f"{p}.{name}", getattr(t, name), "0 or more")
    pool = 0
    if t.rule == "cards":
        if bool(t.cards) == bool(t.cards_option):
            raise RefereeError("bad-ruleset", f"{source}: table {p!r} needs exactly one of 'cards' and 'cards_option'")
        if t.cards_option:
            ids = getattr(o, t.cards_option, None)
            if not isinstance(ids, tuple) or not all(isinstance(c, str) for c in ids):
                raise _bad(source, p + ".cards_option", t.cards_option, "the name of a card-list option")
            pool = select(ids, source, f"options.{t.cards_option}") if ids else 0
        else:
            pool = select(t.cards, source, p + ".cards")
    elif t.rule == "count" and not t.count:
        raise _bad(source, p + ".count", t.count, "one of " + ", ".join(COUNTS))
    if t.rule != "cards" and t.need < 1:
        raise _bad(source, p + ".need", t.need, "1 or more")
    dry = None
    if t.dry_points:
        dry = getattr(o, t.dry_points, None)
        if isinstance(dry, bool) or not isinstance(dry, int):
            raise _bad(source, p + ".dry_points", t.dry_points, "the name of an integer option")
    return Yaku(yid, t.en, t.ko, t.points, t.rule, t.need, t.rain, dry, pool, t.count, t.extra_points, t.group)


def from_table(table: dict[str, Any], source: str) -> GostopRules:
    """Validate a merged ``game = "gostop"`` table and compile it.

    Raises ``RefereeError('bad-ruleset')`` naming ``source``, the field, the value given and the
    value expected.  Rule source: GOSTOP-RULES.md.
    """
    known = {"game", "name", "title", "description", "options", "yaku"}
    for key in table:
        if key not in known:
            raise RefereeError("bad-ruleset", f"{source}: field {key!r} is unknown; expected one of {sorted(known)}")
    options = build(Options, table.get("options", {}), source, "options")
    _check_options(options, source)
    entries = table.get("yaku", {})
    if not isinstance(entries, dict) or not all(isinstance(v, dict) for v in entries.values()):
        raise _bad(source, "yaku", entries, "a table of tables")
    yaku = []
    for yid, raw in entries.items():
        t = build(YakuTable, raw, source, f"yaku.{yid}")
        if t.enabled:
            yaku.append(_compile(yid, t, options, source))
    meta = {k: table.get(k, "") for k in ("name", "title", "description")}
    for k, v in meta.items():
        if not isinstance(v, str):
            raise _bad(source, k, v, "a string")
    return GostopRules(options=options, yaku=tuple(yaku), **meta)


__all__ = ["COUNTS", "RULES", "GostopRules", "Options", "Yaku", "from_table"]
