"""The one interface every game family offers the CLI, the API and the web app: ``Family``.

A family is a package beside ``referee/roppyakken/`` (rules schema, yaku, rounds, games)
that exposes ``FAMILY``, a ``Family`` built from its own functions.  ``referee.families``
lists them; nothing else in the project dispatches on a family's name.

What a family says about itself is data: the web app's round entry form and scoreboard
are named by kind (``entry_form``, ``board``), so a new family that enters its rounds
like an existing one needs no web code.  Pure core: standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.cards import Card

#: The round entry forms the web app has (``referee.web.forms.ENTRY_FORMS``):
#: ``picker`` (each player's pile and, optionally, dealt hand: Roppyakken),
#: ``money`` (field, drop-outs, dekiyaku and piles: Hachi-hachi),
#: ``calls`` (both piles, who stopped, the calls in order, dealt hands: Koi-Koi),
#: ``piles`` (every pile with its bonus cards, who stopped and the gos, shakes, bombs, ppeok, an
#: instant win: Go-Stop).
ENTRY_FORMS = ("picker", "money", "calls", "piles")
#: The scoreboards (``referee.web.board.BOARDS``): ``points`` (running points from the
#: game JSON's rounds and ``players[p].round_score``) and ``ledger`` (money, from ``net``).
BOARDS = ("points", "ledger")


#: The four card kinds, in the order every ``Words.kinds`` names them.
KINDS = ("bright", "animal", "ribbon", "chaff")


@dataclass(frozen=True)
class Words:
    """What a family's players call the things every game has, for the web app's labels and links.

    - ``dealer``: the dealer in the players' word, romanised (``oya``; Go-Stop ``seon``), also a
      glossary anchor (``referee.web.glossary``); ``dealer_native``: the word in their script
      (``親``; ``선``); ``lang``: that script's language tag (``ja``; ``ko``).
    - ``kinds``: bright, animal, ribbon and chaff (``KINDS``) in that script, as the glossary link
      names them (``光 種 短 カス``; Go-Stop ``광 열 띠 피``).
    - ``void``: the round that scores nothing, as the glossary names it (``fuke``; Go-Stop
      ``nagari``); empty where the family has none.
    - ``money``: the money words the glossary explains (Hachi-hachi ``kan``, ``mon``; Go-Stop
      ``점``, ``점당``); empty where scores are points.

    Raises ``ValueError`` when ``kinds`` does not name the four kinds.
    """

    dealer: str = "oya"
    dealer_native: str = "親"
    lang: str = "ja"
    kinds: tuple[str, str, str, str] = ("光", "種", "短", "カス")
    void: str = "fuke"
    money: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.kinds) != len(KINDS):
            raise ValueError(f"Words.kinds has {len(self.kinds)} names; expected {len(KINDS)} ({', '.join(KINDS)})")

    def kind(self, kind: str) -> str:
        """A card kind (``bright``...) in the players' script: ``光``, Go-Stop ``광``."""
        return self.kinds[KINDS.index(kind)]


def _no_context(_game: Mapping[str, Any]) -> dict[str, Any]:
    return {}


def _plain_amount(amount: int, _rules: Any) -> str:
    return str(amount)


