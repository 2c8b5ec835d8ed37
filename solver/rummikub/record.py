"""The game record: a whole Rummikub game as JSON, and its replay.

Format ``meldwise-rummikub-game``, version 1 (documented in ``docs/games.md``)::

    {"format": "meldwise-rummikub-game", "version": 1,
     "settings": {"rules": {...}, "players": 2, "hand": 14, "pool_empty": "play_on"},
     "seed": 7, "players": ["strong", "greedy"],
     "deal": {"racks": [["B1", ...], [...]], "pool": ["R5", ...]},
     "turns": [{"turn": 1, "player": 0, "rack": [...], "table_before": [],
                "action": "play", "played": [...], "drawn": null,
                "table_after": [[...], ...]},
               {"turn": 2, "player": 1, "rack": [...], "table_before": [[...]],
                "action": "draw", "played": [], "drawn": "K9", "table_after": [[...]]},
               ...],
     "result": {"end": "out", "winners": [0], "racks": [[], [...]],
                "penalties": [0, 41], "scores": [41, -41]}}

``pool`` lists the undealt tiles in the order they are drawn. ``seed``, ``players``
(names by seat), ``deal`` and ``result`` are optional: a review needs only the
turns, a replay needs the deal (or the seed it was shuffled from). The models
below are the format's one definition: the library, the CLI and the HTTP service
all read records through them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from solver.arena.runner import MAX_SEED
from solver.arguments import checked
from solver.errors import MeldwiseError
from solver.i18n import _, _n, clauses
from solver.record import RecordError, RecordModel, StrictModel, read_model, seat_names, seats_named
from solver.rummikub.engine import (
    Action,
    Deal,
    End,
    Game,
    GameSettings,
    Move,
    Outcome,
    Table,
    Turn,
    added_tiles,
    round_outcome,
)
from solver.rummikub.notation import (
    Notation,
    Tile,
    format_tiles,
    spell,
    spelling,
    written_sets,
)
from solver.rummikub.rules import Rules
from solver.wire import PlayerName

FORMAT: Literal["meldwise-rummikub-game"] = "meldwise-rummikub-game"
VERSION: Literal[1] = 1


# --- the JSON format ------------------------------------------------------------------


class TurnEntry(StrictModel):
    """One turn: the rack before it, the table before and after, what was done."""

    turn: int = Field(ge=1, description="1 for the first turn of the game")
    player: int = Field(ge=0, description="the seat that played the turn, from 0")
    rack: list[str] = Field(description="the player's rack before the turn")
    table_before: list[list[str]] = Field(description="the sets on the table before the turn")
    action: Literal["play", "draw", "pass"] = Field(
        description="play: tiles went onto the table; draw: one tile was drawn; "
        "pass: no play and the pool was empty"
    )
    # In the order record_to_dict writes a turn (and docs/games.md shows it): a record
    # sent back over HTTP, written from this model, reads as the library's.
    played: list[str] | None = Field(
        default=None, description="the rack tiles played (optional; checked when given)"
    )
    drawn: str | None = Field(default=None, description="the tile drawn, for a draw")
    table_after: list[list[str]] | None = Field(
        default=None, description="the table after the turn (required for a play)"
    )


class DealEntry(StrictModel):
    racks: list[list[str]] = Field(description="each seat's rack as dealt")
    pool: list[str] = Field(description="the undealt tiles, in the order they are drawn")


class ResultEntry(StrictModel):
    end: Literal["out", "blocked"]
    winners: list[int]
    racks: list[list[str]] = Field(description="each seat's rack at the end")
    penalties: list[int]
    scores: list[int]


class GameRecordModel(RecordModel):
    """A Rummikub game record, version 1."""

    format: Literal["meldwise-rummikub-game"] = FORMAT
    version: int = Field(default=VERSION, ge=VERSION, le=VERSION, description="the version: 1")
    settings: dict[str, Any] = Field(
        default_factory=dict,
        description="rules (the Rummikub rule settings), players, hand, pool_empty",
    )
    # The bounds a game deals from (meldwise game --seed): a seed out of them was read
    # without a word, or said to shuffle another deal (-1 shuffles as 1).
    seed: int | None = Field(
        default=None, ge=0, le=MAX_SEED, description="the seed the deal was shuffled from"
    )
    players: list[PlayerName] | None = Field(default=None, description="a name for each seat")
    deal: DealEntry | None = None
    turns: list[TurnEntry]
    result: ResultEntry | None = None


# --- typed values ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A record read into domain values."""

    settings: GameSettings
    turns: tuple[Turn, ...]
    seed: int | None = None
    players: tuple[str, ...] | None = None
    deal: Deal | None = None
    outcome: Outcome | None = None


