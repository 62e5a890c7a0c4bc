"""The lab's statistics: means and proportions with 95% confidence intervals, and fits.

One module for every caller (the arena, the studies' reports):

- ``mean_ci95``: the mean and its Student's t interval, for few values (the arena's intervals
  are over deals, often a few dozen); ``mean_ci``: the mean and the half-width of its normal
  interval, for the reports' large samples.
- ``wilson``: a proportion's interval, sound at 0% and 100%.
- ``quantile`` and ``decreasing_fit`` (pool-adjacent-violators) for the reports.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959964
# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom; beyond, the normal 1.96
# is within 2% of the t quantile.
_T95 = (
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
)


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom."""
    if df < 1:
        return math.inf
    return _T95[df - 1] if df <= len(_T95) else 1.96


def mean_ci95(xs: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean and its 95% interval (Student's t; infinite below 2 values)."""
    n = len(xs)
    if n == 0:
        return (math.nan, -math.inf, math.inf)
    mean = math.fsum(xs) / n
    if n < 2:
        return (mean, -math.inf, math.inf)
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    half = t95(n - 1) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0 and 1, unlike p ± z·se)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(xs: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% interval (inf for fewer than two values)."""
    n = len(xs)
    if n == 0:
        return (math.nan, math.inf)
    mean = sum(xs) / n
    if n < 2:
        return (mean, math.inf)
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return (mean, z * math.sqrt(var / n))


def quantile(sorted_xs: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values (linear interpolation)."""
    if not sorted_xs:
        return math.nan
    pos = q * (len(sorted_xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


def decreasing_fit(successes: Sequence[int], trials: Sequence[int]) -> list[float]:
    """The non-increasing rates closest to ``successes / trials`` (weighted least squares: the
    pool-adjacent-violators algorithm). A drop can only get riskier as the total grows, so the
    fit pools noisy neighbours instead of trusting a lone lucky total."""
    blocks: list[list[float]] = []  # [successes, trials, points pooled]
    for k, n in zip(successes, trials, strict=True):
        blocks.append([float(k), float(n), 1.0])
        while len(blocks) > 1 and blocks[-2][0] * blocks[-1][1] < blocks[-1][0] * blocks[-2][1]:
            k2, n2, c2 = blocks.pop()
            blocks[-1][0] += k2
            blocks[-1][1] += n2
            blocks[-1][2] += c2
    out: list[float] = []
    for pooled_k, pooled_n, count in blocks:
        out.extend([pooled_k / pooled_n if pooled_n else 0.0] * int(count))
    return out
