"""The tournament runner, game-agnostic: a toy game plugs in as Rummikub does; seats
rotate, seeds reproduce, illegal moves stop the run, win rates carry Wilson intervals."""

from __future__ import annotations

import json
import math
from collections.abc import Generator, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import EXTRA_QUEUED_CALLS
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from rich.console import Console

from meldwise.cli import main
from solver.arena import registry, runner
from solver.arena.cli import print_report
from solver.arena.game import GameSpec, Result, UnknownBot
from solver.arena.runner import (
    MAX_GAMES,
    MAX_SEED,
    GamePlayed,
    GameTask,
    IllegalBotMove,
    dask_dispatch,
    local_dispatch,
    play_game,
    run_tournament,
    seats_of,
    summarise,
    tasks,
)
from solver.arena.stats import wilson_interval
from solver.commands import bot_names, in_flags
from solver.errors import MeldwiseError, RequestError
from solver.rummikub.game_wire import GameRequest, game_rummikub
from solver.shanghai.arena import SHANGHAI
from solver.shanghai.engine import Draw
from tests.rummikub.games_support import TINY_OPTIONS

# --- a toy game: take 1-3 counters from a heap, whoever takes the last one wins ---------


@dataclass
class Nim:
    heap: int
    players: int
    to_move: int = 0
    turns: int = 0
    winner: int | None = None
    log: list[int] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return self.winner is not None

    def view(self, seat: int | None = None) -> int:
        return self.heap

    def problems(self, move: Any) -> Sequence[str]:
        if not isinstance(move, int) or not 1 <= move <= min(3, self.heap):
            return (f"cannot take {move!r} from {self.heap}",)
        return ()

    def apply(self, move: Any) -> None:
        self.heap -= move
        self.turns += 1
        self.log.append(move)
        if self.heap == 0:
            self.winner = self.to_move
        else:
            self.to_move = (self.to_move + 1) % self.players

    def result(self) -> Result:
        assert self.winner is not None
        scores = tuple(1 if seat == self.winner else -1 for seat in range(self.players))
        return Result((self.winner,), scores, self.turns, "last counter")


class Perfect:
    name = "perfect"

    def choose(self, view: int) -> int:
        return view % 4 or 1


class One:
    name = "one"

    def choose(self, view: int) -> int:
        return 1


class Cheat:
    name = "cheat"

    def choose(self, view: int) -> int:
        return 4


NIM_BOTS: dict[str, Any] = {"perfect": Perfect, "one": One, "cheat": Cheat}


def _bot(name: str, seed: int) -> Any:
    if name not in NIM_BOTS:
        raise UnknownBot(f"unknown bot {name!r}")
    return NIM_BOTS[name]()


def _new_nim(seed: int, players: int, options: Mapping[str, Any]) -> Nim:
    return Nim(heap=10 + seed % 7, players=players)


NIM = GameSpec(
    name="nim",
    new_match=_new_nim,
    new_bot=_bot,
    bot_names=tuple(NIM_BOTS),
    record=lambda match, names: {"moves": match.log, "names": list(names)},  # type: ignore[attr-defined]
    max_players=8,
)


NIM_PENALTY = replace(NIM, penalty_scores=True)


@pytest.fixture
def nim() -> Iterator[None]:
    registry.GAMES["nim"] = f"{__name__}:NIM"
    yield
    del registry.GAMES["nim"]


def test_a_toy_game_plugs_into_the_runner(nim: None) -> None:
    report = run_tournament("nim", ["perfect", "one"], 40, seed=3, dispatch=local_dispatch(1))
    perfect, one = report.by_bot
    # Taking heap % 4 leaves a multiple of 4; "one" takes 1 and never gets back there.
    assert (perfect.wins, one.wins) == (40, 0)
    assert perfect.ci95 == wilson_interval(40, 40)
    assert report.ends == {"last counter": 40}
    assert perfect.moves > 0
    assert perfect.move_ms_median >= 0


def test_the_report_says_which_way_scores_are_better(nim: None) -> None:
    """Points won (higher is better) unless the game's scores are penalties."""
    report = run_tournament("nim", ["perfect", "one"], 4, seed=3, dispatch=local_dispatch(1))
    for penalty, better in ((False, "higher is better"), (True, "lower is better")):
        registry.GAMES["nim"] = f"{__name__}:{'NIM_PENALTY' if penalty else 'NIM'}"
        console = Console(record=True, width=200)
        print_report(report, console)
        assert f"mean score ({better})" in console.export_text()


