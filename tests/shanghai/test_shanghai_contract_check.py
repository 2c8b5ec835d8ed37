"""The contract check (solver.shanghai.deficiency.layable): the hardest contracts seen
are refused by counting, without a solve, and a check the wall clock cut short says
so (with the work it had done) and is not remembered, so the same request asked again is
checked again."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from ortools.sat.python import cp_model

from api import worker
from meldwise.cli import main
from solver import advise_shanghai, cpsat
from solver.errors import RulesError
from solver.shanghai import deficiency
from solver.shanghai.contracts import Contract
from solver.shanghai.deficiency import layable
from solver.shanghai.engine import GameSettings
from solver.shanghai.game_wire import game_shanghai
from solver.shanghai.rules import Rules
from tests.shanghai.layable import layable as independent_layable

FRESH = itertools.count(1)


def fresh(rules: Rules) -> Rules:
    """``rules`` with points no other test uses: the same game for the check, a key its
    cache has never seen (points play no part in whether a contract can be laid)."""
    return replace(rules, low_points=100 + next(FRESH))


HARDEST = [
    # Each rank laid six times from its four naturals: 3.2 units of CP-SAT's work
    # (4.5 s of CPU, 16 s of wall-clock time at a load of 3) to prove.
    (Rules(decks=1, jokers_per_deck=4, twos_wild=True), Contract((), (13,) * 6)),
    # The sets of 8 take every wild card, the runs every natural one.
    (
        Rules(decks=1, jokers_per_deck=4, twos_wild=True, min_set_len=8),
        Contract((8, 8), (13, 13, 13, 13)),
    ),
    # Proven in 0.5 units once the runs took their suits in order of first use.
    (
        Rules(decks=1, jokers_per_deck=0, twos_wild=True, min_set_len=2, min_run_len=3),
        Contract((2, 2, 2), (12, 13, 13)),
    ),
    # The costliest of 613 drawn contracts of the variant test (seed 7): 1.7 s of CPU.
    (
        Rules(decks=2, jokers_per_deck=0, twos_wild=True, ace_low=True, min_set_len=8),
        Contract((8, 8, 13), (11, 12)),
    ),
    # Counted out by suit, not by rank alone: two of the runs share a suit of 13 cards.
    (Rules(decks=1, jokers_per_deck=0), Contract((), (10, 10, 10, 10, 10))),
    # Two runs share a suit, and the set takes a card from each suit or wild ones:
    # 1.1 units of CP-SAT's work (2.8 s of CPU) to prove.
    (
        Rules(decks=1, jokers_per_deck=2, twos_wild=True, min_set_len=5),
        Contract((5,), (8, 8, 10, 10, 12)),
    ),
]

NEEDS_A_SOLVE = (
    Rules(decks=1, jokers_per_deck=1, twos_wild=True, ace_low=True, min_set_len=3, min_run_len=3),
    Contract((3, 3, 3), (7, 12, 12)),
)
"""Layable, but neither counted out nor built by the search: CP-SAT finds the layout
(0.08 units of work)."""


def request_of(contract: Contract, rules: Rules, time_limit_ms: int) -> dict[str, Any]:
    """A play-phase advice request holding one card, under ``contract`` and ``rules``."""
    return {
        "hand": ["9C"],
        "contract": contract.to_dict(),
        "phase": "play",
        "rules": {name: getattr(rules, name) for name in Rules.__dataclass_fields__},
        "time_limit_ms": time_limit_ms,
    }


def no_solve(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the contract check solved a model")


@pytest.mark.parametrize(("rules", "contract"), HARDEST)
def test_the_hardest_contracts_seen_are_refused_without_a_solve(
    monkeypatch: pytest.MonkeyPatch, rules: Rules, contract: Contract
) -> None:
    assert not independent_layable(contract.sets, contract.runs, rules)
    monkeypatch.setattr(deficiency, "solve_model", no_solve)
    assert layable(contract, fresh(rules)) is False


def test_the_contract_that_needs_a_solve_does() -> None:
    """NEEDS_A_SOLVE goes to CP-SAT, as the tests below need."""
    rules, contract = NEEDS_A_SOLVE
    assert independent_layable(contract.sets, contract.runs, rules)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(deficiency, "solve_model", no_solve)
        with pytest.raises(AssertionError, match="solved a model"):
            layable(contract, fresh(rules))
    assert layable(contract, fresh(rules)) is True


def test_a_check_the_wall_clock_cut_is_not_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cut by its safety cap, the check settles nothing; the next call, with its full
    cap, settles it: the unsettled answer was once cached for the process's life."""
    rules, contract = NEEDS_A_SOLVE
    rules = fresh(rules)
    monkeypatch.setattr(deficiency, "CONTRACT_TIME", 1e-9)
    assert layable(contract, rules) is None
    monkeypatch.undo()
    assert layable(contract, rules) is True


