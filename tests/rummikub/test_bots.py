"""The bots: legal in every move of a few hundred seeded games, deterministic, and each
playing the way its level says."""

from __future__ import annotations

import signal
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

import solver.cpsat as cpsat
import solver.rummikub.strategy as strategy
from meldwise.cli import main
from solver import MeldwiseError, solve_rummikub
from solver.arena.runner import Dispatcher, local_dispatch, run_tournament
from solver.cpsat import Status
from solver.i18n import language
from solver.rummikub import Position, Rules, Tile, search
from solver.rummikub.bots import BOTS, Beginner, Greedy, Strong, make_bot
from solver.rummikub.cli import describe_bot
from solver.rummikub.engine import Action, GameSettings, Move, PoolEmpty, View
from solver.rummikub.game_wire import bot_rummikub, game_rummikub
from solver.rummikub.legality import check_play
from solver.rummikub.melds import read_meld
from solver.rummikub.notation import parse_tiles
from solver.rummikub.record import record_to_dict
from solver.rummikub.strategy import (
    MOVE_SOLVES,
    Strategy,
    Stuck,
    advise,
    best_play,
    calm_jokers,
    smallest_opening,
)
from tests.rummikub.games_support import SMALL_OPTIONS, TINY, TINY_OPTIONS, play
from tests.support import spend_the_clock

LINE_UPS = [
    ["strong", "greedy"],
    ["greedy", "beginner"],
    ["beginner", "strong", "greedy"],
    ["strong", "greedy", "greedy", "beginner"],
]


@pytest.mark.parametrize("bots", LINE_UPS, ids=lambda b: ",".join(b))
def test_every_bot_move_is_legal_in_seeded_games(bots: list[str]) -> None:
    """The runner judges every move with the legality checker and raises on an
    illegal one; about 300 games over the line-ups and both pool rules."""
    for rule in PoolEmpty:
        report = run_tournament(
            "rummikub",
            bots,
            36,
            seed=100,
            options={**TINY_OPTIONS, "pool_empty": rule.value},
            dispatch=_in_process(),
        )
        assert report.games == 36
        assert sum(report.ends.values()) == 36
    report = run_tournament(
        "rummikub", bots, 4, seed=7, options=SMALL_OPTIONS, dispatch=_in_process()
    )
    assert report.ends.get("out", 0) >= 1


def _in_process() -> Dispatcher:
    return local_dispatch(1)


def test_a_seed_reproduces_the_game() -> None:
    settings = GameSettings(rules=TINY, hand=5, players=3)
    bots = ["strong", "beginner", "greedy"]
    assert record_to_dict(play(settings, bots, 11)) == record_to_dict(play(settings, bots, 11))


def view(rack: str, table: str = "", *, opened: bool = True, opponents: int = 14) -> View:
    position = Position.parse(rack, table, opened)
    return View(
        seat=0,
        rack=position.rack,
        table=position.table,
        opened=(opened, True),
        rack_sizes=(len(position.rack), opponents),
        pool_size=40,
        turn=10,
    )


def test_greedy_plays_the_most_tiles() -> None:
    v = view("R1 R2 R3 K9 B9 O9 J", "R4 R5 R6")
    move = Greedy().choose(v)
    assert move.table is not None
    placed = sum(map(len, move.table)) - 3
    assert placed == best_play(v.position, v.rules).tiles_played == 7


def test_beginner_never_takes_a_table_set_apart() -> None:
    # The best play takes R7 off the group for R5 R6 R7; the beginner does not see it.
    v = view("R5 R6 B9", "R7 B7 K7 O7")
    assert best_play(v.position, v.rules).tiles_played == 2
    assert Beginner().choose(v).is_draw
    # It adds a tile to the end of a run as it stands.
    move = Beginner().choose(view("R5 R6 B9", "B6 B7 B8"))
    assert move.table is not None
    assert sorted(map(str, move.table[0])) == ["B6", "B7", "B8", "B9"]


def test_beginner_moves_no_table_joker_under_replace() -> None:
    """Under joker_retrieval "replace", K17 added to the group J B17 takes the place the
    joker may stand for, so the joker would have to leave: the beginner used to play it
    (an illegal move, found by games under random variants). It now adds a tile only
    where the move stays legal."""
    rules = Rules(colours=3, numbers=17, copies=1, min_set_len=2, joker_retrieval="replace")
    position = Position.parse("K17 R6", "J B17 | R9 R10 R11")
    v = View(
        seat=0,
        rack=position.rack,
        table=position.table,
        opened=(True, True),
        rack_sizes=(2, 14),
        pool_size=40,
        turn=10,
        settings=GameSettings(rules=rules),
    )
    move = Beginner().choose(v)
    assert move.is_draw  # K17 fits nowhere else, R6 nowhere at all
    # Without the rule the same tile goes onto the group.
    free = replace(v, settings=GameSettings(rules=replace(rules, joker_retrieval="free")))
    played = Beginner().choose(free)
    assert played.table is not None
    assert sorted(map(str, played.table[0])) == ["B17", "J", "K17"]


