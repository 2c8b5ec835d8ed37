"""Shanghai whole games over the wire, each request and response defined once for the
library, the CLI and the HTTP service (see :mod:`solver.wire`), as Rummikub's
(:mod:`solver.rummikub.game_wire`):

* :func:`game_shanghai`: a whole seeded game between bots, as a game record
  (:class:`ShanghaiGameRequest` in, :class:`ShanghaiGameResponse` out);
* :func:`review_shanghai`: the review of a game record
  (:class:`ShanghaiReviewRequest` in, :class:`ShanghaiReviewResponse` out).

What the review checks is :mod:`solver.shanghai.review`'s; the format is in
``docs/shanghai.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, get_args

from pydantic import ConfigDict, Field

from solver.arena.runner import bot_seed, play_out
from solver.cpsat import (
    GameWork,
    OverBudget,
    Status,
    least_proven,
    shared_limit,
    solve_statuses,
    work_said,
)
from solver.errors import MeldwiseError, RulesError
from solver.i18n import _, _n, speaks
from solver.record import MAX_REVIEW_TIME_LIMIT_MS as MAX_REVIEW_TIME_LIMIT_MS
from solver.record import RecordError, Seed, check_review
from solver.settings import FEWEST_PLAYERS, placed, seated
from solver.shanghai.advice import DEFAULT_TIME_LIMIT
from solver.shanghai.bots import BOTS, make_bot
from solver.shanghai.engine import MAX_PLAYERS, Game, GameSettings
from solver.shanghai.record import GameRecordModel, PlayEntry, read_record, record_to_dict
from solver.shanghai.review import review_game, review_to_dict
from solver.shanghai.wire import AnyCard, GoDownOut, LayOffsOut, MeldOut, ShanghaiContract
from solver.wire import Answer, Lang, Spoken, TimeCapped, bots_by_seat, read

MAX_REVIEW_TURNS = 1000
"""Most play phases one review solves: a whole bot game of the standard rules, four
greedy players, had 545 (136 KB of record, 712 KB of review, 2.3 s of solves), more
than the Rummikub review's 400; a larger game is reviewed one ``player`` at a time.
Over HTTP the turns share the game budget all the same."""


MAX_GAME_TURNS = 2000
"""Most turns the settings of a bot game may allow (``hands`` times ``max_turns``): the
standard game's 10 hands of at most 200. Two bots with ``max_turns`` 10,000 played 20,000
turns in 5 s, a record of 3.6 MB near the server's answer limit, and twenty times what
a review takes."""

ShanghaiBotName = Literal["greedy", "strong"]
assert set(get_args(ShanghaiBotName)) == set(BOTS)


class ShanghaiGameRequest(Spoken):
    """A Shanghai game to play between bots, one per seat: the wire request of
    :func:`game_shanghai`."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"bots": ["strong", "greedy"], "seed": 7, "settings": {"hands": 2}}]
        }
    )

    bots: Annotated[list[ShanghaiBotName], bots_by_seat(MAX_PLAYERS)] = Field(
        min_length=FEWEST_PLAYERS, max_length=MAX_PLAYERS, description="bot by seat"
    )
    seed: Seed = Field(default=0, description="the deal's seed")
    settings: dict[str, Any] = Field(
        default_factory=dict,
        description="game settings: rules (rule settings), players (the number of bots,"
        " which it must be if given), hands (hands played, 1-10; 10),"
        " hand_size (cards dealt, 11), max_turns (turns after which a hand ends blocked, 200)",
    )
    lang: Lang = None


class ShanghaiGameResponse(Answer):
    status: Status = Field(
        description="optimal when every solve the bots made was proven; else the least"
        " proven: feasible, one stopped at its deterministic work bound and the bot played"
        " the best it had found; unknown, one stopped there before finding anything and the"
        " bot played without it"
    )
    record: GameRecordModel = Field(
        description="the game record (docs/shanghai.md), as the review reads it"
    )


def _cards(text: str) -> list[str]:
    return text.split()


_PASS: dict[str, list[Any]] = {"melds": [], "swaps": [], "lay_offs": []}
EXAMPLE_RECORD: dict[str, Any] = {
    "format": "meldwise-shanghai-game",
    "version": 1,
    "seed": 3,
    "settings": {"players": 2},
    "players": ["ann", "bob"],
    "hands": [
        {
            "number": 1,
            "deal": {
                "hands": [
                    _cards("7S 10S 10S AS AS 8H JH 8D 3C 7C JK"),
                    _cards("2S 3S 4S JS 6H AH 2D 4D QD AD 3C"),
                ],
                "upcard": "QH",
                "stock": _cards(
                    "AD 4S AC QD 3H JH 2D 9D JC 5D 9S 4C 7D 4D KD AH 10C 9S 6D 7D KC 4C 2S"
                    " 5C 5S 3S 8S KD 6H 4H 7H 5H 8C 5D 6C 10D 9H 2C KC JK 4H 10D 8D JK KH"
                    " 7C QS 2H 8C KH 8S 6C 5C 6D 6S QC 10C JD 8H 3H 9D KS 7H 6S 2H 7S QS"
                    " QH JK JC KS 5H 3D 3D AC 5S 9H QC 10H 9C JS 2C 10H JD 9C"
                ),
            },
            "events": [
                {"turn": 0, "seat": 0, "kind": "pass"},
                {"turn": 0, "seat": 1, "kind": "draw", "cards": ["9C"]},
                {"turn": 0, "seat": 1, "kind": "play", "play": {**_PASS, "discard": "QD"}},
                {"turn": 1, "seat": 0, "kind": "draw", "cards": ["JD"]},
                {"turn": 1, "seat": 0, "kind": "play", "play": {**_PASS, "discard": "3C"}},
            ],
        }
    ],
    "scores": [0, 0],
    "winners": None,
}
"""A game's first two turns as the engine records them (seed 3, two players): the
request example of the review route."""