class SlowClock:
    """A machine so busy that every reading of the clock is a second after the last."""

    def __init__(self, start: float) -> None:
        self.now = start

    def perf_counter(self) -> float:
        self.now += 1.0
        return self.now


def test_advice_whose_contract_check_the_clock_cut_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check runs inside the request's time limit; cut by it, the contract is let
    through and the answer says that the clock stopped the check, and how much of its
    fixed work was done (measured: here none, every reading of the clock a second on),
    in English and Japanese; nothing unsettled is remembered. It said "with more time or
    on an idle machine the check may settle it", which nothing had checked."""
    rules, contract = NEEDS_A_SOLVE
    rules = fresh(rules)
    request = request_of(contract, rules, time_limit_ms=2000)
    monkeypatch.setattr(cpsat, "time", SimpleNamespace(perf_counter=SlowClock(0.0).perf_counter))
    answer = advise_shanghai(request)
    assert answer["time_capped"], answer
    assert answer["status"] == "unknown", answer
    said = [note for note in answer["notes"] if "stopped the check" in note]
    assert said == [
        "The clock (the time limit) stopped the check of whether all the game's cards can"
        " lay the contract at once after 0.00 of its 10 units of fixed work (CP-SAT's work),"
        " so the contract was not refused."
    ], answer["notes"]
    assert not any("idle" in note for note in answer["notes"]), answer["notes"]
    japanese = advise_shanghai({**request, "lang": "ja"})
    assert japanese["time_capped"], japanese
    assert any("コントラクトを一度に並べられるか" in note for note in japanese["notes"]), japanese[
        "notes"
    ]
    assert any("0.00単位" in note for note in japanese["notes"]), japanese["notes"]
    assert not any("stopped the check" in note for note in japanese["notes"]), japanese["notes"]
    monkeypatch.undo()
    assert layable(contract, rules) is True
    settled = advise_shanghai(request)
    assert not any("stopped the check" in note for note in settled["notes"]), settled


def test_a_check_its_fixed_work_leaves_unsettled_says_so_and_is_remembered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stopped by its fixed work (no contract seen does, within 10 units), the check lets
    the contract through and the answer says why, without blaming the clock; that
    verdict is the same on any machine, so it is remembered."""
    rules, contract = NEEDS_A_SOLVE
    rules = fresh(rules)
    request = request_of(contract, rules, time_limit_ms=60_000)
    monkeypatch.setattr(deficiency, "CONTRACT_EFFORT", 0.0)
    answer = advise_shanghai(request)
    assert answer["status"] == "unknown", answer
    assert (
        "The check of whether all the game's cards can lay the contract at once did not"
        " settle within its fixed work, so the contract was not refused."
    ) in answer["notes"], answer["notes"]
    assert not any("clock" in note for note in answer["notes"]), answer["notes"]
    monkeypatch.undo()
    assert layable(contract, rules) is None  # remembered: no new solve


UNSETTLED_GAME = Rules(decks=1, jokers_per_deck=0, min_set_len=2, min_run_len=3)
"""Card rules under which hand 1's contract (two sets of 3) goes to CP-SAT (neither
counted out nor built by the search): with no work for its solve, its check is not
settled."""


def new_game_settings(rules: Rules) -> dict[str, Any]:
    """A one-hand game of two players under ``rules``, as a request's settings."""
    return {"rules": rules.to_dict(), "players": 2, "hands": 1}


