"""Fast-path figures of Three Towers for ``tavern bench``: the kernel's random games
(``games.three_towers.fast.play``) in the same run as the engine's.

- ``fast-three-towers``: the same random legal games as the engine bench ``three-towers``
  (the differential test, ``games.three_towers.fast.differential``, proves it), played by
  ``games.three_towers.fast.play.random_games`` in batches; moves are counted as the engine bench
  counts them (chance steps are played but not counted).
- ``fast-three-towers-5r``: the same with a round limit of 5 (``three-towers-5r``, R14).
- ``heuristic-three-towers``: whole games (to three towers, R14) with every seat the heuristic
  bot (``ThreeTowersHeuristicBot``), through the engine's one loop (``play_out``: a view per
  decision, every move checked), the games and the bots drawing from one generator;
  ``fast-heuristic-three-towers``: the same games from the same seed in the kernel
  (``bots.three_towers.fast.games.heuristic_games``; ``bots.three_towers.fast.differential`` proves
  they are the same games). Its ``engine_ratio`` is the speed-up.

The kernel is compiled (or loaded from numba's cache) before the clock starts; ``compiled`` says
whether numba compiled it (1) or the pure-Python fallback ran (0). Time is process CPU time, as
in the other benches.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from taverntable.fast.jit import COMPILED
from taverntable.games.three_towers.fast.play import random_games
from taverntable.games.three_towers.rules import MAX_PLAYERS, MIN_PLAYERS, rules_from

from ..random_play import ROUND_LIMIT
from ..timing import Bench, Timed, timed

# Moves per kernel call, about: a call costs far more than the Python around it, and the clock
# is read every few hundredths of a second.
BATCH_MOVES = 50_000
HEURISTIC_BATCH = 20  # heuristic games per kernel call (some 400 moves each)
FULL_GAME_MOVES = 11_000  # a random game of three players, about (``--players`` changes it)


def towers_figures(t: Timed, rounds: int, players: int, *, compiled: bool) -> dict[str, float]:
    """A Three Towers bench's figures in its own order (``tavern bench --json``): ``Timed``'s
    with the rounds a game; ``compiled`` (a kernel bench) adds whether numba compiled it."""
    figures = {
        "games_per_s": t.games_per_s,
        "moves_per_s": t.moves_per_s,
        "moves_per_game": t.moves_per_game,
        "rounds_per_game": rounds / t.games,
        "best_moves_per_s": t.best_moves_per_s,
        "players": float(players),
    }
    if compiled:
        figures["compiled"] = float(COMPILED)
    return figures


def bench_fast_towers(options: Mapping[str, Any] | None = None) -> Bench:
    """A bench of the kernel's random Three Towers games with rule ``options``."""

    def run(seconds: float, players: int, seed: int) -> dict[str, float]:
        n = max(MIN_PLAYERS, min(MAX_PLAYERS, players))
        rules = rules_from(**(options or {}))
        random_games(rules, n, random.Random(seed), 1)  # compile, or load the compiled kernel
        rng = random.Random(seed)
        per_game = FULL_GAME_MOVES if rules.max_rounds is None else 70 * rules.max_rounds
        batch_size = max(1, BATCH_MOVES // per_game)
        games = rounds = 0

        def play() -> tuple[int, int]:
            nonlocal games, rounds
            batch = random_games(rules, n, rng, batch_size, first_dealer=games % n)
            games += batch.count
            rounds += sum(game.rounds for game in batch.games())
            return batch.count, batch.moves

        return towers_figures(timed(play, seconds), rounds, n, compiled=True)

    return run


def bench_heuristic_towers(*, fast: bool) -> Bench:
    """A bench of whole heuristic Three Towers games through the engine, or with ``fast`` the
    kernel."""

    def run(seconds: float, players: int, seed: int) -> dict[str, float]:
        # Imported here: every ``tavern`` command builds the bench's parser.
        from taverntable.bots.three_towers.fast.games import heuristic_games
        from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot
        from taverntable.engine import play_out
        from taverntable.games.three_towers import TowersState

        n = max(MIN_PLAYERS, min(MAX_PLAYERS, players))
        rules = rules_from()
        bots = [ThreeTowersHeuristicBot() for _ in range(n)]
        if fast:  # compile, or load the compiled kernel
            heuristic_games(rules, n, random.Random(seed), 1)
        rng = random.Random(seed)
        games = rounds = 0

        def play() -> tuple[int, int]:
            nonlocal games, rounds
            if fast:
                batch = heuristic_games(rules, n, rng, HEURISTIC_BATCH, first_dealer=games % n)
                games += batch.count
                rounds += sum(game.rounds for game in batch.games())
                return batch.count, batch.moves
            state = TowersState.start(rules, n, rng=rng, dealer=games % n)
            moves = play_out(state, bots, rng).moves
            assert state.result is not None
            rounds += len(state.result.rounds)
            games += 1
            return 1, moves

        return towers_figures(timed(play, seconds), rounds, n, compiled=fast)

    return run


def fast_towers_benches() -> dict[str, Bench]:
    """The kernel's random games, without and with the round limit of the ``-5r`` benches;
    heuristic games through the engine, then in the kernel (a fast bench reports its ratio to
    the engine's bench of the same name when that ran before it)."""
    return {
        "fast-three-towers": bench_fast_towers(),
        "fast-three-towers-5r": bench_fast_towers(ROUND_LIMIT),
        "heuristic-three-towers": bench_heuristic_towers(fast=False),
        "fast-heuristic-three-towers": bench_heuristic_towers(fast=True),
    }
