"""Bot specifications on the command line: a name or level, optionally with settings.

``hard`` is the registered bot; ``ismcts:iterations=500:policy=random`` sets attributes of the
bot after building it (each must already exist on the bot), so an experiment can vary a bot's
budget without registering a new name.
"""

from __future__ import annotations

from typing import Any

from taverntable.bots import make_bot
from taverntable.engine import Bot

from .arena_games import ArenaError


def parse_value(text: str) -> Any:
    """``500`` -> int, ``0.5`` -> float, ``none`` -> None, ``true``/``false`` -> bool, else str."""
    low = text.lower()
    if low in ("none", "null"):
        return None
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def build_bot(spec: str, game: str) -> Bot:
    """The bot a spec names, with its settings applied; ArenaError for a bad spec."""
    name, *settings = spec.split(":")
    try:
        bot = make_bot(name, game)
    except ValueError as e:
        raise ArenaError(str(e)) from None
    for setting in settings:
        key, eq, value = setting.partition("=")
        if not eq or not key.isidentifier() or key.startswith("_") or not hasattr(bot, key):
            raise ArenaError(f"bot {spec!r}: {setting!r} is not a setting of {name} "
                             "(write key=value, e.g. iterations=500)")
        setattr(bot, key, parse_value(value))
    validate = getattr(bot, "validate", None)
    if settings and callable(validate):
        try:
            validate()
        except ValueError as e:
            raise ArenaError(f"bot {spec!r}: {e}") from None
    return bot
