"""Shanghai whole games over the wire: the review of a game record
(:class:`ShanghaiReviewRequest` in, :class:`ShanghaiReviewResponse` out), defined once
for the library, the CLI and the HTTP service (see :mod:`solver.wire`). What the
review checks is :mod:`solver.shanghai.review`'s; the format is in ``docs/shanghai.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import Field

from solver.cpsat import Limit, Status
from solver.errors import MeldwiseError
from solver.i18n import speaks
from solver.record import MAX_REVIEW_TIME_LIMIT_MS as MAX_REVIEW_TIME_LIMIT_MS
from solver.record import RecordError, check_review
from solver.shanghai.advice import DEFAULT_TIME_LIMIT
from solver.shanghai.record import GameRecordModel, PlayEntry, read_record
from solver.shanghai.review import review_game, review_to_dict
from solver.shanghai.wire import AnyCard, GoDownOut, LayOffsOut, MeldOut, ShanghaiContract
from solver.wire import Answer, Lang, Spoken, TimeCapped, read

MAX_REVIEW_TURNS = 1000
"""Most play phases one review solves: a whole bot game of the standard rules, four
greedy players, had 545 (136 KB of record, 712 KB of review, 2.3 s of solves), more
than the Rummikub review's 400; a larger game is reviewed one ``player`` at a time.
Over HTTP the turns share the game budget all the same."""


class ShanghaiReviewRequest(Spoken):
    """A Shanghai game record to review."""

    record: GameRecordModel = Field(description="the game record (docs/shanghai.md)")
    player: Annotated[int, Field(strict=True, ge=0)] | None = Field(
        default=None, description="review only this seat"
    )
    time_limit_ms: Annotated[int, Field(strict=True, ge=1, le=MAX_REVIEW_TIME_LIMIT_MS)] = Field(
        default=round(DEFAULT_TIME_LIMIT * 1000),
        description="most milliseconds for each turn's solve (the outer cap: each also stops"
        " at a fixed deterministic work); the server's time cap may lower it",
    )
    lang: Lang = None

    def turns_reviewed(self) -> int:
        """The play phases the review solves: ``player``'s, or every player's."""
        return sum(
            event.kind == "play" and self.player in (None, event.seat)
            for hand in self.record.hands
            for event in hand.events
        )


CardsLeft = Annotated[
    list[AnyCard], Field(description="the hand after the plays, before the discard")
]
PointsLeft = Annotated[int, Field(description="penalty points of left")]


class ShanghaiBestPlay(Answer):
    """The best play phase the search found."""

    status: Status = Field(
        description="optimal: proven best; feasible: a legal play found before a bound"
        " stopped the search (the best may leave fewer points)"
    )
    goes_out: bool
    goes_down: bool
    left: CardsLeft
    points_left: PointsLeft
    cards_left: int
    go_down: GoDownOut | None = Field(
        description="as the advice gives it; null when not going down"
    )
    lay_offs: LayOffsOut | None = Field(
        description="as the advice gives it; null when the contract cannot be met this turn"
    )


class ShanghaiTurnReviewOut(Answer):
    hand_number: int = Field(description="the hand, from 1")
    turn: int = Field(description="the hand's turn, from 1")
    player: int
    event: str = Field(description="the play's place in the record")
    hand: list[AnyCard] = Field(description="the hand after the draw")
    contract: ShanghaiContract | None = Field(description="null when the player was down")
    down: bool = Field(description="the player was down before the turn")
    table: list[MeldOut] = Field(description="the table before the play phase")
    play: PlayEntry = Field(description="the play, as the record has it")
    went_down: bool
    went_out: bool
    left: CardsLeft
    points_left: PointsLeft
    cards_left: int
    best: ShanghaiBestPlay | None = Field(
        description="null when the search stopped before finding a play"
    )
    status: Status = Field(description="how the turn's search ended")
    time_capped: TimeCapped
    points_missed: int = Field(
        description="points_left beyond the best's (0 when the turn went out or the best"
        " leaves no fewer)"
    )
    at_best: bool = Field(description="went out, or the best is proven and leaves no fewer points")
    could_go_out: bool = Field(description="a legal play found goes out; the turn did not")
    could_go_down: bool = Field(description="a legal play found goes down; the turn did not")
    problems: list[str] = Field(description="the shortfalls proven, in words")


class TurnPlace(Answer):
    hand_number: int
    turn: int


class ShanghaiPlayerReviewOut(Answer):
    player: int
    name: str
    turns: int = Field(description="turns reviewed")
    turns_at_best: int
    points_missed: int = Field(description="the turns' points_missed added up")
    could_go_out: list[TurnPlace]
    could_go_down: list[TurnPlace]
    unproven: list[TurnPlace] = Field(
        description="turns neither at the best nor short of it: the search did not prove its best"
    )
    score: int = Field(description="the seat's total, from the record")
    winner: bool | None = Field(description="null while the game is not over")


class ShanghaiReviewResponse(Answer):
    status: Status = Field(description="optimal when every turn's best was proven")
    time_capped: TimeCapped
    turns: list[ShanghaiTurnReviewOut]
    players: list[ShanghaiPlayerReviewOut]


@speaks
def review_shanghai(request: Mapping[str, Any] | ShanghaiReviewRequest) -> dict[str, Any]:
    """Review a Shanghai game record: ``player`` reviews one seat's turns; the time
    limit bounds each turn's solve. Raises a :class:`~solver.errors.MeldwiseError`
    naming the place in the record (within ``record``)."""
    asked = read(ShanghaiReviewRequest, request)
    try:
        record = read_record(asked.record)
    except MeldwiseError as error:
        raise RecordError.within("record", error) from None
    check_review(asked.turns_reviewed(), asked.player, record.settings.players, MAX_REVIEW_TURNS)
    try:
        review = review_game(record, player=asked.player, limit=Limit(asked.time_limit_ms / 1000))
    except RecordError as error:
        raise RecordError.within("record", error) from None
    return review_to_dict(review)
