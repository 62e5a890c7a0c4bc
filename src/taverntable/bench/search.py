"""ISMCTS speed for ``tavern bench``: simulations (iterations) per CPU second on realistic views.

The views are decision points of games played by the game's heuristic bot (``Game.bots``)
through ``engine.play_out``, so the mix of early and late positions is the one the "hard" bot
meets in play; the search is the game's own adapter (``Game.search``). Each bench is a
definition (data: the game, how many views, the budget and the adapter's settings), declared in
its family's bench kit (``bench/tonk/``, ``bench/three_towers/``: ``Game.benches``):

- ``ismcts-tonk``, ``ismcts-tor``: every decision view is searched (``selective=False``), 500
  iterations with the tree one decision deep, so the figure is the search's own speed (the hard
  bot searches only the drop decisions among them).
- ``ismcts-tonk``: the root search in the kernel (``bots.tonk.fast.root``: worlds, root choice and
  greedy playouts compiled), where numba is installed.
- ``ismcts-tonk-python``: the tree grown in Python with compiled greedy playouts
  (``bots.tonk.fast.greedy``), the search before the compiled root; ``ismcts-tonk-engine``: the same
  with playouts through the engine's states. ``ismcts-tonk`` runs after both and reports its
  ratio to each (``ratio_to``), measured in the same run.
- ``ismcts-towers``: the two-player decisions the hard bot searches (its turns with close
  alternatives), at its own budget (paired playouts to the round's count), with the playouts in
  the kernel (``bots.three_towers.fast.playouts``) where numba is installed;
  ``ismcts-towers-python``: the same searches with the playouts in Python (``hard:fast=false``: the
  same decisions), whose sims/s ``ismcts-towers`` is divided by.

Time is process CPU time, as in the engine benches, so other load on the machine disturbs the
figure less.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from taverntable.bots import make_bot
from taverntable.bots.ismcts import HARD_ITERATIONS, search
from taverntable.bots.search_game import SearchGame
from taverntable.engine import Bot, play_out
from taverntable.games import game_names, get_game

from .timing import Bench


@dataclass(frozen=True, slots=True)
class SearchBench:
    """One ISMCTS bench: ``views`` decision views of ``game``, each searched in turn."""

    name: str
    game: str
    views: int
    iterations: int | None = None  # None: the hard bot's budget, scaled by the adapter
    depth: int | None = None
    players: int | None = None  # None: ``tavern bench --players``
    settings: Mapping[str, Any] = field(default_factory=dict)  # the adapter's
    fast: bool = True  # the adapter's compiled root search where it has one (``search``)
    ratio_to: tuple[str, ...] = ()  # benches whose sims/s this one's is divided by


class _Enough(Exception):
    """Raised by the collector once it holds its views: the game in progress is dropped."""


class _ViewCollector:
    """The heuristic bot, keeping about a third of the views the search would search."""

    name = "collector"

    def __init__(self, inner: Bot, adapter: SearchGame, views: list[Any], count: int) -> None:
        self.inner, self.adapter, self.views, self.count = inner, adapter, views, count

    def choose(self, view: Any, rng: random.Random) -> Any:
        if len(self.adapter.root_moves(view)) > 1 and rng.random() < 0.3:
            self.views.append(view)
        move = self.inner.choose(view, rng)
        if len(self.views) >= self.count:
            raise _Enough
        return move


def decision_views(
    spec: SearchBench, adapter: SearchGame, players: int, rng: random.Random
) -> list[Any]:
    """``spec.views`` views with two or more root moves, from heuristic play."""
    game = get_game(spec.game)
    rules = game.rules()
    views: list[Any] = []
    collector = _ViewCollector(make_bot("heuristic", spec.game), adapter, views, spec.views)
    while True:
        state = game.start(rules, players, rng=rng, dealer=rng.randrange(players))
        try:
            play_out(state, [collector] * players, rng)
        except _Enough:
            return views


def search_adapter(spec: SearchBench) -> SearchGame:
    """The game's search adapter (``Game.search``) with the bench's settings."""
    return get_game(spec.game).search.load()(**spec.settings)


def bench_search(spec: SearchBench) -> Bench:
    """A bench of ISMCTS searches as ``spec`` defines them."""

    def run(seconds: float, players: int, seed: int) -> dict[str, float]:
        n = spec.players or players
        rng = random.Random(seed)
        adapter = search_adapter(spec)
        views = decision_views(spec, adapter, n, rng)
        budget = spec.iterations or round(HARD_ITERATIONS * adapter.iteration_scale)
        # Before the clock: compile (or load) a compiled playout kernel, and warm the caches.
        search(adapter, views[0], rng, iterations=8, depth=spec.depth, fast=spec.fast)
        sims = searches = 0
        start = time.process_time()
        deadline = start + seconds
        while time.process_time() < deadline:
            view = views[searches % len(views)]
            sims += search(
                adapter, view, rng, iterations=budget, depth=spec.depth, fast=spec.fast
            ).iterations
            searches += 1
        elapsed = time.process_time() - start
        return {
            "sims_per_s": sims / elapsed,
            "searches_per_s": searches / elapsed,
            "iterations_per_search": sims / max(1, searches),
            "players": float(n),
        }

    return run


def search_benches(specs: Sequence[SearchBench]) -> dict[str, Bench]:
    """The ISMCTS benches of ``specs`` whose game the registry has, by name."""
    return {spec.name: bench_search(spec) for spec in specs if spec.game in game_names()}
