"""Random legal games through the full engine, for every game of the registry.

Each game is the engine's one loop (``engine.play_out``) with a uniformly random policy: every
move comes from ``legal_moves()`` and is played with ``apply()``, which checks it against the
rules first and returns its events, so the figures are those of the engine the bots, records and
server use. Chance steps (Three Towers' deals, shuffles, steals) are applied too but not counted
as moves. A game whose rules take a round limit (``max_rounds``, R14) also gets a bench capped at
5 rounds, ``NAME-5r``: the length the lab uses.

Time is the process's CPU time (``time.process_time``), so other load on a shared machine
disturbs the figures less than wall-clock time would; on an idle machine the two agree.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from taverntable.engine import Game, GameState, play_out, random_policy
from taverntable.games import all_games
from taverntable.options import RulesError

Bench = Callable[[float, int, int], dict[str, float]]

# CPU seconds per slice for the fastest-slice figure (timeit's "best of" on a shared machine).
SLICE = 0.25
# The clock is read between games once this many moves have passed: often enough to stop near
# the deadline, seldom enough to cost nothing beside the moves (a Tonk deal has a handful).
CLOCK_EVERY = 2048
ROUND_LIMIT = {"max_rounds": 5}  # the ``-5r`` benches (R14)


def random_games(
    game: Game, rules: Any, players: int, rng: random.Random
) -> Iterator[tuple[int, GameState[Any, Any]]]:
    """Endless random games (dealer rotating), each as (moves made, finished state)."""
    games = 0
    while True:
        state = game.start(rules, players, rng=rng, dealer=games % players)
        yield play_out(state, random_policy, rng).moves, state
        games += 1


def rounds_of(state: GameState[Any, Any]) -> int | None:
    """The rounds of a finished game that has rounds (its result's ``rounds``), else None."""
    assert state.result is not None
    rounds = state.result.to_json().get("rounds")
    return len(rounds) if isinstance(rounds, list) else None


def bench_random_play(game: Game, options: Mapping[str, Any] | None = None) -> Bench:
    """A bench of random legal games of ``game`` with rule ``options``; a table size outside
    the game's (``--players`` is shared with larger games) is brought inside it."""

    def run(seconds: float, players: int, seed: int) -> dict[str, float]:
        n = max(game.min_players, min(game.max_players, players))
        rng = random.Random(seed)
        games = moves = rounds = 0
        counts_rounds: bool | None = None
        start = slice_start = time.process_time()
        deadline = start + seconds
        clock_at = slice_moves = 0
        best = 0.0  # the fastest slice: what the machine does when nothing else disturbs it
        # A game is never cut: the deadline is checked between games, so at least one finishes.
        for made, state in random_games(game, game.rules(options), n, rng):
            games += 1
            moves += made
            if counts_rounds is None:
                counts_rounds = rounds_of(state) is not None
            if counts_rounds:
                rounds += rounds_of(state) or 0
            if moves < clock_at:
                continue
            clock_at = moves + CLOCK_EVERY
            now = time.process_time()
            if now - slice_start >= SLICE:
                best = max(best, (moves - slice_moves) / (now - slice_start))
                slice_start, slice_moves = now, moves
            if now >= deadline:
                break
        elapsed = max(time.process_time() - start, 1e-9)
        figures = {
            "games_per_s": games / elapsed,
            "moves_per_s": moves / elapsed,
            "moves_per_game": moves / games,
            "best_moves_per_s": max(best, moves / elapsed),
            "players": float(n),
        }
        if counts_rounds:
            figures["rounds_per_game"] = rounds / games
        return figures

    return run


def random_play_benches() -> dict[str, Bench]:
    """A bench per game of the registry, and ``NAME-5r`` for each that takes ``max_rounds``."""
    benches: dict[str, Bench] = {}
    for game in all_games():
        benches[game.name] = bench_random_play(game)
        try:
            game.rules(ROUND_LIMIT)
        except RulesError:
            continue
        benches[f"{game.name}-5r"] = bench_random_play(game, ROUND_LIMIT)
    return benches
