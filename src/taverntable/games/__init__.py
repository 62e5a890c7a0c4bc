"""The registry: the one table from a game's name to its ``Game`` (``taverntable.engine``).

Every layer — records, bots, play, the arena, the lab, the bench, the server, the environments
— finds a game here and nowhere else, and its bots, search adapter, terminal front end,
learning kit and arena plug-ins on it (``taverntable.plugins.RegisteredGame``). A game is loaded
when it is first asked for, so that a broken or missing game package does not stop the others.
Adding a game is its packages (one under ``games/``, and the layers' ones its plug-ins name) and
one line in ``GAMES``.
"""

from __future__ import annotations

from importlib import import_module

from taverntable.engine import TavernError
from taverntable.plugins import RegisteredGame

# Game name -> "module:attribute" of its Game.
GAMES: dict[str, str] = {
    "tonk": "taverntable.games.tonk.game:TONK_GAME",
    "tor": "taverntable.games.tonk.game:TOR_GAME",
    "pagat": "taverntable.games.tonk.game:PAGAT_GAME",
    "three-towers": "taverntable.games.three_towers.game:GAME",
    "three-towers-revised": "taverntable.games.three_towers.game:REVISED_GAME",
}


class UnknownGame(TavernError, ValueError):
    """A name that is not a game of this version."""


def game_names() -> list[str]:
    """Every registered game's name, in registry order."""
    return list(GAMES)


def get_game(name: object) -> RegisteredGame:
    """The game called ``name``; UnknownGame for any other value."""
    if not isinstance(name, str) or name not in GAMES:
        shown = repr(name) if isinstance(name, str) else type(name).__name__
        raise UnknownGame(f"unknown game {shown[:40]} (known: {', '.join(GAMES)})")
    module, _, attribute = GAMES[name].partition(":")
    game: RegisteredGame = getattr(import_module(module), attribute)
    return game


def all_games() -> list[RegisteredGame]:
    """Every registered game."""
    return [get_game(name) for name in GAMES]


def family_games(family: str) -> list[RegisteredGame]:
    """The registered games of a family (``Game.family``), in registry order."""
    return [game for game in all_games() if game.family == family]
