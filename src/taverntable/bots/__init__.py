"""Bots: player programs that see only their seat's view; ``make_bot`` builds one by name."""

from .registry import LEVELS, BotError, bot_names, make_bot

__all__ = ["LEVELS", "BotError", "bot_names", "make_bot"]
