"""Whole games over the wire: each request and response defined once, as pydantic
models the library, the CLI and the HTTP service all read (see :mod:`solver.wire`):

* :func:`bot_rummikub`: a bot's move for one position;
* :func:`game_rummikub`: a whole game between bots, as a game record;
* :func:`review_rummikub`: the review of a game record.

The formats are documented in ``docs/games.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Annotated, Any, Literal, get_args

from pydantic import ConfigDict, Field, StrictBool

from solver.arena.runner import bot_seed, play_out
from solver.cpsat import OverBudget, Status, least_proven, shared_limit, solve_statuses, work_said
from solver.errors import MeldwiseError, RequestError, RulesError, TableError
from solver.i18n import _, speaks
from solver.record import MAX_REVIEW_TIME_LIMIT_MS as MAX_REVIEW_TIME_LIMIT_MS
from solver.record import MAX_REVIEW_TURNS as MAX_REVIEW_TURNS
from solver.record import RecordError, Seed, check_review
from solver.rummikub.bots import BOTS, Beginner, Greedy, Strong, make_bot
from solver.rummikub.deal import full_set
from solver.rummikub.engine import Game, GameSettings, added_tiles
from solver.rummikub.notation import Notation, spell, spelling, written_sets
from solver.rummikub.position import Objective, Position
from solver.rummikub.record import GameRecordModel, read_record, record_to_dict
from solver.rummikub.review import review_game, review_to_dict
from solver.rummikub.rules import STANDARD
from solver.rummikub.search import DEFAULT_TIME_LIMIT
from solver.rummikub.strategy import best_play
from solver.rummikub.wire import (
    AnyTile,
    NotationField,
    Opponents,
    RackPlaces,
    RulesField,
    TileSet,
    WrittenRequest,
    check_notation,
    facing,
    read_tiles,
)
from solver.settings import FEWEST_PLAYERS, placed, seated
from solver.wire import Answer, Lang, Spoken, TimeCapped, bots_by_seat, read

MAX_GAME_TILES = 212
"""Most tiles a bot game may have (twice the standard set): it keeps a game to seconds."""


MAX_BOTS = 4
"""Most bots a game request seats (the engine seats up to 8 for big variants)."""

BotName = Literal["beginner", "greedy", "strong"]
assert set(get_args(BotName)) == set(BOTS)

EXAMPLE_RACK: list[Any] = ["R1", "R2", "R3", "B9", "K9", "O9", "J", "K11", "O4"]
EXAMPLE_TABLE: list[Any] = [["R10", "R11", "R12"], ["B5", "K5", "O5"]]


class BotRequest(WrittenRequest):
    """A position and the bot to play it: the wire request of
    :func:`solver.rummikub.game_wire.bot_rummikub`."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "bot": "strong",
                    "rack": EXAMPLE_RACK,
                    "table": EXAMPLE_TABLE,
                    "opened": True,
                    "opponents": [{"rack_size": 9, "opened": True}],
                }
            ]
        }
    )

    bot: BotName = Field(description="beginner, greedy or strong")
    rack: list[AnyTile] = Field(description="the player's tiles")
    table: list[TileSet] = Field(default_factory=list, description="the sets on the table")
    opened: StrictBool = Field(default=True, description="the player has opened")
    opponents: Opponents
    rules: RulesField = STANDARD
    seed: Seed = Field(
        default=0,
        description="the bot's seed, for bots that draw at random; no Rummikub bot does"
        " today, so every seed gets the same move",
    )
    notation: NotationField = Notation.RBKO
    lang: Lang = None


