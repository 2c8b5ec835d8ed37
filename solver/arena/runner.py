"""The tournament runner: seeded games between bots, in parallel, with a report.

Game ``i`` of a tournament with seed ``S`` and ``P`` players deals from seed
``S + i // P`` and seats the bots rotated by ``i % P``: every deal is played once
with each rotation, so every bot sits in every seat equally often and on the same
tiles (a tournament of a multiple of ``P`` games is balanced). Bot seeds come from
the deal seed and the seat, so a tournament seed reproduces every game.

Every move is judged by the game's own checker before it is applied; an illegal
move stops the tournament with :class:`IllegalBotMove` naming the bot, the game
seed and the move's number in the game.

Games run in a local process pool by default (``processes``), or on a Dask
cluster (``dispatch="dask"``, the optional ``meldwise[dask]`` extra).
"""

from __future__ import annotations

import os
import signal
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from importlib import import_module
from multiprocessing import get_context
from typing import Any

from solver.arena.game import MAX_SEED as MAX_SEED
from solver.arena.game import Bot, GameSpec, Playing, Result
from solver.arena.registry import game_spec
from solver.arena.stats import percentile, wilson_interval
from solver.cpsat import game_meter
from solver.errors import MeldwiseError, quoted
from solver.i18n import _, _n

MAX_GAMES = 100_000
"""Most games one tournament plays (``--games``): every game is a task built before
the first is played (this many take about 90 MB)."""
MAX_PROCESSES = 64
"""Most worker processes a tournament starts (``--processes``): each holds a solver,
and more than the machine's cores only take turns on them."""


class IllegalBotMove(AssertionError):
    """A bot made a move the game's checker rejects: a bug in the bot."""


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play (picklable, sent to a worker)."""

    game: str
    index: int
    seed: int
    seats: tuple[str, ...]
    """Bot name by seat."""
    options: Mapping[str, Any]
    keep_record: bool = False


@dataclass(frozen=True, slots=True)
class GamePlayed:
    """What a worker sends back about one game."""

    index: int
    seed: int
    seats: tuple[str, ...]
    result: Result
    move_seconds: tuple[tuple[float, ...], ...]
    """CPU seconds of each ``choose`` call, by seat."""
    cpu_seconds: float
    """CPU seconds of the whole game (bots and engine)."""
    record: dict[str, Any] | None = None


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game dealt from ``seed``."""
    return seed * 16 + seat


def play_out(match: Playing, bots: Sequence[Bot[Any, Any]], names: Sequence[str]) -> None:
    """Play ``match`` to its end, each seat's move ``bots``'s, whose names by seat are
    ``names``: a whole bot game of the library (either game's ``game_*``). An illegal
    move raises :class:`IllegalBotMove`: a bug in the bot, not in the request; a game
    past its :func:`~solver.cpsat.game_budget` (its work, counted by
    :func:`~solver.cpsat.game_meter`: each move and each CP-SAT solve)
    :class:`~solver.cpsat.OverBudget`, the match left where it stopped."""
    with game_meter() as check_game_budget:
        while not match.over:
            check_game_budget()
            seat = match.to_move
            # A bot's own refusal (a move its safety cap stopped: BotError) is said as
            # it is, a refusal in words: caught with the game's below, it became an
            # IllegalBotMove, a traceback on the command line and a 500 over HTTP.
            move = bots[seat].choose(match.view(seat))
            try:
                match.apply(move)
            except MeldwiseError as error:  # the game's IllegalMove, which says the turn
                raise IllegalBotMove(f"bot {names[seat]!r} in seat {seat}: {error}") from None


def play_game(task: GameTask) -> GamePlayed:
    """Play one game to its end; raise :class:`IllegalBotMove` on an illegal move."""
    started = time.process_time()
    spec = game_spec(task.game)
    match = spec.new_match(task.seed, len(task.seats), task.options)
    bots = [spec.new_bot(name, bot_seed(task.seed, seat)) for seat, name in enumerate(task.seats)]
    spent: list[list[float]] = [[] for _ in task.seats]
    while not match.over:
        seat = match.to_move
        view = match.view(seat)
        clock = time.process_time()
        move = bots[seat].choose(view)
        spent[seat].append(time.process_time() - clock)
        problems = match.problems(move)
        if problems:
            # Its number among the game's moves, every seat's (not a turn: a Shanghai
            # turn is a draw, buys and a play).
            raise IllegalBotMove(
                f"bot {task.seats[seat]!r} in seat {seat} of game seed {task.seed} made an "
                f"illegal move (the game's move {sum(map(len, spent))}): {'; '.join(problems)}"
            )
        match.apply(move)
    return GamePlayed(
        index=task.index,
        seed=task.seed,
        seats=task.seats,
        result=match.result(),
        move_seconds=tuple(tuple(s) for s in spent),
        cpu_seconds=time.process_time() - started,
        record=spec.record(match, task.seats) if task.keep_record else None,
    )


