"""The API's request models: what a request body may hold, each field described in the words its
error message uses (``"players" must be 2 to 6 players' names ...``).

Round fields are documented with their types but checked by the rules core alone (``core``), as
the CLI checks them: one validation, one message.  Must not import the views.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, WithJsonSchema
from pydantic_core import PydanticCustomError
from spectree.model_adapter.pydantic_adapter import BaseFile

from referee.names import printable_name
from referee.web.forms.limits import (
    MAX_NAME,
    MAX_NAME_CODEPOINTS,
    MAX_OPTION_NUMBER,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_SESSION_NAME,
    name_length,
)

Card = Annotated[
    str,
    Field(
        min_length=1,
        max_length=80,
        description="a card: its id (referee/data/cards.tsv), English or Japanese name",
    ),
]
Cards = list[Card]


def _name_characters(name: str) -> str:
    """At most MAX_NAME characters as players count them (grapheme clusters: an emoji is one)."""
    if name_length(name) > MAX_NAME:
        raise PydanticCustomError(
            "name_too_long", f"has {name_length(name)} characters; at most {MAX_NAME} characters"
        )
    return name


def _shown_characters(name: str) -> str:
    """Every character shows, as in a player's name: no NUL, no zero-width space, no bidirectional override."""
    if not printable_name(name):
        raise PydanticCustomError(
            "name_hidden_character", "has a character that does not show (a control or invisible character)"
        )
    return name


NonBlank = r"\S"

PlayerName = Annotated[
    str, Field(min_length=1, max_length=MAX_NAME_CODEPOINTS, pattern=NonBlank), AfterValidator(_name_characters)
]


def idempotency_key(then: str):
    """The optional ``form_token`` field of a request: 1 to 200 characters, the idempotency key;
    ``then`` says what a retry with it does (documented in the OpenAPI spec)."""
    return Field(
        None,
        min_length=1,
        max_length=200,
        description=f"must be a string of 1 to 200 characters (the idempotency key), or left out: {then}",
    )


class _Request(BaseModel):
    """JSON types as they are: no "5" for 5, no 1 for true."""

    model_config = ConfigDict(strict=True, extra="forbid")


class KoiKoiCall(_Request):
    """A koi-koi call (docs/KOIKOI.md)."""

    model_config = ConfigDict(extra="allow")

    player: str = Field(description="is required: who called")
    call: str | None = Field(None, description="must be the call made (default koi-koi), or be left out")


def core(tp: Any) -> Any:
    """A round field documented in OpenAPI as ``tp`` but accepted as any JSON, so that the rules
    core names what is wrong in its own words, as it does for the CLI (the Hachi-hachi keys, which
    the model leaves to ``extra``, already were): one validation, one message."""
    schema = TypeAdapter(tp).json_schema()
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:  # the field's own schema, its models written in place
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                return inline(defs[ref.removeprefix("#/$defs/")])
            return {k: inline(v) for k, v in node.items()}
        return [inline(v) for v in node] if isinstance(node, list) else node

    return Annotated[Any, WithJsonSchema(inline(schema))]