@pytest.mark.parametrize("bot", [Greedy(), Strong()], ids=lambda b: b.name)
def test_a_bot_leaves_a_table_joker_standing_where_it_stood(bot: Greedy | Strong) -> None:
    """The score stage reads every set afresh: a set the play did not touch came back
    with its joker standing elsewhere (``R5 R6 J(R4)`` as ``R5 R6 J(R7)``, the group's
    J(O7) as J(R7)), legal under the free joker rule but a table joker moved that
    the player did not need to move."""
    v = view("B13 K1 O5", "R5 R6 J(R4) | K9 B9 J(O9) | B10 B11 B12")
    move = bot.choose(v)
    assert move.table is not None
    written = [[t.written for t in tiles] for tiles in move.table]
    assert ["R5", "R6", "J(R4)"] in written
    assert ["K9", "B9", "J(O9)"] in written
    verdict = check_play(v.rack, v.table, move.table, True, v.rules, must_place=True)
    assert verdict.legal, verdict.problems
    # A set that grows keeps its joker where it can: R7 goes on as R4 stays.
    grown = bot.choose(view("R7 K1", "R5 R6 J(R4)"))
    assert grown.table is not None
    assert [[t.written for t in tiles] for tiles in grown.table] == [["J(R4)", "R5", "R6", "R7"]]
    # A joker the play needs elsewhere still goes: R4 takes its place, it ends R8.
    v = view("R4 R9 K8", "R5 R6 J(R4) R7")
    taken = bot.choose(v)
    assert taken.table is not None
    assert [[t.written for t in tiles] for tiles in taken.table] == [
        ["R4", "R5", "R6", "R7", "J(R8)", "R9"]
    ]


def test_a_set_left_alone_keeps_its_joker_before_a_set_that_grew() -> None:
    """R5 put on R6 R7 J(R8): the grown run R5 R6 R7 J came first and took the other
    set's reading J(R4), leaving R5 R6 J, untouched, read afresh as J(R7): both jokers
    moved where none had to. Sets still the same tiles are matched first."""
    before = (tuple(parse_tiles("R5 R6 J(R4)")), tuple(parse_tiles("R6 R7 J(R8)")))
    after = (tuple(parse_tiles("R5 R6 R7 J")), tuple(parse_tiles("R5 R6 J(R7)")))
    calm = calm_jokers(after, before, Rules())
    assert [[t.written for t in tiles] for tiles in calm] == [
        ["R5", "R6", "R7", "J(R8)"],
        ["R5", "R6", "J(R4)"],
    ]


HOUSE_RULES = {
    "colours": 5, "numbers": 19, "copies": 2, "jokers": 4, "min_set_len": 8,
    "opening_threshold": 10, "max_jokers_per_set": 3,
}  # fmt: skip
HOUSE_TABLE = (
    "R1 R2 R3 R4 R5 R6 R7 R8 R9 | B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13"
    " | R9 J R11 R12 J R14 R15 R16 R17 R18 R19 | O4 O5 O6 O7 O8 O9 O10 O11 O12"
)


def _house_request(bot: str) -> dict[str, Any]:
    """A turn of a random large variant (5 colours, 19 numbers, sets of 8 or more, 4
    jokers, at most 3 a set) whose count model stops at its deterministic work bound,
    unproven; the calm play's model, tried next, proves 3 tiles."""
    return {
        "bot": bot,
        "rack": ["R10", "B19", "G11", "J", "J"],
        "table": [tiles.split() for tiles in HOUSE_TABLE.split(" | ")],
        "opponents": [{"rack_size": 14, "opened": True}],
        "rules": HOUSE_RULES,
    }


def test_a_bot_plays_on_when_its_solve_stops_at_the_work_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The turn of :func:`_house_request`: with the work cut so that both solves
    stop, the bot used to raise BotError and end the game; the bound is work, not
    time, so it makes the best play found (its two solves, the move and the best,
    agree), and the answer says that it rests on an unproven solve."""
    rules = HOUSE_RULES
    request = _house_request("greedy")
    proven = bot_rummikub(request)
    assert (proven["status"], proven["best_tiles"]) == ("optimal", 3)
    with monkeypatch.context() as patched:
        patched.setattr("solver.rummikub.search.SCORE_WORK", 0.001)
        answer = bot_rummikub(request)
    assert answer["status"] in ("feasible", "unknown")
    assert answer["best_tiles"] == len(answer["played"])
    assert "not proven the best" in describe_bot(answer)
    # Without the joker limit the same turn is proven, and says so.
    unlimited = bot_rummikub({**request, "rules": {**rules, "max_jokers_per_set": 4}})
    assert unlimited["status"] == "optimal"
    assert unlimited["best_tiles"] == len(unlimited["played"]) > 0
    assert "The best play places" in describe_bot(unlimited)


def test_the_greedy_bots_answer_solves_the_turn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its move is the best play, yet the answer solved the turn again for the best
    play's size: on a large variant (7 colours, 26 numbers, sets of 6) the greedy
    answer took 87 s where the strong bot's took 43 s."""
    calls = []
    real = search.solve

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr("solver.rummikub.strategy.solve", counted)
    request = {"bot": "greedy", "rack": ["R1", "R2", "R3", "K5"], "opened": True}
    answer = bot_rummikub({**request, "opponents": [{"rack_size": 14, "opened": True}]})
    assert (answer["action"], answer["best_tiles"], answer["played"]) == (
        "play",
        3,
        ["R1", "R2", "R3"],
    )
    assert len(calls) == 1


@pytest.mark.parametrize(
    ("opened", "rack", "answer"),
    [
        # Before opening the move is the best play: worth 30, or none (a draw).
        (False, "R10 R11 R12 K9 O9 B9 K2 O4", ("play", 6, 6, 1)),
        (False, "R1 R2 R3 B5 K5 O5 K11 O4", ("draw", 0, 0, 1)),
        # After it the best play (K5 onto the table's group) is a solve of its own.
        (True, "R1 R2 R3 K5 O9", ("play", 4, 4, 2)),
    ],
)
def test_the_beginners_answer_solves_within_its_moves_budget(
    monkeypatch: pytest.MonkeyPatch, opened: bool, rack: str, answer: tuple[Any, ...]
) -> None:
    """Before opening the beginner's move is the best play, yet its answer solved the
    turn again for the best play's size: two searches where one gives both. After
    opening the best play is another question than its move, and it was solved on a
    fresh budget of its own: it now shares the move's (MOVE_WORK), as the strong
    bot's solves do."""
    searches: list[cpsat.Budget] = []
    run = cpsat.run

    def counted(model: Any, limits: cpsat.Limits, *args: Any, **kwargs: Any) -> cpsat.Solved:
        if limits.left:
            assert limits.budget is not None
            searches.append(limits.budget)
        return run(model, limits, *args, **kwargs)

    monkeypatch.setattr(cpsat, "run", counted)
    request = {
        "bot": "beginner",
        "rack": rack.split(),
        "table": [["B5", "O5", "R5"]],
        "opened": opened,
        "opponents": [{"rack_size": 9, "opened": True}],
    }
    got = bot_rummikub(request)
    assert (got["action"], len(got["played"]), got["best_tiles"], len(searches)) == answer
    assert len({id(budget) for budget in searches}) == 1
    assert got["status"] == "optimal"


