"""What a game supplies the one terminal session (``session.py``): a ``FrontEnd``.

The protocol and its values (``Words``, ``Told``, ``Turn``, ``AtTable``) are declared in
``taverntable.plugins.terminal``, where a game's ``Game.terminal`` (a ``PlugIn[FrontEnd]``) may
name it without importing the terminal; they are exported here for the front ends.
"""

from __future__ import annotations

from taverntable.plugins import RegisteredGame
from taverntable.plugins.terminal import AtTable, FrontEnd, Told, Turn, Words

__all__ = ["AtTable", "FrontEnd", "Told", "Turn", "Words", "front_end_of"]


def front_end_of(game: RegisteredGame) -> FrontEnd:
    """The front end ``Game.terminal`` names, loaded and checked (``PlugInError`` if not one)."""
    return game.terminal.load()