def test_a_new_game_whose_contract_check_did_not_settle_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new game has no request limit and no answer to carry a note: a contract check
    its fixed work leaves unsettled started the game silently, its hand perhaps one no
    player can ever meet. It is refused, naming the hand, its contract and why, by the
    library, the command line and the service's worker alike, in English and Japanese;
    the same settings are refused the same way again (remembered, no new solve), and a
    record played under them is still read, its review saying why."""
    rules = fresh(UNSETTLED_GAME)
    settings = new_game_settings(rules)
    monkeypatch.setattr(deficiency, "CONTRACT_EFFORT", 0.0)
    said = (
        "hand 1: whether all the game's cards can lay the contract (set of 3 + set of 3) at"
        " once was not settled: its check stopped at its fixed work (0 units of CP-SAT's"
        " work), the same on any machine; a new game is not started on a contract that may"
        " be impossible to lay (no player could ever go down in that hand)"
    )
    with pytest.raises(RulesError) as refused:
        GameSettings.from_dict(settings)
    assert str(refused.value) == said
    monkeypatch.setattr(deficiency, "solve_model", no_solve)  # remembered: no new solve
    request = {"bots": ["greedy", "greedy"], "seed": 1, "settings": settings}
    with pytest.raises(RulesError) as refused:
        game_shanghai(request)
    assert str(refused.value) == f"settings: {said}"
    with pytest.raises(RulesError) as refused:
        worker.raw_answer("game_shanghai", json.dumps(request), "ja", {"game_budget_ms": 10_000})
    japanese = str(refused.value)
    assert japanese.startswith("settings: 第1ハンド: "), japanese
    assert "3枚のセット + 3枚のセット" in japanese
    assert not any(word in japanese for word in ("whether", "settled", "fixed work"))
    options = [
        f"--option=rules.{name}={json.dumps(value)}" for name, value in rules.to_dict().items()
    ]
    argv = ["game", "--game", "shanghai", "--bots", "greedy,greedy", "--option=hands=1"]
    assert main([*argv, *options]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"error: --option: {said}\n"
    recorded = GameSettings.from_dict(settings, recorded=True)
    assert recorded.unmet_contract(1) == said


def test_a_new_game_whose_contract_check_the_clock_cut_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cut by its wall-clock safety cap, the check refuses the new game saying so and how
    much of its fixed work was done (none: the cap had passed before the solve), and is
    not remembered: asked again, with its full cap, the same settings start a game. It
    blamed "a busy machine", which nothing had measured."""
    rules = fresh(UNSETTLED_GAME)
    monkeypatch.setattr(deficiency, "CONTRACT_TIME", 1e-9)
    with pytest.raises(RulesError) as refused:
        GameSettings(rules=rules, players=2, hands=1)
    assert str(refused.value) == (
        "hand 1: whether all the game's cards can lay the contract (set of 3 + set of 3) at"
        " once was not settled: its check's safety cap of 1e-09 s stopped it after 0.00 of its"
        " 10 units of fixed work (CP-SAT's work); a check the cap stopped is not remembered, so"
        " the same settings are checked again when asked again; a new game is not started on"
        " a contract that may be impossible to lay (no player could ever go down in that"
        " hand)"
    )
    monkeypatch.undo()
    assert GameSettings(rules=rules, players=2, hands=1).rules == rules


def test_a_cut_check_says_the_work_its_solve_did(monkeypatch: pytest.MonkeyPatch) -> None:
    """The work said is what the solve's account shows it did, not the fixed work: a
    solve the clock stopped with 7.5 of its 10 units left says 2.50 done."""

    def cut_after_some_work(hm: Any, limit: Any, effort: float = 1.0) -> Any:
        account = limit.account(effort)
        account.work = effort - 2.5
        account.capped = True
        return cp_model.UNKNOWN, None

    rules, contract = NEEDS_A_SOLVE
    monkeypatch.setattr(deficiency, "solve_model", cut_after_some_work)
    verdict = deficiency.contract_verdict(contract, fresh(rules))
    assert verdict == deficiency.Verdict(None, cut=True, done=2.5)
    assert "after 2.50 of its 10 units of fixed work" in (verdict.note() or "")
    assert "after 2.50 of its 10 units of fixed work" in verdict.refusal(contract)