def test_the_solves_of_a_bot_move_share_one_deterministic_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A strong move asks up to five solves (two for its best play, one for its own
    sets, two for the loose tiles), and each was bounded by its own work alone: up to
    10 s of CP-SAT work a move. They now share the kernel's Budget, MOVE_WORK a move:
    with 1.0 of it, the turn of :func:`_house_request` stops its count model at 1.0,
    the calm play's model (which proves 3 tiles) does not start, and the bot draws,
    saying that no play was found before the search stopped (the same on any
    machine). With the default budget the move is the one bounded by search alone."""
    searches: list[tuple[cpsat.Budget, float]] = []  # each search started: its work
    run = cpsat.run

    def counted(model: Any, limits: cpsat.Limits, *args: Any, **kwargs: Any) -> cpsat.Solved:
        budget = limits.budget
        assert budget is not None
        solves, work = budget.solves, budget.work
        solved = run(model, limits, *args, **kwargs)
        if budget.solves < solves:
            searches.append((budget, work - budget.work))
        return solved

    monkeypatch.setattr(cpsat, "run", counted)
    request = _house_request("strong")
    assert bot_rummikub(request)["status"] == "optimal"
    assert len(searches) == 4  # the best play's two, its own sets, the loose tiles
    assert len({id(budget) for budget, _work in searches}) == 1
    assert searches[0][0].solves == MOVE_SOLVES - 4
    searches.clear()
    monkeypatch.setattr(strategy, "MOVE_WORK", 1.0)
    cut = bot_rummikub(request)
    assert (cut["status"], cut["action"], cut["best_tiles"]) == ("unknown", "draw", 0)
    assert cut["reason"] == "no play was found before the search stopped: it draws"
    assert len(searches) == 1  # the count model, stopped at 1.0: nothing after it
    assert 1.0 <= searches[0][1] <= 1.0 + 0.01


def test_beginner_games_keep_every_old_set_together() -> None:
    for seed in range(10):
        game = play(GameSettings(rules=TINY, hand=5), ["beginner", "beginner"], seed)
        for turn in game.turns:
            if turn.action is Action.PLAY:
                for old in turn.table_before:
                    assert any(not Counter(old) - Counter(new) for new in turn.table_after), (
                        f"seed {seed} turn {turn.number} broke {old}"
                    )


def test_strong_goes_out_when_it_can() -> None:
    decision = Strong().decide(view("R1 R2 R3 K9 B9 O9 J", "R4 R5 R6"))
    assert decision.reason == "the best play empties the rack"
    assert decision.move.table is not None
    assert sum(map(len, decision.move.table)) == 10


def test_strong_keeps_back_rack_sets_and_the_joker() -> None:
    # R1 R2 R3 stands alone; K11 goes on the table's run; J is kept.
    decision = Strong().decide(view("R1 R2 R3 K11 O4 J", "K8 K9 K10"))
    assert decision.best.tiles_played == 5  # all but O4: J goes on the run K8-K11
    assert [str(t) for t in decision.played] == ["K11"]
    assert decision.reason.startswith(
        "it keeps back 1 set that stands on the rack alone and the joker, which can go down"
    )


def test_strong_says_what_it_keeps_back_in_the_number_it_keeps() -> None:
    """One thing kept back (one set, or the joker alone) the opponents could use "it",
    not "them"; a set and the joker, or two sets, "them". (It said they "would help the
    opponents", which the bot does not check: that the table's tiles are theirs to use
    too is the rules'.)"""
    one_set = Strong().decide(view("R4 K5 K6 K7 O1", "R1 R2 R3"))
    assert [str(t) for t in one_set.played] == ["R4"]
    assert one_set.reason == (
        "it keeps back 1 set that stands on the rack alone, which can go down on any"
        " later turn, while on the table the opponents could use it"
    )
    joker = Strong().decide(view("R4 J K9", "R1 R2 R3"))
    assert [str(t) for t in joker.played] == ["R4"]
    assert joker.reason == (
        "it keeps back the joker, which can go down on any later turn, while on the"
        " table the opponents could use it"
    )
    both = Strong().decide(view("R1 R2 R3 K11 O4 J", "K8 K9 K10"))
    assert both.reason.endswith("while on the table the opponents could use them")


def test_strong_holds_back_even_against_a_nearly_empty_rack_unless_told() -> None:
    decision = Strong().decide(view("R1 R2 R3 K11 O4 J", "K8 K9 K10", opponents=1))
    assert [str(t) for t in decision.played] == ["K11"]
    hurried = Strong(Strategy(hurry_rack=2)).decide(
        view("R1 R2 R3 K11 O4 J", "K8 K9 K10", opponents=2)
    )
    assert hurried.played == hurried.best.played
    assert hurried.reason == "an opponent holds only 2 tiles, so it plays all it can"


def test_strong_draws_rather_than_lay_down_kept_sets_and_plays_all_once_the_pool_is_empty() -> None:
    v = view("R1 R2 R3 O4 J", "K8 K9 K10")
    decision = Strong().decide(v)
    assert decision.move.is_draw
    assert decision.best.tiles_played == 4
    empty = replace(v, pool_size=0)
    assert Strong().decide(empty).played == decision.best.played


def test_strong_opens_with_the_fewest_tiles_worth_the_threshold() -> None:
    decision = Strong().decide(view("R10 R11 R12 R13 K1 B1 O1 B5", opened=False))
    # R11 R12 R13 = 36 is enough; the best opening places 7 tiles.
    assert decision.best.tiles_played == 7
    assert sorted(str(t) for t in decision.played) == ["R11", "R12", "R13"]


def test_strong_says_only_what_its_opening_keeps_back() -> None:
    """Every small opening was said to keep "the other sets hidden for later": one of
    the best play's one set kept nothing, and a trimmed run keeps a lone tile."""
    whole = Strong().decide(view("R10 R11 R12 B1 K5", opened=False))
    assert whole.played == whole.best.played
    assert whole.reason == "it opens with the best play"
    trimmed = Strong().decide(view("R10 R11 R12 R13 B1 K5", opened=False))
    assert [str(t) for t in trimmed.played] == ["R11", "R12", "R13"]
    assert trimmed.reason == (
        "it opens with 36 points, enough to open, and keeps 1 tile of the best play back for later"
    )


def test_smallest_opening_trims_runs_and_groups() -> None:
    rules = Rules()
    play = best_play(Position.parse("R9 R10 R11 R12 K13 B13 O13 R13", "", False), rules)
    melds = smallest_opening(play.table, rules)
    assert sum(m.value for m in melds) >= 30
    assert sum(len(m.tiles) for m in melds) == 3


def test_the_strong_bots_opening_keeps_a_numbered_tile_in_every_set() -> None:
    """Trimming an opening cut a run's only numbered tile: with 3 jokers, B1 O11 J J J
    opened with the set J J J, illegal (a game stopped on the bot's move)."""
    rules = Rules(jokers=3)
    position = view("B1 O11 J J J", opened=False)
    decision = Strong().decide(replace(position, settings=GameSettings(rules=rules)))
    assert decision.played
    assert decision.move.table is not None
    verdict = check_play(position.rack, (), decision.move.table, False, rules)
    assert verdict.legal, verdict.problems
    small = Rules(min_set_len=2, opening_threshold=13)
    trimmed = smallest_opening((read_meld(parse_tiles("R5 J J"), small),), small)
    assert all(len(m.tiles) > m.jokers for m in trimmed)


def _out_of_time(_signum: int, _frame: Any) -> None:
    raise TimeoutError("smallest_opening still running after 10 s")


def test_the_strong_bots_opening_of_many_sets_is_trimmed_at_once() -> None:
    """Trimming an opening tried every subset of its sets: a 50-tile hand under
    min_set_len 2 (a game of 3 players, hand=50) opened with 30 sets, and the strong
    bot's first move took 4 minutes (2^30 subsets); with more sets, days."""
    rules = Rules(colours=5, numbers=15, min_set_len=2, opening_threshold=1)
    melds = tuple(
        read_meld(parse_tiles(f"{a}{n} {b}{n}"), rules)
        for n in range(1, 16)
        for a, b in (("R", "B"), ("K", "O"))
    )
    richer = replace(rules, opening_threshold=200)
    previous = signal.signal(signal.SIGALRM, _out_of_time)
    signal.setitimer(signal.ITIMER_REAL, 10)
    try:
        one = smallest_opening(melds, rules)
        rich = smallest_opening(melds, richer)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert [len(m.tiles) for m in one] == [2]  # any one set of 2 opens at 1 point
    # The sets are worth 2 to 30, two of each: 7 of them make at most 192 points, so
    # 200 takes 8 sets of 2 tiles.
    assert sum(m.value for m in rich) >= 200
    assert sum(len(m.tiles) for m in rich) == 16


def test_strategy_knobs_parse_and_bad_names_are_refused() -> None:
    assert Strategy.parse("hurry_rack=2,stuck=set,hold_jokers=0") == Strategy(
        hurry_rack=2, stuck=Strategy.parse("stuck=set").stuck, hold_jokers=False
    )
    assert isinstance(make_bot("strong:hurry_rack=3"), Strong)
    # "+" between knobs, so that a knobbed bot fits in a tournament's --bots list.
    bot = make_bot("strong:hurry_rack=3+stuck=set+hold_sets=no")
    assert isinstance(bot, Strong)
    assert bot.strategy == Strategy(hurry_rack=3, stuck=Stuck.SET, hold_sets=False)
    with pytest.raises(ValueError, match="unknown knob 'speed'"):
        make_bot("strong:speed=3")
    with pytest.raises(ValueError, match="unknown bot 'random'"):
        make_bot("random")
    assert set(BOTS) == {"beginner", "greedy", "strong"}


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("strong:hurry_rack=x", "bot 'strong:hurry_rack=x': knob 'hurry_rack' is a whole"),
        ("strong:hurry_pool=-1", "knob 'hurry_pool' is a whole number from 0 to 999, got '-1'"),
        ("strong:hurry_rack", "knob 'hurry_rack' is a whole number from 0 to 999, got ''"),
        ("strong:stuck=zzz", "knob 'stuck' is one of draw, set, all, got 'zzz'"),
        ("strong:hold_sets=maybe", "knob 'hold_sets' is true or false, got 'maybe'"),
        # The last was kept without a word.
        (
            "strong:hurry_rack=1+hurry_rack=2",
            "bot 'strong:hurry_rack=1+hurry_rack=2': knob 'hurry_rack' is given twice; give it"
            " once",
        ),
    ],
)
def test_a_bad_knob_value_names_the_bot_the_knob_and_the_value(name: str, message: str) -> None:
    with pytest.raises(MeldwiseError) as raised:
        make_bot(name)
    assert message in str(raised.value)


