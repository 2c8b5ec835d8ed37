"""Summary statistics of solve times."""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.commands import Seconds, whole_number


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile: the smallest value with at least ``share`` of the
    values at or below it (so with 10 values p95 and p99 are the maximum)."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True, slots=True)
class Summary:
    """Count, median, p95, p99 and max of some timings (ms)."""

    count: int
    median: float
    p95: float
    p99: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Summary:
        return cls(
            len(values),
            statistics.median(values),
            percentile(values, 0.95),
            percentile(values, 0.99),
            max(values),
        )


def number(text: str) -> float:
    """An argparse ``type``: a finite decimal number as every command-line flag reads
    one (:class:`solver.commands.Seconds`: ASCII digits, typed full width too, an
    exponent allowed). Not ``float()``: it read ``1_0`` as 10, other scripts' digits
    (``\u0661``) and ``inf``, which would run a timed phase for ever."""
    value = float(Seconds(text))
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    return value


def at_least(low: float, kind: type[int] | type[float] = int) -> Callable[[str], float]:
    """An argparse ``type``: a number of ``kind`` of at least ``low`` (above 0 for a
    float ``low`` of 0), so a bad value is a one-line usage error, not a traceback in
    the middle of a run (``--per-bucket 0`` raised StatisticsError). The number is
    read as the command line reads one (:func:`~solver.commands.whole_number`,
    :func:`number`), not by ``int()``/``float()``, which took ``9_9`` for 99."""

    def read(text: str) -> float:
        value = whole_number(text) if kind is int else number(text)
        if value < low or (kind is float and low == 0 and not value > 0):
            bound = "above 0" if kind is float and low == 0 else f"at least {low:g}"
            raise argparse.ArgumentTypeError(f"must be {bound}, got {text}")
        return value

    return read
