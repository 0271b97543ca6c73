"""A Go-Stop round as the table reports it, validated (GOSTOP-RULES.md "JSON", round input).

``make_round`` checks every field and turns card tokens into ids: the piles, the bonus cards by
value against the deck (option ``bonus_cards``; or one card by its number, which one player holds),
the sake cup's choice, the go counts and who stopped, shakes, bombs, ppeok turns, an instant win
(chongtong), a declared dokbak and the nagari carry.  Errors name the card, field or player.  Pure core.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.cards import BY_ID
from referee.errors import PlayerCountError, RefereeError, RoundFieldError, given, one_of_the_players, shown
from referee.gostop.hwatu import card_label
from referee.gostop.points import SAKE_CUP
from referee.gostop.rules import GostopRules
from referee.names import printable_name, repeated_name, repeated_name_message
from referee.notation import parse_groups
from referee.option_names import house_rule

#: Instant wins a round may state ("Instant wins, ppeok, nagari"); three ppeok is read from ``ppeok``.
INSTANTS = ("chongtong",)
#: Ppeok that end a round (3뻑).
THREE_PPEOK = 3
#: Highest turn number a ppeok may name (a Matgo hand has 10 cards; a little room for typing).
MAX_TURN = 12
#: Most gos, shakes or bombs one player may be said to have made in a round.
MAX_CALLS = 12


@dataclass(frozen=True)
class Instant:
    """An instant win at the deal: ``type`` (``chongtong``), its ``player`` and the four ``cards``."""

    type: str
    player: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class RoundInput:
    """A validated round.  Maps hold only players with something to say; ``piles`` holds every
    player (empty tuples for none).  ``nagari_carry``: the multiplier carried in (1, 2, 4 ...)."""

    players: tuple[str, ...]
    dealer: str
    piles: Mapping[str, tuple[str, ...]]
    bonus: Mapping[str, tuple[int, ...]]
    sake_cup: Mapping[str, str]
    gos: Mapping[str, int]
    last_go: str | None
    stopped_by: str | None
    shakes: Mapping[str, int]
    bombs: Mapping[str, int]
    ppeok: Mapping[str, tuple[int, ...]]
    instant: Instant | None
    dokbak: str | None
    nagari_carry: int
    warnings: tuple[str, ...] = ()

    def gos_of(self, player: str) -> int:
        """How many times ``player`` called go."""
        return self.gos.get(player, 0)


def next_carry(carry: int, cap: int | None) -> int:
    """The nagari multiplier after one more void round: ×2, at most ``cap`` (option ``nagari_cap``)."""
    return carry * 2 if cap is None else max(carry, min(carry * 2, cap))


def carries(cap: int | None, upto: int) -> set[int]:
    """The nagari multipliers a round can carry in (1, 2, 4 ... with ``cap``), up to ``upto``."""
    out, c = {1}, 1
    while c < upto and next_carry(c, cap) != c:
        c = next_carry(c, cap)
        out.add(c)
    return out


def check_players(rules: GostopRules, players: object) -> tuple[str, ...]:
    """Distinct printable names, as many as option ``players`` allows (2 or 3).
    Raises ``RefereeError`` (``bad-round``; ``player-count`` naming the count and the option)."""
    if not isinstance(players, list | tuple) or not all(printable_name(p) for p in players):
        raise RefereeError("bad-round", f"\"players\" must be a list of names (printable, not blank), {given(players)}")
    allowed = rules.options.players
    if len(players) not in allowed:
        raise PlayerCountError(f"{rules.title} is for {' or '.join(map(str, allowed))} players "
                               f"({house_rule(rules.options, 'players')}); \"players\" has {len(players)}: "
                               f"{list(players)}",
                               rules.title, tuple(sorted(allowed)), tuple(players))
    twin = repeated_name(players)
    if twin is not None:
        raise RefereeError("bad-round", repeated_name_message(*twin))
    return tuple(players)


def _player(value: object, key: str, players: tuple[str, ...]) -> str:
    return one_of_the_players(value, key, players)


def _table(value: object, key: str, players: tuple[str, ...]) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise RefereeError("bad-round", f"\"{key}\" must map players to values, {given(value)}")
    for p in value:
        if p not in players:
            raise RefereeError("unknown-player", f"\"{key}\" names {p!r}, who is not a player; players are "
                               f"{list(players)}")
    return dict(value)


def _count(value: object, key: str, player: str, most: int = MAX_CALLS) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise RoundFieldError("bad-round", f"\"{key}\" of {player} is {shown(value)}; expected a whole number 0 to "
                              f"{most}", field=key, rule="count", player=player, value=value, limit=most)
    return value


def _counts(value: object, key: str, players: tuple[str, ...]) -> dict[str, int]:
    table = _table(value, key, players)
    return {p: n for p, v in table.items() if (n := _count(v, key, p))}


def _bonus_card(rules: GostopRules, entry: Mapping, player: str) -> int:
    """The number (from 1) of the deck's bonus card ``entry`` names: ``{"card": n}``, n of option ``bonus_cards``."""
    deck = rules.options.bonus_cards
    n = entry.get("card")
    if set(entry) != {"card"} or isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(deck):
        raise RoundFieldError("bad-round", f"\"bonus\" of {player} has {shown(dict(entry))}; a bonus card is its pi "
                              f"value (e.g. 3) or {{\"card\": n}}, the deck's bonus card n, "
                              + (f"1 to {len(deck)}" if deck else "but the deck has none"),
                              field="bonus", rule="no-such-card", player=player, value=dict(entry), limit=len(deck))
    return n


