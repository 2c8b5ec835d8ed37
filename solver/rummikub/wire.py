"""The wire schema: plain dicts in and out, shared by the library, CLI and HTTP.

Request::

    {"rack": ["R1", "R2", "J"], "table": [["R3", "R4", "R5"]], "opened": true,
     "objective": "tiles", "rules": {}, "time_limit_ms": 2000, "hint_level": "full",
     "lang": "en", "notation": "RBKO"}

``lang`` (``en`` or ``ja``) is the language of every text, error messages included;
``notation`` ``RBYK`` writes the tiles of the fourth colour (orange, 黄) with ``Y``
(see :mod:`solver.rummikub.tiles`). Neither changes anything else in the answer.

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
from solver.i18n import _, speaks
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
from solver.rummikub.tiles import Colour, Notation, Tile, spell, spelling
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
    "lang",
    "notation",
    "opponents",
    "free_jokers",
)


@speaks
def solve_rummikub(request: Mapping[str, Any]) -> dict[str, Any]:
    """Solve one wire request and return the wire response.

    Raises a :class:`~solver.errors.MeldwiseError` (a ``ValueError``) naming the
    bad field, tile, set or setting.
    """
    asked = parse_request(request)
    with spelling(asked.notation, asked.rules.colours):
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
        "plays": [spell(t) for t in advice.plays],
        "keeps": [spell(t) for t in advice.keeps],
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
        answer["text"] = _("No play: draw a tile.") if hint is None else hint.text
    return answer


def _hint_level(name: Any) -> HintLevel:
    try:
        return HintLevel(name)
    except ValueError:
        raise RequestError(
            _("unknown hint_level {name!r:.60}; use 'nudge', 'tile' or 'full'", name=name)
        ) from None


def _notation(name: Any, rules: Rules) -> Notation:
    """The requested notation, which may spell orange Y only when yellow is not a colour."""
    try:
        notation = Notation(name)
    except ValueError:
        raise RequestError(
            _("unknown notation {name!r:.60}; use 'RBKO' or 'RBYK'", name=name)
        ) from None
    if notation is Notation.RBYK and rules.colours > Colour.YELLOW.index:
        raise RequestError(
            _(
                "notation 'RBYK' writes orange as Y, but this game of {colours} colours has"
                " yellow (Y) too; use 'RBKO'",
                colours=rules.colours,
            )
        )
    return notation


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
    notation: Notation = Notation.RBKO
    """How the answer writes tiles."""
    free_jokers: bool = False
    """Whether to count the table jokers no set needs (one search more)."""


def parse_request(request: Mapping[str, Any]) -> SolveRequest:
    """Check a wire request and turn it into typed values (the position is not yet
    checked against the rules; :func:`solve` does that)."""
    check_fields(request, REQUEST_FIELDS, required=("rack",))
    rack = _tile_list(request["rack"], "rack")
    table_field = request.get("table", [])
    if not isinstance(table_field, list):
        raise RequestError(
            _("'table' must be a list of sets, got {value!r:.60}", value=table_field)
        )
    table = [
        _tile_list(tiles, _("table set {index}", index=i)) for i, tiles in enumerate(table_field)
    ]
    opened = _opened(request)
    objective = _objective(request)
    rules = Rules.from_dict(request.get("rules"))
    position = Position(
        rack=tuple(_read_tiles(rack, rules)),
        table=tuple(tuple(_read_tiles(tiles, rules)) for tiles in table),
        opened=opened,
    )
    return SolveRequest(
        position,
        rules,
        objective,
        _milliseconds(request, "time_limit_ms", DEFAULT_TIME_LIMIT, lowest=1) / 1000,
        _hint_level(request.get("hint_level", HintLevel.FULL.value)),
        _milliseconds(request, "disruption_time_limit_ms", DEFAULT_DISRUPTION_TIME_LIMIT) / 1000,
        None if request.get("opponents") is None else parse_opponents(request["opponents"]),
        _notation(request.get("notation", Notation.RBKO.value), rules),
        _flag(request, "free_jokers"),
    )


def _objective(request: Mapping[str, Any]) -> Objective:
    name = request.get("objective", Objective.TILES.value)
    try:
        return Objective(name)
    except ValueError:
        raise RequestError(
            _("unknown objective {name!r:.60}; use 'tiles' or 'points'", name=name)
        ) from None


def _flag(request: Mapping[str, Any], name: str) -> bool:
    value = request.get(name, False)
    if not isinstance(value, bool):
        raise RequestError(
            _("{name!r} must be true or false, got {value!r:.60}", name=name, value=value)
        )
    return value


def _read_tiles(words: list[str], rules: Rules) -> list[Tile]:
    """Tiles as this game reads them (``Y5`` is orange in the standard game)."""
    return [rules.canonical(Tile.parse(word)) for word in words]


def _opened(request: Mapping[str, Any]) -> bool:
    opened = request.get("opened", True)
    if not isinstance(opened, bool):
        raise RequestError(_("'opened' must be true or false, got {value!r:.60}", value=opened))
    return opened


def parse_opponents(value: Any) -> tuple[tuple[int, bool], ...]:
    """``[{"rack_size": 9, "opened": true}, ...]`` as (rack size, opened) pairs."""
    if not isinstance(value, list) or not value:
        raise RequestError(
            _(
                "'opponents' must be a non-empty list of objects like {example}",
                example='{"rack_size": 9, "opened": true}',
            )
        )
    found = []
    for index, opponent in enumerate(value):
        where = f"opponents[{index}]"
        if not isinstance(opponent, Mapping):
            raise RequestError(
                _("{where} must be an object, got {value!r:.40}", where=where, value=opponent)
            )
        check_fields(opponent, ("rack_size", "opened"), required=("rack_size",))
        size, opened = opponent["rack_size"], opponent.get("opened", False)
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_RACK:
            raise RequestError(
                _(
                    "{where}.rack_size must be 1 to {most}, got {value!r:.40}",
                    where=where,
                    most=MAX_RACK,
                    value=size,
                )
            )
        if not isinstance(opened, bool):
            raise RequestError(
                _(
                    "{where}.opened must be true or false, got {value!r:.40}",
                    where=where,
                    value=opened,
                )
            )
        found.append((size, opened))
    return tuple(found)


def _milliseconds(request: Mapping[str, Any], name: str, default_s: float, lowest: int = 0) -> int:
    """A whole number of milliseconds from ``lowest`` to :data:`MAX_TIME_LIMIT_MS`."""
    value = request.get(name, round(default_s * 1000))
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(
            _("{name!r} must be a whole number, got {value!r:.60}", name=name, value=value)
        )
    if not lowest <= value <= MAX_TIME_LIMIT_MS:
        raise RequestError(
            _(
                "{name!r} must be {lowest} to {highest}, got {value}",
                name=name,
                lowest=lowest,
                highest=MAX_TIME_LIMIT_MS,
                value=value,
            )
        )
    return value


def _tile_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise RequestError(
            _(
                "{where} must be a list of tile strings, got {value!r:.60}",
                where=where,
                value=value,
            )
        )
    return value


def meld_to_dict(meld: Meld) -> dict[str, Any]:
    return {
        "kind": meld.kind.value,
        "tiles": [spell(t) for t in meld.tiles],
        "as": [spell(t) for t in meld.stands_for],
    }


def step_to_dict(step: Step) -> dict[str, Any]:
    answer: dict[str, Any] = {"action": step.action.value}
    if step.action is Action.SPLIT:
        assert step.at is not None
        answer |= {
            "set": step.set,
            "at": spell(step.at),
            "at_index": step.at_index,
            "new_set": step.new_set,
        }
    else:
        answer["tiles"] = [spell(t) for t in step.tiles]
        if step.action is Action.TAKE:
            answer["from_set"] = step.set
        elif step.action is Action.ADD:
            answer["to_set"] = step.set
        else:
            answer["set"] = step.set
        if step.action is not Action.TAKE:
            answer["from_rack"] = [spell(t) for t in step.from_rack]
    answer["text"] = step.text
    return answer


def play_to_dict(play: Play) -> dict[str, Any]:
    """The full wire response for a play."""
    return {
        "status": play.status.value,
        "hint_level": HintLevel.FULL.value,
        "tiles_played": play.tiles_played,
        "points_played": play.points_played,
        "played": [spell(t) for t in play.played],
        "rack_left": [spell(t) for t in play.rack_left],
        "table": [meld_to_dict(m) for m in play.table],
        "sets_kept": play.sets_kept,
        "tiles_moved": play.tiles_moved,
        "disruption_proven": play.disruption_proven,
        "time_capped": play.time_capped,
        "steps": [step_to_dict(s) for s in play.steps],
    }


# --- check my move: the validate endpoint's wire function ---------------------------

VALIDATE_FIELDS = ("rack", "table_before", "table_after", "opened", "rules", "lang", "notation")


@speaks
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
    rules = Rules.from_dict(request.get("rules"))
    rack = _read_tiles(_tile_list(request["rack"], "rack"), rules)
    before = _tile_sets(request["table_before"], "table_before", rules)
    after = _tile_sets(request["table_after"], "table_after", rules)
    opened = _opened(request)
    notation = _notation(request.get("notation", Notation.RBKO.value), rules)
    with spelling(notation, rules.colours):
        try:
            Position(tuple(rack), tuple(map(tuple, before)), opened).check(rules)
        except TableError as error:
            raise TableError(f"table_before: {error}") from None
        after_counts: Counter[Tile] = Counter()
        for tiles in after:
            after_counts.update(rules.check_tile(tile) for tile in tiles)
        check_counts(after_counts, rules, _("in table_after"))
        verdict = check_play(rack, before, after, opened, rules)
        return {
            "legal": verdict.legal,
            "played": [spell(t) for t in verdict.played],
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
        "back_to_rack": [] if penalty is None else [spell(t) for t in penalty.back_to_rack],
        "text": found.text,
    }


def _tile_sets(value: Any, where: str, rules: Rules) -> list[list[Tile]]:
    if not isinstance(value, list):
        raise RequestError(
            _("{where!r} must be a list of sets, got {value!r:.60}", where=where, value=value)
        )
    return [
        _read_tiles(_tile_list(tiles, _("{where} set {index}", where=where, index=i)), rules)
        for i, tiles in enumerate(value)
    ]


# --- put the table right: the repair endpoint's wire function -----------------------

REPAIR_FIELDS = (
    "table",
    "table_before",
    "rack",
    "objective",
    "rules",
    "time_limit_ms",
    "lang",
    "notation",
)


@speaks
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
    rules = Rules.from_dict(request.get("rules"))
    table = _tile_sets(request["table"], "table", rules)
    before = request.get("table_before")
    rack = request.get("rack")
    objective = _objective(request)
    notation = _notation(request.get("notation", Notation.RBKO.value), rules)
    with spelling(notation, rules.colours):
        answer = repair(
            table,
            rules,
            before=None if before is None else _tile_sets(before, "table_before", rules),
            rack=None if rack is None else _read_tiles(_tile_list(rack, "rack"), rules),
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
            "left_out": [spell(t) for t in arranged.left_out],
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
            else [[spell(t) for t in tiles] for tiles in penalty.restore],
            "back_to_rack": [spell(t) for t in penalty.back_to_rack],
            "to_pool": [spell(t) for t in penalty.to_pool],
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
