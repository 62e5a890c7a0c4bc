"""Bots against bots with duplicate deals: every entrant plays every seat of every deal.

Deal ``d`` is played ``N`` times (``N`` players), once per rotation ``r``: the entrant ``e`` sits
at seat ``(e + r) mod N`` and receives that seat's cards. The ``N`` games of a deal form a group;
an entrant's result in a group is its mean over the rotations, and the reported 95% interval is
taken over groups (``lab.stats``), so the luck of the cards, which every entrant shares, cancels.

Elo comes from pairwise outcomes: in each game, every pair of entrants is compared by result
(higher wins, equal is a draw) and a Bradley–Terry fit turns the counts into ratings whose mean
is 1500 (``lab.stats.bradley_terry_elo``).

A game that reaches ``max_moves`` without ending (pagat goes on once the stock is empty while
every player takes the pile instead of declining it, T11) is *capped*: it is saved without a
result and its whole group is left out of the statistics, so the groups that count stay balanced
across seats.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from multiprocessing import get_context
from typing import Any

from taverntable.bots import make_bot
from taverntable.engine import Bot
from taverntable.lab.core.worker_life import die_with_parent

from .elo import bradley_terry_elo, mean_ci95, pairwise_scores
from .table import ArenaError, ArenaGame


def entrant_names(bots: Sequence[str]) -> list[str]:
    """Unique report names: the second ``heuristic`` is ``heuristic#2``, the third ``#3``."""
    seen: dict[str, int] = {}
    names = []
    for bot in bots:
        seen[bot] = seen.get(bot, 0) + 1
        names.append(bot if seen[bot] == 1 else f"{bot}#{seen[bot]}")
    return names


def seat_lineup(bots: Sequence[str], players: int) -> list[str]:
    """One bot name per seat: one name for all seats, or the names repeated to fill the seats."""
    if not bots:
        raise ArenaError("name at least one bot")
    if len(bots) > players:
        raise ArenaError(f"{len(bots)} bots for {players} seats")
    return [bots[k % len(bots)] for k in range(players)]


@dataclass(frozen=True, slots=True)
class GamePlayed:
    """One game: its deal, rotation, the entrant at each seat, and the final state."""

    deal: int
    rotation: int
    entrants: tuple[int, ...]  # entrant index at each seat
    state: Any
    capped: bool
    moves: int


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


def play_game(
    game: ArenaGame,
    bots: Sequence[Bot],
    deal: int,
    rotation: int,
    deal_seed: int,
    bot_seed: int,
    max_moves: int | None = None,
) -> GamePlayed:
    """Play one rotation of one deal; each seat's bot sees only its own view."""
    n = len(bots)
    cap = game.max_moves if max_moves is None else max_moves
    entrants = tuple((s - rotation) % n for s in range(n))
    state = game.start(deal_seed, dealer=deal % n)
    chance_rng = random.Random(deal_seed)
    rng = random.Random(bot_seed)
    moves = 0
    while (seat := state.current_seat) is not None:
        if seat < 0:
            game.chance(state, chance_rng)
            continue
        if moves >= cap:
            return GamePlayed(deal, rotation, entrants, state, True, moves)
        state.apply(bots[entrants[seat]].choose(state.view(seat), rng))
        moves += 1
    return GamePlayed(deal, rotation, entrants, state, False, moves)


def deal_seeds(deals: int, seed: int, seats: int) -> list[tuple[int, list[int]]]:
    """Per deal: the deal's seed and one bot seed per rotation, all drawn from ``seed``."""
    seeds = random.Random(seed)
    out = []
    for _ in range(deals):
        deal_seed = seeds.getrandbits(63)
        out.append((deal_seed, [seeds.getrandbits(63) for _ in range(seats)]))
    return out


def play_deals(
    game: ArenaGame,
    bot_names: Sequence[str],
    deals: int,
    seed: int,
    *,
    max_moves: int | None = None,
    make: Callable[[str], Bot] | None = None,
    on_game: Callable[[GamePlayed], None] | None = None,
    jobs: int = 1,
) -> list[GamePlayed]:
    """Play ``deals`` deals, each once per seat rotation; ``on_game`` sees each game as it ends.

    With ``jobs`` > 1 the deals are shared among that many processes (``make`` must then be
    picklable, e.g. None); the seeds are drawn up front, so the games are the same either way.
    """
    build = make or partial(make_bot, game=game.name)
    plan = deal_seeds(deals, seed, len(bot_names))
    played: list[GamePlayed] = []
    if jobs > 1 and deals > 1:
        work = partial(_play_one_deal, game, list(bot_names), build, max_moves)
        # spawn: the same start on every platform; workers end with this process (worker_life).
        with ProcessPoolExecutor(jobs, mp_context=get_context("spawn"),
                                 initializer=die_with_parent, initargs=(os.getpid(),)) as pool:
            for games in pool.map(work, range(deals), plan, chunksize=1):
                for g in games:
                    played.append(g)
                    if on_game is not None:
                        on_game(g)
        return played
    bots = [build(name) for name in bot_names]
    for d, (deal_seed, bot_seeds) in enumerate(plan):
        for r, bot_seed in enumerate(bot_seeds):
            g = play_game(game, bots, d, r, deal_seed, bot_seed, max_moves)
            played.append(g)
            if on_game is not None:
                on_game(g)
    return played


def _play_one_deal(
    game: ArenaGame,
    bot_names: list[str],
    build: Callable[[str], Bot],
    max_moves: int | None,
    deal: int,
    seeds: tuple[int, list[int]],
) -> list[GamePlayed]:
    """Every rotation of one deal, in a worker process (its own bots)."""
    bots = [build(name) for name in bot_names]
    deal_seed, bot_seeds = seeds
    return [play_game(game, bots, deal, r, deal_seed, bot_seed, max_moves)
            for r, bot_seed in enumerate(bot_seeds)]


def summarize(
    game: ArenaGame, names: Sequence[str], played: Sequence[GamePlayed], deals: int, seed: int
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
        scores = game.score(g.state)
        winners = set(game.winners(g.state))
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
        game=game.name,
        players=k,
        unit=game.unit,
        deals=deals,
        seed=seed,
        bots=stats,
        games=len(played),
        capped_games=sum(g.capped for g in played),
        capped_deals=len(capped_deals),
    )
