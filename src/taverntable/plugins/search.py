"""The search adapter a game names (``Game.search``): what ISMCTS needs of a game.

The search itself (``bots/ismcts.py``) is game-independent; each game's adapter gives it worlds
from a view, moves, a playout policy and rewards, and optionally compiled root searches and
paired playouts. ``Game.search`` is a ``PlugIn[SearchFactory]``: the adapter's class (or any
callable) that builds an adapter from the bot's options. ``bots/search_game.py`` adds the
neutral defaults (``SearchDefaults``) and ``search_game_for``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .plugin import PlugIn


@dataclass(frozen=True, slots=True)
class RootStats:
    """One root move's statistics from a compiled root search, as ``ismcts.Node`` keeps them."""

    visits: int
    avail: int
    total: float
    squares: float
    # Per move that ends the game: count, sum and sum of squares of (this move's reward - its
    # reward) over the worlds where this move was played (empty for the ending moves).
    pairs: dict[Any, list[float]] = field(default_factory=dict)


class RootRunner(Protocol):
    """A root search run outside Python (``SearchGame.root_runner``): the tree one decision
    deep, the other seats and later decisions by the playout policy, and the moves that end the
    game scored in every world, as ``ismcts._Tree`` does with ``depth=1``."""

    #: iterations that backed up a move chosen by UCB (all unless every root move ends the game)
    backed: int

    def run(self, count: int) -> None:
        """``count`` more iterations."""
        ...

    def searched(self) -> dict[Any, RootStats]:
        """The moves chosen by UCB that were tried, with their statistics."""
        ...

    def endings(self) -> dict[Any, RootStats]:
        """The moves that end the game (scored in every world), in the order of the root's."""
        ...


class PairedScorer(Protocol):
    """The paired playouts of one decision's compared moves run outside Python
    (``SearchGame.paired_scorer``): what ``ismcts._paired`` does with one world."""

    def score(self, world: Any, seed: int) -> list[float]:
        """The searching seat's reward after each compared move (in their order) in ``world``,
        played out as ``playout`` plays it with ``random.Random(seed)``."""
        ...


class PairedDealer(Protocol):
    """The worlds of one decision dealt outside Python too (``PairedScorer.dealer``, where a
    scorer has it): what ``ismcts._paired`` does with one world, the sampling and the seed
    included, drawing from the search's generator as ``sample`` and ``getrandbits`` draw."""

    def next(self) -> list[float]:
        """Deal the next world, draw its seed and score every compared move in it."""
        ...

    def run(self, limit: int, anchor: int) -> list[list[float]]:
        """``_paired``'s whole loop without a clock: worlds until ``limit`` playouts are spent,
        or half of them with no move's sum of rewards above the anchor's (``anchor`` its index
        among the compared moves, -1 none); each compared move's rewards (in the moves'
        order), world by world."""
        ...

    def close(self) -> None:
        """Leave the search's generator where the worlds' draws took it."""
        ...


class SearchGame(Protocol):
    """One game's side of ISMCTS."""

    #: flat Monte Carlo with common random numbers instead of the tree (``ismcts._paired``)
    paired: bool
    #: the bot's iteration budget is multiplied by this (slower simulations ask for fewer)
    iteration_scale: float
    #: the bot's anchor margin is multiplied by this (paired comparisons have other errors)
    margin_scale: float
    #: the measured optimism of playouts about playing on rather than ending (reward units)
    ending_bias: float
    #: standard errors by which ending must beat the anchor's move
    ending_margin: float

    def anchor_move(self, view: Any, rng: random.Random) -> Any:
        """A trusted cheap policy's move the search must beat, or None for no anchor."""
        ...

    def root_runner(
        self, view: Any, legal: Sequence[Any], exploration: float, rng: random.Random
    ) -> RootRunner | None:
        """A compiled root search of ``legal`` from ``view``, seeded from ``rng``, or None where
        the adapter has none (the search then grows its tree in Python, and ``rng`` must be left
        untouched)."""
        ...

    def paired_scorer(self, view: Any, legal: Sequence[Any]) -> PairedScorer | None:
        """Compiled paired playouts of ``legal`` from ``view``'s worlds, or None where the
        adapter has none (``_paired`` then plays them with ``playout``)."""
        ...

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


# Builds a game's adapter from the bot's options (``IsmctsBot``'s ``selective``, ``discards`` …).
SearchFactory = Callable[..., SearchGame]


def search_adapter(path: str) -> PlugIn[SearchFactory]:
    """``Game.search``: the ``module:attribute`` of the game's adapter class."""
    return PlugIn(path, "search adapter factory (a callable)", callable)
