"""The Rummikub wire contract: each request and response defined once, as pydantic
models, and the dict-in, dict-out functions of the library built on them.

The CLI's ``--json``/``--jsonl`` and the HTTP service read requests with these same
models (:func:`solver.wire.read`), so all three accept and refuse the same requests
with the same message. Solve request::

    {"rack": ["R1", "R2", "J"], "table": [["R3", "R4", "R5"]], "opened": true,
     "objective": "tiles", "rules": {}, "time_limit_ms": 2000, "hint_level": "full",
     "lang": "en", "notation": "RBKO"}

``lang`` (``en`` or ``ja``) is the language of every text, error messages included;
``notation`` ``RBYK`` writes the tiles of the fourth colour (orange, 黄) with ``Y``
(see :mod:`solver.rummikub.notation`). Neither changes anything else in the answer.

Response (``hint_level`` full)::

    {"status": "optimal", "hint_level": "full", "tiles_played": 3, "points_played": 33,
     "played": [...], "rack_left": [...],
     "table": [{"kind": "run", "tiles": [...], "as": [...]}, ...],
     "sets_kept": 1, "tiles_moved": 0, "disruption_proven": true, "time_capped": false,
     "steps": [{"action": "add", "tiles": [...], "to_set": 0, "from_rack": [...],
                "text": "..."}, ...]}

``nudge`` answers only status, hint_level, can_play, tiles_played and time_capped
(and ``advice`` when the request gives ``opponents``); ``tile`` adds one rack
tile of the play and where it goes (see :mod:`solver.rummikub.hints`).

Answers are written as plain JSON values by each answer model's ``answer``, field
for field as the model declares them (the tests hold every answer to its model, and
FastAPI does on every HTTP answer): going through pydantic for them cost a tenth
of a typical solve.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, Annotated, Any, Literal, Self

from pydantic import ConfigDict, Field, ModelWrapValidatorHandler, StrictBool, model_validator

from solver.cpsat import Limit, Status
from solver.errors import CountError, RequestError, TableError
from solver.i18n import _, _n, speaks
from solver.rummikub.deal import full_set
from solver.rummikub.engine import View
from solver.rummikub.hints import HintLevel, tile_hint
from solver.rummikub.legality import Verdict, check_play
from solver.rummikub.melds import Meld, MeldKind
from solver.rummikub.notation import Notation, Tile, spell, spelling, written_sets
from solver.rummikub.position import Objective, Position, check_counts
from solver.rummikub.repair import Consequence, Repair, consequence, repair
from solver.rummikub.result import Play
from solver.rummikub.rules import STANDARD, Rules
from solver.rummikub.scoring import PlayerScore, score_round
from solver.rummikub.search import DEFAULT_DISRUPTION_TIME_LIMIT, DEFAULT_TIME_LIMIT, solve
from solver.rummikub.steps import Action, Step, rack_tiles
from solver.rummikub.strategy import Advice, advise
from solver.wire import (
    MAX_TIME_LIMIT_MS,
    Answer,
    Lang,
    Notated,
    PlayerName,
    Request,
    Spoken,
    TimeCapped,
    TimeLimitMs,
    read,
)

_game: ContextVar[Rules | None] = ContextVar("meldwise_rummikub_game", default=None)
"""The rules of the request being read (:class:`RuledRequest`), None outside one."""


def _read_tile(text: str) -> Tile:
    """A tile of a request: a tile of the request's game when its rules are known
    (every error then quotes ``text`` and gives that game's colours and numbers),
    else any tile the notation reads."""
    rules = _game.get()
    return Tile.parse(text) if rules is None else rules.read_tile(text)


AnyTile = Annotated[
    Tile,
    Notated(
        _read_tile,
        lambda: _("a tile like 'R5' or 'J'"),
        "a tile: colour letter and number (R5, B13, K7, O1) or J for a joker; "
        "case-insensitive in requests, canonical in answers",
        "R5",
        written=lambda tile: tile.written,
    ),
]
TileSet = Annotated[
    list[AnyTile],
    Field(
        description="the tiles of one set, in any order; a joker written with the tile it "
        "stands for (J(R7), as answers print it) is read so"
    ),
]
RulesField = Annotated[Rules, Field(description="rule settings")]
NotationField = Annotated[
    Notation,
    Field(
        description="how the answer writes tiles of the fourth colour: O (RBKO) or Y (RBYK, "
        "as Japanese players write 黄); input accepts both",
    ),
]


def read_tiles(tiles: Iterable[Tile], rules: Rules) -> tuple[Tile, ...]:
    """Tiles as this game reads them (``Y5`` is orange in the standard game, see
    :meth:`Rules.canonical`)."""
    return tuple(rules.canonical(tile) for tile in tiles)


class RuledRequest(Spoken):
    """Base of a request holding tiles and the ``rules`` of their game: each tile is
    read as a tile of that game, so a tile the game lacks is refused where it stands
    (``rack[0]``), quoting what was sent (rules that cannot be read: any tile the
    notation reads, and the rules' own error is reported). The rules read here are
    the ones the ``rules`` field gets: they are read once. An error names the game's
    colours in the request's ``notation`` when it has one that fits them (``Y`` for
    orange under ``RBYK``)."""

    @model_validator(mode="wrap")
    @classmethod
    def _read_in_its_game(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        rules: Rules | None = None
        notation: Notation | None = None
        if isinstance(data, Mapping):
            try:
                rules = Rules.from_dict(data.get("rules"))
            except (ValueError, TypeError):
                rules = None
            if rules is not None and "rules" in data:
                data = {**data, "rules": rules}  # from_dict takes an instance as it is
            notation = _notation_of(cls, data.get("notation"), rules)
        token = _game.set(rules)
        try:
            if notation is None or rules is None:
                return handler(data)
            with spelling(notation, rules.colours):
                return handler(data)
        finally:
            _game.reset(token)


def _notation_of(request: type[Request], asked: Any, rules: Rules | None) -> Notation | None:
    """The notation a request's tiles are quoted in while it is read: its ``notation``
    when it has that field and the value is one that fits the game's colours (else
    None, and its field reports a bad value, :func:`check_notation` a misfit)."""
    if rules is None or "notation" not in request.model_fields:
        return None
    if isinstance(asked, Notation):
        notation: Notation | None = asked
    else:
        notation = next((n for n in Notation if n.value == asked), None)
    return notation if notation is not None and notation.fits(rules.colours) else None


class WrittenRequest(RuledRequest):
    """Base of a request whose answer writes tiles: its ``notation`` says how, and
    may not write orange as ``Y`` when yellow is a colour of the game."""

    if TYPE_CHECKING:  # the fields, declared by each request in its own order
        rules: Rules
        notation: Notation

    def check_request(self) -> None:
        """The notation fits the colours."""
        super().check_request()
        check_notation(self.notation, self.rules)


def check_notation(notation: Notation, rules: Rules) -> None:
    """Raise :class:`RequestError` when ``notation`` writes orange as ``Y`` in a game
    whose colours include yellow (a request whose rules come inside another field, a
    record's settings, checks it once they are read)."""
    if not notation.fits(rules.colours):
        # Its place noted: the command line says --notation, HTTP names the field.
        raise RequestError(
            _(
                "notation 'RBYK' writes orange as Y, but this game of {colours} colours has"
                " yellow (Y) too; use 'RBKO'",
                colours=rules.colours,
            )
        ).naming("notation", quoted=False)


MAX_RACK = 1000
"""Most tiles an opponent's rack may be said to hold (the game's tile count is checked)."""

MAX_OPPONENTS = 7


# --- solve ------------------------------------------------------------------------------


class Opponent(Request):
    """Another player, as far as a player may know them."""

    rack_size: Annotated[int, Field(strict=True, ge=1, le=MAX_RACK)] = Field(
        description="tiles on the opponent's rack"
    )
    opened: StrictBool = Field(default=False, description="the opponent has opened")


Opponents = Annotated[
    list[Opponent],
    Field(
        min_length=1,
        max_length=MAX_OPPONENTS,
        description="the other players in the order they play next",
    ),
]


def facing(position: Position, rules: Rules, opponents: list[Opponent]) -> View:
    """The view of the player at ``position`` with ``opponents`` playing after it.
    Raises :class:`~solver.errors.RequestError` naming the fields when the game has
    fewer tiles than seats (it said "7 hands of 1 need 7 tiles", naming none of them),
    and :class:`~solver.errors.CountError` when the opponents' racks hold more tiles
    than the rack and the table leave."""
    tiles = sum(full_set(rules).values())
    if len(opponents) + 1 > tiles:
        raise RequestError(
            _(
                "'opponents' lists {count} players, who with the player of 'rack' make"
                " {players}; these rules' game has {tiles} tiles, too few to deal each a tile",
                count=len(opponents),
                players=len(opponents) + 1,
                tiles=tiles,
            )
        ).naming("opponents", "rack")
    # View.facing refuses it too, naming no field: the default of bot's --opponents (14)
    # under rules of few tiles was refused without a word of --opponents.
    held = sum(o.rack_size for o in opponents)
    hidden = tiles - len(position.rack) - sum(map(len, position.table))
    if held > hidden:
        raise CountError(
            _(
                "the other players' racks ('opponents') hold {held}, but the game leaves only"
                " {hidden} off 'rack' and 'table'",
                held=_n("{n} tile", "{n} tiles", held),
                hidden=_n("{n} tile", "{n} tiles", hidden),
            )
        ).naming("opponents", "rack", "table")
    return View.facing(position, rules, [(o.rack_size, o.opened) for o in opponents])


class SolveRequest(WrittenRequest):
    """A position to solve: the request of :func:`solve_rummikub`."""

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

    rack: list[AnyTile] = Field(description="the player's tiles")
    table: list[TileSet] = Field(default=[], description="the sets on the table")
    opened: StrictBool = Field(
        default=True,
        description="the player has made their opening play (false: the first play must "
        "reach rules.opening_threshold, 30 points by default)",
    )
    objective: Objective = Field(
        default=Objective.TILES, description="tiles: most tiles played; points: most points shed"
    )
    rules: RulesField = STANDARD
    time_limit_ms: TimeLimitMs = Field(
        default=round(DEFAULT_TIME_LIMIT * 1000),
        description="most milliseconds to spend; the server's time cap may lower it",
    )
    disruption_time_limit_ms: Annotated[int, Field(strict=True, ge=0, le=MAX_TIME_LIMIT_MS)] = (
        Field(
            default=round(DEFAULT_DISRUPTION_TIME_LIMIT * 1000),
            description="most milliseconds (within time_limit_ms) to spend finding the play "
            "that disturbs the table least, a safety cap: that search is bounded by a fixed "
            "amount of work; 0 skips it; the server's cap may lower it",
        )
    )
    hint_level: HintLevel = Field(
        default=HintLevel.FULL,
        description="how much to reveal: nudge (whether a play exists and its size), "
        "tile (one rack tile and where it goes), full (the play and the steps)",
    )
    opponents: Opponents | None = Field(
        default=None,
        description="the other players in the order they play next; when given, the "
        "answer adds the strong bot's advice (whether it would hold back, and why)",
    )
    free_jokers: StrictBool = Field(
        default=False,
        description="also count the table jokers that no set needs (one search more)",
    )
    lang: Lang = None
    notation: NotationField = Notation.RBKO

    @property
    def position(self) -> Position:
        rules = self.rules
        table = tuple(read_tiles(tiles, rules) for tiles in self.table)
        return Position(read_tiles(self.rack, rules), table, self.opened)


class SetOut(Answer):
    kind: MeldKind
    tiles: list[AnyTile] = Field(description="tiles in reading order (runs low to high)")
    as_: list[AnyTile] = Field(
        alias="as", description="what each tile stands for (jokers resolved)"
    )

    @staticmethod
    def answer(meld: Meld) -> dict[str, Any]:
        return {
            "kind": meld.kind.value,
            "tiles": [spell(t) for t in meld.tiles],
            "as": [spell(t) for t in meld.stands_for],
        }


RackPlaces = Annotated[
    list[int],
    Field(
        description="the places in tiles (0 = first) of the tiles laid from the rack, "
        "ascending: which joker is the rack's where the set holds one from the table too "
        "(a joker that stays where it lay is the table's)"
    ),
]
"""A set's ``from_rack_places`` (:func:`~solver.rummikub.steps.rack_places`)."""


class NumberedSetOut(SetOut):
    set: int = Field(
        description="the number the steps give this set: the request's own numbers, new "
        "sets the next ones (a set the steps empty leaves its number unused)"
    )
    from_rack: list[AnyTile] = Field(description="the tiles the steps lay on it from the rack")
    from_rack_places: RackPlaces

    @staticmethod
    def numbered(
        table: Sequence[Meld],
        numbers: Sequence[int],
        steps: Sequence[Step],
        places: Sequence[Sequence[int]],
    ) -> list[dict[str, Any]]:
        """The wire sets of ``table``, a table after ``steps`` numbered ``numbers``,
        the rack's tiles at ``places`` in each."""
        laid = rack_tiles(steps, numbers)
        return [
            {
                **SetOut.answer(meld),
                "set": number,
                "from_rack": [spell(t) for t in tiles],
                "from_rack_places": list(at),
            }
            for meld, number, tiles, at in zip(table, numbers, laid, places, strict=True)
        ]


STATUS_DESCRIPTION = (
    "optimal: the score is proven best; feasible: the search stopped (at its work bound "
    "or a time limit) with the best play found; unknown: it stopped before any play was "
    "found (the play is empty)"
)


class TakeStep(Answer):
    action: Literal["take"] = "take"
    tiles: list[AnyTile]
    from_set: int = Field(description="the set the tiles are picked up from")
    text: str


class SplitStep(Answer):
    action: Literal["split"] = "split"
    set: int = Field(description="the run that is cut")
    at: AnyTile = Field(description="the first tile of the part that becomes a new set")
    at_index: int = Field(description="that tile's place in the run as the request wrote it")
    new_set: int = Field(description="the number of the new set")
    text: str


class AddStep(Answer):
    action: Literal["add"] = "add"
    tiles: list[AnyTile]
    to_set: int
    from_rack: list[AnyTile] = Field(description="which of the tiles come from the rack")
    text: str


class NewSetStep(Answer):
    action: Literal["new_set"] = "new_set"
    tiles: list[AnyTile]
    set: int = Field(description="the number the new set gets")
    from_rack: list[AnyTile] = Field(description="which of the tiles come from the rack")
    text: str


StepOut = Annotated[TakeStep | SplitStep | AddStep | NewSetStep, Field(discriminator="action")]


def step_answer(step: Step) -> dict[str, Any]:
    """One step of a play as :data:`StepOut` declares it."""
    answer: dict[str, Any] = {"action": step.action.value}
    if step.action is Action.SPLIT:
        assert step.at is not None  # a split names the tile it cuts at
        answer |= {"set": step.set, "at": spell(step.at), "at_index": step.at_index}
        answer["new_set"] = step.new_set
    else:
        answer["tiles"] = [spell(t) for t in step.tiles]
        if step.action is Action.TAKE:
            answer["from_set"] = step.set
        else:
            answer["to_set" if step.action is Action.ADD else "set"] = step.set
            answer["from_rack"] = [spell(t) for t in step.from_rack]
    answer["text"] = step.text
    return answer


class AdviceOut(Answer):
    """What the strong bot would do instead of the best play, and why."""

    holds_back: bool = Field(
        description="it would place fewer tiles than the best play its own search finds (which "
        "may place more than an answer the time limit cut: the text then says both counts)"
    )
    draws: bool = Field(description="it would draw rather than play")
    plays: list[AnyTile] | None = Field(
        description="the rack tiles it would place (null below hint level full, which alone "
        "reveals the play)"
    )
    keeps: list[AnyTile] | None = Field(
        description="tiles of the best play it would keep on the rack (null below hint level full)"
    )
    text: str = Field(description="below hint level full it names no tile")

    @staticmethod
    def answer(advice: Advice, level: HintLevel) -> dict[str, Any]:
        full = level is HintLevel.FULL
        return {
            "holds_back": advice.holds_back,
            "draws": advice.draws,
            "plays": [spell(t) for t in advice.plays] if full else None,
            "keeps": [spell(t) for t in advice.keeps] if full else None,
            "text": advice.text,
        }


class HintAnswer(Answer):
    """What every hint level answers: the status, and advice and the free jokers when
    asked for."""

    status: Status = Field(description=STATUS_DESCRIPTION)
    advice: AdviceOut | None = Field(
        default=None, description="present when the request gave opponents"
    )
    free_jokers: int | None = Field(
        default=None,
        description="present when the request asked for it: table jokers (before the play) "
        "that no set needs, the other tiles lay out as valid sets without them (null: not "
        "proven within the time limit)",
    )


class FullAnswer(HintAnswer):
    """The best play and how to make it."""

    hint_level: Literal["full"] = "full"
    tiles_played: int
    points_played: int
    played: list[AnyTile] = Field(description="rack tiles to put on the table")
    rack_left: list[AnyTile]
    table: list[NumberedSetOut] = Field(description="the complete table after the play")
    sets_kept: int = Field(description="table sets that stay whole (tiles may join them)")
    tiles_moved: int = Field(description="table tiles that leave the set carrying their old one")
    disruption_proven: bool = Field(
        description="no play as good keeps more table sets whole, or as many and moves fewer "
        "table tiles (false: the search stopped at its work bound or at a time limit first)"
    )
    time_capped: TimeCapped
    steps: list[StepOut] = Field(description="actions that turn the old table into the new one")

    @staticmethod
    def answer(play: Play) -> dict[str, Any]:
        return {
            "status": play.status.value,
            "hint_level": HintLevel.FULL.value,
            "tiles_played": play.tiles_played,
            "points_played": play.points_played,
            "played": [spell(t) for t in play.played],
            "rack_left": [spell(t) for t in play.rack_left],
            "table": NumberedSetOut.numbered(
                play.table, play.set_numbers, play.steps, play.rack_places
            ),
            "sets_kept": play.sets_kept,
            "tiles_moved": play.tiles_moved,
            "disruption_proven": play.disruption_proven,
            "time_capped": play.time_capped,
            "steps": [step_answer(step) for step in play.steps],
        }


class TileAnswer(HintAnswer):
    """One rack tile of the best play and where it goes."""

    hint_level: Literal["tile"] = "tile"
    can_play: bool
    tiles_played: int
    tile: AnyTile | None = Field(description="a rack tile of the best play, null when none")
    to_set: int | None = Field(description="the table set it goes onto; null: a new set")
    text: str
    time_capped: TimeCapped


class NudgeAnswer(HintAnswer):
    """Only whether a play exists and how many tiles it places."""

    hint_level: Literal["nudge"] = "nudge"
    can_play: bool
    tiles_played: int
    time_capped: TimeCapped


SolveResponse = Annotated[FullAnswer | TileAnswer | NudgeAnswer, Field(discriminator="hint_level")]
"""The response of :func:`solve_rummikub`: as much of the play as ``hint_level`` asks."""


def no_play_text(status: Status, rack_empty: bool = False, pool_empty: bool = False) -> str:
    """What to do when the play (of ``status``) places nothing: draw, unless the search
    stopped before proving that no play exists (it found nothing, or only this), the
    rack is empty (nothing to play, and nothing to draw for: the player is out), or the
    pool is (the request's opponents hold every other tile): pass."""
    if rack_empty:
        return _("Your rack is empty: there is nothing to play.")
    if status is not Status.OPTIMAL:
        return _("No play found before the search stopped.")
    if pool_empty:
        return _("No play, and the pool is empty: pass.")
    return _("No play: draw a tile.")


def hint_answer(
    play: Play, level: HintLevel, table: tuple[Meld, ...], pool_empty: bool = False
) -> dict[str, Any]:
    """The answer for ``play`` as :data:`SolveResponse` declares it, revealing only
    what ``level`` asks for (``table`` is the table as read, to name sets in a tile
    hint; ``pool_empty``: the request's opponents hold every tile off the rack and the
    table, so a tile hint of no play says to pass)."""
    if level is HintLevel.FULL:
        return FullAnswer.answer(play)
    answer: dict[str, Any] = {
        "status": play.status.value,
        "hint_level": level.value,
        "can_play": play.tiles_played > 0,
        "tiles_played": play.tiles_played,
    }
    if level is HintLevel.TILE:
        hint = tile_hint(play, table)
        answer["tile"] = None if hint is None else hint.tile
        answer["to_set"] = None if hint is None else hint.to_set
        rack_empty = not play.played and not play.rack_left
        if hint is None:
            answer["text"] = no_play_text(play.status, rack_empty, pool_empty)
        else:
            answer["text"] = hint.text
    answer["time_capped"] = play.time_capped  # the tile chosen may depend on the clock too
    return answer


@speaks
def solve_rummikub(request: Mapping[str, Any] | SolveRequest) -> dict[str, Any]:
    """Solve one request (see the module docstring) and return the response.

    Raises a :class:`~solver.errors.MeldwiseError` (a ``ValueError``) naming the
    bad field, tile, set or setting.
    """
    asked = read(SolveRequest, request)
    position = asked.position
    with spelling(asked.notation, asked.rules.colours):
        try:
            play = solve(
                position,
                asked.rules,
                asked.objective,
                limit=Limit(
                    time=asked.time_limit_ms / 1000,
                    disruption_time=asked.disruption_time_limit_ms / 1000,
                ),
                # Every hint level makes the same solve, so all report the same play: the
                # least-disruption stage also proves the score after opening, and on some
                # house rules (a binding max_jokers_per_set over long runs) proved a score
                # the score stage alone did not within its work, so a nudge that skipped
                # it said "no play found" where the full answer played 3 tiles.
                least_disruption=asked.disruption_time_limit_ms > 0,
                free_jokers=asked.free_jokers,
            )
        except TableError as error:  # a set of the request's table, refused
            raise error.nested_in("table") from None  # --table on the command line
        table = position.check(asked.rules) if asked.hint_level is HintLevel.TILE else ()
        view = None if asked.opponents is None else facing(position, asked.rules, asked.opponents)
        answer = hint_answer(play, asked.hint_level, table, view is not None and not view.pool_size)
        # What every hint level may add goes after the status, in HintAnswer's order
        # (its fields come before each level's own), as the answer reads over HTTP.
        added: dict[str, Any] = {}
        if view is not None:
            # A nudge or a tile hint must not give the play away through the advice.
            full = asked.hint_level is HintLevel.FULL
            # A nudge does not say that sets stand on the rack alone either.
            nudge = asked.hint_level is HintLevel.NUDGE
            # Its 'keeps' are tiles of the play this answer shows (the bot's own best
            # play may place as many other ones: R1 J where the answer plays O6 J).
            advice = advise(view, name_tiles=full, name_sets=not nudge, shown=play.played)
            added["advice"] = AdviceOut.answer(advice, asked.hint_level)
        if asked.free_jokers:
            added["free_jokers"] = play.free_jokers
        return {"status": answer.pop("status"), **added, **answer}


# --- validate: check a claimed move -----------------------------------------------------


class ValidateRequest(WrittenRequest):
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

    rack: list[AnyTile] = Field(description="the player's tiles before the move")
    table_before: list[TileSet] = Field(description="the table before the move (valid sets)")
    table_after: list[TileSet] = Field(description="the table the player left")
    opened: StrictBool = Field(default=True, description="the player had opened before this move")
    rules: RulesField = STANDARD
    lang: Lang = None
    notation: NotationField = Notation.RBKO


class ProblemOut(Answer):
    set: int | None = Field(description="index of the set in table_after, or null")
    reason: str


class ConsequenceOut(Answer):
    """What the rules say about an illegal move."""

    status: Status = Field(
        description="optimal: repairable is settled; unknown: the search stopped first"
    )
    repairable: bool | None = Field(
        description="whether the player can still put the move right (the tiles they laid "
        "down fit into a legal move from table_before): true, such a move was found; false, "
        "proven that none exists; null, not settled: the search stopped before finding "
        "either (status unknown)"
    )
    penalty_tiles: int = Field(
        description="tiles drawn from the pool (0 unless repairable is false: proven)"
    )
    back_to_rack: list[AnyTile] = Field(
        description="tiles that go back to the rack (empty unless repairable is false)"
    )
    text: str
    time_capped: TimeCapped

    @staticmethod
    def answer(found: Consequence) -> dict[str, Any]:
        penalty = found.penalty
        return {
            "status": found.status.value,
            "repairable": found.repairable,
            "penalty_tiles": 0 if penalty is None else penalty.tiles,
            "back_to_rack": [] if penalty is None else [spell(t) for t in penalty.back_to_rack],
            "text": found.text,
            "time_capped": found.time_capped,
        }


class ValidateResponse(Answer):
    """Whether the move is legal, the tiles it played and everything wrong with it."""

    legal: bool
    played: list[AnyTile] = Field(description="tiles that came onto the table")
    problems: list[ProblemOut] = Field(description="what is wrong; empty when legal")
    consequence: ConsequenceOut | None = Field(
        description="for an illegal move: can it still be put right, else the penalty "
        "(rules.penalty_tiles); null when legal"
    )

    @staticmethod
    def answer(verdict: Verdict, found: Consequence | None) -> dict[str, Any]:
        return {
            "legal": verdict.legal,
            "played": [spell(t) for t in verdict.played],
            "problems": [{"set": p.set, "reason": p.reason} for p in verdict.problems],
            "consequence": None if found is None else ConsequenceOut.answer(found),
        }


@speaks
def validate_rummikub(request: Mapping[str, Any] | ValidateRequest) -> dict[str, Any]:
    """Judge a claimed move and say exactly what is wrong with it.

    Request::

        {"rack": ["R5", "K1"], "table_before": [["R3", "R4", "R5", "R6", "R7"]],
         "table_after": [["R3", "R4", "R5"], ["R5", "R6", "R7"]], "opened": true,
         "rules": {}}

    Response::

        {"legal": true, "played": ["R5"], "problems": [], "consequence": null}

    ``problems`` lists each thing wrong: ``{"set": index in table_after or null,
    "reason": "..."}`` (an invalid set, a table tile that went missing, a tile not
    on the rack, a changed table with no rack tile placed, an opening under the
    threshold, the table touched before opening, a joker taken against
    ``joker_retrieval: "replace"``). A table left as it was is no play (the player
    draws): legal, with nothing played. For an illegal move,
    ``consequence`` says whether the player can still put it right (the tiles they
    laid down fit into a legal move) and otherwise the penalty:
    ``{"status": "optimal", "repairable": false, "penalty_tiles": 3,
    "back_to_rack": [...], "text": "...", "time_capped": false}`` (see
    :func:`solver.rummikub.repair.consequence`; ``time_capped``: the time limit, not the
    work bound, stopped its solve).

    A request that cannot describe a real game (an unknown tile, more copies than
    the game has, an invalid set in ``table_before``) raises a
    :class:`~solver.errors.MeldwiseError` naming it, like :func:`solve_rummikub`.
    """
    asked = read(ValidateRequest, request)
    rules = asked.rules
    rack = read_tiles(asked.rack, rules)
    before = tuple(read_tiles(tiles, rules) for tiles in asked.table_before)
    after = [list(read_tiles(tiles, rules)) for tiles in asked.table_after]
    with spelling(asked.notation, rules.colours):
        try:
            Position(rack, before, asked.opened).check(rules)
        except TableError as error:
            raise TableError(f"table_before: {error}").placed("table_before", error) from None
        after_counts: Counter[Tile] = Counter()
        for tiles in after:
            after_counts.update(rules.check_tile(tile) for tile in tiles)
        try:
            check_counts(after_counts, rules, _("in table_after"))
        except CountError as error:
            error.naming("table_after", quoted=False)  # --after on the command line
            raise
        verdict = check_play(list(rack), before, after, asked.opened, rules)
        found = None
        if not verdict.legal:
            found = consequence(list(rack), before, after, asked.opened, rules)
        return ValidateResponse.answer(verdict, found)


# --- score: the end of a round ----------------------------------------------------------


class ScoreRequest(RuledRequest):
    """The racks left at the end of a round, by player: the request of
    :func:`score_rummikub`."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"racks": {"ann": [], "bob": ["R5", "J"], "cy": ["K13", "O2"]}, "rules": {}}
            ]
        }
    )

    racks: dict[PlayerName, list[AnyTile]] = Field(
        min_length=1, description="each player's rack at the end of the round"
    )
    rules: RulesField = STANDARD
    lang: Lang = None


class PlayerScoreOut(Answer):
    name: str
    penalty: int = Field(description="face values left on the rack, a joker its penalty")
    score: int = Field(description="winner: sum of the others' penalties; others: -penalty")
    winner: bool = Field(description="the player emptied their rack")

    @staticmethod
    def answer(player: PlayerScore) -> dict[str, Any]:
        return {
            "name": player.name,
            "penalty": player.penalty,
            "score": player.score,
            "winner": player.winner,
        }


class ScoreResponse(Answer):
    players: list[PlayerScoreOut] = Field(description="in the order given")
    winners: list[str] = Field(description="players with an empty rack")


@speaks
def score_rummikub(request: Mapping[str, Any] | ScoreRequest) -> dict[str, Any]:
    """Score a finished round (see :mod:`solver.rummikub.scoring`)::

        {"racks": {"ann": [], "bob": ["R5", "J"], "cy": ["K13"]}, "rules": {}}

    answers, players in the order given::

        {"players": [{"name": "ann", "penalty": 0, "score": 48, "winner": true}, ...],
         "winners": ["ann"]}

    Raises a :class:`~solver.errors.MeldwiseError` (a ``ValueError``) naming the
    bad field, player, tile or setting.
    """
    asked = read(ScoreRequest, request)
    racks = {name: read_tiles(rack, asked.rules) for name, rack in asked.racks.items()}
    scores = score_round(racks, asked.rules)
    return {
        "players": [PlayerScoreOut.answer(s) for s in scores],
        "winners": [s.name for s in scores if s.winner],
    }


# --- repair: put a table that went wrong right ------------------------------------------


class RepairRequest(WrittenRequest):
    """A table that went wrong in a player's turn (with ``opened`` false, of a player
    who has not opened: ``table_before`` is then required): the request of
    :func:`repair_rummikub`."""

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
    rack: list[AnyTile] | None = Field(
        default=None, description="the player's rack: also find the best rescue with it"
    )
    opened: StrictBool = Field(
        default=True,
        description="the player had opened before this turn; false: the table before stays "
        "as it was and the tiles laid down (and the rack's) may only make new sets worth "
        "the opening threshold (table_before required)",
    )
    objective: Objective = Field(
        default=Objective.TILES, description="for the rescue: most tiles, or most points"
    )
    rules: RulesField = STANDARD
    time_limit_ms: TimeLimitMs = Field(
        default=round(DEFAULT_TIME_LIMIT * 1000),
        description="most milliseconds to spend; the server's time cap may lower it",
    )
    lang: Lang = None
    notation: NotationField = Notation.RBKO


class Arrangement(Answer):
    table: list[NumberedSetOut] = Field(description="the sets, as replaying the steps leaves them")
    steps: list[StepOut] = Field(
        description="actions that turn the table as it lies into these sets"
    )
    left_out: list[AnyTile] = Field(description="tiles no set holds (empty when repairable)")
    sets_kept: int = Field(description="sets of the table before (or valid sets now) kept whole")
    tiles_moved: int = Field(description="tiles of those sets that leave the set carrying them")
    disruption_proven: bool = Field(description="no arrangement as good is closer")


class PenaltyOut(Answer):
    tiles: int = Field(description="tiles the player draws from the pool (rules.penalty_tiles)")
    restore: list[TileSet] | None = Field(
        description="the table before the turn, put back; null when it was not given"
    )
    back_to_rack: list[AnyTile] = Field(description="tiles the player laid down, back to the rack")
    to_pool: list[AnyTile] | None = Field(
        description="tiles that cannot be placed, back to the pool; null when the search "
        "stopped before it found which"
    )
    text: str


class Rescue(Answer):
    status: Status = Field(description="optimal: the rescue, or that there is none, is proven")
    play: FullAnswer | None = Field(
        description="the best play placing every table tile and rack tiles; null: none does"
    )


class RepairResponse(Answer):
    """The verdict on a table, its arrangement, the penalty or the rescue."""

    status: Status = Field(
        description="optimal: the verdict (and, beyond repair, the fewest tiles left out) is "
        "proven; feasible: beyond repair is proven, the fewest left out is not; unknown: "
        "the search stopped before a verdict"
    )
    repairable: bool | None = Field(
        description="whether every table tile fits into valid sets: true, an arrangement was "
        "found; false, proven that none exists; null, not settled: the search stopped "
        "before finding either (status unknown)"
    )
    time_capped: bool
    arrangement: Arrangement | None = Field(
        description="every tile when repairable, else the most tiles that fit; null when "
        "repairable is null, or when none was found before the search stopped"
    )
    penalty: PenaltyOut | None = Field(
        description="the consequence when proven beyond repair (repairable false)"
    )
    free_jokers: int | None = Field(
        description="when repairable: table jokers no set needs (null otherwise, or not "
        "proven within the time limit)"
    )
    rescue: Rescue | None = Field(description="null when no rack was given")

    @staticmethod
    def answer(found: Repair) -> dict[str, Any]:
        arranged, penalty = found.arrangement, found.penalty
        return {
            "status": found.status.value,
            "repairable": found.repairable,
            "time_capped": found.time_capped,
            "arrangement": None
            if arranged is None
            else {
                "table": NumberedSetOut.numbered(
                    arranged.table, arranged.set_numbers, arranged.steps, arranged.rack_places
                ),
                "steps": [step_answer(s) for s in arranged.steps],
                "left_out": [spell(t) for t in arranged.left_out],
                "sets_kept": arranged.sets_kept,
                "tiles_moved": arranged.tiles_moved,
                "disruption_proven": arranged.disruption_proven,
            },
            "penalty": None
            if penalty is None
            else {
                "tiles": penalty.tiles,
                # Each joker as the table before wrote it (J(R4)): under "replace" a
                # plain R5 R6 J reads it as R7, another table than the one put back.
                "restore": None if penalty.restore is None else written_sets(penalty.restore),
                "back_to_rack": [spell(t) for t in penalty.back_to_rack],
                "to_pool": None if penalty.to_pool is None else [spell(t) for t in penalty.to_pool],
                "text": penalty.text,
            },
            "free_jokers": found.free_jokers,
            "rescue": None
            if found.rescue_status is None
            else {
                "status": found.rescue_status.value,
                "play": None if found.rescue is None else FullAnswer.answer(found.rescue),
            },
        }


@speaks
def repair_rummikub(request: Mapping[str, Any] | RepairRequest) -> dict[str, Any]:
    """Repair a table that went wrong (:class:`RepairRequest` in,
    :class:`RepairResponse` out; see :mod:`solver.rummikub.repair`): ``table`` is the
    table as it lies now (any heaps of tiles); ``table_before`` (the table before the
    turn, valid sets) and ``rack`` (for a rescue) are optional, ``opened`` (default
    true) false for a player who has not opened. ``repairable`` is true (an
    arrangement found), false (proven that none exists) or null (not settled: the
    search stopped first); ``penalty`` is given
    when the table is proven beyond repair; ``rescue`` is null without a rack, and its
    ``play`` null when no play rescues the table.

    Raises a :class:`~solver.errors.MeldwiseError` (a ``ValueError``) naming the bad
    field, tile, set or setting, as :func:`solve_rummikub` does."""
    asked = read(RepairRequest, request)
    if asked.rack is None and "objective" in asked.model_fields_set:
        # Without a rack there is no rescue to aim: it did nothing, unsaid (the command
        # line's --objective without --rack is refused so).
        raise RequestError(
            _("'objective' is for the rescue with a 'rack': give 'rack', or leave 'objective' out")
        ).naming("objective", "rack")
    rules = asked.rules
    before = asked.table_before
    with spelling(asked.notation, rules.colours):
        found = repair(
            [list(read_tiles(tiles, rules)) for tiles in asked.table],
            rules,
            before=None if before is None else [list(read_tiles(t, rules)) for t in before],
            rack=None if asked.rack is None else list(read_tiles(asked.rack, rules)),
            objective=asked.objective,
            opened=asked.opened,
            limit=Limit(asked.time_limit_ms / 1000),
        )
        return RepairResponse.answer(found)