class BotResponse(Answer):
    status: Status = Field(
        description="optimal when every solve the bot made was proven; else one stopped at "
        "its deterministic work bound (some house rules) and the bot used the best play found"
    )
    bot: BotName
    action: Literal["play", "draw", "pass"] = Field(
        description="pass: the bot does not play and the pool is empty, so it cannot draw"
    )
    played: list[AnyTile] = Field(description="rack tiles the bot puts on the table")
    rack_left: list[AnyTile]
    table: list[TileSet] = Field(description="the table after the move")
    best_tiles: int = Field(description="tiles the best play (most tiles) would place")
    reason: str | None = Field(description="why the strong bot plays as it does; null otherwise")


class GameRequest(Spoken):
    """A game to play between bots, one per seat."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"bots": ["strong", "greedy"], "seed": 7}]}
    )

    bots: Annotated[list[BotName], bots_by_seat(MAX_BOTS)] = Field(
        min_length=FEWEST_PLAYERS, max_length=MAX_BOTS, description="bot by seat"
    )
    seed: Seed = Field(default=0, description="the deal's seed")
    settings: dict[str, Any] = Field(
        default_factory=dict,
        description="game settings: rules (rule settings), players (the number of bots, "
        "which it must be if given), hand (tiles dealt, 14), pool_empty (play_on or end)",
    )
    notation: NotationField = Notation.RBKO
    lang: Lang = None


class GameResponse(Answer):
    status: Status = Field(
        description="optimal when every solve the bots made was proven (see the bot answer)"
    )
    record: GameRecordModel = Field(description="the game record (docs/games.md)")


EXAMPLE_RECORD: dict[str, Any] = {
    "format": "meldwise-rummikub-game",
    "version": 1,
    "settings": {"players": 2},
    "players": ["ann", "bob"],
    "turns": [
        {
            "turn": 1,
            "player": 0,
            "rack": [*EXAMPLE_RACK, "R10", "R11", "R12", "B13", "K12"],
            "table_before": [],
            "action": "play",
            "played": ["R10", "R11", "R12"],
            "drawn": None,
            "table_after": [["R10", "R11", "R12"]],
        },
        {
            "turn": 2,
            "player": 1,
            "rack": [
                "B1",
                "B2",
                "K4",
                "O6",
                "R7",
                "B8",
                "K8",
                "O10",
                "R13",
                "B11",
                "K2",
                "O1",
                "R5",
                "B12",
            ],
            "table_before": [["R10", "R11", "R12"]],
            "action": "draw",
            "played": [],
            "drawn": "K5",
            "table_after": [["R10", "R11", "R12"]],
        },
    ],
}


class ReviewRequest(Spoken):
    """A game record to review."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"record": EXAMPLE_RECORD}]})

    record: GameRecordModel = Field(description="the game record (docs/games.md)")
    player: Annotated[int, Field(strict=True, ge=0)] | None = Field(
        default=None, description="review only this seat"
    )
    objective: Objective = Field(
        default=Objective.TILES, description="best means most tiles, or most points"
    )
    time_limit_ms: Annotated[int, Field(strict=True, ge=1, le=MAX_REVIEW_TIME_LIMIT_MS)] = Field(
        default=round(DEFAULT_TIME_LIMIT * 1000),
        description="most milliseconds for each turn's solve; the server's time cap may lower it",
    )
    notation: NotationField = Notation.RBKO
    lang: Lang = None

    def seat_turns(self, players: int) -> list[int]:
        """Each of the ``players`` seats' turns in the record."""
        return [sum(turn.player == seat for turn in self.record.turns) for seat in range(players)]


class BestPlay(Answer):
    status: Status = Field(description="optimal: proven best")
    played: list[AnyTile]
    tiles: int
    points: int
    table: list[TileSet] = Field(description="the table after the best play")
    from_rack: list[list[AnyTile]] = Field(
        description="set by set of table, the tiles laid from the rack (a tile on the table "
        "too is told apart only so)"
    )
    from_rack_places: list[RackPlaces] = Field(
        description="set by set of table, the places of those tiles in it (0 = first)"
    )
    time_capped: TimeCapped


