"""Game progression for the Roppyakken family: totals, oya, end of game, match.

RULES.md "Instant wins and the end of the game":
- a void (fuke) round scores nothing and the same oya (dealer) deals again;
- otherwise the round's highest scorer deals next (ties: first in play order from the oya);
- an instant win (shiko, then nanatan) ends the game at once;
- otherwise the game ends after a round in which a total reaches ``target``; the
  highest total wins, and a tie at the top means another round;
- with ``first_to_target_wins`` (seed 002's local rule: the first to reach the target
  wins at once), the first player to reach the target during that round wins, even if
  another ends it higher.  A round in which two or more players reach it says who got
  there first (``first_to_target``); the referee cannot tell from the piles;
- ``rounds`` > 0 plays a fixed number of scored rounds instead; with ``winner =
  most-times-over-target`` each time a player's total reaches the target counts
  once and that total starts again from 0 (our reading of the 12-round mobile
  version), and the most such times wins (ties: highest total, then another round);
- ``match_games`` = N > 1 plays a best-of-N match (Changara): totals restart after
  each game and the first to win (N + 1) / 2 games wins the match.

Pure core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from referee import totals as entered
from referee.errors import RefereeError, given, shown
from referee.roppyakken.round import RoundResult, make_round, score_round
from referee.roppyakken.rules import RoppyakkenRules
from referee.roppyakken.totals import score_totals

#: Keys of one round in a game's ``rounds`` list.
ROUND_KEYS = frozenset({"piles", "hands", "field", "totals", "void", "first_to_target"})


@dataclass(frozen=True)
class GameRound:
    """A played round in its game: ``number`` counts all rounds from 1, ``game``
    the match game; ``totals`` are the running totals (points) after it;
    ``game_winner`` is set when this round ended a game."""

    number: int
    game: int
    dealer: str
    result: RoundResult
    totals: Mapping[str, int]
    game_winner: str | None


@dataclass(frozen=True)
class GameState:
    """A game (or match) after some rounds.

    ``dealer``: the oya of the next round; ``totals``: running points in the
    current game; ``wins``: games won (or times over the target); ``winner``:
    the winner of the whole game or match, None while it goes on.
    """

    rules: RoppyakkenRules
    players: tuple[str, ...]
    dealer: str
    totals: Mapping[str, int]
    wins: Mapping[str, int]
    rounds: tuple[GameRound, ...] = ()
    game: int = 1
    scored_rounds: int = 0
    winner: str | None = None
    #: The players level at the top after the last round, where that tie alone keeps the game going (the
    #: round would have ended it: RULES.md "If the highest totals tie, the game continues with another round").
    level: tuple[str, ...] = ()

    @property
    def over(self) -> bool:
        """True once the game (or match) has a winner."""
        return self.winner is not None


def new_game(rules: RoppyakkenRules, players: Sequence[str], dealer: str | None = None) -> GameState:
    """A game with no rounds yet. Raises ``RefereeError`` (``player-count``, ``unknown-player``)."""
    players = tuple(players)
    make_round(rules, players, {}, dealer=dealer)  # validates players and dealer
    zero = MappingProxyType(dict.fromkeys(players, 0))
    return GameState(rules, players, dealer or players[0], zero, zero)


def _leader(totals: Mapping[str, int]) -> tuple[str | None, tuple[str, ...]]:
    """(the one player with the highest total, ()), or (None, the players level at the top)."""
    top = max(totals.values())
    leaders = tuple(p for p, t in totals.items() if t == top)
    return (leaders[0], ()) if len(leaders) == 1 else (None, leaders)


def target_crossers(rules: RoppyakkenRules, totals: Mapping[str, int], scores: Mapping[str, int]) -> tuple[str, ...]:
    """``rules.target_crossers``: whom ``first_to_target_wins`` asks about (see there)."""
    return rules.target_crossers(totals, scores)


def _first_to_target(rules: RoppyakkenRules, before: Mapping[str, int], totals: Mapping[str, int],
                     stated: str | None, warnings: list[str]) -> str | None:
    """The winner under ``first_to_target_wins``, or None when the rule does not decide this round.

    Raises ``RefereeError``: ``missing-decision`` (two or more reached the target and nobody is
    named) or ``bad-decision`` (the named player did not reach it in this round).
    """
    o = rules.options
    if not rules.plays_first_to_target:
        if stated is not None:
            warnings.append(f"first_to_target {stated} is ignored: the ruleset does not play "
                            "first_to_target_wins to a target")
        return None
    crossed = rules.reaching_target(before, totals)
    if stated is not None and stated not in crossed:
        who = ", ".join(crossed) or "nobody"
        raise RefereeError("bad-decision", f"first_to_target is {shown(stated)}, who did not reach {o.target} in this "
                           f"round ({who} did)")
    if len(crossed) >= 2 and stated is None:
        who = (f"{crossed[0]} and {crossed[1]} both" if len(crossed) == 2
               else f"{', '.join(crossed[:-1])} and {crossed[-1]} all")
        raise RefereeError("missing-decision", f"{who} reached {o.target} in this round: say who got there first "
                           "(\"first_to_target\"); with first_to_target_wins that player wins")
    if stated is not None:
        return stated
    return crossed[0] if crossed else None


def _game_winner(o, totals: dict[str, int], times: dict[str, int], scored: int) -> tuple[str | None, tuple[str, ...]]:
    """(the game's winner, ()) once a round ends the game; (None, the players level at the top) when it would,
    but the top is level, so another round decides; (None, ()) while the game goes on."""
    if o.rounds:
        if scored < o.rounds:
            return None, ()
        if o.winner == "most-times-over-target":
            best = max(times.values())
            tied = {p: totals[p] for p in times if times[p] == best}
            return _leader(tied)
        return _leader(totals)
    if max(totals.values()) >= o.target:
        return _leader(totals)
    return None, ()


def _names(players: Sequence[str]) -> str:
    return players[0] if len(players) == 1 else ", ".join(players[:-1]) + " and " + players[-1]


def _why_the_winner(target: int, totals: Mapping[str, int], winner: str | None, first: str | None) -> list[str]:
    """One line, when two or more totals stand at the target after a round, saying why the game
    was won (or goes on), with the rule's source."""
    over = [p for p, t in totals.items() if t >= target]
    if len(over) < 2:
        return []
    if winner is not None and winner == first:
        return [f"{_names(over)} reached {target}: {winner} wins, the first to get there "
                "(house rule first_to_target_wins, seed 002 local rule)"]
    if winner is not None:
        return [f"{_names(over)} reached {target}: {winner} wins with the highest total, {totals[winner]} "
                "(RULES.md, Instant wins and the end of the game)"]
    top = max(totals.values())
    level = [p for p in over if totals[p] == top]
    return [f"{_names(level)} are level at {top}, over {target}: the game goes on with another round "
            "(RULES.md, Instant wins and the end of the game)"]


def play_round(
    state: GameState,
    piles: Mapping[str, Sequence[str]],
    hands: Mapping[str, Sequence[str]] | None = None,
    field: Sequence[str] = (),
    totals: Mapping[str, int] | None = None,
    void: object = False,
    first_to_target: str | None = None,
) -> GameState:
    """Score the next round and advance the game.

    ``totals`` (``{player: points}``, instead of cards): a round the table scored
    on paper (``referee.roppyakken.totals``; ``void``: fuke voided it); ``piles``,
    ``hands`` and ``field`` must then be empty.  ``first_to_target``: the player who
    reached the target first during this round, needed (with ``first_to_target_wins``)
    only when two or more reach it.  Raises ``RefereeError('game-over')`` once the game
    has a winner, ``missing-decision`` / ``bad-decision`` for ``first_to_target`` (see
    ``_first_to_target``), and the errors of ``make_round`` and ``score_totals``.
    """
    if state.over:
        raise RefereeError("game-over", f"the game is over: {state.winner} won; start a new game")
    rules, o = state.rules, state.rules.options
    if first_to_target is not None and first_to_target not in state.players:
        raise RefereeError("unknown-player", f"first_to_target {shown(first_to_target)} is not a player; "
                           f"players are {list(state.players)}")
    if totals is not None:
        entered.refuse_cards({"piles": piles, "hands": hands, "field": field})
        result = score_totals(rules, state.players, totals, state.dealer, void)
    elif void is not False:
        raise RefereeError("bad-round", "\"void\" is only for a round of entered totals; with cards, the "
                           "referee finds fuke itself")
    else:
        result = score_round(rules, make_round(rules, state.players, piles, hands, state.dealer, field))
    notes: list[str] = []
    totals = dict(state.totals)
    wins = dict(state.wins)
    scored = state.scored_rounds
    if not result.void:
        scored += 1
        for p, s in result.scores.items():
            totals[p] += s
        if o.winner == "most-times-over-target":
            for p in state.players:
                if totals[p] >= o.target:
                    wins[p] += 1
                    totals[p] = 0
    first = None if result.void else _first_to_target(rules, state.totals, totals, first_to_target, notes)
    winner, level = _game_winner(o, totals, wins, scored)
    if result.instant_win or first:
        winner, level = result.instant_win or first, ()
    if not result.instant_win and not o.rounds and o.winner != "most-times-over-target":
        notes.extend(_why_the_winner(o.target, totals, winner, first))
    if notes:
        result = replace(result, warnings=(*result.warnings, *notes))
    after = MappingProxyType(dict(totals))
    game_round = GameRound(len(state.rounds) + 1, state.game, state.dealer, result, after, winner)
    new = replace(state, dealer=result.next_dealer, totals=after, rounds=(*state.rounds, game_round),
                  scored_rounds=scored, wins=MappingProxyType(wins), level=level)
    if winner is None:
        return new
    if o.winner == "most-times-over-target":
        return replace(new, winner=winner)
    wins[winner] += 1
    needed = o.match_games // 2 + 1
    if wins[winner] >= needed:
        return replace(new, winner=winner, wins=MappingProxyType(wins))
    zero = MappingProxyType(dict.fromkeys(state.players, 0))
    return replace(new, wins=MappingProxyType(wins), totals=zero, game=state.game + 1, scored_rounds=0)


def play_game(
    rules: RoppyakkenRules,
    players: Sequence[str],
    rounds: Sequence[Mapping],
    dealer: str | None = None,
) -> GameState:
    """Play rounds given as ``{"piles": ..., "hands": ..., "field": ...}`` (or ``{"totals": ...}``,
    entered totals) from the start.

    Rounds may also hold ``first_to_target``.  Raises ``RefereeError`` (a round
    after the end is ``game-over``; a round that is not an object is
    ``bad-round``), naming the round number in the message and in ``round_number``; a
    round's own error is ``RefereeError.in_round`` of it, of the same class and parts.
    """
    state = new_game(rules, players, dealer)
    for i, r in enumerate(rounds, 1):
        if not isinstance(r, Mapping) or ("piles" not in r and "totals" not in r):
            raise RefereeError("bad-round", f"round {i}: expected an object with \"piles\" (or \"totals\"), "
                               f"{given(r)}", round_number=i)
        unknown = sorted(set(r) - ROUND_KEYS)
        if unknown:
            raise RefereeError("bad-round", f"round {i}: unknown key(s) {', '.join(unknown)}; "
                               f"expected {', '.join(sorted(ROUND_KEYS))}", round_number=i)
        try:
            state = play_round(state, r.get("piles") or {}, r.get("hands"), r.get("field") or (), r.get("totals"),
                               r.get("void", False), r.get("first_to_target"))
        except RefereeError as e:
            raise e.in_round(i) from None
    return state


def game_to_json(state: GameState) -> dict:
    """The public JSON shape of a game (README "Game result")."""
    return {
        "ruleset": state.rules.name,
        "players": list(state.players),
        "rounds": [
            {"round": r.number, "game": r.game, "dealer": r.dealer, **r.result.to_json(),
             "totals": dict(r.totals), "game_winner": r.game_winner}
            for r in state.rounds
        ],
        "totals": dict(state.totals),
        "wins": dict(state.wins),
        "next_dealer": state.dealer,
        "winner": state.winner,
        "level": list(state.level),
    }
