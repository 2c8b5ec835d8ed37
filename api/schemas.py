"""Request and response bodies of the HTTP API (pydantic v2).

They mirror the wire schema of :mod:`solver` field for field; the solver checks
the game (tiles, counts, sets, rules) and these models check the shape. Every
model forbids unknown fields, and every request model carries a realistic
example shown at ``/docs``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt

from api.language import Lang, NotationName
from solver.rummikub import STANDARD, MeldKind, Objective, Status
from solver.rummikub.hints import HintLevel
from solver.rummikub.rules import RANGES
from solver.rummikub.solve import DEFAULT_DISRUPTION_TIME_LIMIT, DEFAULT_TIME_LIMIT
from solver.rummikub.tiles import Notation
from solver.rummikub.wire import MAX_RACK, MAX_TIME_LIMIT_MS


class Schema(BaseModel):
    model_config = ConfigDict(extra="forbid")


Tile = Annotated[
    str,
    Field(
        description="a tile: colour letter and number (R5, B13, K7, O1) or J for a joker; "
        "case-insensitive; also Y1 or 黄1 for the fourth colour when yellow is not a colour of "
        "the game, kanji colours (赤5 青13 黒7), ジョーカー, full-width letters and digits",
        examples=["R5"],
    ),
]
TileSet = Annotated[list[Tile], Field(description="the tiles of one set, in any order")]


TimeLimitMs = Annotated[
    StrictInt,
    Field(
        ge=1,
        le=MAX_TIME_LIMIT_MS,
        description="most milliseconds to spend; the server's time cap may lower it",
    ),
]


def _setting(name: str, meaning: str) -> Any:
    low, high = RANGES[name]
    return Field(default=getattr(STANDARD, name), ge=low, le=high, description=meaning)


class RuleSettings(Schema):
    """Rummikub rule settings; any subset may be given, the rest keep the standard values."""

    colours: StrictInt = _setting("colours", "colours in play")
    numbers: StrictInt = _setting("numbers", "tiles are numbered 1..numbers")
    copies: StrictInt = _setting("copies", "copies of each coloured tile")
    jokers: StrictInt = _setting("jokers", "jokers in the game")
    min_set_len: StrictInt = _setting("min_set_len", "fewest tiles in a run or a group")
    opening_threshold: StrictInt = _setting("opening_threshold", "points a first play must reach")
    joker_penalty: StrictInt = _setting("joker_penalty", "points a joker left on a rack costs")
    penalty_tiles: StrictInt = _setting(
        "penalty_tiles", "tiles drawn when a turn leaves a table that cannot be put right"
    )
    joker_retrieval: Literal["free", "replace"] = Field(
        default=STANDARD.joker_retrieval,
        description="free: a table joker may move to any set while every set stays valid; "
        "replace: it leaves its set only when the tile it stands for takes its place there, "
        "in a turn that plays a rack tile",
    )


class Opponent(Schema):
    """Another player, as far as a player may know them."""

    rack_size: StrictInt = Field(ge=1, le=MAX_RACK, description="tiles on the opponent's rack")
    opened: StrictBool = Field(default=False, description="the opponent has opened")


class Advice(Schema):
    """What the strong bot would do instead of the best play, and why."""

    holds_back: bool = Field(description="it would place fewer tiles than the best play")
    draws: bool = Field(description="it would draw rather than play")
    plays: list[Tile] = Field(description="the rack tiles it would place")
    keeps: list[Tile] = Field(description="tiles of the best play it would keep on the rack")
    text: str


# --- solve: keep request and response together here; new wire fields go in these two ---


class SolveRequest(Schema):
    """A position to solve: the wire request of :func:`solver.solve_rummikub`."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "rack": ["R1", "R2", "J", "B9", "K11"],
                    "table": [["R3", "R4", "R5"], ["K7", "B7", "O7"], ["O10", "O11", "O12"]],
                    "opened": True,
                    "objective": "tiles",
                    "rules": {},
                    "time_limit_ms": 2000,
                    "hint_level": "full",
                }
            ]
        }
    )

    rack: list[Tile] = Field(description="the player's tiles")
    table: list[TileSet] = Field(default_factory=list, description="the sets on the table")
    opened: StrictBool = Field(
        default=True, description="the player has made their opening play (false: 30-point rule)"
    )
    objective: Objective = Field(
        default=Objective.TILES, description="tiles: most tiles played; points: most points shed"
    )
    rules: RuleSettings = Field(default_factory=RuleSettings, description="rule settings")
    time_limit_ms: TimeLimitMs = round(DEFAULT_TIME_LIMIT * 1000)
    disruption_time_limit_ms: StrictInt = Field(
        default=round(DEFAULT_DISRUPTION_TIME_LIMIT * 1000),
        ge=0,
        le=MAX_TIME_LIMIT_MS,
        description="most milliseconds (within time_limit_ms) to spend finding the play "
        "that disturbs the table least, a safety cap: that search is bounded by a fixed "
        "amount of work; 0 skips it; the server's cap may lower it",
    )
    hint_level: HintLevel = Field(
        default=HintLevel.FULL,
        description="how much to reveal: nudge (whether a play exists and its size), "
        "tile (one rack tile and where it goes), full (the play and the steps)",
    )
    free_jokers: StrictBool = Field(
        default=False,
        description="also count the table jokers that no set needs (one search more)",
    )
    opponents: list[Opponent] | None = Field(
        default=None,
        min_length=1,
        max_length=7,
        description="the other players in the order they play next; when given, the "
        "answer adds the strong bot's advice (whether it would hold back, and why)",
    )
    lang: Lang = None
    notation: NotationName = Notation.RBKO