class TurnReviewOut(Answer):
    turn: int
    player: int
    action: Literal["play", "draw", "pass"]
    opened: bool = Field(
        description="the player had opened before this turn: made a legal play on an earlier one"
    )
    rack: list[AnyTile] = Field(description="the rack before the turn")
    table_before: list[TileSet]
    table_after: list[TileSet]
    played: list[AnyTile]
    drawn: AnyTile | None
    tiles_played: int = Field(description="0 for an illegal turn")
    points_played: int
    best: BestPlay | None = Field(description="null when the turn could not be reviewed")
    missed: list[AnyTile] = Field(description="tiles of the best play still on the rack")
    shortfall: int = Field(description="the best score minus this turn's")
    at_best: bool
    legal: bool
    problems: list[str] = Field(description="what makes the turn illegal")
    unreviewed: str | None = Field(
        description="why the position before the turn could not be solved (an invalid set "
        "left by an earlier illegal turn, a tile the rules do not have); null when reviewed"
    )


class CostlyTurn(Answer):
    turn: int
    shortfall: int
    missed: list[AnyTile]


class Series(Answer):
    """One entry per reviewed turn of the player, ready to plot."""

    turn: list[int]
    played: list[int]
    best: list[int]
    rack_after: list[int]


class PlayerReviewOut(Answer):
    player: int
    name: str | None
    turns: int = Field(description="turns reviewed")
    turns_at_best: int = Field(description="turns proven at the best")
    accuracy: float | None = Field(description="share of turns proven at the best")
    placed: int = Field(description="tiles (or points) placed over the game")
    possible: int = Field(
        description="tiles (or points) the best plays would have placed, each turn's taken"
        " alone; with proven false, at least this (a best not proven counts as found)"
    )
    placed_share: float | None = Field(
        description="placed over possible; with proven false, not a share of the best"
    )
    proven: bool = Field(
        description="every turn counted in these figures had its best proven; false: possible"
        " is only at least the best plays' sum, and turns_at_best only those proven"
    )
    illegal_turns: list[int]
    unreviewed_turns: list[int] = Field(description="left out of the figures above")
    costliest: list[CostlyTurn]
    series: Series
    score: int | None = Field(description="the game's score for this seat, from the record")
    winner: bool | None


class ReviewResponse(Answer):
    status: Status = Field(description="optimal when every turn's best was proven")
    objective: Objective
    time_capped: TimeCapped
    turns: list[TurnReviewOut]
    players: list[PlayerReviewOut]


@speaks
def bot_rummikub(request: Mapping[str, Any] | BotRequest) -> dict[str, Any]:
    """A bot's move for one position (:class:`BotRequest` in, :class:`BotResponse` out).
    The pool holds the game's tiles that are on no rack and not on the table. Raises
    a :class:`~solver.errors.MeldwiseError` naming the culprit."""
    asked = read(BotRequest, request)
    with spelling(asked.notation, asked.rules.colours):
        return _bot_answer(asked)