def test_the_report_of_one_game_says_game(nim: None) -> None:
    # Its title said "nim: 1 games, 2 players, seed 3".
    report = run_tournament("nim", ["perfect", "one"], 1, seed=3, dispatch=local_dispatch(1))
    console = Console(record=True, width=200)
    print_report(report, console)
    assert "nim: 1 game, 2 players, seed 3" in console.export_text()


def test_the_reports_headings_say_what_their_numbers_are(nim: None) -> None:
    # "seats 1" over 4 games read as one seat held in all (it is the seats in each
    # game, parity's numerator), and "ms/move" as the clock's time (it is CPU time,
    # as the docs say and the line under the table is).
    report = run_tournament("nim", ["perfect", "one"], 4, seed=3, dispatch=local_dispatch(1))
    console = Console(record=True, width=200)
    print_report(report, console)
    text = console.export_text()
    assert "seats/game" in text
    assert "CPU ms/move median / p95" in text


def test_more_bots_than_seats_is_said_with_the_flag(capsys: pytest.CaptureFixture[str]) -> None:
    # "error: 3 bots named for 2 players" named no flag, where every other refusal of
    # the tournament's seats and settings does (docs/games.md).
    argv = ["tournament", "--bots", "strong,greedy,beginner", "--players", "2", "--games", "1"]
    assert main(argv) == 2
    assert capsys.readouterr().err == "error: --bots: 3 bots named for 2 players\n"


def test_seats_rotate_and_each_deal_is_played_in_every_seat() -> None:
    todo = tasks("nim", ["a", "b", "c"], 7, seed=10, options={})
    assert [t.seed for t in todo] == [10, 10, 10, 11, 11, 11, 12]
    assert [t.seats for t in todo[:3]] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert seats_of(["strong", "greedy"], 4) == ["strong", "greedy", "greedy", "greedy"]
    with pytest.raises(MeldwiseError, match="3 bots named for 2 players"):
        seats_of(["a", "b", "c"], 2)


@pytest.mark.parametrize(
    ("names", "text", "said"),
    [
        ([], "", "{bots} names no bot (got {given}); give one bot name or more, e.g. strong"),
        (
            ["", " "],
            " , ",
            "{bots} names no bot (got {given}); give one bot name or more, e.g. strong",
        ),
        (["strong", ""], "strong,", "{bots} has an empty name in {given}; give each bot a name"),
        ([" ", "greedy"], " ,greedy", "{bots} has an empty name in {given}; give each bot a name"),
    ],
)
def test_seats_of_checks_bot_names_as_the_command_lines_bots_does(
    names: list[str], text: str, said: str
) -> None:
    """seats_of said no name in words of its own ("give at least one bot name") and
    dropped an empty name among others without a word (strong and '' for 3 players was
    three strong), where --bots refused both. One check says both, naming the field
    'bots' and quoting the list; the command line says --bots and quotes its text."""
    with pytest.raises(MeldwiseError) as library:
        seats_of(names, 3)
    assert str(library.value) == said.format(bots="'bots'", given=json.dumps(names))
    with pytest.raises(MeldwiseError) as command_line:
        bot_names(text)
    shown = in_flags(command_line.value, {"bots": "--bots"})
    assert shown == said.format(bots="--bots", given=repr(text))


def test_an_illegal_move_stops_the_tournament(nim: None) -> None:
    with pytest.raises(
        IllegalBotMove, match=r"bot 'cheat' in seat 0 of game seed 0 .*cannot take 4"
    ):
        run_tournament("nim", ["cheat", "one"], 2, dispatch=local_dispatch(1))
    # The module and the docs said it names the move; it did not.
    with pytest.raises(
        IllegalBotMove,
        match=r"^bot 'cheat' in seat 1 of game seed 0 made an illegal move \(the game's move 2\):"
        r" cannot",
    ):
        run_tournament("nim", ["one", "cheat"], 1, dispatch=local_dispatch(1))


class _AlwaysDraws:
    """A Shanghai bot that always draws: illegal when it is offered the upcard or must
    play."""

    def choose(self, _view: Any) -> Any:
        return Draw(take=False)


@dataclass
class _Counted:
    """A bot whose moves are counted, every seat's in one count (:data:`_CHOSEN`)."""

    bot: Any

    def choose(self, view: Any) -> Any:
        _CHOSEN.append(self)
        return self.bot.choose(view)


