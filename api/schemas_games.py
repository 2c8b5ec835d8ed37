"""Request and response bodies of the whole-game endpoints: a bot's move, a bot game
and a game review (pydantic v2).

They mirror :mod:`solver.rummikub.game_wire`; the game record is the library's own
model (:class:`solver.rummikub.record.GameRecordModel`), defined once.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt

from api.language import Lang
from api.schemas import Opponent, RuleSettings, Schema, Tile, TileSet
from solver.rummikub.bots import BOTS
from solver.rummikub.game_wire import MAX_REVIEW_TIME_LIMIT_MS
from solver.rummikub.play import Objective, Status
from solver.rummikub.record import GameRecordModel
from solver.rummikub.solve import DEFAULT_TIME_LIMIT

BotName = Literal["beginner", "greedy", "strong"]
assert set(BotName.__args__) == set(BOTS)  # type: ignore[attr-defined]

EXAMPLE_RACK: list[Any] = ["R1", "R2", "R3", "B9", "K9", "O9", "J", "K11", "O4"]
EXAMPLE_TABLE: list[Any] = [["R10", "R11", "R12"], ["B5", "K5", "O5"]]


class BotRequest(Schema):
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
    rack: list[Tile] = Field(description="the player's tiles")
    table: list[TileSet] = Field(default_factory=list, description="the sets on the table")
    opened: StrictBool = Field(default=True, description="the player has opened")
    opponents: list[Opponent] = Field(
        min_length=1, max_length=7, description="the other players, in the order they play next"
    )
    rules: RuleSettings = Field(default_factory=RuleSettings, description="rule settings")
    seed: StrictInt = Field(default=0, ge=0, le=2**31, description="the bot's seed")
    lang: Lang = None


class BotResponse(Schema):
    status: Status = Field(description="optimal: every solve the bot made was proven")
    bot: BotName
    action: Literal["play", "draw"]
    played: list[Tile] = Field(description="rack tiles the bot puts on the table")
    rack_left: list[Tile]
    table: list[TileSet] = Field(description="the table after the move")
    best_tiles: int = Field(description="tiles the best play (most tiles) would place")
    reason: str | None = Field(description="why the strong bot plays as it does; null otherwise")


class GameRequest(Schema):
    """A game to play between bots, one per seat."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"bots": ["strong", "greedy"], "seed": 7}]}
    )

    bots: list[BotName] = Field(min_length=2, max_length=4, description="bot by seat")
    seed: StrictInt = Field(default=0, ge=0, le=2**31, description="the deal's seed")
    settings: dict[str, Any] = Field(
        default_factory=dict,
        description="game settings: rules (rule settings), hand (tiles dealt, 14), "
        "pool_empty (play_on or end)",
    )
    lang: Lang = None


class GameResponse(Schema):
    status: Status
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


class ReviewRequest(Schema):
    """A game record to review."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"record": EXAMPLE_RECORD}]})

    record: GameRecordModel = Field(description="the game record (docs/games.md)")
    player: StrictInt | None = Field(default=None, ge=0, description="review only this seat")
    objective: Objective = Field(
        default=Objective.TILES, description="best means most tiles, or most points"
    )
    time_limit_ms: StrictInt = Field(
        default=round(DEFAULT_TIME_LIMIT * 1000),
        ge=1,
        le=MAX_REVIEW_TIME_LIMIT_MS,
        description="most milliseconds for each turn's solve; the server's time cap may lower it",
    )
    lang: Lang = None


class BestPlay(Schema):
    status: Status = Field(description="optimal: proven best")
    played: list[Tile]
    tiles: int
    points: int
    table: list[TileSet] = Field(description="the table after the best play")


class TurnReviewOut(Schema):
    turn: int
    player: int
    action: Literal["play", "draw", "pass"]
    opened: bool = Field(description="the player had opened before this turn")
    rack: list[Tile] = Field(description="the rack before the turn")
    table_before: list[TileSet]
    table_after: list[TileSet]
    played: list[Tile]
    drawn: Tile | None
    tiles_played: int = Field(description="0 for an illegal turn")
    points_played: int
    best: BestPlay | None = Field(description="null when the turn could not be reviewed")
    missed: list[Tile] = Field(description="tiles of the best play still on the rack")
    shortfall: int = Field(description="the best score minus this turn's")
    at_best: bool
    legal: bool
    problems: list[str] = Field(description="what makes the turn illegal")
    unreviewed: str | None = Field(
        description="why the position before the turn could not be solved (an invalid set "
        "left by an earlier illegal turn, a tile the rules do not have); null when reviewed"
    )


class CostlyTurn(Schema):
    turn: int
    shortfall: int
    missed: list[Tile]


class Series(Schema):
    """One entry per reviewed turn of the player, ready to plot."""

    turn: list[int]
    played: list[int]
    best: list[int]
    rack_after: list[int]


class PlayerReviewOut(Schema):
    player: int
    name: str | None
    turns: int = Field(description="turns reviewed")
    turns_at_best: int
    accuracy: float | None = Field(description="share of turns at the best")
    placed: int = Field(description="tiles (or points) placed over the game")
    possible: int = Field(description="tiles (or points) the best plays would have placed")
    placed_share: float | None
    illegal_turns: list[int]
    unreviewed_turns: list[int] = Field(description="left out of the figures above")
    costliest: list[CostlyTurn]
    series: Series
    score: int | None = Field(description="the game's score for this seat, from the record")
    winner: bool | None


class ReviewResponse(Schema):
    status: Status = Field(description="optimal when every turn's best was proven")
    objective: Objective
    turns: list[TurnReviewOut]
    players: list[PlayerReviewOut]