def test_the_same_view_gives_the_same_move() -> None:
    v = view("R1 R2 R3 K11 O4 J B6 B7", "K8 K9 K10 | O5 O6 O7")
    for name in BOTS:
        moves = {make_bot(name, 3).choose(v) for _ in range(2)}
        assert len(moves) == 1
        (move,) = moves
        assert isinstance(move, Move)


HOLDING = {"rack": ["R1", "R2", "R3", "K11", "O4", "J"], "table": [["K8", "K9", "K10"]]}


def test_the_hint_gives_advice_only_when_asked_and_keeps_the_best_play() -> None:
    plain = solve_rummikub(HOLDING)
    assert "advice" not in plain
    asked = solve_rummikub({**HOLDING, "opponents": [{"rack_size": 9, "opened": True}]})
    advice = asked.pop("advice")
    assert asked == plain, "the best play is answered as without advice"
    assert advice["holds_back"]
    assert not advice["draws"]
    assert advice["plays"] == ["K11"]
    assert advice["keeps"] == ["R1", "R2", "R3", "J"]
    assert advice["text"].startswith("The strong bot would play only 1 of the 5 tiles (K11)")
    assert "stands on the rack alone" in advice["text"]


def test_the_advice_keeps_tiles_of_the_play_the_hint_shows() -> None:
    """Two plays place 2 tiles, O6 J and R1 J: the hint shows O6 J (least disruption),
    the bot's own solve found R1 J, and the advice said it keeps R1 and J, "tiles of the
    best play", R1 not being one of the play shown."""
    request = {
        "rack": ["R1", "O6", "J"],
        "table": [["R4", "K4"], ["R4", "B4", "K4", "O4"]],
        "opponents": [{"rack_size": 31, "opened": True}],
        "rules": {"numbers": 6, "min_set_len": 2, "opening_threshold": 0, "wrap_runs": True},
    }
    answer = solve_rummikub(request)
    advice = answer["advice"]
    assert advice["draws"]
    assert advice["plays"] == []
    assert sorted(advice["keeps"]) == sorted(answer["played"]) == ["J", "O6"]