class ShanghaiReviewRequest(Spoken):
    """A Shanghai game record to review."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"record": EXAMPLE_RECORD}]})

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

    def seat_turns(self, players: int) -> list[int]:
        """Each of the ``players`` seats' play phases in the record."""
        plays = [
            event.seat
            for hand in self.record.hands
            for event in hand.events
            if event.kind == "play"
        ]
        return [plays.count(seat) for seat in range(players)]


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
    at_best: bool = Field(
        description="went out, or the best is proven, leaves no fewer points, and goes down"
        " only if the turn did"
    )
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
    turns_at_best: int = Field(description="turns proven at the best")
    points_missed: int = Field(
        description="the turns' points_missed added up: beyond the best plays found, which"
        " with proven false are not all proven the best"
    )
    could_go_out: list[TurnPlace]
    could_go_down: list[TurnPlace]
    unproven: list[TurnPlace] = Field(
        description="turns neither at the best nor short of it: the search did not prove its best"
    )
    proven: bool = Field(
        description="every turn counted went out or had its best proven; false: some turn's"
        " best was not proven, so points_missed is beyond plays found, not proven the best"
    )
    score: int = Field(description="the seat's total, from the record")
    winner: bool | None = Field(description="null while the game is not over")


class ShanghaiReviewResponse(Answer):
    status: Status = Field(description="optimal when every turn's best was proven")
    time_capped: TimeCapped
    turns: list[ShanghaiTurnReviewOut]
    players: list[ShanghaiPlayerReviewOut]
    notes: list[str] = Field(
        description="each hand of the record whose contract no player could ever meet under"
        " its settings, or whose check of that did not settle, and why (a new game is"
        " refused such settings; a record of one played is reviewed)"
    )


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
    check_review(asked.seat_turns(record.settings.players), asked.player, MAX_REVIEW_TURNS)
    try:
        limit = shared_limit(asked.time_limit_ms / 1000)
        review = review_game(record, player=asked.player, limit=limit)
    except RecordError as error:
        raise RecordError.within("record", error) from None
    return review_to_dict(review)


@speaks
def game_shanghai(request: Mapping[str, Any] | ShanghaiGameRequest) -> dict[str, Any]:
    """A whole seeded Shanghai game between bots (:class:`ShanghaiGameRequest` in,
    :class:`ShanghaiGameResponse` out): its game record, which
    :func:`review_shanghai` reads, and whether every solve the bots made was proven.
    The same request plays the same game. Raises a
    :class:`~solver.errors.MeldwiseError` naming the culprit (``settings: ...``)."""
    asked = read(ShanghaiGameRequest, request)
    settings = GameSettings.read(seated(asked.settings, len(asked.bots), "settings"), "settings")
    turns = settings.hands * settings.max_turns
    if turns > MAX_GAME_TURNS:
        # Said at the settings as their other errors are ("settings: ...", "--option:
        # ..."): it was "'settings' allow 2001 turns (1 hands of ...)", which the
        # command line said as "--option allow 2001 turns".
        too_many = RulesError(
            _(
                "'hands' times 'max_turns' is {turns} turns ({hands} of at most {max_turns});"
                " a bot game allows at most {most}",
                turns=turns,
                hands=_n("{n} hand", "{n} hands", settings.hands),
                max_turns=settings.max_turns,
                most=MAX_GAME_TURNS,
            )
        )
        raise placed("settings", too_many)
    game = Game.new(settings, asked.seed)
    players = [make_bot(name, bot_seed(asked.seed, seat)) for seat, name in enumerate(asked.bots)]
    with solve_statuses() as statuses:
        try:
            play_out(game, players, asked.bots)
        except OverBudget as over:
            raise placed("settings", _too_long(game, over.budget_ms, over.work)) from None
    return {"status": least_proven(statuses).value, "record": record_to_dict(game, asked.bots)}


def _too_long(game: Game, budget_ms: int, work: GameWork) -> MeldwiseError:
    """A game past the server's game budget (:class:`OverBudget`), said at the setting
    that asks too much of it: ``hands`` when the hands before this one fit, else
    ``max_turns`` (the first hand's turns did not). The same request plays the same
    game, counted in work, not time (see :func:`solver.cpsat.game_budget`): trying
    again does not help; ``work`` is what it counted."""
    if game.number > 1:
        return RulesError(
            _(
                "'hands' is {hands}: the game ran past this server's game budget of {budget} ms"
                " of work in hand {hand} ({work}); ask for fewer hands ({fit} fit)",
                hands=game.settings.hands,
                budget=budget_ms,
                hand=game.number,
                work=work_said(work),
                fit=game.number - 1,
            )
        ).naming("hands")
    return RulesError(
        _(
            "'max_turns' is {max_turns}: the first hand ran past this server's game budget of"
            " {budget} ms of work at turn {turn} ({work}); ask for fewer turns",
            max_turns=game.settings.max_turns,
            budget=budget_ms,
            turn=game.turn + 1,
            work=work_said(work),
        )
    ).naming("max_turns")