@dataclass(frozen=True)
class Family:
    """A game family: its rules loader, its round and game scoring, and how the app shows it.

    - ``name``: the ``game`` value of its ruleset files (``game = "roppyakken"``);
      ``title``: how players call it.
    - ``from_table(table, source) -> rules``: validate a merged ruleset table into the
      family's frozen rules object (``rules.game == name``); raises ``RefereeError('bad-ruleset')``.
    - ``make_round``, ``score_round``, ``play_game``: the family's typed API (its own
      signatures, documented in its package).
    - ``score_json(rules, round_object) -> dict`` and ``game_json(rules, game_object) -> dict``:
      the JSON contract (README "JSON formats" and the family's docs); raise ``RefereeError``.
    - ``round_keys``: the keys one round of a game object may have (what a session stores
      per round).
    - ``next_round(game_result) -> dict``: the keys a lone round needs from the game before
      it, beyond its own input and the players, ruleset and dealer (Hachi-hachi: the carried
      multipliers; Koi-Koi: the month).  Computed from the game JSON of the rounds before it.
    - ``entry_form``: one of ``ENTRY_FORMS``; ``board``: one of ``BOARDS``; ``unit``:
      ``points``, ``mon`` or ``money`` (points × the table's stake: Go-Stop);
      ``format_amount(amount, rules) -> str``: a total as players read it (``-1 kan 7 mon``).
    - ``sign_amount(size, rules, sign) -> str``: an amount of ``size`` (not negative) with the sign
      the web writes (``+``, ``−``, or ``""`` for 0), where the amount reads as more than one number
      and each carries it (Go-Stop: ``−8,000 (−80점)``, money and its points); None: the sign goes
      before ``format_amount`` of the size, once (``−1 kan 5 mon``).
    - ``month_name(month) -> str``: a CARDS.tsv month (1-12) as the family's players name it,
      written "<number> <name> (<gloss>)" (Go-Stop: ``12월 비 (willow)``); None:
      ``referee.cards.month_label``.
    - ``odd_piles_warn``: the deck check warns of a pile with an odd number of cards (captures
      come in pairs); False where steals make odd piles normal (GOSTOP-RULES.md "Cards").
    - ``void_badge``: how the scoreboard marks a void round (``fuke · void``; Go-Stop: its nagari).
    - ``words``: the dealer, card kinds, void round and money in the players' words (``Words``),
      so that no template names a game's words.
    - ``void_text``: what a round's text says of a void round (``--format text``), in the family's
      words (Roppyakken's fuke; Go-Stop's nagari, where ppeok payouts still stand).
    - ``instant_text``: what a round's text says of an instant win, a format string over the round
      result's keys (``{winner}``, ``{instant_win}``): Roppyakken's shiko wins the game, Go-Stop's
      chongtong or 3뻑 only ends the round.
    - ``local_language``: the language of the yaku's local names (``ja``; Go-Stop ``ko``).  JSON
      names them ``name_ja`` in every family (the slot callers read) and also ``name_<language>``
      where that is not Japanese.
    - ``suggest_json(round_object) -> dict``: what the cards show before decisions are
      stated (Hachi-hachi), or None.
    - ``card_points(card) -> int``: card points whose deck total the piles of a whole round
      add up to (Hachi-hachi's 264), for the web app's deck check; None when piles need not.
    - ``deck_check(active, piles) -> check``: the piles (player -> card ids) of a round played by
      ``active`` players against the deal of that variant (Hachi-hachi: 48 cards and 264 points
      with three, at most 34 cards with two; ``referee.hachihachi.deal.check_piles``); the check has
      ``deal.in_play``, ``deal.undrawn``, ``points``, ``gap`` and ``problem()``.  None: the web app's
      deck check uses ``card_points`` alone.
    - ``game_summary(rules, game_object) -> dict``: ``game_json``'s numbers only, in the shape of
      ``referee.api.game_summary``, for re-scoring long histories fast; None: read from ``game_json``.
    - ``describe(rules) -> referee.wording.HowItScores``: how the ruleset scores, in players'
      words, for the Help pages; None: only its description and options are shown.
    - ``seats``: the player counts the family always seats (Koi-Koi: ``(2,)``), for the
      new-session form; empty: the ruleset's ``players`` option says, or 2 to 6.
    - ``entered_void``: the number pad's tick for a round entered as totals that nobody
      scored (README "Entered totals"), in the family's words: Roppyakken's fuke, Koi-Koi's
      round nobody won.
    - ``explicit_ending(round_object) -> dict``: a round stored before the family's JSON required
      it to say how it ended, with its old meaning said (Go-Stop, Koi-Koi: no ``stopped_by`` was
      "nobody stopped", now ``stopped_by: null``); for the store's migration and old exports.
      None: the family's rounds need no such key.
    - ``yaku_made(rules, game_round) -> {player: [{id, name, name_ja}]}``: the yaku (teyaku,
      dekiyaku...) each player made in one round of the game JSON's ``rounds``, for the
      player pages, named as the ruleset names them (not a round's label, which may add a
      month), so that one yaku made twice counts twice; None: none are counted.
    """

    name: str
    title: str
    from_table: Callable[[dict, str], Any]
    make_round: Callable[..., Any]
    score_round: Callable[..., Any]
    play_game: Callable[..., Any]
    score_json: Callable[[Any, Mapping[str, Any]], dict]
    game_json: Callable[[Any, Mapping[str, Any]], dict]
    round_keys: frozenset[str]
    entry_form: str = "picker"
    board: str = "points"
    unit: str = "points"
    next_round: Callable[[Mapping[str, Any]], dict[str, Any]] = _no_context
    format_amount: Callable[[int, Any], str] = _plain_amount
    sign_amount: Callable[[int, Any, str], str] | None = None
    suggest_json: Callable[[Mapping[str, Any]], dict] | None = None
    card_points: Callable[[Card], int] | None = None
    deck_check: Callable[[int, Mapping[str, Any]], Any] | None = None
    game_summary: Callable[[Any, Mapping[str, Any]], dict] | None = None
    describe: Callable[[Any], Any] | None = None
    yaku_made: Callable[[Any, Mapping[str, Any]], dict[str, list[dict[str, str]]]] | None = None
    explicit_ending: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    entered_void: str = "Fuke: this round was void (everyone 0, the same oya deals again)"
    seats: tuple[int, ...] = ()
    month_name: Callable[[int], str] | None = None
    odd_piles_warn: bool = True
    void_badge: str = "fuke · void"
    words: Words = Words()
    void_text: str = "Round void (fuke): nobody scores; the same dealer deals again."
    instant_text: str = "Instant win: {instant_win} wins the game."
    local_language: str = "ja"

    def __post_init__(self) -> None:
        if self.entry_form not in ENTRY_FORMS:
            raise ValueError(f"family {self.name}: entry_form is {self.entry_form!r}; expected one of {ENTRY_FORMS}")
        if self.board not in BOARDS:
            raise ValueError(f"family {self.name}: board is {self.board!r}; expected one of {BOARDS}")