def tasks(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int,
    options: Mapping[str, Any],
    keep_records: bool = False,
) -> list[GameTask]:
    """The games of a tournament: deals and seat rotations as the module docstring says."""
    players = len(bots)
    return [
        GameTask(
            game,
            i,
            seed + i // players,
            tuple(bots[(seat + i) % players] for seat in range(players)),
            dict(options),
            keep_records,
        )
        for i in range(games)
    ]


Dispatcher = Callable[[Sequence[GameTask]], Iterator[GamePlayed]]
"""Plays tasks and yields each game as it finishes, in any order."""


def local_dispatch(processes: int) -> Dispatcher:
    """Play in this process (``processes`` 1) or in a local pool of ``processes``."""

    def dispatch(todo: Sequence[GameTask]) -> Iterator[GamePlayed]:
        if processes <= 1:
            yield from map(play_game, todo)
            return
        # spawn: the progress bar runs a thread, and forking a threaded process is unsafe.
        pool = ProcessPoolExecutor(
            processes, mp_context=get_context("spawn"), initializer=_leave_ctrl_c_to_the_parent
        )
        try:
            futures = [pool.submit(play_game, task) for task in todo]
            for future in as_completed(futures):
                yield future.result()
        finally:
            # On Ctrl-C (or an error), the games not started are dropped: leaving the
            # pool as a ``with`` block would play every one of them first.
            pool.shutdown(cancel_futures=True)

    return dispatch


