"""The wire schema: plain dicts in and out, shared by the library, CLI and HTTP.

Request::

    {"rack": ["R1", "R2", "J"], "table": [["R3", "R4", "R5"]], "opened": true,
     "objective": "tiles", "rules": {}, "time_limit_ms": 2000, "hint_level": "full"}

Response (``hint_level`` full)::

    {"status": "optimal", "hint_level": "full", "tiles_played": 3, "points_played": 33,
     "played": [...], "rack_left": [...],
     "table": [{"kind": "run", "tiles": [...], "as": [...]}, ...],
     "sets_kept": 1, "tiles_moved": 0, "disruption_proven": true, "time_capped": false,
     "steps": [{"action": "add", "tiles": [...], "to_set": 0, "from_rack": [...],
                "text": "..."}, ...]}

``nudge`` answers only status, can_play and tiles_played; ``tile`` adds one rack
tile of the play and where it goes (see :mod:`solver.rummikub.hints`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from solver.errors import RequestError, TableError
from solver.rummikub.engine import View
from solver.rummikub.hints import HintLevel, tile_hint
from solver.rummikub.legality import check_play
from solver.rummikub.melds import Meld
from solver.rummikub.play import Objective, Play
from solver.rummikub.position import Position, check_counts
from solver.rummikub.repair import Consequence, Repair, consequence, repair
from solver.rummikub.rules import Rules
from solver.rummikub.solve import DEFAULT_DISRUPTION_TIME_LIMIT, DEFAULT_TIME_LIMIT, solve
from solver.rummikub.steps import Action, Step
from solver.rummikub.strategy import Advice, advise
from solver.rummikub.tiles import Tile
from solver.wire import check_fields

MAX_TIME_LIMIT_MS = 300_000
MAX_RACK = 1000
"""Most tiles an opponent's rack may be said to hold (the game's tile count is checked)."""

REQUEST_FIELDS = (
    "rack",
    "table",
    "opened",
    "objective",
    "rules",
    "time_limit_ms",
    "hint_level",
    "disruption_time_limit_ms",
    "opponents",
    "free_jokers",
)


def solve_rummikub(request: Mapping[str, Any]) -> dict[str, Any]:
    """Solve one wire request and return the wire response.

    Raises a :class:`~solver.errors.MeldwiseError` (a ``ValueError``) naming the
    bad field, tile, set or setting.
    """
    asked = parse_request(request)
    play = solve(
        asked.position,
        asked.rules,
        asked.objective,
        time_limit=asked.time_limit,
        # A nudge shows no layout, so the least-disruption stage would change nothing.
        least_disruption=asked.disruption_time_limit > 0
        and asked.hint_level is not HintLevel.NUDGE,
        disruption_time_limit=asked.disruption_time_limit,
        free_jokers=asked.free_jokers,
    )
    answer = hint_to_dict(play, asked.hint_level, lambda: asked.position.check(asked.rules))
    if asked.free_jokers:
        answer["free_jokers"] = play.free_jokers
    if asked.opponents is not None:
        view = View.facing(asked.position, asked.rules, asked.opponents)
        answer["advice"] = advice_to_dict(advise(view))
    return answer


def advice_to_dict(advice: Advice) -> dict[str, Any]:
    """The strategic advice of a hint (asked for by giving ``opponents``)."""
    return {
        "holds_back": advice.holds_back,
        "draws": advice.draws,
        "plays": [str(t) for t in advice.plays],
        "keeps": [str(t) for t in advice.keeps],
        "text": advice.text,
    }


def hint_to_dict(
    play: Play, level: HintLevel, table: Callable[[], tuple[Meld, ...]]
) -> dict[str, Any]:
    """The wire response for ``play``, revealing only what ``level`` asks for
    (``table`` gives the table as read, needed to name sets in a tile hint)."""
    if level is HintLevel.FULL:
        return play_to_dict(play)
    answer: dict[str, Any] = {
        "status": play.status.value,
        "hint_level": level.value,
        "can_play": play.tiles_played > 0,
        "tiles_played": play.tiles_played,
    }
    if level is HintLevel.TILE:
        hint = tile_hint(play, table())
        answer["tile"] = None if hint is None else hint.tile
        answer["to_set"] = None if hint is None else hint.to_set
        answer["text"] = "No play: draw a tile." if hint is None else hint.text
    return answer


def _hint_level(name: Any) -> HintLevel:
    try:
        return HintLevel(name)
    except ValueError:
        raise RequestError(
            f"unknown hint_level {name!r:.60}; use 'nudge', 'tile' or 'full'"
        ) from None


@dataclass(frozen=True, slots=True)
class SolveRequest:
    """A wire request as typed values."""

    position: Position
    rules: Rules
    objective: Objective
    time_limit: float
    """Seconds."""
    hint_level: HintLevel
    disruption_time_limit: float = DEFAULT_DISRUPTION_TIME_LIMIT
    """Wall-clock seconds the least-disruption stage may take at most (within
    ``time_limit``; its work is bounded anyway); 0 skips it."""
    opponents: tuple[tuple[int, bool], ...] | None = None
    """The other players' (rack size, opened), in playing order: asks for advice."""
    free_jokers: bool = False
    """Whether to count the table jokers no set needs (one search more)."""


