"""The arena's report: per entrant, the mean result and margin with 95% intervals, the win rate
and an Elo rating.

The games of one deal form a *group* (every entrant in every seat): an entrant's results within a
group are averaged first, and the interval is taken over the group means (Student's t,
``lab.core.stats.mean_ci95``), so it reflects the paired design: the luck of the cards, shared
by the group, cancels out. A game's results are ``state.returns()`` (Tonk: stakes won or lost;
Three Towers: points).

Elo comes from pairwise outcomes: in each game, every pair of entrants is compared by result
(higher wins, equal is a draw) and a Bradley–Terry fit turns the counts into ratings whose mean
is 1500 (``elo.bradley_terry_elo``). Groups with a capped game are left out, so the groups that
count stay balanced across seats.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from taverntable.lab.core.stats import mean_ci95

from .elo import bradley_terry_elo, pairwise_scores
from .play import GamePlayed
from .table import ArenaTable


@dataclass(slots=True)
class BotStats:
    """One entrant's figures in the report."""

    name: str
    games: int = 0
    wins: int = 0
    mean: float = math.nan
    ci95: tuple[float, float] = (-math.inf, math.inf)
    # Result minus the mean result of the other entrants in the same game: the comparison that
    # matters where results are not zero-sum (Three Towers points).
    margin: float = math.nan
    margin_ci95: tuple[float, float] = (-math.inf, math.inf)
    elo: float = math.nan

    @property
    def win_rate(self) -> float:
        """The share of counted games this entrant won (alone or shared)."""
        return self.wins / self.games if self.games else math.nan

    def to_json(self) -> dict[str, Any]:
        """The per-bot object of ``tavern arena --json``."""
        return {
            "games": self.games,
            "mean": self.mean,
            "ci95": list(self.ci95),
            "win_rate": self.win_rate,
            "margin": self.margin,
            "margin_ci95": list(self.margin_ci95),
            "elo": self.elo,
        }


@dataclass(slots=True)
class ArenaReport:
    """The arena's result: per-bot figures and what was played."""

    game: str
    players: int
    unit: str
    deals: int
    seed: int
    bots: list[BotStats]
    games: int = 0
    capped_games: int = 0
    capped_deals: int = 0
    seconds: float = 0.0
    rules: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The object ``tavern arena --json`` prints."""
        return {
            "bots": {b.name: b.to_json() for b in self.bots},
            "game": self.game,
            "players": self.players,
            "unit": self.unit,
            "deals": self.deals,
            "games": self.games,
            "capped_games": self.capped_games,
            "capped_deals": self.capped_deals,
            "seed": self.seed,
            "rules": self.rules,
            "seconds": self.seconds,
        }


def summarize(
    table: ArenaTable, names: Sequence[str], played: Sequence[GamePlayed], deals: int, seed: int
) -> ArenaReport:
    """The report of a finished arena: means and intervals over deals, win rates, Elo."""
    k = len(names)
    stats = [BotStats(name) for name in names]
    capped_deals = {g.deal for g in played if g.capped}
    per_deal: dict[int, list[list[float]]] = {}
    margins: dict[int, list[list[float]]] = {}
    wins = [[0.0] * k for _ in range(k)]
    for g in played:
        if g.deal in capped_deals:
            continue
        result = g.state.result
        assert result is not None  # only a capped game has none, and its deal is left out
        scores = g.state.returns()
        winners = set(result.winners)
        by_entrant = [0.0] * k
        for seat, e in enumerate(g.entrants):
            by_entrant[e] = scores[seat]
            stats[e].games += 1
            stats[e].wins += seat in winners
        per_deal.setdefault(g.deal, [[] for _ in range(k)])
        margins.setdefault(g.deal, [[] for _ in range(k)])
        total = math.fsum(by_entrant)
        for e in range(k):
            per_deal[g.deal][e].append(by_entrant[e])
            others = (total - by_entrant[e]) / (k - 1) if k > 1 else 0.0
            margins[g.deal][e].append(by_entrant[e] - others)
        for i, j, s in pairwise_scores(by_entrant):
            wins[i][j] += s
            wins[j][i] += 1.0 - s
    for e, st in enumerate(stats):
        group_means = [math.fsum(v[e]) / len(v[e]) for v in per_deal.values()]
        st.mean, lo, hi = mean_ci95(group_means)
        st.ci95 = (lo, hi)
        group_margins = [math.fsum(v[e]) / len(v[e]) for v in margins.values()]
        st.margin, lo, hi = mean_ci95(group_margins)
        st.margin_ci95 = (lo, hi)
    for st, elo in zip(stats, bradley_terry_elo(wins), strict=True):
        st.elo = elo
    return ArenaReport(
        game=table.name,
        players=k,
        unit=table.unit,
        deals=deals,
        seed=seed,
        bots=stats,
        games=len(played),
        capped_games=sum(g.capped for g in played),
        capped_deals=len(capped_deals),
    )
