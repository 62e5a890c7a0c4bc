"""The bots' names: characters of the seeds each game comes from, one source for the terminal
(``tavern play``) and the server's tables, so that a bot is called the same at both.

Each registered game lists its own (``RegisteredGame.characters``: Tonk's Black Company, Tőr's
players of the Hungarian seed, Three Towers' Zarr); a game that lists none takes ``DEFAULT``.
A name is English (ASCII letters and hyphens) as the terminal prints it and records keep it;
the browser shows it in the page's language through its i18n key (``name_key``: Гоблин in
Russian, Гоблін in Ukrainian).
"""

from __future__ import annotations

from collections.abc import Iterable

from taverntable.games import all_games, get_game

# For a game without characters of its own: innkeepers' names that need no translation.
DEFAULT = ("Goblin", "Elmo", "One-Eye", "Silent", "Otto", "Hagop")


def characters(game: str) -> tuple[str, ...]:
    """The names ``game``'s bots take, in the order seats take them."""
    return tuple(get_game(game).characters) or DEFAULT


def all_characters() -> list[str]:
    """Every name some game's bots take, each once."""
    return list(dict.fromkeys(n for g in all_games() for n in (tuple(g.characters) or DEFAULT)))


def bot_seat_names(game: str, count: int, taken: Iterable[str] = ()) -> list[str]:
    """Names for ``count`` bot seats, in seat order: ``game``'s characters but those a person
    at the table is called already; past the list's end, a name is numbered ("Goblin 2")."""
    skip = {t.casefold() for t in taken}
    free = [n for n in characters(game) if n.casefold() not in skip] or list(characters(game))
    return [
        free[i % len(free)] + ("" if i < len(free) else f" {i // len(free) + 1}")
        for i in range(count)
    ]


def name_key(name: str) -> str:
    """The browser's i18n key of a character's name (``bot.name.One-Eye``)."""
    return f"bot.name.{name}"
