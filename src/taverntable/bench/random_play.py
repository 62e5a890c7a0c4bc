"""``tavern bench`` entries for Three Towers: random legal games through the checked engine.

With the preset (no round limit) random players rarely finish a tower, so a game lasts many
rounds; ``three-towers-5r`` caps games at 5 rounds (R14 ``max_rounds``), the length the lab
uses. Each entry reports ``rounds_per_game`` besides games/s and moves/s; chance steps (deals,
shuffles, steals) are applied too but not counted as moves.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from taverntable.engine import CHANCE
from taverntable.games.three_towers import TowersState, rules_from

MAX_PLAYERS = 4  # R3; a larger --players (a Tonk table) is cut to 4


def bench_three_towers(max_rounds: int | None) -> Callable[[float, int, int], dict[str, float]]:
    """A bench of random legal Three Towers games, every move checked by ``apply``."""

    def run(seconds: float, players: int, seed: int) -> dict[str, float]:
        n = max(2, min(MAX_PLAYERS, players))
        rules = rules_from("three-towers", max_rounds=max_rounds)
        rng = random.Random(seed)
        rand = rng.random
        games = moves = rounds = 0
        start = time.process_time()
        deadline = start + seconds
        # A game is never cut: the deadline is checked between games, so at least one finishes.
        while True:
            state = TowersState.start(rules, n, rng=rng, dealer=games % n)
            while not state.is_over:
                if state.current_seat == CHANCE:
                    state.apply(state.sample_chance(rng))
                    continue
                legal = state.legal_moves()
                state.apply(legal[int(rand() * len(legal))])
                moves += 1
            games += 1
            rounds += state.round_no
            if time.process_time() >= deadline:
                break
        elapsed = max(time.process_time() - start, 1e-9)
        return {
            "games_per_s": games / elapsed,
            "moves_per_s": moves / elapsed,
            "moves_per_game": moves / games,
            "rounds_per_game": rounds / games,
            "players": float(n),
        }

    return run
