"""The bot registry: bots by game family and name, and difficulty levels as aliases.

Bots are named by import path and built lazily, so that adding a bot (the ISMCTS "hard" level, a
Three Towers bot) is one line here and importing the registry stays cheap.
"""

from __future__ import annotations

from importlib import import_module

from taverntable.engine import Bot, TavernError

# The game family each playable game belongs to; bots are written per family.
FAMILIES = {"tonk": "tonk", "tor": "tonk", "pagat": "tonk", "three-towers": "three-towers"}

# Bots that work for any game: they only read ``view.legal_moves``.
GENERIC = {"random": "taverntable.bots.random_bot:RandomBot"}

# Family -> bot name -> "module:Class"; each class is built with no arguments.
BOTS: dict[str, dict[str, str]] = {
    "tonk": {"heuristic": "taverntable.bots.tonk_heuristic:TonkHeuristicBot"},
}
# ISMCTS ("hard") plays every family with a search adapter (``bots.search_game``).
ISMCTS = "taverntable.bots.ismcts:IsmctsBot"
BOTS["tonk"]["ismcts"] = ISMCTS
BOTS["three-towers"] = {
    "heuristic": "taverntable.bots.three_towers_heuristic:ThreeTowersHeuristicBot",
    "ismcts": ISMCTS,
}

# Difficulty levels name a bot; "hard" is ISMCTS.
LEVELS = {"easy": "random", "medium": "heuristic", "hard": "ismcts"}


class BotError(TavernError, ValueError):
    """An unknown bot name or game."""


def bot_names(game: str = "tonk") -> list[str]:
    """The bot names and levels available for ``game``."""
    family = _family(game)
    names = [*GENERIC, *BOTS.get(family, {})]
    return names + [level for level, name in LEVELS.items() if name in names]


def make_bot(name: str, game: str = "tonk") -> Bot:
    """A new bot called ``name`` (a bot name or a level) for ``game``."""
    family = _family(game)
    key = LEVELS.get(name.lower(), name.lower())
    path = BOTS.get(family, {}).get(key) or GENERIC.get(key)
    if path is None:
        known = ", ".join(bot_names(game))
        raise BotError(f"unknown bot {name!r} for {game} (known: {known})")
    module, _, cls = path.partition(":")
    bot: Bot = getattr(import_module(module), cls)()
    return bot


def _family(game: str) -> str:
    if game not in FAMILIES:
        raise BotError(f"no bots for game {game!r} (known: {', '.join(FAMILIES)})")
    return FAMILIES[game]
