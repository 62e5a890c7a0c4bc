"""ISMCTS speed for ``tavern bench``: simulations (iterations) per CPU second on realistic views.

The views are decision points of deals played by the heuristic bot, so the mix of early and late
positions is the one the "hard" bot meets in play. ``ismcts-towers`` takes the Three Towers
decisions (two players) that the hard bot searches — its turns with close alternatives — and
runs its default budget on them (paired playouts to the round's count, ``towers_search``).
Time is process CPU time, as in the engine benches, so other load on the machine disturbs the
figure less.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from taverntable.bots.ismcts import search
from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.bots.tonk.search import TonkSearch
from taverntable.games.tonk import PRESETS, TonkState

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
        # Every decision view is searched, so the figure is the search's own speed (the hard
        # bot searches only the drop decisions among them).
        game = TonkSearch(selective=False)
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


def towers_views(count: int, rng: random.Random) -> list[Any]:
    """``count`` two-player Three Towers views that the hard bot searches, from heuristic play."""
    from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot
    from taverntable.bots.three_towers.search import TowersSearch
    from taverntable.games.three_towers import CHANCE, TowersState, rules_from

    bot, game = ThreeTowersHeuristicBot(), TowersSearch()
    views: list[Any] = []
    while len(views) < count:
        state = TowersState.start(rules_from(), 2, rng=rng, dealer=rng.randrange(2))
        while (seat := state.current_seat) is not None and len(views) < count:
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            view = state.view(seat)
            if len(game.root_moves(view)) > 1 and rng.random() < 0.3:
                views.append(view)
            state.apply(bot.choose(view, rng))
    return views


def bench_ismcts_towers(seconds: float, players: int, seed: int) -> dict[str, float]:
    """The hard bot's searches on two-player Three Towers decisions (``players`` is ignored)."""
    from taverntable.bots.ismcts import HARD_ITERATIONS
    from taverntable.bots.three_towers.search import ITERATION_SCALE, TowersSearch

    rng = random.Random(seed)
    views = towers_views(16, rng)
    game = TowersSearch()
    budget = round(HARD_ITERATIONS * ITERATION_SCALE)
    sims = searches = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        view = views[searches % len(views)]
        sims += search(game, view, rng, iterations=budget).iterations
        searches += 1
    elapsed = time.process_time() - start
    return {
        "sims_per_s": sims / elapsed,
        "searches_per_s": searches / elapsed,
        "iterations_per_search": sims / searches,
        "players": 2.0,
    }
