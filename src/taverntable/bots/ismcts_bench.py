"""ISMCTS speed for ``tavern bench``: simulations (iterations) per CPU second on realistic views.

The views are decision points of deals played by the heuristic bot, so the mix of early and late
positions is the one the "hard" bot meets in play. Time is process CPU time, as in the engine
benches, so other load on the machine disturbs the figure less.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from taverntable.games.tonk import PRESETS, TonkState

from .ismcts import search
from .tonk_heuristic import TonkHeuristicBot
from .tonk_search import TonkSearch

ITERATIONS_PER_SEARCH = 500


def decision_views(preset: str, players: int, count: int, rng: random.Random) -> list[Any]:
    """``count`` views of seats to move with two or more legal moves, from heuristic play."""
    bot = TonkHeuristicBot()
    views: list[Any] = []
    while len(views) < count:
        state = TonkState.deal(PRESETS[preset], players, rng=rng, dealer=rng.randrange(players))
        while (seat := state.current_seat) is not None and len(views) < count:
            view = state.view(seat)
            if len(view.legal_moves) > 1 and rng.random() < 0.3:
                views.append(view)
            state.apply(bot.choose(view, rng))
    return views


def bench_ismcts(preset: str) -> Callable[[float, int, int], dict[str, float]]:
    """A bench of ISMCTS searches on one Tonk preset."""

    def run(seconds: float, players: int, seed: int) -> dict[str, float]:
        rng = random.Random(seed)
        views = decision_views(preset, players, 32, rng)
        game = TonkSearch()
        sims = searches = 0
        start = time.process_time()
        deadline = start + seconds
        while time.process_time() < deadline:
            view = views[searches % len(views)]
            sims += search(game, view, rng, iterations=ITERATIONS_PER_SEARCH, depth=1).iterations
            searches += 1
        elapsed = time.process_time() - start
        return {
            "sims_per_s": sims / elapsed,
            "searches_per_s": searches / elapsed,
            "iterations_per_search": float(ITERATIONS_PER_SEARCH),
        }

    return run