class SetOut(Schema):
    kind: MeldKind
    tiles: list[Tile] = Field(description="tiles in reading order (runs low to high)")
    as_: list[Tile] = Field(alias="as", description="what each tile stands for (jokers resolved)")


STATUS_DESCRIPTION = (
    "optimal: the score is proven best; feasible: the search stopped (at its work bound "
    "or a time limit) with the best play found; unknown: it stopped before any play was "
    "found (the play is empty)"
)


class TakeStep(Schema):
    action: Literal["take"]
    tiles: list[Tile]
    from_set: int = Field(description="the set the tiles are picked up from")
    text: str


class SplitStep(Schema):
    action: Literal["split"]
    set: int = Field(description="the run that is cut")
    at: Tile = Field(description="the first tile of the part that becomes a new set")
    at_index: int = Field(description="that tile's place in the run, 0 = lowest")
    new_set: int = Field(description="the number of the new set")
    text: str


class AddStep(Schema):
    action: Literal["add"]
    tiles: list[Tile]
    to_set: int
    from_rack: list[Tile] = Field(description="which of the tiles come from the rack")
    text: str


class NewSetStep(Schema):
    action: Literal["new_set"]
    tiles: list[Tile]
    set: int = Field(description="the number the new set gets")
    from_rack: list[Tile] = Field(description="which of the tiles come from the rack")
    text: str


Step = Annotated[TakeStep | SplitStep | AddStep | NewSetStep, Field(discriminator="action")]


class FullAnswer(Schema):
    """The best play and how to make it: the wire response of :func:`solver.solve_rummikub`."""

    status: Status = Field(description=STATUS_DESCRIPTION)
    hint_level: Literal["full"]
    tiles_played: int
    points_played: int
    played: list[Tile] = Field(description="rack tiles to put on the table")
    rack_left: list[Tile]
    table: list[SetOut] = Field(description="the complete table after the play")
    sets_kept: int = Field(description="table sets that stay whole (tiles may join them)")
    tiles_moved: int = Field(description="table tiles that leave the set carrying their old one")
    disruption_proven: bool = Field(
        description="no play as good keeps more table sets whole, or as many and moves fewer "
        "table tiles (false: the search stopped at its work bound or at a time limit first)"
    )
    time_capped: bool = Field(
        description="a time limit, not the work bound, stopped a search: the same request "
        "on an idle server may get a better answer (false: the answer does not depend on load)"
    )
    steps: list[Step] = Field(description="actions that turn the old table into the new one")
    advice: Advice | None = Field(
        default=None, description="present when the request gave opponents"
    )
    free_jokers: int | None = Field(
        default=None,
        description="present when the request asked for it: table jokers (before the play) "
        "that no set needs, the other tiles lay out as valid sets without them (null: not "
        "proven within the time limit)",
    )


