"""The timing loop every games-per-second bench shares: play until a CPU-time budget is spent.

A bench hands ``timed`` a ``play`` step (one game, or a batch of them) that returns the games and
moves it made; ``timed`` calls it until ``seconds`` of process CPU time (``time.process_time``)
have passed, so other load on a shared machine disturbs the figures less than wall-clock time
would. A step is never cut: the deadline is checked between steps, so at least one finishes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

# A bench: (CPU seconds, players, seed) -> its figures by name.
Bench = Callable[[float, int, int], dict[str, float]]

# CPU seconds per slice for the fastest-slice figure (timeit's "best of" on a shared machine).
SLICE = 0.25


@dataclass(frozen=True, slots=True)
class Timed:
    """What a timed run made and how long it took (CPU seconds, at least 1e-9)."""

    games: int
    moves: int
    seconds: float
    best_moves_per_s: float  # the fastest slice's moves/s, never below the mean's

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds

    @property
    def moves_per_game(self) -> float:
        return self.moves / self.games

    def figures(self, players: int) -> dict[str, float]:
        """The figures every such bench reports, in the order ``tavern bench --json`` gives."""
        return {
            "games_per_s": self.games_per_s,
            "moves_per_s": self.moves_per_s,
            "moves_per_game": self.moves_per_game,
            "best_moves_per_s": self.best_moves_per_s,
            "players": float(players),
        }


def timed(
    play: Callable[[], tuple[int, int]],
    seconds: float,
    *,
    clock_every: int = 0,
    slices: bool = True,
) -> Timed:
    """Call ``play`` (it returns the games and moves it made) until ``seconds`` of CPU time are
    spent. ``clock_every``: read the clock only once that many moves have passed since the last
    reading (steps of a few moves, where reading it would cost as much as they do). ``slices``:
    also measure the fastest ``SLICE`` (the best moves/s a quiet machine gives); without it that
    figure is the mean."""
    games = moves = 0
    best = 0.0
    start = slice_start = time.process_time()
    deadline = start + seconds
    slice_moves = clock_at = 0
    while True:
        made_games, made_moves = play()
        games += made_games
        moves += made_moves
        if moves < clock_at:
            continue
        clock_at = moves + clock_every
        now = time.process_time()
        if slices and now - slice_start >= SLICE:
            best = max(best, (moves - slice_moves) / (now - slice_start))
            slice_start, slice_moves = now, moves
        if now >= deadline:
            break
    elapsed = max(time.process_time() - start, 1e-9)
    return Timed(games, moves, elapsed, max(best, moves / elapsed))