@pytest.mark.parametrize("level", ["full", "tile", "nudge"])
def test_advice_beside_an_answer_the_clock_cut_says_what_it_counts(
    monkeypatch: pytest.MonkeyPatch, level: str
) -> None:
    """The hint's search, cut by the time limit, found no play, and the advice said
    "The strong bot would play only 1 of the 5 tiles": 5 tiles of a play the answer
    does not show. It says now that its own search found them."""
    request = {**HOLDING, "opponents": [{"rack_size": 9, "opened": True}], "hint_level": level}
    whole = solve_rummikub(request)
    spend_the_clock(monkeypatch, "solver.rummikub.wire")  # the bot's clock is its own
    cut = solve_rummikub(request)
    assert cut["time_capped"]
    assert cut["tiles_played"] < whole["tiles_played"]
    text = cut["advice"]["text"]
    assert text.startswith(
        f"The strong bot's own search finds a play of {whole['tiles_played']} tiles, where"
        f" this answer places {cut['tiles_played']}; it would play only 1 of them"
    )
    assert cut["advice"]["holds_back"]
    if level == "full":
        assert cut["advice"]["plays"] == whole["advice"]["plays"]
        assert cut["advice"]["keeps"] == []  # of the tiles the answer plays: none
    with language("ja"):
        said = solve_rummikub(request)["advice"]["text"]
    assert f"{whole['tiles_played']}枚" in said
    assert "この答え" in said


