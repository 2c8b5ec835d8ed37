"""What the game records of every game share: the error of a record that is malformed
or does not replay, the strict pydantic base of a record's models, and the reading of
a record's shape.

Each game's record module (:mod:`solver.rummikub.record`, :mod:`solver.shanghai.record`)
defines its format with these and offers the same two functions: ``read_record(data)``
(the record read into domain values, every error naming its place) and
``replay(record)`` (the game played again through the engine, checked against the
record at each step).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidatorFunctionWrapHandler,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from solver.arena.runner import MAX_SEED
from solver.arguments import checked_items, checked_seat
from solver.errors import MeldwiseError, RequestError, path_of
from solver.i18n import _, _n
from solver.wire import MAX_NAME, request_error, whole_numbers

MAX_REVIEW_TURNS = 400
"""Most turns one Rummikub review solves (bot games of the standard rules took 30-120
turns); a game may set its own (:func:`check_review`'s ``most``)."""
MAX_REVIEW_TIME_LIMIT_MS = 60_000
"""Most milliseconds a review request gives each turn's solve."""

Seed = Annotated[int, Field(strict=True, ge=0, le=MAX_SEED)]
"""A game's seed, as a bot game's request gives it (either game's ``game_*``)."""


class RecordError(MeldwiseError):
    """A game record that is malformed or does not replay; the message says where,
    and its :attr:`~solver.errors.MeldwiseError.places` note that place in the record
    (a request holding the record notes them within its field, :meth:`within`)."""

    def at(self, where: str, *fields: str) -> RecordError:
        """This error, whose message quotes the place ``where`` in the record
        (``turns[0]``, ``turns[0].table_before[1]``, ``result.scores``) and then each of
        ``fields`` of it as ``'name'``."""
        path = path_of(where)
        self.places = ((path, where), *(((*path, name), repr(name)) for name in fields))
        return self

    @classmethod
    def within(cls, field: str, error: MeldwiseError) -> RecordError:
        """``error``, of the record a request gives as ``field``, said as of that field
        (``record: turns[0]: ...``), its places within it."""
        said = cls(_("{where}: {problem}", where=field, problem=error))
        said.placed(field, error)
        return said


def check_review(
    seat_turns: Sequence[int], player: int | None, most: int = MAX_REVIEW_TURNS
) -> None:
    """Refuse a review request whose ``player`` is no seat (one per entry of
    ``seat_turns``, each seat's turns in the record), or of more than ``most`` turns to
    review: every seat's, or ``player``'s alone."""
    check_player(player, len(seat_turns))
    turns = sum(seat_turns) if player is None else seat_turns[player]
    if turns > most and player is None:
        if not any(0 < mine <= most for mine in seat_turns):
            # Reviewing one player's turns, the way on below, is no way on here.
            raise RequestError(
                _(
                    "the record has {turns} turns; a review takes at most {most}, and each"
                    " player with turns has more than that",
                    turns=turns,
                    most=most,
                )
            ).naming("record", quoted=False)
        # Said with the way on, as the docs say it (a larger game is reviewed one player
        # at a time): the command line says --player, the page and HTTP 'player'.
        raise RequestError(
            _(
                "the record has {turns} turns; a review takes at most {most}: review one"
                " player's turns at a time ('player')",
                turns=turns,
                most=most,
            )
        ).naming("player")
    if turns > most:
        # "the record has 1200 turns" was said of one player's 1200. Said of the record,
        # its place named as a record error's is ("record: turns[0]: ..."): over HTTP the
        # 422 listed no place, where every other refusal of a review names one.
        raise RequestError(
            _(
                "{where}: player {player} has {turns} turns; a review takes at most {most}",
                where="record",
                player=player,
                turns=turns,
                most=most,
            )
        ).naming("record", quoted=False)


def check_player(player: object, players: int) -> None:
    """Refuse a ``player`` to review that is no seat of a game of ``players`` (None
    reviews every seat)."""
    if player is not None:
        checked_seat(player, players, "player")


def reviewed_seats(players: int, player: int | None) -> range:
    """The seats a review's summary lists (either game's): ``player``, the one asked
    for, else every seat of the game's ``players``, a seat with no turn reviewed too (a
    hand or a record that ended before its turn came), so that no seat goes unsaid."""
    return range(players) if player is None else range(player, player + 1)


class StrictModel(BaseModel):
    """A part of a record. Strict: a JSON true is not the whole number 1, nor 5 the
    tile "5"; a field the format does not have is refused."""

    model_config = ConfigDict(extra="forbid", strict=True)


class RecordModel(StrictModel):
    """A whole record, whose ``format`` field names its game."""

    @model_validator(mode="wrap")
    @classmethod
    def _format_first(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        """A record of another format (a Shanghai game's read as a Rummikub one) is
        refused for its format alone: its other fields, wrong for this format, said
        nothing more (a Shanghai record's missing 'turns' and unknown 'hands', 'scores'
        and 'winners' followed)."""
        refused = _what_the_record_is(cls, data)
        if refused is not None:
            raise ValidationError.from_exception_data(cls.__name__, [refused])
        try:
            return handler(data)
        except ValidationError as error:
            wrong = [
                InitErrorDetails(
                    type=p["type"], loc=p["loc"], input=p["input"], ctx=p.get("ctx", {})
                )
                for p in error.errors()
                if p["loc"] == ("format",)
            ]
            if not wrong:
                raise
            raise ValidationError.from_exception_data(error.title, wrong) from None


REVIEWED_BY = {
    "meldwise-rummikub-game": ("meldwise review", "/v1/rummikub/review"),
    "meldwise-shanghai-game": ("meldwise shanghai review", "/v1/shanghai/review"),
}
"""The command and the HTTP route that review a game record of each ``format``."""


def _what_the_record_is(model: type[RecordModel], data: Any) -> InitErrorDetails | None:
    """The refusal of a record ``data`` that ``model`` does not read for what it is,
    before its fields are read: one of the other game (its format and the command and
    route that review it), or one of a newer version of the format than ``model`` (both
    versions). None for any other record, whose fields the model reads."""
    if not isinstance(data, dict):
        return None
    written, version = data.get("format"), data.get("version")
    reads = model.model_fields["version"].default
    if isinstance(written, str) and written != model.model_fields["format"].default:
        reviewer = REVIEWED_BY.get(written)
        if reviewer is not None:
            command, route = reviewer
            kind = PydanticCustomError(
                "record_of_another_game",
                "a record of another game",
                {"command": command, "route": route},
            )
            return InitErrorDetails(type=kind, loc=("format",), input=written)
    if isinstance(version, int) and not isinstance(version, bool) and version > reads:
        kind = PydanticCustomError(
            "record_of_a_newer_version",
            "a record of a newer version",
            {"newer": version, "reads": reads},
        )
        return InitErrorDetails(type=kind, loc=("version",), input=version)
    return None


def seat_name(name: str) -> str:
    """A seat's name as a record holds it: a name longer than a record reads (a bot spec
    with many knobs, ``strong:hold_sets=false+...``) is cut to its first characters and
    ``…``, so that every record the program writes reads back."""
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"


def seats_named(named: int, seats: int) -> str:
    """What a record's ``players`` naming ``named`` seats of a game of ``seats`` is told."""
    return _n(
        "'players' names {n} seat, the game has {players}",
        "'players' names {n} seats, the game has {players}",
        named,
        players=seats,
    )


def seat_names(players: Any, seats: int) -> list[str]:
    """``players``, a name for each of a game's ``seats``, as a record holds them
    (:func:`seat_name`).

    Raises :class:`~solver.errors.RequestError` naming ``players`` when it is no list of
    strings (a string of names, ``"ab"``, is not two) or names another number of seats:
    the record written would be one its game's ``read_record`` refuses."""
    names = checked_items(players, str, "players")
    if len(names) != seats:
        raise RequestError(seats_named(len(names), seats)).naming("players")
    return [seat_name(name) for name in names]


Model = TypeVar("Model", bound=RecordModel)


def read_model(model: type[Model], data: Any) -> Model:
    """Check a record's shape against ``model``; raise :class:`RequestError` naming the
    bad field (``game record: missing field 'seed'``)."""
    try:
        return model.model_validate(whole_numbers(data))
    except ValidationError as error:
        raise RequestError(
            _("game record: {problems}", problems=request_error(error.errors()))
        ) from None
