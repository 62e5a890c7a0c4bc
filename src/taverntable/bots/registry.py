"""The bots of every game, by name, and difficulty levels as aliases.

Each game declares its own bots and what its levels are on its registry entry (``Game.bots``,
typed plug-ins, and ``Game.levels``); the random bot plays every game. Bots are imported when
first built, so importing the registry stays cheap.
"""

from __future__ import annotations

from taverntable.engine import Bot, TavernError
from taverntable.extras import install_hint
from taverntable.games import UnknownGame, game_names, get_game
from taverntable.plugins import LEVEL_NAMES, PlugIn, RegisteredGame, bot

# Bots that work for any game: they only read ``view.legal_moves``.
GENERIC = {"random": bot("taverntable.bots.random_bot:RandomBot")}

# Bots for research, which need the optional extra ``rl``: OpenSpiel's own bots on any game
# (``envs/openspiel_bots.py``) and a policy trained through the environments (``envs/
# learned_bot.py``). The arena and the lab build them by name; they are not offered to players
# (``bot_names``), whose tables must not depend on an optional extra.
RESEARCH = {
    "openspiel-ismcts": bot("taverntable.envs.openspiel_bots:OpenSpielIsmctsBot"),
    "openspiel-random": bot("taverntable.envs.openspiel_bots:OpenSpielRandomBot"),
    "learned": bot("taverntable.envs.learned_bot:LearnedBot"),
}

# The usual bot of each level (``easy``, ``medium``, ``hard``: random, heuristic, ISMCTS); a
# game says its own in ``Game.levels`` (Tonk's medium is the reader).
LEVELS = {"easy": "random", "medium": "heuristic", "hard": "ismcts"}
assert tuple(LEVELS) == LEVEL_NAMES


class BotError(TavernError, ValueError):
    """An unknown bot name or game."""


def bots_of(game: str | None = None) -> list[str]:
    """The bots (not the levels) that play ``game`` (None: the registry's first game)."""
    return [*GENERIC, *_game(game).bots]


def level_bot(level: str, game: str | None = None) -> str | None:
    """The bot that ``level`` names in ``game`` (None: not a level)."""
    level = level.lower()
    if level not in LEVELS:
        return None
    found = _game(game) if game is None or game in game_names() else None
    return found.levels.get(level, LEVELS[level]) if found is not None else LEVELS[level]


def bot_names(game: str | None = None) -> list[str]:
    """The bot names and levels available for ``game``."""
    names = bots_of(game)
    return names + [level for level in LEVELS if level_bot(level, game) in names]


def make_bot(name: str, game: str | None = None) -> Bot:
    """A new bot called ``name`` (a bot name or a level) for ``game``."""
    return bot_class(name, game)()


def bot_class(name: str, game: str | None = None) -> type[Bot]:
    """The class of the bot called ``name`` for ``game`` (the arena builds it with settings);
    BotError for an unknown name, or a research bot without the ``rl`` extra installed."""
    found = _game(game)
    key = level_bot(name, found.name) or name.lower()
    plug_in: PlugIn[type[Bot]] | None = found.bots.get(key) or GENERIC.get(key) or RESEARCH.get(key)
    if plug_in is None:
        known = ", ".join([*bot_names(found.name), *RESEARCH])
        raise BotError(f"unknown bot {name!r} for {found.name} (known: {known})")
    try:
        return plug_in.load()
    except ImportError as e:
        if key not in RESEARCH:
            raise
        raise BotError(
            f"bot {name!r} needs the optional extra rl ({install_hint('rl')}): {e}"
        ) from None


def _game(game: str | None) -> RegisteredGame:
    try:
        return get_game(game_names()[0] if game is None else game)
    except UnknownGame:
        raise BotError(f"no bots for game {game!r} (known: {', '.join(game_names())})") from None