_CHOSEN: list[_Counted] = []


def _cheat_or_shanghai_bot(name: str, seed: int) -> Any:
    return _Counted(_AlwaysDraws() if name == "cheat" else SHANGHAI.new_bot(name, seed))


SHANGHAI_CHEAT = replace(SHANGHAI, new_bot=_cheat_or_shanghai_bot)


def test_an_illegal_move_in_shanghai_is_numbered_as_a_move() -> None:
    # A Shanghai turn is a draw and a play, with buys between: the runner's count of
    # moves was said as a turn ("turn 2" of an answer to the upcard's offer in the
    # game's first turn).
    registry.GAMES["shanghai-cheat"] = f"{__name__}:SHANGHAI_CHEAT"
    _CHOSEN.clear()
    try:
        with pytest.raises(IllegalBotMove) as error:
            play_game(GameTask("shanghai-cheat", 0, 0, ("cheat", "greedy"), {}))
    finally:
        del registry.GAMES["shanghai-cheat"]
    assert f" made an illegal move (the game's move {len(_CHOSEN)}): " in str(error.value)
    assert len(_CHOSEN) >= 2


def test_unknown_game_or_bot_is_refused(nim: None) -> None:
    with pytest.raises(MeldwiseError, match="unknown game 'go'"):
        run_tournament("go", ["a", "b"], 1)
    with pytest.raises(MeldwiseError, match="unknown bot 'random'") as refused:
        run_tournament("nim", ["one", "random"], 1)
    assert refused.value.places == ((("bots", 1), ""),)  # about the seat's name


def test_every_game_deals_from_a_seed_a_single_game_takes(nim: None) -> None:
    # A negative seed, or one past 2**31, was played: meldwise game --seed, which
    # replays one game, refuses it.
    GameRequest.model_validate({"bots": ["greedy", "greedy"], "seed": MAX_SEED})
    with pytest.raises(RequestError, match="'seed' must be at most 2147483648"):
        game_rummikub({"bots": ["greedy", "greedy"], "seed": MAX_SEED + 1})
    last = run_tournament("nim", ["one", "one"], 2, seed=MAX_SEED, dispatch=local_dispatch(1))
    assert {game.seed for game in last.results} == {MAX_SEED}
    for seed, games, dealt in ((-1, 1, "-1 to -1"), (MAX_SEED, 3, f"{MAX_SEED} to {MAX_SEED + 1}")):
        with pytest.raises(MeldwiseError, match=f"seed of 0 to {MAX_SEED}; .* seeds {dealt}$"):
            run_tournament("nim", ["one", "one"], games, seed=seed, dispatch=local_dispatch(1))


def test_a_tournament_plays_at_most_max_games(nim: None) -> None:
    # Every game is built before the first is played: 10**20 ran out of memory.
    with pytest.raises(MeldwiseError, match=f"^a tournament plays at most {MAX_GAMES} games"):
        run_tournament("nim", ["one", "one"], 10**20, dispatch=local_dispatch(1))


def test_a_tie_is_shared_between_the_winners() -> None:
    games = [
        GamePlayed(
            0, 0, ("a", "b"), Result((0, 1), (-5, -5), 10, "blocked"), ((0.001,), (0.002,)), 0.1
        ),
        GamePlayed(1, 0, ("b", "a"), Result((1,), (-3, 3), 12, "out"), ((0.001,), (0.003,)), 0.1),
    ]
    report = summarise("x", ["a", "b"], 0, {}, games, 1.0)
    a, b = report.by_bot
    assert (a.wins, b.wins) == (1.5, 0.5)
    assert a.mean_score == (-5 + 3) / 2
    assert b.mean_score == (-5 - 3) / 2
    assert report.turns_median == 11
    assert report.ends == {"blocked": 1, "out": 1}
    assert report.hand_ends == {}  # games of one deal


@pytest.mark.parametrize(("wins", "games"), [(50, 100), (0, 20), (20, 20), (1100, 2000), (7.5, 31)])
def test_the_wilson_interval_solves_its_defining_equation(wins: float, games: int) -> None:
    """Each bound p is where |rate - p| = z * sqrt(p (1 - p) / n): found here by bisection."""
    z, rate = 1.959963984540054, wins / games

    def gap(p: float) -> float:
        return abs(rate - p) - z * math.sqrt(p * (1 - p) / games)

    def root(low: float, high: float) -> float:
        for _ in range(200):
            middle = (low + high) / 2
            if (gap(low) > 0) == (gap(middle) > 0):
                low = middle
            else:
                high = middle
        return (low + high) / 2

    lower = 0.0 if rate == 0 else root(0.0, rate)
    upper = 1.0 if rate == 1 else root(rate, 1.0)
    got = wilson_interval(wins, games)
    assert got == pytest.approx((lower, upper), abs=1e-9)


