"""Small statistics for the report: proportions and means with 95% confidence intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959964


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
