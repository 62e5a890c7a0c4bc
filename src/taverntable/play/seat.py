"""The user's seat as a player of the one game loop (``engine.play_out``).

The terminal plays every game through ``play_out`` like the arena does: bots at the other seats,
and at the user's seat this player, whose ``choose`` asks the person. Leaving the table (``quit``,
the end of input, Ctrl-C) is an exception raised from ``choose``: it leaves ``play_out`` with the
game as it stands, and the session saves it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


class PersonAtSeat:
    """A ``Bot`` whose moves a person types: ``ask(view)`` shows the table and reads a move."""

    name = "you"

    def __init__(self, ask: Callable[[Any], Any]) -> None:
        self.ask = ask

    def choose(self, view: Any, rng: random.Random) -> Any:
        """The person's move, from what their seat sees (``rng`` is for bots only)."""
        return self.ask(view)
