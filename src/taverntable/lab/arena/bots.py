"""Bot specifications on the command line: a name or level, optionally with settings.

``hard`` is the registered bot; ``ismcts:iterations=500:policy=random`` builds it with those
keyword arguments, so an experiment can vary a bot's budget without registering a new name. The
settings are the bot's constructor parameters of a plain type (whole numbers, finite numbers,
true/false, words, each optionally ``none``); every value is read for its parameter's type, and
the bot checks its own ranges (``validate``) as it is built.
"""

from __future__ import annotations

import inspect
import math
import types
import typing
from typing import Any

from taverntable.bots.registry import bot_class
from taverntable.engine import Bot
from taverntable.games import game_names, get_game

from .table import ArenaError

# What each plain type takes, for the error message.
KINDS = {int: "a whole number", float: "a finite number", bool: "true or false", str: "a word"}


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


def bot_settings(cls: type) -> dict[str, tuple[type, bool]]:
    """The settings of a bot class: parameter name -> (plain type, whether None is allowed)."""
    init: Any = cls.__init__  # type: ignore[misc]  # the class's own, read not called
    try:
        hints = typing.get_type_hints(init)
    except (NameError, TypeError):  # an annotation that does not resolve: offer nothing
        return {}
    out: dict[str, tuple[type, bool]] = {}
    for name in inspect.signature(init).parameters:
        hint = hints.get(name)
        union = typing.get_origin(hint) in (typing.Union, types.UnionType)
        args = typing.get_args(hint) if union else (hint,)
        plain = [a for a in args if a in KINDS]
        if len(plain) == 1 and all(a in KINDS or a is type(None) for a in args):
            out[name] = (plain[0], type(None) in args)
    return out


def parse_setting(key: str, text: str, kind: type, optional: bool) -> Any:
    """The value of one setting, read as its type; ArenaError naming what it takes."""
    if optional and text.lower() in ("none", "null"):
        return None
    value = _read(kind, text)
    if value is None:
        also = " or none" if optional else ""
        raise ArenaError(f"{key} takes {KINDS[kind]}{also}, not {text!r}")
    return value


def _read(kind: type, text: str) -> Any:
    """``text`` as a value of ``kind``, or None if it is not one (floats must be finite)."""
    if kind is bool:
        return {"true": True, "false": False}.get(text.lower())
    if kind is str:
        return text
    try:
        value = kind(text)
    except ValueError:
        return None
    return value if kind is int or math.isfinite(value) else None


def cheat_bot(name: str, game: str) -> Bot | None:
    """A new cheating measurement bot called ``name`` for ``game`` (None: no such cheat)."""
    if game not in game_names():
        return None
    plug_in = get_game(game).cheats.get(name.lower())
    return None if plug_in is None else plug_in.load()()


def build_bot(spec: str, game: str) -> Bot:
    """The bot a spec names, with its settings applied; ArenaError for a bad spec."""
    name, *settings = spec.split(":")
    cheat = cheat_bot(name, game)
    if cheat is not None:
        if settings:
            raise ArenaError(f"bot {spec!r}: {name} has no settings")
        return cheat
    try:
        cls = bot_class(name, game)
    except ValueError as e:
        cheats = list(get_game(game).cheats) if game in game_names() else []
        also = f" (arena only, cheating: {', '.join(cheats)})" if cheats else ""
        raise ArenaError(f"{e}{also}") from None
    known = bot_settings(cls)
    given: dict[str, Any] = {}
    for setting in settings:
        key, eq, text = setting.partition("=")
        if not eq or key not in known:
            offered = f"its settings: {', '.join(known)}" if known else "it has no settings"
            raise ArenaError(
                f"bot {spec!r}: {setting!r} is not a setting of {name} "
                f"({offered}; write key=value, e.g. iterations=500)"
            )
        try:
            given[key] = parse_setting(key, text, *known[key])
        except ArenaError as e:
            raise ArenaError(f"bot {spec!r}: {e}") from None
    try:
        built: Bot = cls(**given)
    except ValueError as e:  # the bot's own check of its ranges (or a missing setting)
        raise ArenaError(f"bot {spec!r}: {e}") from None
    return built