def test_a_rummikub_tournament_reproduces_and_the_pool_agrees() -> None:
    first = run_tournament(
        "rummikub",
        ["strong", "greedy"],
        6,
        seed=5,
        options=TINY_OPTIONS,
        dispatch=local_dispatch(1),
    )
    again = run_tournament(
        "rummikub",
        ["strong", "greedy"],
        6,
        seed=5,
        options=TINY_OPTIONS,
        dispatch=local_dispatch(2),
    )

    def outcomes(report: Any) -> list[tuple[Any, ...]]:
        return [(g.index, g.seats, g.result) for g in report.results]

    assert outcomes(first) == outcomes(again)
    assert first.to_dict()["by_bot"][0]["wins"] == again.to_dict()["by_bot"][0]["wins"]


def test_dask_dispatch_plays_the_same_games() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        on_dask = run_tournament(
            "rummikub",
            ["strong", "greedy"],
            4,
            seed=5,
            options=TINY_OPTIONS,
            dispatch=dask_dispatch(cluster.scheduler_address, 1),
        )
    local = run_tournament(
        "rummikub",
        ["strong", "greedy"],
        4,
        seed=5,
        options=TINY_OPTIONS,
        dispatch=local_dispatch(1),
    )
    assert [(g.seats, g.result) for g in on_dask.results] == [
        (g.seats, g.result) for g in local.results
    ]


def test_a_pool_run_stopped_early_drops_the_games_not_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A Ctrl-C (or an error) leaves the dispatcher's generator early; the pool, left as
    # a `with` block, played every queued game first (here about 20 s of them) before
    # the tournament could stop. Only the games under way (and the few already handed
    # to the processes) are played now. Counted, not timed: on a loaded machine those
    # few took longer than the bound a timing put on them.
    ended: list[str] = []  # each game's end, in order: "played" or "dropped"

    class Recorded(ProcessPoolExecutor):
        def submit(self, *args: Any, **kwargs: Any) -> Future[Any]:
            future = super().submit(*args, **kwargs)
            future.add_done_callback(
                lambda f: ended.append("dropped" if f.cancelled() else "played")
            )
            return future

    monkeypatch.setattr(runner, "ProcessPoolExecutor", Recorded)
    todo = tasks("rummikub", ["greedy", "greedy"], 120, seed=0, options={})
    games = local_dispatch(2)(todo)
    assert isinstance(games, Generator)  # as the tournament leaves it: by closing it
    next(games)
    games.close()
    assert len(ended) == 120  # each game played or dropped once the run is closed
    assert "dropped" in ended
    # Once the games not started are dropped, only those under way in the 2 processes
    # and those handed to them (the pool's call queue: one a process, and
    # EXTRA_QUEUED_CALLS) are still played.
    after = ended[ended.index("dropped") :]
    assert after.count("played") <= 2 + 2 + EXTRA_QUEUED_CALLS


@pytest.mark.parametrize(("game", "seats"), [("shanghai", 9), ("rummikub", 9), ("rummikub", 1)])
def test_a_tournament_of_too_many_or_too_few_seats_says_the_seats(game: str, seats: int) -> None:
    # 9 bots were said as "options: 'players' must be ...": an option no one gave.
    with pytest.raises(MeldwiseError) as raised:
        run_tournament(game, ["greedy"] * seats, 1)
    assert str(raised.value) == f"a {game} game seats 2 to 8 players, got {seats}"


def test_a_dask_scheduler_that_cannot_be_reached_is_bad_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--dispatch dask --scheduler nonsense`` (or an address nobody listens on) ended
    in Dask's traceback, exit 1: it is said on one line naming the address, exit 2."""
    pytest.importorskip("distributed")
    argv = ["tournament", "--bots", "greedy", "--games", "2", "--no-progress"]
    assert main([*argv, "--dispatch", "dask", "--scheduler", "nonsense"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot reach the Dask scheduler at 'nonsense': "), err
    assert "missing port number" in err
    assert "Traceback" not in err