def _bot_answer(asked: BotRequest) -> dict[str, Any]:
    rules = asked.rules
    table = tuple(read_tiles(tiles, rules) for tiles in asked.table)
    position = Position(read_tiles(asked.rack, rules), table, asked.opened)
    try:
        position.check(asked.rules)
    except TableError as error:
        raise error.nested_in("table") from None  # --table on the command line
    view = facing(position, asked.rules, asked.opponents)
    if not position.rack:
        # As an opponent's rack of 0 tiles is refused: the round ended as the rack
        # emptied, so no move (a play, or a draw the bots answered) is left to make.
        raise RequestError(
            _(
                "'rack' is empty: a player with no tiles has gone out and the round is over,"
                " so there is no move to make"
            )
        ).naming("rack")
    bot = make_bot(asked.bot, bot_seed(asked.seed, 0))
    reason = None
    with solve_statuses() as statuses:
        if isinstance(bot, Strong):
            decision = bot.decide(view)
            move, reason, best = decision.move, decision.reason, decision.best.tiles_played
        elif isinstance(bot, Greedy | Beginner):  # the move's solves give the best play too
            move, play = bot.best(view)
            best = play.tiles_played
        else:
            move = bot.choose(view)
            best = best_play(view.position, view.rules).tiles_played
    table = view.table if move.table is None else move.table
    played = added_tiles(view.table, table)
    left = Counter(view.rack)
    left.subtract(played)
    return {
        "status": least_proven(statuses).value,
        "bot": asked.bot,
        # The engine makes a draw from an empty pool a pass (it said "draws a tile").
        "action": ("draw" if view.pool_size else "pass") if move.is_draw else "play",
        "played": [spell(t) for t in played],
        "rack_left": [spell(t) for t in sorted(left.elements())],
        # Each joker with the tile it stands for (J(R4)), as the engine and the
        # records keep it: the table sent back reads as the bot laid it.
        "table": written_sets(table),
        "best_tiles": best,
        "reason": reason,
    }


@speaks
def game_rummikub(request: Mapping[str, Any] | GameRequest) -> dict[str, Any]:
    """A whole game between bots (:class:`GameRequest` in, :class:`GameResponse` out:
    the game record, ``docs/games.md``)."""
    asked = read(GameRequest, request)
    settings = GameSettings.read(seated(asked.settings, len(asked.bots), "settings"), "settings")
    tiles = sum(full_set(settings.rules).values())
    if tiles > MAX_GAME_TILES:
        raise RequestError(
            _(
                "these rules make a game of {tiles} tiles; a bot game has at most {most}",
                tiles=tiles,
                most=MAX_GAME_TILES,
            )
        )
    check_notation(asked.notation, settings.rules)
    game = Game.new(settings, asked.seed)
    players = [make_bot(name, bot_seed(asked.seed, seat)) for seat, name in enumerate(asked.bots)]
    with solve_statuses() as statuses:
        try:
            play_out(game, players, asked.bots)
        except OverBudget as over:
            # The tiles make a game long: said at the rules, as MAX_GAME_TILES is. The
            # same request plays the same game: trying again does not help.
            too_long = RulesError(
                _(
                    "'rules' make a game of {tiles} tiles, which ran past this server's game"
                    " budget of {budget} ms of work at turn {turn} ({work}); ask for fewer"
                    " tiles",
                    tiles=tiles,
                    budget=over.budget_ms,
                    turn=len(game.turns) + 1,
                    work=work_said(over.work),
                )
            ).naming("rules")
            raise placed("settings", too_long) from None
    with spelling(asked.notation, settings.rules.colours):
        record = record_to_dict(game, list(asked.bots))
    return {"status": least_proven(statuses).value, "record": record}


@speaks
def review_rummikub(request: Mapping[str, Any] | ReviewRequest) -> dict[str, Any]:
    """Review a game record (:class:`ReviewRequest` in, :class:`ReviewResponse` out):
    ``player`` reviews one seat's turns; the time limit bounds each turn's solve (see
    :mod:`solver.rummikub.review`)."""
    asked = read(ReviewRequest, request)
    try:
        record = read_record(asked.record, asked.notation)
    except MeldwiseError as error:
        # Its places are the record's (turns[0]): said within the request's field.
        raise RecordError.within("record", error) from None
    # The turns reviewed, as Shanghai's review counts them: a record over the limit
    # was refused even for one player whose turns are within it.
    check_review(asked.seat_turns(record.settings.players), asked.player)
    rules = record.settings.rules
    check_notation(asked.notation, rules)
    with spelling(asked.notation, rules.colours):
        try:
            review = review_game(
                record,
                player=asked.player,
                objective=asked.objective,
                limit=shared_limit(asked.time_limit_ms / 1000),
            )
        except RecordError as error:
            raise RecordError.within("record", error) from None
        return review_to_dict(review)