def parse_request(request: Mapping[str, Any]) -> SolveRequest:
    """Check a wire request and turn it into typed values (the position is not yet
    checked against the rules; :func:`solve` does that)."""
    check_fields(request, REQUEST_FIELDS, required=("rack",))
    rack = _tile_list(request["rack"], "rack")
    table_field = request.get("table", [])
    if not isinstance(table_field, list):
        raise RequestError(f"'table' must be a list of sets, got {table_field!r:.60}")
    table = [_tile_list(tiles, f"table set {i}") for i, tiles in enumerate(table_field)]
    opened = request.get("opened", True)
    if not isinstance(opened, bool):
        raise RequestError(f"'opened' must be true or false, got {opened!r:.60}")
    objective = _objective(request.get("objective", Objective.TILES.value))
    position = Position(
        rack=tuple(Tile.parse(t) for t in rack),
        table=tuple(tuple(Tile.parse(t) for t in tiles) for tiles in table),
        opened=opened,
    )
    return SolveRequest(
        position,
        Rules.from_dict(request.get("rules")),
        objective,
        _milliseconds(request, "time_limit_ms", DEFAULT_TIME_LIMIT, lowest=1) / 1000,
        _hint_level(request.get("hint_level", HintLevel.FULL.value)),
        _milliseconds(request, "disruption_time_limit_ms", DEFAULT_DISRUPTION_TIME_LIMIT) / 1000,
        None if request.get("opponents") is None else parse_opponents(request["opponents"]),
        _flag(request, "free_jokers"),
    )


def _flag(request: Mapping[str, Any], name: str) -> bool:
    value = request.get(name, False)
    if not isinstance(value, bool):
        raise RequestError(f"{name!r} must be true or false, got {value!r:.60}")
    return value


def _objective(name: Any) -> Objective:
    try:
        return Objective(name)
    except ValueError:
        raise RequestError(f"unknown objective {name!r:.60}; use 'tiles' or 'points'") from None


def parse_opponents(value: Any) -> tuple[tuple[int, bool], ...]:
    """``[{"rack_size": 9, "opened": true}, ...]`` as (rack size, opened) pairs."""
    if not isinstance(value, list) or not value:
        raise RequestError(
            "'opponents' must be a non-empty list of objects like "
            '{"rack_size": 9, "opened": true}'
        )
    found = []
    for index, opponent in enumerate(value):
        where = f"opponents[{index}]"
        if not isinstance(opponent, Mapping):
            raise RequestError(f"{where} must be an object, got {opponent!r:.40}")
        check_fields(opponent, ("rack_size", "opened"), required=("rack_size",))
        size, opened = opponent["rack_size"], opponent.get("opened", False)
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_RACK:
            raise RequestError(f"{where}.rack_size must be 1 to {MAX_RACK}, got {size!r:.40}")
        if not isinstance(opened, bool):
            raise RequestError(f"{where}.opened must be true or false, got {opened!r:.40}")
        found.append((size, opened))
    return tuple(found)


def _milliseconds(request: Mapping[str, Any], name: str, default_s: float, lowest: int = 0) -> int:
    """A whole number of milliseconds from ``lowest`` to :data:`MAX_TIME_LIMIT_MS`."""
    value = request.get(name, round(default_s * 1000))
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(f"{name!r} must be a whole number, got {value!r:.60}")
    if not lowest <= value <= MAX_TIME_LIMIT_MS:
        raise RequestError(f"{name!r} must be {lowest} to {MAX_TIME_LIMIT_MS}, got {value}")
    return value