class RoundIn(_Request):
    """A round: the round JSON of the session's game family, without the session's keys.
    Roppyakken family: piles, hands, field (README "Round input"); Hachi-hachi: field or multiplier,
    hands, dropped, mizuten, dekiyaku, hatto, piles (docs/HACHIHACHI.md); Koi-Koi: piles, hands, calls,
    stopped_by (docs/KOIKOI.md); Go-Stop: piles, bonus, sake_cup, gos, last_go, stopped_by, shakes, bombs,
    ppeok, instant, dokbak (docs/GOSTOP.md); any family: totals instead of cards."""

    model_config = ConfigDict(extra="allow", title="Round")

    # The round's own fields are documented with their types but checked by the core alone
    # (``core``), as the CLI checks them: one validation, one message naming the field.

    piles: core(dict[str, Cards] | None) = Field(None, description="must map each player to the cards they captured")
    hands: core(dict[str, Cards] | None) = Field(
        None, description="must map players to their dealt hands (for lucky hands), or be left out"
    )
    field: core(Cards | None) = Field(None, description="must be the field cards of the deal, or be left out")
    totals: core(dict[str, int | float | str] | None) = Field(  # float: the core says 12.5 is not whole, 1e30 too big
        None,
        description='must map each player to the amount entered instead of cards (README "Entered totals"): '
        'points, or Hachi-hachi mon or money text such as "-1 kan 7 mon", summing to zero; or be left out',
    )
    void: core(bool | None) = Field(None, description="with totals: true when the table's fuke voided the round")
    calls: core(list[KoiKoiCall] | None) = Field(
        None, description="Koi-Koi: must be the koi-koi calls of this round in the order made, or be left out"
    )
    stopped_by: core(str | None) = Field(
        None, description="Koi-Koi: must be the player who stopped (勝負), or null when the hands ran out (required "
        "but for a lucky hand at the deal); Go-Stop: the player who stopped (스톱), or null for a nagari (required "
        "but beside chongtong or three ppeok)"
    )
    bonus: core(dict[str, list[int | dict[str, int]]] | None) = Field(
        None, description="Go-Stop: must map players to the pi values of their bonus cards (보너스피), e.g. [3], "
        "at most as many of a value as option bonus_cards holds (or a card by its number in that deck, "
        '{"card": 1}, named for one player once), or be left out (docs/GOSTOP.md)'
    )
    sake_cup: core(dict[str, str] | None) = Field(
        None, description='Go-Stop: must map the sake cup\'s holder to "pi" or "animal", or be left out '
        "(the referee picks the better use)"
    )
    gos: core(dict[str, int] | None) = Field(
        None, description="Go-Stop: must map players to how many gos (고) they called"
    )
    last_go: core(str | None) = Field(
        None, description="Go-Stop: must be the last of two go-calling losers (who pays dokbak), or be left out"
    )
    shakes: core(dict[str, int] | None) = Field(None, description="Go-Stop: must map players to their shakes (흔들기)")
    bombs: core(dict[str, int] | None) = Field(None, description="Go-Stop: must map players to their bombs (폭탄)")
    ppeok: core(dict[str, list[int]] | None) = Field(
        None, description="Go-Stop: must map players to the own-turn numbers of their ppeok (뻑), e.g. [1, 2]"
    )
    instant: core(dict[str, Any] | None) = Field(
        None, description='Go-Stop: must be {"type": "chongtong", "player", "cards": the four of a month} for a '
        "chongtong (총통) at the deal, with no piles, gos or stopper; or be left out"
    )
    dokbak: core(str | None) = Field(
        None, description="Go-Stop: may name the loser the table holds liable for feeding the winner (독박)"
    )
    nagari_carry: core(Annotated[int, Field(ge=1)] | None) = Field(
        None, description="Go-Stop: best left out (the session carries the nagari multiplier, ×2 after each "
        "nagari in a row); if given, it must be that multiplier (1, 2, 4 ...)"
    )
    month: core(Annotated[int, Field(ge=1, le=12)] | None) = Field(
        None, description="Koi-Koi: may be repeated, but must be the round's month (round n is month n)"
    )
    first_to_target: core(str | None) = Field(
        None,
        description="Roppyakken with first_to_target_wins: must be the player who reached the target first when "
        "two or more reach it in this round (else 422 missing-decision), or be left out",
    )
    ruleset: str | None = Field(None, description="must be the session's ruleset, or be left out")
    options: dict[str, Any] | None = Field(None, description="must be the session's options, or be left out")
    players: list[str] | None = Field(None, description="must be the session's players, or be left out")
    dealer: str | None = Field(None, description="must be this round's oya (dealer), or be left out")


class NewRoundIn(RoundIn):
    """A round to add."""

    model_config = ConfigDict(title="NewRound")

    form_token: str | None = idempotency_key(
        "a retry with the same key in this session saves the round once",
    )


class EditRoundIn(RoundIn):
    """A round's new input, with the version it was read at."""

    model_config = ConfigDict(title="EditRound")

    version: int = Field(description="is required: the round's version when you read it (an integer)")
    form_token: str | None = idempotency_key(
        "a retry of the same request with the same key in this session changes the round once",
    )