def _bonus(rules: GostopRules, value: object, players: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """Each player's bonus cards as pi values.  An entry is a pi value (any of the deck's cards of that
    value) or one card by its number in the deck, ``{"card": n}`` (as the web form ticks them); a card
    named for two players, or twice, is refused as a card in two piles is (``duplicate-card``)."""
    table = _table(value, "bonus", players)
    cards = rules.options.bonus_cards
    deck = Counter(cards)
    out: dict[str, tuple[int, ...]] = {}
    holders: dict[int, list[str]] = {}
    for p, values in table.items():
        if not isinstance(values, list | tuple):
            raise RefereeError("bad-round", f"\"bonus\" of {p} is {shown(values)}; expected a list of pi values, "
                               "e.g. [3]")
        got = []
        for v in values:
            if isinstance(v, Mapping):
                n = _bonus_card(rules, v, p)
                holders.setdefault(n, []).append(p)
                got.append(cards[n - 1])
            elif isinstance(v, bool) or not isinstance(v, int) or v not in deck:
                raise RoundFieldError("bad-round", f"\"bonus\" of {p} has {shown(v)}; the deck's bonus cards "
                                      f"({house_rule(rules.options, 'bonus_cards')}) are worth "
                                      f"{sorted(set(deck)) or 'nothing: it has none'}",
                                      field="bonus", rule="not-in-deck", player=p, value=v,
                                      limit=tuple(sorted(set(deck))))
            else:
                got.append(v)
        if got:
            out[p] = tuple(got)
    for n, who in sorted(holders.items()):
        if len(who) > 1:
            card, names = f"bonus card {n} ({cards[n - 1]} pi)", tuple(dict.fromkeys(who))
            where = [f"\"bonus\" of {q}" for q in names]
            said = (f"{card} appears twice in {where[0]}" if len(names) == 1 else
                    f"{card} is in both {where[0]} and {where[1]}" if len(names) == 2 else
                    f"{card} is in {', '.join(where[:-1])} and {where[-1]}")
            raise RoundFieldError("duplicate-card", f"{said}; the deck has one of each bonus card", field="bonus",
                                  rule="two-piles", player=names[0], value=n, limit=cards[n - 1], players=names)
    held = Counter(v for values in out.values() for v in values)
    for v, n in sorted(held.items()):
        if n > deck[v]:
            counts = {p: vs.count(v) for p, vs in out.items() if v in vs}
            who = ", ".join(f"{p} {k}" for p, k in counts.items())
            raise RoundFieldError("too-many-cards", f"\"bonus\" has {n} bonus cards worth {v} pi ({who}); the deck "
                                  f"({house_rule(rules.options, 'bonus_cards', cards)}) holds {deck[v]}",
                                  field="bonus", rule="too-many", value=v, limit=deck[v], counts=counts)
    return out


def _sake_cup(rules: GostopRules, value: object, players: tuple[str, ...],
              piles: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    table = _table(value, "sake_cup", players)
    for p, use in table.items():
        if use not in ("pi", "animal"):
            raise RefereeError("bad-round", f"\"sake_cup\" of {p} is {shown(use)}; expected \"pi\" or \"animal\"")
        if SAKE_CUP not in piles[p]:
            raise RefereeError("bad-round", f"\"sake_cup\" says how {p} plays the sake cup, but {p}'s pile does not "
                               f"hold {card_label(SAKE_CUP)}")
        if rules.options.sake_cup != "choice":
            raise RoundFieldError("bad-round", f"\"sake_cup\" of {p}: under this ruleset the sake cup is always "
                                  f"{'a pi' if rules.options.sake_cup == 'pi' else 'an animal'} "
                                  f"({house_rule(rules.options, 'sake_cup', rules.options.sake_cup)}); leave it out",
                                  field="sake_cup", rule="fixed", player=p, value=use, limit=rules.options.sake_cup)
    return table


def _ppeok(value: object, players: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    table = _table(value, "ppeok", players)
    out = {}
    for p, turns in table.items():
        if not isinstance(turns, list | tuple) or not all(
            not isinstance(t, bool) and isinstance(t, int) and 1 <= t <= MAX_TURN for t in turns
        ):
            raise RoundFieldError("bad-round", f"\"ppeok\" of {p} is {shown(turns)}; expected the turn numbers (1 "
                                  f"to {MAX_TURN}) of {p}'s ppeok, e.g. [1, 2]", field="ppeok", rule="turns",
                                  player=p, value=turns, limit=MAX_TURN)
        if len(set(turns)) != len(turns):
            raise RoundFieldError("bad-round", f"\"ppeok\" of {p} names a turn twice: {list(turns)}", field="ppeok",
                                  rule="twice", player=p, value=tuple(turns))
        if len(turns) > THREE_PPEOK:
            raise RoundFieldError("bad-round", f"\"ppeok\" of {p} has {len(turns)} ppeok; the third ends the round "
                                  "(3뻑)", field="ppeok", rule="too-many", player=p, value=tuple(turns),
                                  limit=THREE_PPEOK)
        if turns:
            out[p] = tuple(sorted(turns))
    return out


def _instant(value: object, players: tuple[str, ...]) -> Instant | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) - {"type", "player", "cards"}:
        raise RefereeError("bad-round", f"\"instant\" is {shown(value)}; expected {{\"type\": \"chongtong\", "
                           "\"player\": name, \"cards\": [the four cards of a month]}")
    if value.get("type") not in INSTANTS:
        raise RefereeError("bad-round", f"\"instant.type\" is {shown(value.get('type'))}; expected one of "
                           f"{', '.join(INSTANTS)} (three ppeok are read from \"ppeok\")")
    player = _player(value.get("player"), "instant.player", players)
    cards = value.get("cards")
    if not isinstance(cards, list | tuple):
        raise RefereeError("bad-round", f"\"instant.cards\" is {shown(cards)}; expected the four cards of the month "
                           f"{player} was dealt")
    ids = parse_groups({player: cards}, what="instant.cards of")[player]
    months = {BY_ID[c].month for c in ids}
    if len(ids) != 4 or len(months) != 1:
        raise RoundFieldError("bad-round", f"\"instant.cards\" of {player} are {list(ids)}; chongtong (총통) is all "
                              "four cards of one month", field="instant.cards", rule="one-month", player=player,
                              value=tuple(ids))
    return Instant(value["type"], player, tuple(ids))


def make_round(
    rules: GostopRules,
    players: Sequence[str],
    piles: Mapping[str, Sequence[str]] | None = None,
    *,
    dealer: str | None = None,
    bonus: Mapping[str, Sequence[int]] | None = None,
    sake_cup: Mapping[str, str] | None = None,
    gos: Mapping[str, int] | None = None,
    last_go: str | None = None,
    stopped_by: str | None = None,
    shakes: Mapping[str, int] | None = None,
    bombs: Mapping[str, int] | None = None,
    ppeok: Mapping[str, Sequence[int]] | None = None,
    instant: Mapping[str, Any] | None = None,
    dokbak: str | None = None,
    nagari_carry: int | None = None,
) -> RoundInput:
    """Validate a reported round (GOSTOP-RULES.md "JSON", round input; "Cards"; "Instant wins, ppeok, nagari").

    Raises ``RefereeError``: ``player-count`` (not a count option ``players`` allows),
    ``unknown-player``, ``unknown-card``, ``duplicate-card`` (a card in two piles, naming both; a bonus card
    named by its number for two players, or twice), ``too-many-cards`` (more bonus cards of a value than
    the deck holds), ``bad-round`` (a bonus value the deck lacks, a ``sake_cup`` for a player without the
    cup, an instant win beside piles, gos or a stopper, a bad ppeok list, a ``last_go`` or ``dokbak`` that does not fit,
    a nagari carry that is not 1, 2, 4 ... up to option ``nagari_cap``).

    A refused value of one field is a ``referee.errors.RoundFieldError``, by ``(field, rule)``:
    ``("gos" | "shakes" | "bombs", "count")``, not a whole number 0 to ``limit`` (``MAX_CALLS``);
    ``("ppeok", "turns")``, not turn numbers 1 to ``limit`` (``MAX_TURN``); ``("ppeok", "twice")``, a turn
    given twice; ``("ppeok", "too-many")``, more than ``limit`` (3뻑 ends the round); ``("stopped_by",
    "three-ppeok")``, a stopper (``value``) though ``player`` made three ppeok; ``("last_go", "no-go")`` and
    ``("dokbak", "stopper")``, ``player`` called no go, or is the one who stopped; ``("instant.cards",
    "one-month")``, not four cards of a month; ``("instant", "played")``, ``value`` the keys that say the round
    was played; ``("bonus", "not-in-deck")``, a pi value outside the deck's (``limit``, option
    ``bonus_cards``); ``("bonus", "no-such-card")``, ``value`` names no card of the deck by its number (``limit``:
    how many it has); ``("bonus", "two-piles")`` (code ``duplicate-card``), bonus card ``value`` (from 1, worth
    ``limit`` pi) named for each of ``players`` (one: twice for that player); ``("bonus", "too-many")`` (code
    ``too-many-cards``), more cards worth ``value`` than the deck's ``limit``, ``counts`` by holder;
    ``("sake_cup", "fixed")``, a choice though option ``sake_cup`` (``limit``) fixes it; ``("stopped_by" |
    "dealer" | "last_go" | "dokbak" | "instant.player", "not-a-player")`` (code ``unknown-player``), ``value``
    is not one of ``players`` (``referee.errors.one_of_the_players``).
    """
    players = check_players(rules, players)
    dealer = players[0] if dealer is None else _player(dealer, "dealer", players)
    pile_table = _table(piles, "piles", players)
    for p, cards in pile_table.items():
        if not isinstance(cards, list | tuple):
            raise RefereeError("bad-round", f"\"piles\" of {p} is {shown(cards)}; expected a list of card ids")
    pile_ids = parse_groups({p: pile_table.get(p, ()) for p in players}, what="pile")
    bonus_t = _bonus(rules, bonus, players)
    cup = _sake_cup(rules, sake_cup, players, pile_ids)
    gos_t = _counts(gos, "gos", players)
    shakes_t = _counts(shakes, "shakes", players)
    bombs_t = _counts(bombs, "bombs", players)
    ppeok_t = _ppeok(ppeok, players)
    stopper = None if stopped_by is None else _player(stopped_by, "stopped_by", players)
    inst = _instant(instant, players)
    if inst is not None:
        played = [k for k, v in (("piles", any(pile_ids.values())), ("bonus", bonus_t), ("gos", gos_t),
                                 ("stopped_by", stopper), ("shakes", shakes_t), ("bombs", bombs_t),
                                 ("ppeok", ppeok_t)) if v]
        if played:
            raise RoundFieldError("bad-round", f"chongtong (총통) by {inst.player} ends the round at the deal, so "
                                  f"{', '.join(played)} must be empty; leave out \"instant\" if the round was played",
                                  field="instant", rule="played", player=inst.player, value=tuple(played))
    three = [p for p, turns in ppeok_t.items() if len(turns) == THREE_PPEOK]
    if three and stopper is not None:
        raise RoundFieldError("bad-round", f"{three[0]} made three ppeok (3뻑), which ends the round, so nobody "
                              f"stopped; \"stopped_by\" is {shown(stopper)} (leave it out)", field="stopped_by",
                              rule="three-ppeok", player=three[0], value=stopper)
    last = None if last_go is None else _player(last_go, "last_go", players)
    if last is not None and not gos_t.get(last):
        raise RoundFieldError("bad-round", f"\"last_go\" is {shown(last)}, who called no go (\"gos\" of {last} is 0)",
                              field="last_go", rule="no-go", player=last, value=last)
    feeder = None if dokbak is None else _player(dokbak, "dokbak", players)
    if feeder is not None and len(players) != 3:
        raise RefereeError("bad-round", "\"dokbak\" is for three players; with two a loser who called go pays "
                           "×2 (go-bak)")
    if feeder is not None and feeder == stopper:
        raise RoundFieldError("bad-round", f"\"dokbak\" is {shown(feeder)}, the player who stopped; name the loser "
                              "who fed the winner", field="dokbak", rule="stopper", player=feeder, value=feeder)
    carry = 1 if nagari_carry is None else nagari_carry
    cap = rules.options.nagari_cap
    if isinstance(carry, bool) or not isinstance(carry, int) or carry not in carries(cap, carry):
        raise RefereeError("bad-round", f"\"nagari_carry\" is {shown(nagari_carry)}; expected 1, 2, 4 ... (×2 per "
                           f"nagari in a row)" + (f", at most {cap} ({house_rule(rules.options, 'nagari_cap')})"
                                                   if cap is not None else ""))
    return RoundInput(players, dealer, pile_ids, bonus_t, cup, gos_t, last, stopper, shakes_t, bombs_t,
                      ppeok_t, inst, feeder, carry)