def _tile_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise RequestError(f"{where} must be a list of tile strings, got {value!r:.60}")
    return value


def meld_to_dict(meld: Meld) -> dict[str, Any]:
    return {
        "kind": meld.kind.value,
        "tiles": [str(t) for t in meld.tiles],
        "as": [str(t) for t in meld.stands_for],
    }


def step_to_dict(step: Step) -> dict[str, Any]:
    answer: dict[str, Any] = {"action": step.action.value}
    if step.action is Action.SPLIT:
        assert step.at is not None
        answer |= {
            "set": step.set,
            "at": str(step.at),
            "at_index": step.at_index,
            "new_set": step.new_set,
        }
    else:
        answer["tiles"] = [str(t) for t in step.tiles]
        if step.action is Action.TAKE:
            answer["from_set"] = step.set
        elif step.action is Action.ADD:
            answer["to_set"] = step.set
        else:
            answer["set"] = step.set
        if step.action is not Action.TAKE:
            answer["from_rack"] = [str(t) for t in step.from_rack]
    answer["text"] = step.text
    return answer


def play_to_dict(play: Play) -> dict[str, Any]:
    """The full wire response for a play."""
    return {
        "status": play.status.value,
        "hint_level": HintLevel.FULL.value,
        "tiles_played": play.tiles_played,
        "points_played": play.points_played,
        "played": [str(t) for t in play.played],
        "rack_left": [str(t) for t in play.rack_left],
        "table": [meld_to_dict(m) for m in play.table],
        "sets_kept": play.sets_kept,
        "tiles_moved": play.tiles_moved,
        "disruption_proven": play.disruption_proven,
        "time_capped": play.time_capped,
        "steps": [step_to_dict(s) for s in play.steps],
    }


# --- check my move: the validate endpoint's wire function ---------------------------

VALIDATE_FIELDS = ("rack", "table_before", "table_after", "opened", "rules")


def validate_rummikub(request: Mapping[str, Any]) -> dict[str, Any]:
    """Judge a claimed move and say exactly what is wrong with it.

    Request::

        {"rack": ["R5", "K1"], "table_before": [["R3", "R4", "R5", "R6", "R7"]],
         "table_after": [["R3", "R4", "R5"], ["R5", "R6", "R7"]], "opened": true,
         "rules": {}}

    Response::

        {"legal": true, "played": ["R5"], "problems": [], "consequence": null}

    ``problems`` lists each thing wrong: ``{"set": index in table_after or null,
    "reason": "..."}`` (an invalid set, a table tile that went missing, a tile not
    on the rack, an opening under the threshold, the table touched before opening, a
    joker taken against ``joker_retrieval: "replace"``). For an illegal move,
    ``consequence`` says whether the player can still put it right (the tiles they
    laid down fit into a legal move) and otherwise the penalty:
    ``{"status": "optimal", "repairable": false, "penalty_tiles": 3,
    "back_to_rack": [...], "text": "..."}`` (see :func:`solver.rummikub.repair.consequence`).

    A request that cannot describe a real game (an unknown tile, more copies than
    the game has, an invalid set in ``table_before``) raises a
    :class:`~solver.errors.MeldwiseError` naming it, like :func:`solve_rummikub`.
    """
    check_fields(request, VALIDATE_FIELDS, required=("rack", "table_before", "table_after"))
    rack = [Tile.parse(t) for t in _tile_list(request["rack"], "rack")]
    before = _tile_sets(request["table_before"], "table_before")
    after = _tile_sets(request["table_after"], "table_after")
    opened = request.get("opened", True)
    if not isinstance(opened, bool):
        raise RequestError(f"'opened' must be true or false, got {opened!r:.60}")
    rules = Rules.from_dict(request.get("rules"))
    try:
        Position(tuple(rack), tuple(map(tuple, before)), opened).check(rules)
    except TableError as error:
        raise TableError(f"table_before: {error}") from None
    after_counts: Counter[Tile] = Counter()
    for tiles in after:
        after_counts.update(rules.check_tile(tile) for tile in tiles)
    check_counts(after_counts, rules, "in table_after")
    verdict = check_play(rack, before, after, opened, rules)
    return {
        "legal": verdict.legal,
        "played": [str(t) for t in verdict.played],
        "problems": [{"set": p.set, "reason": p.reason} for p in verdict.problems],
        "consequence": None
        if verdict.legal
        else consequence_to_dict(consequence(rack, before, after, opened, rules)),
    }


