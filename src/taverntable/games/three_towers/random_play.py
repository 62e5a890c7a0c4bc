"""Random legal play: ``random_game(seed)`` for tests and benchmarks."""

from __future__ import annotations

import random

from taverntable.engine import play_out, random_policy

from .rules import THREE_TOWERS, TowersRules
from .state import TowersState


def random_game(
    seed: int,
    num_players: int | None = None,
    rules: TowersRules | None = None,
    *,
    max_moves: int = 1_000_000,
) -> TowersState:
    """One whole game of uniformly random legal moves (chance steps sampled) from ``seed``.

    Without ``num_players`` the seed also picks 2, 3 or 4 players; ``rules`` defaults to the
    preset. Moves from ``legal_moves`` are applied without a second check (the fast path).
    """
    rng = random.Random(seed)
    n = num_players if num_players is not None else rng.choice((2, 3, 4))
    state = TowersState.start(rules or THREE_TOWERS, n, rng=rng, dealer=rng.randrange(n))
    play_out(state, random_policy, rng, max_moves=max_moves, checked=False)
    return state
