"""The bots of every game, by name, and difficulty levels as aliases.

Each game lists its own bots in the game registry (``Game.bots``, import paths); the random bot
plays every game. Bots are built lazily, so importing the registry stays cheap.
"""

from __future__ import annotations

from importlib import import_module

from taverntable.engine import Bot, TavernError
from taverntable.extras import install_hint
from taverntable.games import UnknownGame, game_names, get_game

# Bots that work for any game: they only read ``view.legal_moves``.
GENERIC = {"random": "taverntable.bots.random_bot:RandomBot"}

# Bots for research, which need the optional extra ``rl``: OpenSpiel's own bots on any game
# (``envs/openspiel_bots.py``) and a policy trained through the environments (``envs/
# learned_bot.py``). The arena and the lab build them by name; they are not offered to players
# (``bot_names``), whose tables must not depend on an optional extra.
RESEARCH = {
    "openspiel-ismcts": "taverntable.envs.openspiel_bots:OpenSpielIsmctsBot",
    "openspiel-random": "taverntable.envs.openspiel_bots:OpenSpielRandomBot",
    "learned": "taverntable.envs.learned_bot:LearnedBot",
}

# Difficulty levels name a bot; "hard" is ISMCTS.
LEVELS = {"easy": "random", "medium": "heuristic", "hard": "ismcts"}
# A family of games whose level names another bot (``Game.family``): Tonk's medium level is the
# heuristic's play with the drop model (``bots/tonk/reader.py``); ``heuristic`` stays the fixed
# yardstick the arena measures against.
FAMILY_LEVELS = {"tonk": {"medium": "reader"}}


class BotError(TavernError, ValueError):
    """An unknown bot name or game."""


def bots_of(game: str) -> list[str]:
    """The bots (not the levels) that play ``game``."""
    return [*GENERIC, *_bots(game)]


def level_bot(level: str, game: str = "tonk") -> str | None:
    """The bot that ``level`` names in ``game`` (None: not a level)."""
    level = level.lower()
    if level not in LEVELS:
        return None
    family = get_game(game).family if game in game_names() else ""
    return FAMILY_LEVELS.get(family, {}).get(level, LEVELS[level])


def bot_names(game: str = "tonk") -> list[str]:
    """The bot names and levels available for ``game``."""
    names = bots_of(game)
    return names + [level for level in LEVELS if level_bot(level, game) in names]


def make_bot(name: str, game: str = "tonk") -> Bot:
    """A new bot called ``name`` (a bot name or a level) for ``game``."""
    bot: Bot = bot_class(name, game)()
    return bot


def bot_class(name: str, game: str = "tonk") -> type:
    """The class of the bot called ``name`` for ``game`` (the arena builds it with settings);
    BotError for an unknown name, or a research bot without the ``rl`` extra installed."""
    key = level_bot(name, game) or name.lower()
    path = _bots(game).get(key) or GENERIC.get(key) or RESEARCH.get(key)
    if path is None:
        known = ", ".join([*bot_names(game), *RESEARCH])
        raise BotError(f"unknown bot {name!r} for {game} (known: {known})")
    module, _, cls = path.partition(":")
    try:
        found: type = getattr(import_module(module), cls)
    except ImportError as e:
        if key not in RESEARCH:
            raise
        raise BotError(
            f"bot {name!r} needs the optional extra rl ({install_hint('rl')}): {e}"
        ) from None
    return found


def _bots(game: str) -> dict[str, str]:
    try:
        return dict(get_game(game).bots)
    except UnknownGame:
        raise BotError(f"no bots for game {game!r} (known: {', '.join(game_names())})") from None
