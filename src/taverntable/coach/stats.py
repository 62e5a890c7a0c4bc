"""Means with 95% intervals, for a move's value over its worlds and for paired differences."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# The normal quantile of a two-sided 95% interval.
Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class Interval:
    """A sample mean and its 95% normal interval (the mean ± 1.96 standard errors)."""

    mean: float
    low: float
    high: float

    def excludes_zero(self) -> bool:
        return self.low > 0.0 or self.high < 0.0


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean of ``values`` with its 95% interval; a single value has no spread to measure, so
    its interval is the value itself only when there is nothing else to go on (one world)."""
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, mean, mean)
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half)


def paired_interval(a: Sequence[float], b: Sequence[float]) -> Interval:
    """The mean of ``a[i] - b[i]`` (the same worlds) with its 95% interval."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    return mean_interval([x - y for x, y in zip(a, b, strict=True)])
