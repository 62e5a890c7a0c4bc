"""What a game gives the ISMCTS bot: worlds from a view, moves, a playout policy and rewards.

One adapter per game keeps the search itself game-independent; each game names its adapter
(``Game.search``, a typed plug-in), and ``search_game_for`` builds it for the game a view belongs
to. Every hook the search reads is declared in ``taverntable.plugins.search`` (where a game may
name it); ``SearchDefaults`` gives the neutral values, so an adapter states only what its game
changes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from taverntable.games import get_game
from taverntable.plugins.search import (
    PairedDealer,
    PairedScorer,
    RootRunner,
    RootStats,
    SearchGame,
)

__all__ = [
    "PairedDealer",
    "PairedScorer",
    "RootRunner",
    "RootStats",
    "SearchDefaults",
    "SearchGame",
    "search_game_for",
]


class SearchDefaults:
    """The neutral value of every optional hook: the plain tree, no anchor, no correction."""

    paired = False
    iteration_scale = 1.0
    margin_scale = 1.0
    ending_bias = 0.0
    ending_margin = 0.0

    def anchor_move(self, view: Any, rng: random.Random) -> Any:
        """No anchor: the search's own choice stands."""
        return None

    def root_runner(
        self, view: Any, legal: Sequence[Any], exploration: float, rng: random.Random
    ) -> RootRunner | None:
        """No compiled root search: the tree is grown in Python."""
        return None

    def paired_scorer(self, view: Any, legal: Sequence[Any]) -> PairedScorer | None:
        """No compiled paired playouts: they are played with ``playout``."""
        return None


def search_game_for(view: Any, **options: Any) -> SearchGame:
    """The search adapter of the game ``view`` belongs to (``Game.search``), built with
    ``options``."""
    return get_game(view.game).search.load()(**options)
