"""Heuristic Tonk deals for ``tavern bench``: through the engine and on the fast path, in the
same run (issue 14).

- ``heuristic-tonk``, ``heuristic-tor``, ``heuristic-pagat``: every seat the heuristic bot
  (``TonkHeuristicBot``, the arena's yardstick and the lab's default), each deal dealt and
  played by the engine's one loop (``play_out``: a view per decision, every move checked), the
  deal and the bots drawing from one generator as in the lab.
- ``fast-heuristic-…``: the same deals from the same seed in the kernel
  (``bots.tonk.fast.deals.play_deal``, one call a deal as the lab and the arena make it; the
  differential test proves they are the same deals); the kernel is compiled (or loaded from
  numba's cache) before the clock starts. Their ``engine_ratio`` is the speed-up.

Time is process CPU time, as in the other benches.
"""

from __future__ import annotations

import random

from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.engine import play_out
from taverntable.fast.jit import COMPILED
from taverntable.games import get_game
from taverntable.games.tonk.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS

from ..timing import Bench, timed


def bench_heuristic_deals(preset: str, *, fast: bool) -> Bench:
    """A bench of heuristic deals of ``preset`` through the engine, or with ``fast`` the
    kernel."""

    def run(seconds: float, players: int, seed: int) -> dict[str, float]:
        # Imported here: every ``tavern`` command builds the bench's parser.
        from taverntable.bots.tonk.fast.deals import fast_seats, play_deal

        n = max(MIN_PLAYERS, min(MAX_PLAYERS, players))
        game = get_game(preset)
        rules = PRESETS[preset]
        bots = [TonkHeuristicBot() for _ in range(n)]
        seats = fast_seats(bots)
        assert seats is not None
        if fast:  # compile, or load the compiled kernel
            warm = random.Random(seed)
            play_deal(rules, n, seats, deal_rng=warm)
        rng = random.Random(seed)
        games = 0

        def play() -> tuple[int, int]:
            nonlocal games
            dealer = games % n
            games += 1
            if fast:
                return 1, play_deal(
                    rules, n, seats, deal_rng=rng, dealer=dealer, max_moves=game.max_moves
                ).moves
            state = game.start(rules, n, rng=rng, dealer=dealer)
            return 1, play_out(state, bots, rng, max_moves=game.max_moves).moves

        figures = timed(play, seconds).figures(n)
        if fast:
            figures["compiled"] = float(COMPILED)
        return figures

    return run


def fast_bot_benches() -> dict[str, Bench]:
    """The engine's heuristic deals of each preset, then the kernel's (a fast bench reports its
    ratio to the engine's bench of the same name when that ran before it)."""
    benches = {f"heuristic-{p}": bench_heuristic_deals(p, fast=False) for p in PRESETS}
    benches.update({f"fast-heuristic-{p}": bench_heuristic_deals(p, fast=True) for p in PRESETS})
    return benches
