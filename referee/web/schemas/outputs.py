"""The API's response models: what each route answers, errors included (``ErrorOut``).

Responses are checked against them while the app is under test.  Must not import the views.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Response(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorOut(_Response):
    """An error: a stable ``error`` code and a ``message`` in words."""

    model_config = ConfigDict(title="Error")

    error: str
    message: str


class ProblemOut(_Response):
    """One house rule the rules refuse, in a sentence."""

    model_config = ConfigDict(title="Problem")

    option: str | None = Field(description="the option's key as given (`target`, `yaku.oozan.points`), or null "
                               "for a refusal about no option given, met once the refused ones were left out")
    message: str = Field(description="why the rules refuse it, naming the field, the value and what was expected")


class RulesRefusedOut(ErrorOut):
    """An error of a new session or of other rules for a session; when the rules refuse options, ``problems``
    names every one at once (and ``message`` names them all too), else it is left out."""

    model_config = ConfigDict(title="RulesRefused")

    problems: list[ProblemOut] = Field(default_factory=list, description="each option the rules refuse, in the "
                                       "order they are checked; left out for an error about no option")


class RoundVersionOut(_Response):
    model_config = ConfigDict(title="RoundVersion")

    version: int
    input: dict[str, Any]


class ConflictOut(ErrorOut):
    """A stale edit (``conflict``), or an edit's idempotency key whose change was since undone or whose round
    was since deleted (``form-token-spent``): the round as saved now (null when it was deleted)."""

    model_config = ConfigDict(title="Conflict")

    current: RoundVersionOut | None


class ChangeOut(_Response):
    """An undoable change."""

    model_config = ConfigDict(title="Change")

    id: int
    summary: str


class UndoConflictOut(ErrorOut):
    """An undo of a change that is no longer the latest; ``last_change`` is the latest now."""

    model_config = ConfigDict(title="UndoConflict")

    last_change: ChangeOut | None


class RestoreRefusedOut(ErrorOut):
    """A restore refused: its body broke the schema, or (``not-a-delete``) its ``change`` is not a delete of this
    session; ``last_change`` is then the delete in force."""

    model_config = ConfigDict(title="RestoreRefused")

    last_change: ChangeOut | None = None


class RoundOut(_Response):
    """A saved round as the scoreboard shows it (points, or mon for Hachi-hachi)."""

    model_config = ConfigDict(title="RoundView")

    id: int
    round: int
    version: int
    dealer: str
    input: dict[str, Any]
    scores: dict[str, int]
    totals: dict[str, int]
    void: bool
    instant_win: str | None
    game_winner: str | None
    warnings: list[str]
    explanation: list[dict[str, Any]]
    payments: list[dict[str, Any]]
    error: str | None


class GoalOut(_Response):
    """How the session's game is won, as its scoreboard says it (the rules' ``goal``)."""

    model_config = ConfigDict(title="Goal")

    won: str = Field(description='in words, the scoreboard\'s subtitle: "first to 600 points wins", "highest total '
                     'after 12 rounds wins; a tie is a draw", "no set end: each round is settled as it ends"')
    target: int | None = Field(description="the points the game is won by reaching (played to the target, or "
                               "counting the times over it); null where no target decides")
    rounds: int | None = Field(description="the rounds the game is played over; null where they do not end it")
    match_games: int = Field(description="games in a best-of-N match (1: a single game)")


class SessionOut(_Response):
    """A session with its standings and rounds; ``edit_token`` and ``last_change`` only for its scorekeeper."""

    model_config = ConfigDict(title="Session")

    name: str
    ruleset: str
    family: str
    options: dict[str, Any]
    players: list[str]
    dealer: str
    rev: int
    updated: str
    view_token: str
    view_url: str
    unit: str
    totals: dict[str, int]
    next_dealer: str
    next_round: dict[str, Any] = Field(
        default_factory=dict,
        description="what the next round carries from the game (Family.next_round): Go-Stop "
        '{"nagari_carry": 2} after a nagari (the multiplier the next round pays), Koi-Koi {"month": 3}; '
        "empty for the other families",
    )
    winner: str | None
    wins: dict[str, int]
    target: int | None = Field(description="the target option, where the rules have one (goal.target: whether "
                               "it decides the game)")
    goal: GoalOut
    rounds: list[RoundOut]
    edit_token: str | None = None
    last_change: ChangeOut | None = None


class SessionSummaryOut(_Response):
    model_config = ConfigDict(title="SessionSummary")

    name: str
    ruleset: str
    players: list[str]
    updated: str
    view_token: str
    leader: str | None
    rounds: int
    winner: str | None


class SessionListOut(_Response):
    """The sessions this browser created or opened (every session for the host)."""

    model_config = ConfigDict(title="SessionList")

    sessions: list[SessionSummaryOut]


class SavedRoundOut(_Response):
    """A round added (201), or already saved with this form_token (200, ``created`` false)."""

    model_config = ConfigDict(title="SavedRound")

    id: int
    round: int
    version: int
    created: bool
    session: SessionOut


class EditedRoundOut(_Response):
    """A round edited (``changed`` false: it already held this input, and nothing was saved or logged)."""

    model_config = ConfigDict(title="EditedRound")

    id: int
    round: int
    version: int
    changed: bool
    session: SessionOut


class UndoneOut(_Response):
    model_config = ConfigDict(title="Undone")

    undone: str
    session: SessionOut


class RestoredOut(_Response):
    """A session brought back: ``restored`` false when it was not deleted (a retry, or another client's restore
    came first), so nothing changed."""

    model_config = ConfigDict(title="Restored")

    restored: bool
    session: SessionOut


class ExportOut(_Response):
    """A session export: ``game`` is a valid ``hanafuda-referee game`` input."""

    model_config = ConfigDict(title="Export")

    format: str
    name: str
    exported: str
    game: dict[str, Any]
    totals: dict[str, int]
    next_dealer: str
    winner: str | None


class ResultOut(BaseModel):
    """A scored round: the JSON of ``hanafuda-referee score`` (README "Round result")."""

    model_config = ConfigDict(title="RoundResult", extra="allow")

    ruleset: str
    players: dict[str, Any]
    dealer: str
    next_dealer: str
    warnings: list[str]
    explanation: list[dict[str, Any]]


class RescoreSideOut(_Response):
    """One side of a what-if: the rules and the final standings (``mon_per_kan`` for Hachi-hachi)."""

    model_config = ConfigDict(title="RescoreSide")

    ruleset: str
    options: dict[str, Any]
    totals: dict[str, int]
    winner: str | None
    mon_per_kan: int | None = None


class RescoreRoundSideOut(_Response):
    """A round on one side: what it added (``scores``) and the running ``totals`` (points, or mon);
    both null, with a ``note``, when these rules reject the round or the game was already over."""

    model_config = ConfigDict(title="RescoreRoundSide")

    scores: dict[str, int] | None
    totals: dict[str, int] | None
    void: bool | None = None
    note: str | None = None


class RescoreRoundOut(_Response):
    model_config = ConfigDict(title="RescoreRound")

    round: int
    changed: bool
    before: RescoreRoundSideOut
    after: RescoreRoundSideOut


class RescoreOut(_Response):
    """A what-if: the session as played (``before``) and under the other rules (``after``), round
    by round; the JSON of ``hanafuda-referee rescore``."""

    model_config = ConfigDict(title="Rescore")

    unit: Literal["points", "mon", "money"]
    before: RescoreSideOut
    after: RescoreSideOut
    rounds: list[RescoreRoundOut]


class DetectionOut(_Response):
    model_config = ConfigDict(title="Detection")

    card: str
    confidence: float
    box: list[float]
    uncertain: bool
    covered: bool = Field(False, description="seen, but too covered to read: card is only a guess")
    visible: float = Field(1.0, description="share of the card's face that shows, 0-1")


class DetectionsOut(_Response):
    """The JSON of ``hanafuda-referee detect --json`` for one photo."""

    model_config = ConfigDict(title="Detections")

    image: str
    detections: list[DetectionOut]
