"""Typed plug-ins: what a game offers the layers above the engine, named without importing them.

A game's bots, search adapter, terminal front end, learning kit (observation encoder and
OpenSpiel's facts), the arena's cheating bots and its fast path live in the layers above the
engine (``bots``, ``play``, ``envs``, ``lab``), which the engine and the games never import. A
game names each of them by a ``PlugIn[T]``: the text ``module:attribute`` and the protocol ``T``
of the value it names. mypy sees ``T`` wherever a plug-in is loaded (``game.search.load()`` is a
``SearchFactory``) and checks each game's declarations against ``RegisteredGame``
(``games/conformance.py``); ``load`` imports the module then and checks the value against the
protocol, so a wrong path or a value of the wrong kind is a ``PlugInError`` naming the plug-in,
not an ``AttributeError`` deep in a layer. The protocols are declared in this package
(``search``, ``terminal``, ``learning``, ``arena``), which imports only the engine and the match,
so that a game may name them; the layers implement them.

``RegisteredGame`` is what the registry holds (``taverntable.games.get_game``): the engine's
``Game`` and its plug-ins. A new game is its packages (the game, and whichever of its bots,
search, terminal front end, learning kit, lab studies and benches it has) and one line in
``taverntable.games.GAMES``; no layer keeps a table of games. ``tests/suite/test_plugins.py``
loads every plug-in of every registered game, and registers a third game to show it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from taverntable.engine import Bot, Game

from .arena import FastArena
from .coach import CoachFamily
from .lab import BenchKit, DeclaredStudy
from .learning import Learning
from .plugin import PlugIn, PlugInError, bot
from .search import SearchFactory
from .terminal import FrontEnd

__all__ = ["PlugIn", "PlugInError", "RegisteredGame", "bot"]

# The difficulty levels every game offers a player, easiest first; ``RegisteredGame.levels``
# says which bot each is.
LEVEL_NAMES = ("easy", "medium", "hard")


class RegisteredGame(Game, Protocol):
    """A game of the registry: the engine's contract and the plug-ins of the layers above it."""

    @property
    def bots(self) -> Mapping[str, PlugIn[type[Bot]]]:
        """Bot name -> the bots written for this game (the random bot plays every game)."""
        ...

    @property
    def levels(self) -> Mapping[str, str]:
        """Each of ``LEVEL_NAMES`` -> the bot it is in this game (``random``, a name of
        ``bots``)."""
        ...

    @property
    def search(self) -> PlugIn[SearchFactory]:
        """The game's ISMCTS adapter (``plugins.search``)."""
        ...

    @property
    def terminal(self) -> PlugIn[FrontEnd]:
        """The game's ``tavern play`` front end (``plugins.terminal``)."""
        ...

    @property
    def learning(self) -> PlugIn[Learning]:
        """The game's observation encoder and OpenSpiel facts (``plugins.learning``)."""
        ...

    @property
    def cheats(self) -> Mapping[str, PlugIn[type[Bot]]]:
        """The arena's cheating measurement bots by name (``plugins.arena``); never offered to
        players."""
        ...

    @property
    def arena_fast(self) -> PlugIn[FastArena] | None:
        """The arena's compiled fast path (``plugins.arena``), or None."""
        ...

    @property
    def coach(self) -> PlugIn[CoachFamily] | None:
        """The coach's side of the game (``plugins.coach``), or None: no ``tavern review``."""
        ...

    @property
    def studies(self) -> PlugIn[Sequence[DeclaredStudy]] | None:
        """The family's lab studies (``plugins.lab``), or None: the lab has none."""
        ...

    @property
    def benches(self) -> PlugIn[BenchKit] | None:
        """The family's benches beyond random play (``plugins.lab``), or None."""
        ...

    @property
    def characters(self) -> Sequence[str]:
        """The names its bots take at a table, in seat order (``taverntable.characters``):
        characters of the game's seeds; empty for the project's default names."""
        ...
