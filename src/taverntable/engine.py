"""The contract every game of Tavern Table keeps, and the errors it raises.

A game state is played by one seat at a time: ``current_seat`` is the seat whose decision it is,
which may be a seat answering out of turn (a Three Towers trade or defence). Every caller — bots,
UIs, records, the lab — goes through the same four calls: ``legal_moves()``, ``check(move)``,
``apply(move)`` (which checks first) and ``view(seat)``. The engine imports nothing from those
callers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

# ``current_seat`` of a random step (a deal, a shuffle, the cards a Thief steals): the runner asks
# the state for ``sample_chance(rng)`` and applies it like any move, so records hold the outcome.
CHANCE = -1


class TavernError(Exception):
    """Base of every error the engine raises on bad input."""


class MoveSyntaxError(TavernError, ValueError):
    """A move text that does not follow the move notation."""


class IllegalMove(TavernError):
    """A well-formed move the rules forbid now; carries the rule number and a reason."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{reason} ({rule})")
        self.rule = rule
        self.reason = reason


class Move(Protocol):
    """A move is a small hashable value whose ``str`` is its record notation."""

    def __str__(self) -> str: ...

    def __hash__(self) -> int: ...


M = TypeVar("M", bound=Move)
M_co = TypeVar("M_co", covariant=True)


class View(Protocol[M_co]):
    """What one seat may see; bots and UIs receive only this."""

    @property
    def seat(self) -> int: ...

    @property
    def current_seat(self) -> int | None: ...

    @property
    def legal_moves(self) -> Sequence[M_co]: ...


class GameState(Protocol[M]):
    """One game in progress: whose decision it is, what may be done, and doing it."""

    @property
    def num_players(self) -> int: ...

    @property
    def current_seat(self) -> int | None:
        """The seat to decide, or None when the game is over."""
        ...

    @property
    def is_over(self) -> bool: ...

    def legal_moves(self) -> Sequence[M]: ...

    def check(self, move: M) -> None:
        """Raise IllegalMove (rule and reason) unless ``move`` is legal now."""
        ...

    def apply(self, move: M) -> None:
        """Check ``move``, then play it for the current seat."""
        ...

    def parse_move(self, text: str) -> M:
        """Parse record notation; MoveSyntaxError when the text is not a move."""
        ...

    def view(self, seat: int) -> Any: ...

    def clone(self) -> GameState[M]: ...


class Bot(Protocol):
    """A player program: it sees only its seat's view and returns one of the view's legal moves."""

    name: str

    def choose(self, view: Any, rng: random.Random) -> Any: ...
