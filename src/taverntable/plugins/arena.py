"""What a game gives the lab's arena beyond its bots: cheating measurement bots and a fast path.

``Game.cheats`` names bots that read hidden cards (a ceiling for a decision's worth: issue 16),
which only the arena builds and shows the live state to (``peek``); they are never in the bot
registry. ``Game.arena_fast`` names, if the game has one, a function that plays an arena game in
a compiled kernel when every seat's bot has a kernel form, so that the arena's long runs are
fast; it returns None when it cannot play the table, and the arena then plays the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

from taverntable.engine import Bot, GameState

from .plugin import PlugIn


class FastTable(Protocol):
    """The arena's table as a fast path reads it (``lab/arena/table.py``'s ``ArenaTable``)."""

    @property
    def rules(self) -> Any: ...

    @property
    def players(self) -> int: ...

    @property
    def stake(self) -> int: ...


class FastPlayed(NamedTuple):
    """A game played on the fast path: the engine's final state, whether the move cap stopped
    it, and the moves made."""

    state: GameState[Any, Any]
    capped: bool
    moves: int


# (table, the seated bots, dealer, deal seed, bot seed, move cap) -> the game, or None: a seat
# without a kernel form, rules the kernel does not play, or the fast path switched off.
FastArena = Callable[[FastTable, Sequence[Bot], int, int, int, int], FastPlayed | None]


def fast_path(path: str) -> PlugIn[FastArena]:
    """``Game.arena_fast``: the ``module:attribute`` of the game's arena fast path."""
    return PlugIn(path, "arena fast path (a callable)", callable)
