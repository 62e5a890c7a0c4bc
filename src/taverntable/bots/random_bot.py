"""The "easy" bot: a uniformly random legal move, for any game."""

from __future__ import annotations

import random
from typing import Any


class RandomBot:
    """Picks uniformly among ``view.legal_moves`` with the rng it is given."""

    name = "random"

    def choose(self, view: Any, rng: random.Random) -> Any:
        """One of the view's legal moves, each equally likely."""
        moves = view.legal_moves
        if not moves:
            raise ValueError(f"seat {view.seat} has no legal move (not its turn?)")
        return rng.choice(moves)