class TileAnswer(Schema):
    """One rack tile of the best play and where it goes."""

    status: Status = Field(description=STATUS_DESCRIPTION)
    hint_level: Literal["tile"]
    can_play: bool
    tiles_played: int
    tile: Tile | None = Field(description="a rack tile of the best play, null when none")
    to_set: int | None = Field(description="the table set it goes onto; null: a new set")
    text: str
    advice: Advice | None = Field(
        default=None, description="present when the request gave opponents"
    )
    free_jokers: int | None = Field(
        default=None,
        description="present when the request asked for it: table jokers (before the play) "
        "that no set needs, the other tiles lay out as valid sets without them (null: not "
        "proven within the time limit)",
    )


class NudgeAnswer(Schema):
    """Only whether a play exists and how many tiles it places."""

    status: Status = Field(description=STATUS_DESCRIPTION)
    hint_level: Literal["nudge"]
    can_play: bool
    tiles_played: int
    advice: Advice | None = Field(
        default=None, description="present when the request gave opponents"
    )
    free_jokers: int | None = Field(
        default=None,
        description="present when the request asked for it: table jokers (before the play) "
        "that no set needs, the other tiles lay out as valid sets without them (null: not "
        "proven within the time limit)",
    )


SolveResponse = Annotated[FullAnswer | TileAnswer | NudgeAnswer, Field(discriminator="hint_level")]


# --- validate -------------------------------------------------------------------------


class ValidateRequest(Schema):
    """A move to check: the table before and after, and the rack it was played from."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "rack": ["R5", "K1", "B13"],
                    "table_before": [["R3", "R4", "R5", "R6", "R7"], ["B11", "B12", "J"]],
                    "table_after": [
                        ["R3", "R4", "R5"],
                        ["R5", "R6", "R7"],
                        ["B11", "B12", "B13", "J"],
                    ],
                    "opened": True,
                    "rules": {},
                }
            ]
        }
    )

    rack: list[Tile] = Field(description="the player's tiles before the move")
    table_before: list[TileSet] = Field(description="the table before the move (valid sets)")
    table_after: list[TileSet] = Field(description="the table the player left")
    opened: StrictBool = Field(default=True, description="the player had opened before this move")
    rules: RuleSettings = Field(default_factory=RuleSettings, description="rule settings")
    lang: Lang = None
    notation: NotationName = Notation.RBKO


class Problem(Schema):
    set: int | None = Field(description="index of the set in table_after, or null")
    reason: str


class ConsequenceOut(Schema):
    status: Status = Field(description="optimal: repairable is proven")
    repairable: bool = Field(
        description="the player can still put the move right: the tiles they laid down fit "
        "into a legal move from table_before"
    )
    penalty_tiles: int = Field(description="tiles drawn from the pool (0 when repairable)")
    back_to_rack: list[Tile] = Field(description="tiles that go back to the rack")
    text: str


class ValidateResponse(Schema):
    legal: bool
    played: list[Tile] = Field(description="tiles that came onto the table")
    problems: list[Problem] = Field(description="what is wrong; empty when legal")
    consequence: ConsequenceOut | None = Field(
        description="for an illegal move: can it still be put right, else the penalty "
        "(rules.penalty_tiles); null when legal"
    )


# --- repair ---------------------------------------------------------------------------


class RepairRequest(Schema):
    """A table that went wrong: the wire request of :func:`solver.repair_rummikub`."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "table": [["R1", "R2"], ["R3", "B3", "K3", "O3"], ["R4", "R5"]],
                    "table_before": [["R3", "B3", "K3", "O3"]],
                    "rack": ["R6", "K9"],
                    "objective": "tiles",
                    "rules": {},
                    "time_limit_ms": 2000,
                }
            ]
        }
    )

    table: list[TileSet] = Field(
        description="the table as it lies now: sets, broken sets and loose tiles"
    )
    table_before: list[TileSet] | None = Field(
        default=None,
        description="the table before the turn (valid sets, every tile still on the table); "
        "the arrangement stays as close to it as it can, else to the valid sets of the table",
    )
    rack: list[Tile] | None = Field(
        default=None, description="the player's rack: also find the best rescue with it"
    )
    objective: Objective = Field(
        default=Objective.TILES, description="for the rescue: most tiles, or most points"
    )
    rules: RuleSettings = Field(default_factory=RuleSettings, description="rule settings")
    time_limit_ms: TimeLimitMs = round(DEFAULT_TIME_LIMIT * 1000)
    lang: Lang = None
    notation: NotationName = Notation.RBKO


