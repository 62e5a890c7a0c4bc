"""The arena's ratings: each game's results as pairwise outcomes, and a Bradley–Terry Elo fit.

(The means and their intervals over deals are ``lab.core.stats.mean_ci95``.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

ELO_MEAN = 1500.0
# Bradley–Terry prior: each pair of bots is credited one virtual drawn game, so a bot that never
# won (or never lost) a comparison still gets a finite rating.
PRIOR_DRAWS = 1.0


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