class NewSessionIn(_Request):
    """A new session, optionally with its rounds (as in a session export's ``game``).  Its ``options``' numbers
    are bounded where the rules check them (``service.archive.session_from_export``, through
    ``service.rules.check_rule_options``), so a number past the bound is said with every other refused option."""

    model_config = ConfigDict(title="NewSession")

    name: Annotated[str, AfterValidator(_shown_characters)] = Field(
        min_length=1,
        max_length=MAX_SESSION_NAME,
        pattern=NonBlank,
        description=f"is required: the session's name, 1 to {MAX_SESSION_NAME} characters, every one of them shown",
    )
    ruleset: str | None = Field(
        None,
        min_length=1,
        description="must be a preset name (`hanafuda-referee rulesets` lists them); default Roppyakken",
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        description='must be an object of option names to values, e.g. {"target": 600}; every number in it '
        f"between {-MAX_OPTION_NUMBER} and {MAX_OPTION_NUMBER}; every option the rules refuse is named at once "
        "(422 `bad-ruleset`, `problems`)",
    )
    players: list[PlayerName] = Field(
        min_length=2,
        max_length=MAX_PLAYERS,
        description=f"must be 2 to {MAX_PLAYERS} players' names in play order: non-empty strings of at most "
        f"{MAX_NAME} characters, all different",
    )
    dealer: str | None = Field(None, description='"dealer" must be one of the players (the first oya); '
                               "default the first player")
    rounds: list[dict[str, Any]] = Field(
        default_factory=list, max_length=MAX_ROUNDS, description=f"must be a list of at most {MAX_ROUNDS} rounds"
    )
    form_token: str | None = idempotency_key(
        "a retry of the same request with the same key creates the session once and gets it back; "
        "another request with a used key is refused",
    )


class UndoIn(_Request):
    """Which change to undo."""

    model_config = ConfigDict(title="Undo")

    change: int | None = Field(
        None,
        description="must be the id of the change to undo (last_change.id of the session), or left out; "
        "when it is no longer the latest change, nothing is undone (409)",
    )


class RulesIn(_Request):
    """Other rules for a session (what if, or a rule fixed afterwards).  Its ``options``' numbers are bounded
    where the rules check them (``service.rules.check_rule_options``), so a number past the bound is said with
    every other refused option."""

    model_config = ConfigDict(title="Rules")

    ruleset: str | None = Field(
        None,
        min_length=1,
        description="must be a preset of the session's game (`hanafuda-referee rulesets` lists them), or be left "
        "out: the session's own",
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        description='must be an object of dotted-key overrides, e.g. {"fuke.threshold": 40}: on top of the '
        "session's own options, or of the new preset's defaults when \"ruleset\" names another preset; every number in "
        f"it between {-MAX_OPTION_NUMBER} and {MAX_OPTION_NUMBER}",
    )


class SetRulesIn(RulesIn):
    """Rules fixed afterwards, with an optional idempotency key."""

    model_config = ConfigDict(title="SetRules")

    form_token: str | None = idempotency_key(
        "a retry of the same request with the same key in this session changes the rules once",
    )


class DeleteRoundQuery(_Request):
    """A round's delete, with an optional idempotency key (in the query string: a DELETE has no body)."""

    model_config = ConfigDict(title="DeleteRoundQuery")

    form_token: str | None = idempotency_key(
        "a retry with the same key in this session deletes the round once and answers 204 again",
    )


class DeleteSessionQuery(_Request):
    """A session's delete, with an optional idempotency key (in the query string: a DELETE has no body)."""

    model_config = ConfigDict(title="DeleteSessionQuery")

    form_token: str | None = idempotency_key(
        "a retry with the same key deletes the session once and answers 204 again",
    )


class RestoreIn(_Request):
    """Which delete of a session to undo."""

    model_config = ConfigDict(title="Restore")

    change: int | None = Field(
        None,
        description="must be the id of the delete to undo (a change id, as the web page's Undo names it), or left "
        "out: the delete in force; when that delete was already undone and the session deleted again since, "
        "nothing is restored (409, with the delete in force as last_change); an id that is no delete of this "
        "session restores nothing (422 not-a-delete, with the delete in force as last_change)",
    )


def _photo_file(value: Any) -> Any:
    """The ``image`` part as the photo it must be: one file.  A browser's file input with no file
    chosen sends a part with no file name and no bytes: no photo, as if the part were missing.  (An
    empty file with a name is a photo that cannot be read: the view's 422 ``bad-image``.)"""
    stream, name = getattr(value, "stream", None), getattr(value, "filename", None)
    if stream is None or name is None:
        raise PydanticCustomError("file_type", "must be one file (the photo), not text or several files")
    if not name and not stream.read(1):
        raise PydanticCustomError("missing", "is required")
    stream.seek(0)
    return value


class DetectIn(BaseModel):
    """A photo of a pile (multipart/form-data)."""

    model_config = ConfigDict(title="DetectForm")

    image: Annotated[BaseFile, AfterValidator(_photo_file)] = Field(
        description="is required: the photo file (JPEG, PNG, HEIC...)"
    )
