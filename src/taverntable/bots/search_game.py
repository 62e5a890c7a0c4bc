"""What a game gives the ISMCTS bot: worlds from a view, moves, a playout policy and rewards.

One adapter per game family keeps the search itself game-independent. ``search_game_for`` picks
the adapter from the type of the view, importing the family's module only when it is needed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from importlib import import_module
from typing import Any, Protocol

from taverntable.engine import TavernError


class SearchGame(Protocol):
    """One game family's side of ISMCTS."""

    def sample(self, view: Any, rng: random.Random) -> Any:
        """A full game state consistent with ``view`` (a determinization)."""
        ...

    def root_moves(self, view: Any) -> Sequence[Any]:
        """The moves the search compares at the root: the view's legal moves or a subset."""
        ...

    def seat(self, state: Any) -> int | None:
        """The seat to decide, -1 at a chance step, None when the game is over."""
        ...

    def legal_moves(self, state: Any) -> Sequence[Any]:
        """The legal moves of the seat to decide (hashable values)."""
        ...

    def clone(self, state: Any) -> Any:
        """An independent copy of ``state``."""
        ...

    def step(self, state: Any, move: Any) -> None:
        """Play one of ``legal_moves(state)``."""
        ...

    def chance(self, state: Any, rng: random.Random) -> None:
        """Resolve a chance step (deal, draw) at random."""
        ...

    def policy_move(self, state: Any, rng: random.Random) -> Any:
        """The playout policy's move for the seat to decide (one of its legal moves)."""
        ...

    def playout(self, state: Any, rng: random.Random) -> None:
        """Play ``state`` to its end with the adapter's default policy."""
        ...

    def rewards(self, state: Any) -> Sequence[float]:
        """Each seat's reward at the end, scaled to about [-1, 1]."""
        ...


# View class name -> "module:factory" building the family's adapter.
ADAPTERS = {
    "TonkView": "taverntable.bots.tonk_search:TonkSearch",
    "TowersView": "taverntable.bots.towers_search:TowersSearch",
}


def search_game_for(view: Any, **options: Any) -> SearchGame:
    """The search adapter for the game ``view`` belongs to, built with ``options``."""
    path = ADAPTERS.get(type(view).__name__)
    if path is None:
        raise TavernError(f"ISMCTS does not know the game of a {type(view).__name__}")
    module, _, factory = path.partition(":")
    game: SearchGame = getattr(import_module(module), factory)(**options)
    return game