def record_to_dict(game: Game, players: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of ``game`` (finished or not) as a JSON object; ``players`` names the
    seats (a name over the record's limit shortened, see :func:`~solver.record.seat_name`),
    or None for a record without names (the format's ``players`` is optional).

    Raises :class:`~solver.errors.RequestError` naming ``players`` when it is no list
    of one name per seat (:func:`~solver.record.seat_names`), and ``game`` when it is no
    :class:`Game` (an AttributeError once)."""
    game = checked(game, Game, "game")
    answer: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "settings": game.settings.to_dict(),
        "seed": game.seed,
        "players": None if players is None else seat_names(players, game.settings.players),
        "deal": {
            "racks": [_tiles(rack) for rack in game.deal.racks],
            "pool": _tiles(game.deal.pool),
        },
        "turns": [turn_to_dict(turn) for turn in game.turns],
        "result": None,
    }
    if game.outcome is not None:
        out = game.outcome
        answer["result"] = {
            "end": out.end.value,
            "winners": list(out.winners),
            "racks": [_tiles(rack) for rack in out.racks],
            "penalties": list(out.penalties),
            "scores": list(out.scores),
        }
    return answer


def turn_to_dict(turn: Turn) -> dict[str, Any]:
    """One turn of the record; every field is written (``drawn`` null but for a draw)."""
    return {
        "turn": turn.number,
        "player": turn.player,
        "rack": _tiles(turn.rack),
        "table_before": written_sets(turn.table_before),
        "action": turn.action.value,
        "played": _tiles(turn.played),
        "drawn": None if turn.drawn is None else spell(turn.drawn),
        "table_after": written_sets(turn.table_after),
    }


def read_record(data: Any, notation: Notation = Notation.RBKO) -> GameRecord:
    """Read a record (a JSON object) into typed values.

    Raises :class:`~solver.errors.MeldwiseError` naming the bad field or tile; an error
    writes tiles and names the game's colours in ``notation`` when it fits the record's
    game (``Y`` for orange under ``RBYK``; one that does not is the caller's to refuse,
    :func:`~solver.rummikub.wire.check_notation`).
    """
    notation = Notation.read(notation)
    model = read_model(GameRecordModel, data)
    settings = GameSettings.read(model.settings, "settings")
    colours = settings.rules.colours
    with spelling(notation if notation.fits(colours) else Notation.RBKO, colours):
        return _read_game(model, settings)


def _read_game(model: GameRecordModel, settings: GameSettings) -> GameRecord:
    """The record of ``model``, a game played under ``settings``."""
    rules = settings.rules
    deal = None
    if model.deal is not None:
        deal = Deal(
            tuple(
                _parse(rack, f"deal.racks[{i}]", rules) for i, rack in enumerate(model.deal.racks)
            ),
            _parse(model.deal.pool, "deal.pool", rules),
        )
        try:
            deal.check(settings)  # else a review would go on under settings it contradicts
        except MeldwiseError as error:
            # Not quoted: the word is said in the message's language (配牌).
            raise RecordError(_("deal: {problem}", problem=error)).about("deal") from None
        if model.seed is not None and _dealt(Deal.shuffle(settings, model.seed)) != _dealt(deal):
            raise RecordError(
                _("seed: the deal is not the one seed {seed} shuffles", seed=model.seed)
            ).at("seed")
    turns = tuple(_read_turn(entry, index, rules) for index, entry in enumerate(model.turns))
    outcome = None
    if model.result is not None:
        result = model.result
        _check_result(result, settings.players)
        outcome = Outcome(
            End(result.end),
            tuple(result.winners),
            tuple(_parse(rack, f"result.racks[{i}]", rules) for i, rack in enumerate(result.racks)),
            tuple(result.penalties),
            tuple(result.scores),
            len(turns),
        )
        _check_outcome(outcome, rules)
    players = tuple(model.players) if model.players is not None else None
    if players is not None and len(players) != settings.players:
        raise RecordError(seats_named(len(players), settings.players)).naming("players")
    for index, turn in enumerate(turns):
        if turn.player >= settings.players:
            raise RecordError(
                _(
                    "turns[{index}]: player {player} in a game of {players} players",
                    index=index,
                    player=turn.player,
                    players=settings.players,
                )
            ).at(f"turns[{index}]")
    return GameRecord(settings, turns, model.seed, players, deal, outcome)


def _check_result(result: ResultEntry, players: int) -> None:
    for name in ("racks", "penalties", "scores"):
        count = len(getattr(result, name))
        if count != players:
            raise RecordError(
                _n(
                    "result.{name} has {n} entry for {players} players",
                    "result.{name} has {n} entries for {players} players",
                    count,
                    name=name,
                    players=players,
                )
            ).at(f"result.{name}")
    for seat in result.winners:
        if not 0 <= seat < players:
            raise RecordError(
                _(
                    "result.winners: {seat} is not a seat of {players} players",
                    seat=seat,
                    players=players,
                )
            ).at("result.winners")


def _check_outcome(outcome: Outcome, rules: Rules) -> None:
    """A result agrees with itself: the penalties, scores and winners its racks give
    (a round ended "out" by the one player whose rack is empty)."""
    emptied = [seat for seat, rack in enumerate(outcome.racks) if not rack]
    out = outcome.end is End.OUT
    if out and (len(outcome.winners) != 1 or outcome.winners[0] not in emptied):
        raise RecordError(
            _("result: a round ended 'out' has one winner, a player whose rack is empty")
        ).at("result")
    if out and len(emptied) > 1:
        # The round ends as the first rack empties: a second empty rack scored as the
        # winner's too (the scores no longer added up to zero).
        other = next(seat for seat in emptied if seat != outcome.winners[0])
        raise RecordError(
            _(
                "result: a round ended 'out' leaves only the winner's rack empty, but player"
                " {seat}'s is empty too",
                seat=other,
            )
        ).at("result")
    if not out and emptied:
        # A player who empties the rack ends the round 'out': a 'blocked' result with an
        # empty rack was read, its player scored as a winner of a round nobody won.
        raise RecordError(
            _(
                "result: a round ended 'blocked' leaves no rack empty, but player {seat}'s is",
                seat=emptied[0],
            )
        ).at("result")
    mover = outcome.winners[0] if out else 0
    try:
        expected = round_outcome(outcome.end, outcome.racks, rules, outcome.turns, mover)
    except MeldwiseError as error:
        raise RecordError(_("result: {problem}", problem=error)).at("result") from None
    # The first field that does not follow, named: "its racks give penalties [0, 7],
    # scores [7, -7] and winners [0]" left the reader to find which of the three was edited.
    for name, given, right in (
        ("penalties", outcome.penalties, expected.penalties),
        ("scores", outcome.scores, expected.scores),
        ("winners", outcome.winners, expected.winners),
    ):
        if given != right:
            raise RecordError(
                _(
                    "result.{name} is {given}, but the result's racks give {right}",
                    name=name,
                    given=list(given),
                    right=list(right),
                )
            ).at(f"result.{name}")


def _dealt(deal: Deal) -> tuple[list[list[Tile]], tuple[Tile, ...]]:
    """A deal compared: each rack as a multiset, the pool in its order."""
    return [sorted(rack) for rack in deal.racks], deal.pool


def _read_turn(entry: TurnEntry, index: int, rules: Rules) -> Turn:
    """:func:`_turn`, its errors placed at the turn when they name no place within it."""
    try:
        return _turn(entry, index, rules)
    except RecordError as error:
        raise (error if error.places else error.at(f"turns[{index}]")) from None


def _turn(entry: TurnEntry, index: int, rules: Rules) -> Turn:
    where = f"turns[{index}]"
    rack = _parse(entry.rack, f"{where}.rack", rules)
    before = _parse_table(entry.table_before, f"{where}.table_before", rules)
    action = Action(entry.action)
    if action is Action.PLAY:
        if entry.table_after is None:
            raise RecordError(_("{where}: a play needs 'table_after'", where=where)).at(
                where, "table_after"
            )
        if entry.drawn is not None:
            # Once read and dropped without a word, whatever it said (even no tile).
            raise RecordError(
                _("{where}: a {action} draws no tile", where=where, action=action.value)
            )
        after = _parse_table(entry.table_after, f"{where}.table_after", rules)
        played = added_tiles(before, after)
        claimed = (
            None if entry.played is None else sorted(_parse(entry.played, f"{where}.played", rules))
        )
        if claimed is not None and claimed != list(played):
            raise RecordError(
                _(
                    "{where}: 'played' ({claimed}) is not what table_after adds to table_before"
                    " ({added})",
                    where=where,
                    claimed=format_tiles(claimed),
                    added=format_tiles(played),
                )
            ).at(where, "played")
        return Turn(entry.turn, entry.player, rack, before, action, after, played)
    if entry.played:
        raise RecordError(_("{where}: a {action} plays no tiles", where=where, action=action.value))
    drawn = None
    if action is Action.DRAW:
        if entry.drawn is None:
            raise RecordError(_("{where}: a draw needs 'drawn', the tile drawn", where=where)).at(
                where, "drawn"
            )
        drawn = _parse([entry.drawn], f"{where}.drawn", rules)[0]
    elif entry.drawn is not None:
        raise RecordError(_("{where}: a {action} draws no tile", where=where, action=action.value))
    if entry.table_after is not None and _key(
        _parse_table(entry.table_after, f"{where}.table_after", rules)
    ) != _key(before):
        raise RecordError(
            _("{where}: a {action} leaves the table as it was", where=where, action=action.value)
        )
    return Turn(entry.turn, entry.player, rack, before, action, before, drawn=drawn)


def replay(record: GameRecord) -> Game:
    """Play the record's turns again from its deal, checking each against the rules
    and the record, and return the game as it ends.

    Raises :class:`RecordError` at the first turn that breaks the rules or does
    not match what the game shows (a rack, a table, the tile drawn, the result): its
    message names the turn (``turns[4] (turn 5, player 1): ...``), as a Shanghai
    replay's names the event, and its places note the turn and the field; and
    :class:`~solver.errors.RequestError` naming ``record`` for one not read by
    :func:`read_record` (its dict).

    Shanghai's ``replay(record, watch)`` also takes a ``watch`` that sees each move,
    which its review needs (a Shanghai record holds events, and the positions a review
    solves come from the replay); Rummikub's record holds each turn's rack and table,
    which its review reads as they are, so this one has none.
    """
    record = checked(record, GameRecord, "record")
    deal = record.deal
    if deal is None:
        if record.seed is None:
            raise RecordError(_("a replay needs the record's 'deal' or 'seed'")).naming(
                "deal", "seed"
            )
        deal = Deal.shuffle(record.settings, record.seed)
    try:
        game = Game(record.settings, deal, record.seed)
    except MeldwiseError as error:
        raise RecordError(_("deal: {problem}", problem=error)).about("deal") from None
    for index, turn in enumerate(record.turns):
        _replay_turn(game, index, turn)
    if record.outcome is not None:
        if game.outcome is None:
            raise RecordError(_("the record has a result but the game is not over")).about("result")
        _check_replayed(record.outcome, game.outcome)
    return game


def _replay_turn(game: Game, index: int, turn: Turn) -> None:
    """Play ``turn``, the record's ``turns[index]``, in ``game``; raise
    :class:`RecordError` at the turn, naming the field, if it breaks the rules or the
    game differs from the record."""
    path = f"turns[{index}]"
    where = _(
        "turns[{index}] (turn {number}, player {player})",
        index=index,
        number=turn.number,
        player=turn.player,
    )
    problem = ""
    field = ""
    if turn.number != index + 1:
        problem, field = (
            _(
                "{where}: numbered {number}, expected {expected}",
                where=where,
                number=turn.number,
                expected=index + 1,
            ),
            "turn",
        )
    elif game.over:
        problem = _("{where}: the game was already over", where=where)
    elif turn.player != game.to_move:
        problem, field = (
            _(
                "{where}: player {player} moved, it was player {to_move}'s turn",
                where=where,
                player=turn.player,
                to_move=game.to_move,
            ),
            "player",
        )
    elif sorted(turn.rack) != sorted(game.racks[turn.player]):
        problem, field = (
            _(
                "{where}: the rack is recorded as [{recorded}], the game has [{actual}]",
                where=where,
                recorded=format_tiles(sorted(turn.rack)),
                actual=format_tiles(game.racks[turn.player]),
            ),
            "rack",
        )
    elif _key(turn.table_before) != _key(game.table):
        problem, field = (
            _("{where}: table_before is not the table the previous turn left", where=where),
            "table_before",
        )
    else:
        move = Move.play(turn.table_after) if turn.action is Action.PLAY else Move.draw()
        problems = game.problems(move)
        if problems:
            problem = _("{where}: illegal: {problem}", where=where, problem=clauses(problems))
            field = "table_after"
        else:
            problem, field = _made(game.apply(move), turn, where)
    if problem:
        raise RecordError(problem).at(path, *filter(None, [field]))


def _made(done: Turn, turn: Turn, where: str) -> tuple[str, str]:
    """What differs between the turn the game made, ``done``, and the record's: the
    problem and the field, or ``("", "")``."""
    if done.action is not turn.action:
        return (
            _(
                "{where}: recorded as {recorded}, the game made it a {made}",
                where=where,
                recorded=turn.action.value,
                made=done.action.value,
            ),
            "action",
        )
    if done.drawn != turn.drawn:
        return (
            _(
                "{where}: drew {drawn}, recorded {recorded}",
                where=where,
                drawn=done.drawn,
                recorded=turn.drawn,
            ),
            "drawn",
        )
    return "", ""


def _check_replayed(recorded: Outcome, replayed: Outcome) -> None:
    """Raise :class:`RecordError` naming the first field of the record's result that the
    replay does not give. A result that reads agrees with its own racks, so a rack is
    what differs: the error showed the replay's scores and winners, the same as the
    record's when a rack held another tile of the same value."""
    racks = zip(recorded.racks, replayed.racks, strict=True)
    for name, given, right in (
        *(
            (f"racks[{seat}]", f"[{format_tiles(sorted(r))}]", f"[{format_tiles(sorted(g))}]")
            for seat, (r, g) in enumerate(racks)
        ),
        ("end", repr(recorded.end.value), repr(replayed.end.value)),
        ("penalties", list(recorded.penalties), list(replayed.penalties)),
        ("scores", list(recorded.scores), list(replayed.scores)),
        ("winners", list(recorded.winners), list(replayed.winners)),
    ):
        if given != right:
            raise RecordError(
                _(
                    "result.{name} is {given}, but the replay gives {right}",
                    name=name,
                    given=given,
                    right=right,
                )
            ).at(f"result.{name}")


def _key(table: Table) -> list[tuple[str, ...]]:
    """A table compared as a multiset of sets, each a multiset of tiles as written: a
    joker written with the tile it stands for (``J(R4)``) is not a plain ``J`` nor
    ``J(R7)``, for under ``joker_retrieval: "replace"`` what it stands for decides the
    turns after (a ``table_before`` that changed it was taken for the table left)."""
    return sorted(tuple(sorted(tile.written for tile in tiles)) for tiles in table)


def _tiles(tiles: Sequence[Tile]) -> list[str]:
    """Tiles in the active notation (``O`` unless written under ``spelling(RBYK)``)."""
    return [spell(t) for t in tiles]


def _parse(words: Sequence[str], where: str, rules: Rules) -> tuple[Tile, ...]:
    """Tiles of the record's game, each quoted as written when it is no tile of it."""
    try:
        return tuple(rules.read_tile(word) for word in words)
    except MeldwiseError as error:
        raise RecordError(_("{where}: {problem}", where=where, problem=error)).at(where) from None


def _parse_table(sets: Sequence[Sequence[str]], where: str, rules: Rules) -> Table:
    return tuple(_parse(tiles, f"{where}[{i}]", rules) for i, tiles in enumerate(sets))
