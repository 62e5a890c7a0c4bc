"""What a game family gives the coach: its search adapter, units, options, facts and notes.

The valuing itself (``values``) and the review (``review``) are game-independent; each family
(``tonk``: Tonk, Tőr, pagat; ``towers``: Three Towers) states only what its game changes. A game
names its family by its ``coach`` plug-in (``plugins/coach.py``), so no table of games is kept
here and importing the coach stays cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from taverntable.bots.search_game import SearchGame
from taverntable.games import get_game

from .stats import Interval


@dataclass(frozen=True, slots=True)
class Note:
    """One sentence about a decision, kept as a template key and its parameters (``texts``), so
    that every front end renders it in its reader's language. Numbers stay numbers; moves are
    in the record notation; ``rule`` is the rule number the sentence names (T6, R9)."""

    key: str
    rule: str
    params: dict[str, str | int | float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "rule": self.rule, "params": dict(self.params)}


@dataclass(frozen=True, slots=True)
class Valued:
    """One decision as the family's note reads it: the view, the moves compared and their
    values, the chosen and the best move, the paired loss, whether it is flagged, the means of
    the family's per-world facts for each move (``Family.world_fact``; None without them), and
    the players' names by seat."""

    view: Any
    moves: Sequence[Any]
    values: Sequence[Interval]
    chosen: Any
    best: Any
    loss: Interval
    flagged: bool
    facts: Sequence[tuple[float, ...] | None]
    players: Sequence[str]

    def value_of(self, move: Any) -> float:
        return self.values[list(self.moves).index(move)].mean


class Family(Protocol):
    """One game family's side of the coach."""

    #: what a value measures: "stakes" (Tonk) or "points" (Three Towers), as ``Game.unit``
    unit: str
    #: a loss at most this large (in ``unit``) is never called a mistake
    threshold: float

    def adapter(self, fast: bool) -> SearchGame:
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
        worlds (Tonk: 1 when a drop would be caught there, then 1 for each seat that would
        catch it), read before the move is played; None: nothing to quote."""
        ...

    def note(self, valued: Valued) -> Note:
        """The sentence that names what mattered at this decision."""
        ...


def family_of(game: str) -> Family:
    """The coach's family of a registry game (its ``Game.coach`` plug-in); KeyError when the
    game has none."""
    plug_in = getattr(get_game(game), "coach", None)  # a game may predate the coach
    if plug_in is None:
        raise KeyError(game)
    family: Family = plug_in.load()
    return family
