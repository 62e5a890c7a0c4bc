"""What a game gives the learning environments (``envs/``): its ``Learning`` kit.

``Game.learning`` is a ``PlugIn[Learning]``: the observation encoder (a fixed-size float32
vector from a view's JSON, with its layout of named blocks) and what OpenSpiel asks of a game
beyond the contract: whether it is zero-sum, how many outcomes a chance node has at most, bounds
on a seat's return, and the game's chance steps as runs of one-card draws.

OpenSpiel lists a chance node's outcomes with their probabilities, so a shuffled deck cannot be
one outcome (52! orders). Each of a game's chance steps becomes a ``ChanceRun`` of chance nodes
that each draw one card of a pool (without replacement, with probability in proportion to its
copies); when the run is complete it becomes the engine's own chance move. Drawing cards one by
one without replacement gives every order (and every set of cards) the probability the engine's
own ``sample_chance`` gives it.

Nothing here needs NumPy (an optional extra): vectors are ``Any`` on this side.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from taverntable.engine import GameState

from .plugin import PlugIn


@dataclass(frozen=True)
class ChanceRun:
    """A chance step as a run of one-card draws: ``verb`` names it, ``pool`` holds the cards it
    draws from (codes, repeated for copies), ``count`` is how many it draws, ``finish`` turns
    the cards drawn (in order) into the next engine state. A run is made from the state it
    applies to whenever it is needed, never kept: a cloned state gets its own."""

    verb: str
    pool: Sequence[int]
    count: int
    finish: Callable[[list[int]], GameState[Any, Any]]
    card_text: Sequence[str]


class ObservationLayout(Protocol):
    """Named blocks of a flat float32 vector (``envs/layout.py``'s ``Layout``)."""

    @property
    def size(self) -> int: ...

    def zeros(self) -> Any:
        """A vector of zeros of ``size``."""
        ...

    def table(self) -> list[tuple[str, int, int, str]]:
        """(name, first index, size, meaning) of every block."""
        ...


@runtime_checkable
class Learning(Protocol):
    """One game's side of the environments (PettingZoo, OpenSpiel) and the learned bot."""

    #: the observation's blocks
    layout: ObservationLayout
    #: the returns of every finished game sum to zero (Tonk's payments)
    zero_sum: bool
    #: the most outcomes one chance node has (a pool's distinct cards)
    max_chance_outcomes: int

    def encode(self, view_json: dict[str, Any] | None) -> Any:
        """The observation of a view's JSON (None: before the first chance step has made a
        state, a Tonk deal being dealt) as a float32 vector of ``layout.size``."""
        ...

    def utility_bounds(self, rules: Any, players: int, max_moves: int) -> tuple[float, float]:
        """Bounds on any seat's return, which OpenSpiel requires."""
        ...

    def before_deal(self, rules: Any, players: int, dealer: int) -> GameState[Any, Any] | None:
        """The engine state of a game before its first chance step, or None when the first
        chance step makes the state (``deal_run``)."""
        ...

    def deal_run(self, rules: Any, players: int, dealer: int) -> ChanceRun:
        """The chance run that makes the state when ``before_deal`` gives None."""
        ...

    def chance_run(self, state: GameState[Any, Any]) -> ChanceRun | None:
        """The run of the chance step ``state`` is at, or None when it is not at one."""
        ...


def learning_kit(path: str) -> PlugIn[Learning]:
    """``Game.learning``: the ``module:attribute`` of the game's learning kit."""
    return PlugIn(path, "learning kit (plugins.learning.Learning)", _is_learning)


def _is_learning(value: object) -> bool:
    return isinstance(value, Learning)