def consequence_to_dict(found: Consequence) -> dict[str, Any]:
    """What the rules say about an illegal move, for the wire."""
    penalty = found.penalty
    return {
        "status": found.status.value,
        "repairable": found.repairable,
        "penalty_tiles": 0 if penalty is None else penalty.tiles,
        "back_to_rack": [] if penalty is None else [str(t) for t in penalty.back_to_rack],
        "text": found.text,
    }


def _tile_sets(value: Any, where: str) -> list[list[Tile]]:
    if not isinstance(value, list):
        raise RequestError(f"{where!r} must be a list of sets, got {value!r:.60}")
    return [
        [Tile.parse(t) for t in _tile_list(tiles, f"{where} set {i}")]
        for i, tiles in enumerate(value)
    ]


# --- put the table right: the repair endpoint's wire function -----------------------

REPAIR_FIELDS = ("table", "table_before", "rack", "objective", "rules", "time_limit_ms")


def repair_rummikub(request: Mapping[str, Any]) -> dict[str, Any]:
    """Repair a table that went wrong (see :mod:`solver.rummikub.repair`).

    Request::

        {"table": [["R1", "R2"], ["R3", "B3", "K3", "O3"], ["R4", "R5"]],
         "table_before": [["R3", "B3", "K3", "O3"]], "rack": ["R6"],
         "objective": "tiles", "rules": {}, "time_limit_ms": 2000}

    ``table`` is the table as it lies now (any heaps of tiles); ``table_before`` (the
    table before the turn, valid sets) and ``rack`` (for a rescue) are optional.

    Response::

        {"status": "optimal", "repairable": true, "time_capped": false,
         "arrangement": {"table": [...sets], "steps": [...], "left_out": [],
                         "sets_kept": 1, "tiles_moved": 1, "disruption_proven": true},
         "penalty": null, "free_jokers": 0,
         "rescue": {"status": "optimal", "play": {...a full solve answer}}}

    ``penalty`` (when the table is proven beyond repair): ``{"tiles": 3, "restore":
    [...sets] or null, "back_to_rack": [...], "to_pool": [...], "text": "..."}``.
    ``rescue`` is null without a rack; its ``play`` is null when no play rescues the table.
    """
    check_fields(request, REPAIR_FIELDS, required=("table",))
    table = _tile_sets(request["table"], "table")
    before = request.get("table_before")
    rack = request.get("rack")
    objective = _objective(request.get("objective", Objective.TILES.value))
    answer = repair(
        table,
        Rules.from_dict(request.get("rules")),
        before=None if before is None else _tile_sets(before, "table_before"),
        rack=None if rack is None else [Tile.parse(t) for t in _tile_list(rack, "rack")],
        objective=objective,
        time_limit=_milliseconds(request, "time_limit_ms", DEFAULT_TIME_LIMIT, lowest=1) / 1000,
    )
    return repair_to_dict(answer)


def repair_to_dict(answer: Repair) -> dict[str, Any]:
    """The wire response for a repair."""
    arranged = answer.arrangement
    penalty = answer.penalty
    return {
        "status": answer.status.value,
        "repairable": answer.repairable,
        "time_capped": answer.time_capped,
        "arrangement": None
        if arranged is None
        else {
            "table": [meld_to_dict(m) for m in arranged.table],
            "steps": [step_to_dict(s) for s in arranged.steps],
            "left_out": [str(t) for t in arranged.left_out],
            "sets_kept": arranged.sets_kept,
            "tiles_moved": arranged.tiles_moved,
            "disruption_proven": arranged.disruption_proven,
        },
        "penalty": None
        if penalty is None
        else {
            "tiles": penalty.tiles,
            "restore": None
            if penalty.restore is None
            else [[str(t) for t in tiles] for tiles in penalty.restore],
            "back_to_rack": [str(t) for t in penalty.back_to_rack],
            "to_pool": [str(t) for t in penalty.to_pool],
            "text": penalty.text,
        },
        "free_jokers": answer.free_jokers,
        "rescue": None
        if answer.rescue_status is None
        else {
            "status": answer.rescue_status.value,
            "play": None if answer.rescue is None else play_to_dict(answer.rescue),
        },
    }