def _leave_ctrl_c_to_the_parent() -> None:
    """A pool process ignores SIGINT, which a terminal's Ctrl-C sends to every process
    of the group: the parent stops the run, and the game being played ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def dask_dispatch(address: str | None, processes: int) -> Dispatcher:
    """Play on a Dask cluster: the scheduler at ``address``, or a local cluster of
    ``processes`` single-threaded workers. Needs ``pip install 'meldwise[dask]'``."""
    try:
        # Untyped, optional: used through Any.
        dask: Any = import_module("distributed")
    except ImportError:
        raise MeldwiseError(_("--dispatch dask needs Dask: pip install 'meldwise[dask]'")) from None

    def dispatch(todo: Sequence[GameTask]) -> Iterator[GamePlayed]:
        cluster = None
        if not address:
            cluster = dask.LocalCluster(
                n_workers=max(1, processes), threads_per_worker=1, dashboard_address=None
            )
        try:
            client = dask.Client(address or cluster)
        except (OSError, ValueError) as error:  # TimeoutError is an OSError
            if cluster is not None:
                cluster.close()
            # A bad address, or one nobody answers at, ended in Dask's traceback.
            raise MeldwiseError(
                _(
                    "cannot reach the Dask scheduler at {address!r}: {error}",
                    address=address,
                    error=error,
                )
            ) from None
        try:
            futures = client.map(play_game, list(todo), pure=False)
            for future in dask.as_completed(futures):
                played: GamePlayed = future.result()
                yield played
        finally:
            client.close()
            if cluster is not None:
                cluster.close()

    return dispatch


@dataclass(frozen=True, slots=True)
class BotSummary:
    """How one bot did over a tournament (all seats it held)."""

    name: str
    seats: int
    """Seats it holds in each game."""
    wins: float
    """Games won by a seat of this bot; a tie shared by k winners counts 1/k."""
    win_rate: float
    ci95: tuple[float, float]
    """Wilson 95% interval of the win rate."""
    parity: float
    """The win rate of an equal player: seats / players."""
    mean_score: float
    """Mean score per seat and game."""
    moves: int
    move_ms_median: float
    move_ms_p95: float
    move_ms_mean: float


@dataclass(frozen=True, slots=True)
class Report:
    """A tournament's figures (see :func:`summarise`)."""

    game: str
    bots: tuple[str, ...]
    players: int
    games: int
    seed: int
    options: Mapping[str, Any]
    by_bot: tuple[BotSummary, ...]
    turns_mean: float
    turns_median: float
    turns_max: int
    ends: dict[str, int]
    """Games by how they ended (:attr:`Result.end`)."""
    hand_ends: dict[str, int]
    """Hands by how they ended, over the games of several hands
    (:attr:`Result.hand_ends`); empty for games of one deal."""
    wall_seconds: float
    cpu_seconds: float
    """CPU seconds of every game, summed over processes."""
    game_cpu_median: float
    results: tuple[GamePlayed, ...] = field(repr=False, default=())

    def to_dict(self, with_games: bool = False) -> dict[str, Any]:
        """The report as a JSON object; ``with_games`` adds one entry per game."""
        answer: dict[str, Any] = {
            "game": self.game,
            "bots": list(self.bots),
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "options": dict(self.options),
            "by_bot": [
                {
                    "name": b.name,
                    "seats": b.seats,
                    "wins": b.wins,
                    "win_rate": b.win_rate,
                    "ci95": list(b.ci95),
                    "parity": b.parity,
                    "mean_score": b.mean_score,
                    "moves": b.moves,
                    "move_ms": {
                        "median": b.move_ms_median,
                        "p95": b.move_ms_p95,
                        "mean": b.move_ms_mean,
                    },
                }
                for b in self.by_bot
            ],
            "turns": {
                "mean": self.turns_mean,
                "median": self.turns_median,
                "max": self.turns_max,
            },
            "ends": self.ends,
            "hand_ends": self.hand_ends,
            "wall_seconds": self.wall_seconds,
            "cpu_seconds": self.cpu_seconds,
            "game_cpu_seconds_median": self.game_cpu_median,
        }
        if with_games:
            answer["results"] = [
                {
                    "index": g.index,
                    "seed": g.seed,
                    "seats": list(g.seats),
                    "winners": list(g.result.winners),
                    "scores": list(g.result.scores),
                    "turns": g.result.turns,
                    "end": g.result.end,
                    "hand_ends": list(g.result.hand_ends),
                    "cpu_seconds": g.cpu_seconds,
                }
                for g in sorted(self.results, key=lambda g: g.index)
            ]
        return answer


def summarise(
    game: str,
    bots: Sequence[str],
    seed: int,
    options: Mapping[str, Any],
    results: Sequence[GamePlayed],
    wall_seconds: float,
) -> Report:
    """Win rates (Wilson 95% intervals), mean scores, move times and turns per bot."""
    players = len(bots)
    wins: dict[str, float] = dict.fromkeys(bots, 0.0)
    scores: dict[str, list[int]] = {name: [] for name in bots}
    moves: dict[str, list[float]] = {name: [] for name in bots}
    for played in results:
        winners = played.result.winners
        for seat in winners:
            wins[played.seats[seat]] += 1 / len(winners)
        for seat, name in enumerate(played.seats):
            scores[name].append(played.result.scores[seat])
            moves[name].extend(played.move_seconds[seat])
    count = len(results)
    summaries = []
    for name in dict.fromkeys(bots):
        ms = [s * 1000 for s in moves[name]] or [0.0]
        summaries.append(
            BotSummary(
                name=name,
                seats=bots.count(name),
                wins=wins[name],
                win_rate=wins[name] / count if count else 0.0,
                ci95=wilson_interval(wins[name], count),
                parity=bots.count(name) / players,
                mean_score=statistics.fmean(scores[name]) if scores[name] else 0.0,
                moves=len(moves[name]),
                move_ms_median=statistics.median(ms),
                move_ms_p95=percentile(ms, 0.95),
                move_ms_mean=statistics.fmean(ms),
            )
        )
    turns = [played.result.turns for played in results] or [0]
    ends: dict[str, int] = {}
    hand_ends: dict[str, int] = {}
    for played in results:
        ends[played.result.end] = ends.get(played.result.end, 0) + 1
        for end in played.result.hand_ends:
            hand_ends[end] = hand_ends.get(end, 0) + 1
    return Report(
        game=game,
        bots=tuple(bots),
        players=players,
        games=count,
        seed=seed,
        options=dict(options),
        by_bot=tuple(summaries),
        turns_mean=statistics.fmean(turns),
        turns_median=statistics.median(turns),
        turns_max=max(turns),
        ends=ends,
        hand_ends=hand_ends,
        wall_seconds=wall_seconds,
        cpu_seconds=sum(played.cpu_seconds for played in results),
        game_cpu_median=statistics.median([p.cpu_seconds for p in results] or [0.0]),
        results=tuple(sorted(results, key=lambda g: g.index)),
    )