def test_advice_making_the_play_an_answer_the_clock_cut_did_not_find(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot would play all it found: not "the best play too" beside no play."""
    request = {"rack": ["R1", "R2", "R3"], "opponents": [{"rack_size": 9, "opened": True}]}
    spend_the_clock(monkeypatch, "solver.rummikub.wire")  # the bot's clock is its own
    cut = solve_rummikub(request)
    assert cut["time_capped"]
    assert not cut["tiles_played"]
    assert cut["advice"]["text"] == (
        "The strong bot's own search finds a play of 3 tiles, where this answer places 0,"
        " and it would make it: the best play empties the rack."
    )


def test_advice_beside_an_answer_of_most_points_says_what_it_counts() -> None:
    """The answer of most points places 5 tiles, the bot's best play (most tiles) 6:
    "rather than play the 6 tiles it could" was said beside the answer's 5."""
    request: dict[str, Any] = {
        "rack": ["R6", "B4", "B6", "B13", "K2", "O4", "O6", "O9", "J"],
        "table": [["R3", "K3", "O3"], ["R6", "R7", "R8", "R9"], ["R8", "B8", "K8"]],
    }
    most = solve_rummikub(request)["tiles_played"]
    opponents = [{"rack_size": 9, "opened": True}]
    answer = solve_rummikub({**request, "objective": "points", "opponents": opponents})
    assert answer["tiles_played"] != most
    assert answer["advice"]["text"].startswith(
        f"The strong bot's own search finds a play of {most} tiles, where this answer places"
        f" {answer['tiles_played']}"
    )


def test_advice_below_the_full_hint_gives_no_tile_away() -> None:
    # A nudge says only whether a play exists and its size: its advice used to list
    # the tiles the bot would play and keep, which together were the whole best play.
    opponents = [{"rack_size": 9, "opened": True}]
    for level in ("nudge", "tile"):
        answer = solve_rummikub({**HOLDING, "opponents": opponents, "hint_level": level})
        advice = answer["advice"]
        assert advice["plays"] is None
        assert advice["keeps"] is None
        assert advice["holds_back"]
        assert not advice["draws"]
        assert advice["text"].startswith("The strong bot would play only 1 of the 5 tiles: ")
        assert not any(tile in advice["text"] for tile in ("K11", "R1", "R2", "R3"))


def test_the_nudges_advice_does_not_say_how_the_rack_is_made_up() -> None:
    """A nudge tells whether a play exists and how many tiles it places: its advice
    said the rack held "1 set that stands on the rack alone" (a part of the play the
    player was to find), which even the tile hint, naming one tile, does not say of
    the play. It now says only that the bot keeps tiles back; the tile hint's advice
    still gives the reason whole, the full hint the tiles too."""
    opponents = [{"rack_size": 9, "opened": True}]
    nudge = solve_rummikub({**HOLDING, "opponents": opponents, "hint_level": "nudge"})
    assert nudge["advice"]["text"] == (
        "The strong bot would play only 1 of the 5 tiles: it keeps back tiles that can go"
        " down on any later turn, while on the table the opponents could use them."
    )
    tile = solve_rummikub({**HOLDING, "opponents": opponents, "hint_level": "tile"})
    assert "1 set that stands on the rack alone and the joker" in tile["advice"]["text"]
    # Drawing rather than play: the same reason, the same way.
    drawing = {"rack": ["R1", "R2", "R3", "K12"], "table": [["K8", "K9", "K10"]]}
    answer = solve_rummikub({**drawing, "opponents": opponents, "hint_level": "nudge"})
    assert answer["advice"]["draws"]
    assert "set" not in answer["advice"]["text"]
    with language("ja"):
        ja = solve_rummikub({**HOLDING, "opponents": opponents, "hint_level": "nudge"})
    assert "後のどの手番でも出せるタイルを温存します" in ja["advice"]["text"]
    # Only the joker kept: the player knows it is on the rack, the reason names it.
    joker = {"rack": ["J", "K11", "O2"], "table": [["K8", "K9", "K10"]]}
    answer = solve_rummikub({**joker, "opponents": opponents, "hint_level": "nudge"})
    assert answer["advice"]["text"].endswith(
        "it keeps back the joker, which can go down on any later turn, while on the table"
        " the opponents could use it."
    )


def test_advice_at_every_hint_level_and_when_the_bot_agrees() -> None:
    going_out = {"rack": ["R1", "R2", "R3", "K11"], "table": [["K8", "K9", "K10"]]}
    for level in ("nudge", "tile", "full"):
        answer = solve_rummikub({**going_out, "opponents": [{"rack_size": 5}], "hint_level": level})
        full = level == "full"
        assert answer["advice"] == {
            "holds_back": False,
            "draws": False,
            "plays": ["R1", "R2", "R3", "K11"] if full else None,
            "keeps": [] if full else None,
            "text": "The strong bot would make the best play too: the best play empties the rack.",
        }
    with pytest.raises(ValueError, match=r"'opponents\[0\]\.rack_size' must be at least 1, got 0"):
        solve_rummikub({**HOLDING, "opponents": [{"rack_size": 0}]})
    with pytest.raises(ValueError, match=r"racks \('opponents'\) hold 200 tiles"):
        solve_rummikub({**HOLDING, "opponents": [{"rack_size": 200}]})
    tiny = {"colours": 2, "numbers": 3, "copies": 1, "jokers": 0}
    with pytest.raises(
        ValueError, match=r"hold 2 tiles, but the game leaves only 1 tile off 'rack' and 'table'$"
    ):
        solve_rummikub(
            {"rack": ["R1", "R2", "R3", "B1", "B2"], "rules": tiny, "opponents": [{"rack_size": 2}]}
        )


def test_the_advice_where_there_is_no_play_says_the_bot_draws_too() -> None:
    # It said "The strong bot would make the best play too: there is no play: it
    # draws." (meldwise solve --rack "R1 B5" --table "K1 K2 K3" --opponents 9o).
    request = {"rack": ["R1", "B5"], "table": [["K1", "K2", "K3"]]}
    for level in ("nudge", "tile", "full"):
        opponents = [{"rack_size": 9, "opened": True}]
        answer = solve_rummikub({**request, "opponents": opponents, "hint_level": level})
        assert answer["advice"]["draws"]
        assert answer["advice"]["text"] == "There is no play: the strong bot would draw too."
    ja = solve_rummikub({**request, "opponents": opponents, "lang": "ja"})
    assert ja["advice"]["text"] == "出せる手はありません。強いボットも山から引きます。"


def test_a_bot_facing_an_empty_pool_is_not_said_to_draw(capsys: pytest.CaptureFixture[str]) -> None:
    """The opponents hold every tile not on the rack or the table (101 of 106): the pool
    is empty, so a move of no play is a pass (the engine's), yet /bot answered action
    "draw", 'strong draws a tile.' and 'there is no play: it draws', and the advice
    'There is no play: the strong bot would draw too.'"""
    request = {"rack": ["R1", "B5"], "table": [["K1", "K2", "K3"]], "opened": True}
    opponents = [{"rack_size": 101, "opened": True}]
    # 106 tiles: 2 on the rack, 3 on the table, 101 on the opponent's rack, 0 to draw
    # (docs/games.md: a record's action is "pass" when the pool was empty).
    for bot in BOTS:
        answer = bot_rummikub({**request, "opponents": opponents, "bot": bot})
        assert answer["action"] == "pass", bot
        assert answer["played"] == []
        said = describe_bot(answer)
        assert said.startswith(f"{bot} passes: it does not play, and the pool is empty.\n")
        assert "draw" not in said
    strong = bot_rummikub({**request, "opponents": opponents, "bot": "strong"})
    assert strong["reason"] == "there is no play: it passes, the pool being empty"
    for level in ("nudge", "tile", "full"):
        answer = solve_rummikub({**request, "opponents": opponents, "hint_level": level})
        assert not answer["advice"]["draws"]
        text = answer["advice"]["text"]
        assert text == "There is no play, and the pool is empty: the strong bot would pass."
    ja = solve_rummikub({**request, "opponents": opponents, "lang": "ja"})
    assert "\u5c71\u304b\u3089" not in ja["advice"]["text"]  # 山から (from the pool)
    # One tile left in the pool: the bots draw it.
    fewer = [{"rack_size": 100, "opened": True}]
    answer = bot_rummikub({**request, "opponents": fewer, "bot": "strong"})
    assert answer["action"] == "draw"
    assert answer["reason"] == "there is no play: it draws"
    assert main(["bot", "--rack", "R1 B5", "--table", "K1 K2 K3", "--opponents", "101"]) == 0
    assert capsys.readouterr().out.startswith("strong passes: it does not play")


@pytest.mark.parametrize("hint", ["full", "tile", "nudge"])
def test_a_hint_facing_an_empty_pool_does_not_say_draw(
    hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The opponents hold every tile off the rack and the table: the hint said "No play:
    # draw a tile." where there is nothing to draw (the turn is a pass).
    argv = ["solve", "--rack", "R1 B5", "--table", "K1 K2 K3", "--hint", hint]
    assert main([*argv, "--opponents", "101"]) == 0
    assert capsys.readouterr().out.startswith("No play, and the pool is empty: pass.\n")
    request = {"rack": ["R1", "B5"], "table": [["K1", "K2", "K3"]], "hint_level": hint}
    answer = solve_rummikub({**request, "opponents": [{"rack_size": 101}]})
    if hint == "tile":
        assert answer["text"] == "No play, and the pool is empty: pass."
    # One tile left to draw, or no opponents given (the pool is not known): draw.
    assert main([*argv, "--opponents", "100"]) == 0
    assert capsys.readouterr().out.startswith("No play: draw a tile.\n")
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("No play: draw a tile.\n")


def test_an_empty_rack_is_neither_told_nor_made_to_draw(capsys: pytest.CaptureFixture[str]) -> None:
    """A player whose rack is empty has gone out: the round is over. The advice said
    "There is no play: the strong bot would draw too." and every bot drew (meldwise
    bot --rack "": "strong draws a tile. ... Why: there is no play: it draws.")."""
    opponents = [{"rack_size": 3, "opened": True}]
    for level in ("nudge", "tile", "full"):
        asked = {"rack": [], "table": [["K1", "K2", "K3"]], "opponents": opponents}
        advice = solve_rummikub({**asked, "hint_level": level})["advice"]
        assert (advice["draws"], advice["holds_back"]) == (False, False)
        assert advice["text"] == (
            "The strong bot would neither play nor draw: a player whose rack is empty has gone out."
        )
    ja = solve_rummikub({**asked, "lang": "ja"})["advice"]["text"]
    assert ja == (
        "\u5f37\u3044\u30dc\u30c3\u30c8\u3082\u51fa\u3055\u305a\u3001\u5f15\u304d\u3082"
        "\u3057\u307e\u305b\u3093\u3002\u624b\u6301\u3061\u304c\u7a7a\u306e\u30d7\u30ec"
        "\u30a4\u30e4\u30fc\u306f\u4e0a\u304c\u3063\u3066\u3044\u307e\u3059\u3002"
    )
    refusal = (
        "'rack' is empty: a player with no tiles has gone out and the round is over, so there"
        " is no move to make"
    )
    for bot in sorted(BOTS):
        with pytest.raises(MeldwiseError, match=f"^{refusal}$"):
            bot_rummikub({"bot": bot, "rack": [], "opponents": opponents})
    with pytest.raises(MeldwiseError) as ja_refusal:
        bot_rummikub({"bot": "strong", "rack": [], "opponents": opponents, "lang": "ja"})
    assert str(ja_refusal.value).startswith("'rack' \u304c\u7a7a\u3067\u3059")
    assert main(["bot", "--rack", ""]) == 2
    flagged = refusal.replace("'rack'", "--rack")
    assert capsys.readouterr().err == f"error: {flagged}\n"


def test_the_advice_calls_no_play_the_best_that_its_search_did_not_prove(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a large variant (7 colours, 26 numbers, sets of 6, at most 3 jokers a set)
    the strong bot's search stopped at its work bound having found no play, and the
    advice said "The strong bot would make the best play too: no play was found before
    the search stopped: it draws". The same stop is made here by cutting the work (as
    in the test above): the advice says what the search found, not that it is best."""
    rules = {
        "colours": 5, "numbers": 19, "copies": 2, "jokers": 4, "min_set_len": 8,
        "opening_threshold": 10, "max_jokers_per_set": 3,
    }  # fmt: skip
    table = (
        "R1 R2 R3 R4 R5 R6 R7 R8 R9 | B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13"
        " | R9 J R11 R12 J R14 R15 R16 R17 R18 R19 | O4 O5 O6 O7 O8 O9 O10 O11 O12"
    )
    request = {
        "rack": ["R10", "B19", "G11", "J", "J"],
        "table": [tiles.split() for tiles in table.split(" | ")],
        "opponents": [{"rack_size": 14, "opened": True}],
        "rules": rules,
        "hint_level": "nudge",
    }
    with monkeypatch.context() as patched:
        patched.setattr("solver.rummikub.search.SCORE_WORK", 0.001)
        advice = solve_rummikub(request)["advice"]
    assert advice["draws"]
    assert advice["text"] == (
        "The strong bot's search stopped before finding a play: it would draw."
    )
    # A best play found but not proven: "the best play it found", never "the best".
    v = view("R1 R2 R3 K11 O4 J", "K8 K9 K10")
    found = replace(best_play(v.position, v.rules), status=Status.FEASIBLE)
    plays_all = Strategy(hold_sets=False, hold_jokers=False)
    with monkeypatch.context() as patched:
        patched.setattr("solver.rummikub.strategy.best_play", lambda *args: found)
        assert Strong(plays_all).decide(v).reason == "it makes the best play it found"
        assert advise(v, plays_all).text == "The strong bot would make the best play it found."
    with monkeypatch.context() as patched:
        patched.setattr(
            "solver.rummikub.strategy.best_play",
            lambda position, rules, limit=None: (
                found if position == v.position else best_play(position, rules, limit)
            ),
        )
        text = advise(v).text
    assert text.startswith("The strong bot would play only 1 of the 5 tiles (K11): ")
    assert text.endswith(" Its search stopped before proving the best play.")


def test_strong_with_nothing_to_keep_makes_the_best_play() -> None:
    decision = Strong().decide(view("R5 B9 K11", "R6 R7 R8"))
    assert decision.reason == "it makes the best play"
    assert decision.played == decision.best.played == (Tile.parse("R5"),)


def test_more_seats_than_tiles_names_the_fields() -> None:
    # A rack of 1 and 6 one-tile opponents in a game of 6 tiles: the answer was "7
    # hands of 1 need 7 tiles, the game has 6", a hand of no field of the request.
    rules = {"colours": 2, "numbers": 3, "copies": 1, "jokers": 0, "opening_threshold": 0}
    opponents = [{"rack_size": 1, "opened": True}] * 6
    request = {"bot": "greedy", "rack": ["R1"], "opponents": opponents, "rules": rules}
    with pytest.raises(MeldwiseError, match="'opponents' lists 6 players, who with the player"):
        bot_rummikub(request)
    # Two seats fewer is a game: the player draws the pool's last tile. (An empty rack
    # with 5 seats drew it here, but that player has gone out: it is refused now.)
    assert bot_rummikub({**request, "opponents": opponents[:4]})["action"] == "draw"


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_no_rummikub_bot_draws_at_random_so_any_seed_gives_the_same_move(bot: str) -> None:
    """The request's ``seed`` and ``meldwise bot --seed`` say every seed gets the same
    move: each bot, on an opening and a position after it, for several seeds."""
    for rack, table, opened in (
        (["R10", "R11", "R12", "K9", "O9", "B9", "J", "K2"], [], False),
        (["R8", "R9", "B1", "K4", "O5"], [["J(R7)", "R5", "R6"], ["K4", "B4", "O4"]], True),
    ):
        asked = {"bot": bot, "rack": rack, "table": table, "opened": opened,
                 "opponents": [{"rack_size": 9, "opened": True}]}  # fmt: skip
        answers = [bot_rummikub({**asked, "seed": seed}) for seed in (0, 1, 7, 2**31)]
        assert all(answer == answers[0] for answer in answers[1:])


@pytest.mark.parametrize(
    ("rack", "table", "rules"),
    [
        ("R2 K9", "R3 R4 R5 | K10 K11 K12", {}),
        ("J", "R3 R4 R5", {}),
        ("R2 J", "R3 R4 R5", {"joker_retrieval": "replace"}),
        ("B9 J", "B10 J(B11) B12 | K7 B7 O7", {}),
        ("R13 R1", "R11 R12 J", {"wrap_runs": True}),
    ],
)
def test_the_beginners_table_reads_as_its_sets_lie(
    rack: str, table: str, rules: dict[str, Any]
) -> None:
    """The beginner put a tile it added at the end of the set's list: it answered
    ``R3 R4 R5 R2`` and ``R3 R4 R5 J`` (which tile the joker stands for, which decides
    a later turn under "replace", left unsaid), where every other bot's table lies as
    it reads: each set of its answer is what the table reader makes of it, a run low
    to high and each joker written with its tile."""
    sets = [s.split() for s in table.split("|")]
    answer = bot_rummikub(
        {
            "bot": "beginner",
            "rack": rack.split(),
            "table": sets,
            "opponents": [{"rack_size": 9, "opened": True}],
            "rules": rules,
        }
    )
    assert answer["action"] == "play"
    read = Rules(**rules)
    for tiles in answer["table"]:
        assert tiles == [t.written for t in read_meld(parse_tiles(tiles), read).written]
        assert "J" not in tiles
    assert sorted(answer["played"]) == sorted(rack.split())


def test_a_bot_move_the_safety_cap_stops_is_refused_in_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A strong move on a huge variant (8 colours of 19 numbers, 4 copies, runs of 12
    going round, one joker a set: racks of 100 tiles and more) took 12-23 s each and
    one, on a loaded machine, passed the 60 s safety cap: the BotError it raised was a
    RuntimeError, a traceback on the command line and a 500 over HTTP, from a bot's
    move and from a solve given opponents alike. It is now refused with a message, as
    bad input is (the cap is patched tiny here to stop a small position's solves)."""
    monkeypatch.setattr(strategy, "SAFETY_TIME_LIMIT", 1e-6)
    position = {
        "rack": ["R1", "R2", "R3", "K5", "B7", "O9", "K11", "J"],
        "table": [["B1", "B2", "B3"], ["K7", "O7", "R7"]],
        "opened": True,
        "opponents": [{"rack_size": 5, "opened": True}],
    }
    with pytest.raises(MeldwiseError, match="safety cap"):
        bot_rummikub({**position, "bot": "strong"})
    with pytest.raises(MeldwiseError, match="safety cap"):
        solve_rummikub(position)
    with language("ja"), pytest.raises(MeldwiseError) as refused:
        bot_rummikub({**position, "bot": "greedy"})
    assert "安全上限" in str(refused.value)


def test_a_bot_game_whose_move_the_safety_cap_stops_is_refused_in_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A whole bot game too: the game's loop (``play_out``, shared by both games'
    ``game_*``) took the bot's refusal for the game's own refusal of an illegal move
    and raised ``IllegalBotMove``, an AssertionError: a traceback naming a bug in the
    bot, and a 500 over HTTP."""
    monkeypatch.setattr(strategy, "SAFETY_TIME_LIMIT", 1e-6)
    with pytest.raises(MeldwiseError, match=r"^the bot's search was stopped by its"):
        game_rummikub({"bots": ["strong", "greedy"], "seed": 1})
    assert main(["game", "--bots", "strong,greedy", "--seed", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("error: the bot's search was stopped by its 1e-06 s safety cap")