class Arrangement(Schema):
    table: list[SetOut] = Field(description="the sets, as replaying the steps leaves them")
    steps: list[Step] = Field(description="actions that turn the table as it lies into these sets")
    left_out: list[Tile] = Field(description="tiles no set holds (empty when repairable)")
    sets_kept: int = Field(description="sets of the table before (or valid sets now) kept whole")
    tiles_moved: int = Field(description="tiles of those sets that leave the set carrying them")
    disruption_proven: bool = Field(description="no arrangement as good is closer")


class PenaltyOut(Schema):
    tiles: int = Field(description="tiles the player draws from the pool (rules.penalty_tiles)")
    restore: list[TileSet] | None = Field(
        description="the table before the turn, put back; null when it was not given"
    )
    back_to_rack: list[Tile] = Field(description="tiles the player laid down, back to the rack")
    to_pool: list[Tile] = Field(description="tiles that cannot be placed, back to the pool")
    text: str


class Rescue(Schema):
    status: Status = Field(description="optimal: the rescue, or that there is none, is proven")
    play: FullAnswer | None = Field(
        description="the best play placing every table tile and rack tiles; null: none does"
    )


class RepairResponse(Schema):
    status: Status = Field(
        description="optimal: the verdict (and, beyond repair, the fewest tiles left out) is "
        "proven; feasible: beyond repair is proven, the fewest left out is not; unknown: "
        "the search stopped before a verdict"
    )
    repairable: bool = Field(description="every table tile fits into valid sets")
    time_capped: bool
    arrangement: Arrangement | None = Field(
        description="every tile when repairable, else the most tiles that fit"
    )
    penalty: PenaltyOut | None = Field(description="the consequence when beyond repair")
    free_jokers: int | None = Field(
        description="when repairable: table jokers no set needs (null otherwise, or not "
        "proven within the time limit)"
    )
    rescue: Rescue | None = Field(description="null when no rack was given")


# --- score ----------------------------------------------------------------------------


def _printable(name: str) -> str:
    if not name.isprintable():
        raise ValueError(
            "a name must be printable text: no control, format (bidi, zero-width) or "
            "other invisible characters"
        )
    return name


PlayerName = Annotated[
    str,
    Field(min_length=1, max_length=64, description="a player's name: 1-64 printable characters"),
    AfterValidator(_printable),
]


class ScoreRequest(Schema):
    """The racks left at the end of a round, by player."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "racks": {"ann": [], "bob": ["R5", "J"], "cy": ["K13", "O2"]},
                    "rules": {},
                }
            ]
        }
    )

    racks: dict[PlayerName, list[Tile]] = Field(
        min_length=1, description="each player's rack at the end of the round"
    )
    rules: RuleSettings = Field(default_factory=RuleSettings, description="rule settings")
    lang: Lang = None


class PlayerScore(Schema):
    name: str
    penalty: int = Field(description="face values left on the rack, a joker its penalty")
    score: int = Field(description="winner: sum of the others' penalties; others: -penalty")
    winner: bool = Field(description="the player emptied their rack")


class ScoreResponse(Schema):
    players: list[PlayerScore] = Field(description="in the order given")
    winners: list[str] = Field(description="players with an empty rack")


# --- service --------------------------------------------------------------------------


class ErrorBody(Schema):
    detail: str = Field(description="what is wrong, naming the culprit")


class Health(Schema):
    status: str = Field(examples=["ok"])


class NotReady(Schema):
    status: Literal["not ready"]
    detail: str = Field(
        description="what is missing", examples=["1 of 2 solver workers ready; 1 starting"]
    )