def run_tournament(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    *,
    dispatch: Dispatcher | None = None,
    keep_records: bool = False,
    on_game: Callable[[GamePlayed], None] | None = None,
) -> Report:
    """Play ``games`` seeded games of ``game`` with ``bots`` (bot name by seat; its
    length is the number of players) and summarise them.

    ``dispatch`` defaults to one process per core, at most 2 (:func:`local_dispatch`);
    ``on_game`` is called as each game finishes (a progress bar)."""
    options = dict(options or {})
    spec: GameSpec = game_spec(game)
    spec.check_bots(bots)
    if not 2 <= len(bots) <= spec.max_players:
        # The seats, not an option: it was "options: 'players' must be ..." of 9 bots.
        raise MeldwiseError(
            _(
                "a {game} game seats 2 to {most} players, got {players}",
                game=game,
                most=spec.max_players,
                players=len(bots),
            )
        )
    if games < 1:
        raise MeldwiseError(_("a tournament needs at least 1 game, got {games}", games=games))
    if games > MAX_GAMES:
        raise MeldwiseError(
            _("a tournament plays at most {most} games, got {games}", most=MAX_GAMES, games=games)
        )
    last = seed + (games - 1) // len(bots)
    if seed < 0 or last > MAX_SEED:
        # Such a game could not be played again alone (meldwise game --seed).
        raise MeldwiseError(
            _(
                "a game deals from a seed of 0 to {most}; this tournament's games would deal "
                "from seeds {seed} to {last}",
                most=MAX_SEED,
                seed=seed,
                last=last,
            )
        )
    spec.new_match(seed, len(bots), options)  # bad options fail here, not in a worker
    dispatch = dispatch or local_dispatch(min(2, os.cpu_count() or 1))
    started = time.perf_counter()
    results = []
    for played in dispatch(tasks(game, bots, games, seed, options, keep_records)):
        results.append(played)
        if on_game is not None:
            on_game(played)
    return summarise(game, bots, seed, options, results, time.perf_counter() - started)


def bot_list(names: Iterable[str], given: object = None) -> list[str]:
    """``names`` of bots, each stripped: the one check of a list of bot names, for the
    library's callers and the command line's ``--bots`` alike. Raises
    :class:`MeldwiseError` for no name at all and for an empty name among others,
    quoting ``given`` (what the names were read from: the command line's
    comma-separated text), else the names. The message quotes the field ``'bots'``, which
    the command line says as ``--bots`` (:func:`~solver.commands.in_flags`): a flag
    in the library's own words would be wrong for a caller that gave a list."""
    names = list(names)
    listed = [name.strip() for name in names]
    shown = quoted(names if given is None else given)
    if not any(listed):
        raise MeldwiseError(
            _(
                "'bots' names no bot (got {bots!r}); give one bot name or more, e.g. strong",
                bots=shown,
            )
        ).naming("bots")
    if not all(listed):
        raise MeldwiseError(
            _("'bots' has an empty name in {bots!r}; give each bot a name", bots=shown)
        ).naming("bots")
    return listed


def seats_of(names: Iterable[str], players: int) -> list[str]:
    """Bot names for ``players`` seats: the names given (see :func:`bot_list`), the
    last repeated to fill the seats (``strong,greedy`` with 4 players: one strong,
    three greedy)."""
    listed = bot_list(names)
    if len(listed) > players:
        # About the list of bots ('bots': --bots on the command line), as bot_list's.
        raise MeldwiseError(
            _n(
                "{n} bot named for {players} players",
                "{n} bots named for {players} players",
                len(listed),
                players=players,
            )
        ).about("bots")
    return listed + [listed[-1]] * (players - len(listed))
