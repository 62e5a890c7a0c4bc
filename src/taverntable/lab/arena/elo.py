"""Statistics of the arena: means with 95% intervals over paired groups, and Elo ratings.

The arena plays each deal once per seat rotation; the games of one deal form a *group*. A bot's
results within a group are averaged first, and the interval is taken over the group means, so
it reflects the paired design: the luck of the cards, shared by the group, cancels out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom; beyond, the normal 1.96
# is within 2% of the t quantile.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)

ELO_MEAN = 1500.0
# Bradley–Terry prior: each pair of bots is credited one virtual drawn game, so a bot that never
# won (or never lost) a comparison still gets a finite rating.
PRIOR_DRAWS = 1.0


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


def pairwise_scores(results: Sequence[float]) -> list[tuple[int, int, float]]:
    """One game's results as pairwise outcomes (i, j, score of i): 1 win, 0.5 tie, 0 loss."""
    out = []
    for i in range(len(results)):
        for j in range(i + 1, len(results)):
            a, b = results[i], results[j]
            out.append((i, j, 1.0 if a > b else 0.5 if a == b else 0.0))
    return out


def bradley_terry_elo(
    wins: Sequence[Sequence[float]],
    *,
    prior_draws: float = PRIOR_DRAWS,
    iterations: int = 2000,
    tolerance: float = 1e-10,
) -> list[float]:
    """Elo ratings (mean ``ELO_MEAN``) fitted to pairwise results by Bradley–Terry.

    ``wins[i][j]`` is how much bot ``i`` scored against ``j`` (a win 1, a tie 0.5), so a pair
    met ``wins[i][j] + wins[j][i]`` times. The fit is Hunter's MM iteration for the strengths
    ``g``, with P(i beats j) = g_i / (g_i + g_j); the Elo rating is 400 log10 g, whose expected
    score against a bot rated 400 points lower is 10 / 11, as in chess.
    """
    k = len(wins)
    if k == 0:
        return []
    w = [[wins[i][j] + (prior_draws / 2 if i != j else 0.0) for j in range(k)] for i in range(k)]
    games = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    score = [sum(row) for row in w]
    g = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            denom = sum(games[i][j] / (g[i] + g[j]) for j in range(k) if j != i and games[i][j])
            new.append(score[i] / denom if denom else g[i])
        # Normalize by the geometric mean: the ratings are only defined up to a shift.
        log_mean = math.fsum(math.log(x) for x in new) / k
        new = [x / math.exp(log_mean) for x in new]
        change = max(abs(a - b) for a, b in zip(new, g, strict=True))
        g = new
        if change < tolerance:
            break
    elo = [400.0 * math.log10(x) for x in g]
    shift = ELO_MEAN - math.fsum(elo) / k
    return [e + shift for e in elo]
