"""The coach's side of a game (``Game.coach``): what ``tavern review`` needs of a game family.

The review itself (``coach/review.py``, ``coach/values.py``) is game-independent; each family's
side (``coach/tonk.py``, ``coach/towers.py``) states its unit, its mistake threshold, its search
adapter, the moves compared, the facts a note quotes and the note. The protocol is declared here
in the game-independent terms a game may name; ``coach/family.py`` documents each hook with the
coach's own types.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from .plugin import PlugIn


@runtime_checkable
class CoachFamily(Protocol):
    """One game family's side of the coach."""

    #: what a value measures: "stakes" (Tonk) or "points" (Three Towers), as ``Game.unit``
    unit: str
    #: a loss at most this large (in ``unit``) is never called a mistake
    threshold: float

    def adapter(self, fast: bool) -> Any:
        """A new search adapter (the hard bot's worlds and playouts); ``fast``: the kernels."""
        ...

    def scale(self, view: Any) -> float:
        """The factor from the adapter's rewards to ``unit``."""
        ...

    def options(self, view: Any, chosen: Any) -> list[Any]:
        """The moves compared at this decision: the chosen one always among them."""
        ...

    def playing_on_bias(self, view: Any) -> float:
        """How much the playouts overrate a move that plays on against one that ends the game
        (in ``unit``): taken off the moves that play on where some move ends it."""
        ...

    def world_fact(self, view: Any, world: Any, move: Any) -> tuple[float, ...] | None:
        """Numbers about ``world`` that the note may quote for ``move`` as their means over the
        worlds; None: nothing to quote."""
        ...

    def note(self, valued: Any) -> Any:
        """The sentence (a ``coach.family.Note``) that names what mattered at a decision."""
        ...


def coach_family(path: str) -> PlugIn[CoachFamily]:
    """``Game.coach``: the ``module:attribute`` of the game family's ``CoachFamily``."""
    return PlugIn(path, "coach family", lambda value: isinstance(value, CoachFamily))
