"""Policies for random play in the tests: random legal moves shaped so that deals show more of
the rules."""

from __future__ import annotations

import random
from typing import Any


def patient(state: Any, rng: random.Random) -> Any:
    """A random legal move, but a Tonk drop only one time in twenty, so that deals run long
    (spreads, hits, the stock running out) instead of ending at the first turns."""
    legal = [m for m in state.legal_moves() if str(m) != "drop" or rng.random() < 0.05]
    return legal[rng.randrange(len(legal))] if legal else state.legal_moves()[0]
