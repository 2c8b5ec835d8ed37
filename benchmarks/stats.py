"""Summary statistics of solve times."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass


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
