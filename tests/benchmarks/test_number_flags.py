"""The benchmark runners read a number flag as the command line does
(solver.commands.whole_number, Seconds): int() and float() took 9_9 for 99, other
scripts' digits (\\u0663 is Arabic-Indic 3) and inf; each ran on with it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module

import pytest

WHOLE = "must be a whole number, got {!r}"
DECIMAL = "must be a number, got {!r}"

# (runner, the arguments before the flag, the flag, its value, what is said)
REFUSED = [
    ("ab", ["--base", "HEAD"], "--seed", "9_9", WHOLE),
    ("ab", ["--base", "HEAD"], "--per-bucket", "1_0", WHOLE),
    ("ab", ["--base", "HEAD"], "--time-limit", "1_0", DECIMAL),
    ("protos", ["--base", "HEAD"], "--repeat", "\u0663", WHOLE),
    ("load", [], "--seed", "9_9", WHOLE),
    ("load", [], "--clients", "1_6", WHOLE),
    ("load", [], "--duration", "2_0", DECIMAL),
    ("load", [], "--warm-up", "\u0662", DECIMAL),
    ("abuse", [], "--rounds", "3_0", WHOLE),
    ("abuse", [], "--attacker-nice", "1_9", WHOLE),
    ("abuse", [], "--duration", "1_0", DECIMAL),
    ("games", ["speed"], "--seed", "9_9", WHOLE),
    ("games", ["strength"], "--processes", "\u0662", WHOLE),
    ("shanghai_bots", [], "--seed", "9_9", WHOLE),
    ("shanghai_bots", [], "--games", "2_0", WHOLE),
    ("shanghai_speed", [], "--seed", "9_9", WHOLE),
    ("shanghai_speed", [], "--time-limit", "1_0", DECIMAL),
    ("house_rules_speed", [], "--seed", "9_9", WHOLE),
    ("repair_speed", [], "--per-bucket", "1_0", WHOLE),
    ("small_limits", [], "--seed", "9_9", WHOLE),
    ("reference", [], "--work", "1_0", DECIMAL),
    # A superscript or circled digit is no digit, as in a tile: NFKC read them as one.
    ("load", [], "--seed", "\u00b2", WHOLE),
    ("load", [], "--duration", "\u2460", DECIMAL),
    ("cpsat_calls", ["replay", "calls.json.gz"], "--every", "1_0", WHOLE),
    # float("inf") timed a phase for ever; "--rows 1,10" started the helper processes,
    # then failed on a KeyError.
    ("load", [], "--duration", "inf", "must be a finite number, got {!r}"),
    ("load", [], "--warm-up", "inf", "must be a finite number, got {!r}"),
    ("load", [], "--table", "2_0-40", "{!r} is no range of tiles like 20-40"),
    ("abuse", [], "--rows", "1_0", WHOLE),
    ("abuse", [], "--rows", "1,10", "no row 10; the rows are 1 to 9"),
    ("soak", [], "--seed", "9_9", WHOLE),
    ("soak", [], "--pid", "\u0663", WHOLE),
    ("soak", [], "--minutes", "1_5", DECIMAL),
    ("soak", [], "--rate", "inf", "must be a finite number, got {!r}"),
]


def _main(runner: str) -> Callable[[Sequence[str]], int]:
    main: Callable[[Sequence[str]], int] = import_module(f"benchmarks.{runner}").main
    return main


@pytest.mark.parametrize(("runner", "before", "flag", "value", "said"), REFUSED)
def test_a_runner_refuses_a_number_the_command_line_refuses(
    runner: str,
    before: list[str],
    flag: str,
    value: str,
    said: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    with pytest.raises(SystemExit) as exited:
        _main(runner)([*before, flag, value])
    assert exited.value.code == 2
    assert f"argument {flag}: {said.format(value)}" in capsys.readouterr().err


def test_the_runners_still_read_a_number_typed_full_width() -> None:
    # As the command line reads one: typed full width, 2026 is 2026. (Imported here:
    # benchmarks.stats.number is new, and the table above must run against the old code.)
    from benchmarks.stats import at_least, number

    assert at_least(1)("\uff12\uff10\uff12\uff16") == 2026
    assert number("1e1") == 10.0
    assert at_least(0, float)("0.5") == 0.5
