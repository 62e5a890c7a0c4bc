"""The bots' names: characters of the seeds each game comes from, one list for the terminal
(``tavern play``) and the server's tables, so that a bot is called the same at both.

Tonk and pagat: the Black Company, after the Russian seed's worked examples (Goblin, Elmo,
Croaker, Murgen) and their company. Tőr: the Hungarian seed's example game (Airun, Alex, Alyr
and Abdzsan al Hagmerk), then the Black Company. Three Towers: Zarr, who plays it in Eador's
campaign (the Ukrainian seed), and two of Tonk's players.

A name is English (ASCII letters and hyphens) as the terminal prints it and records keep it;
the browser shows it in the page's language through its i18n key (``name_key``: Гоблин in
Russian, Гоблін in Ukrainian).
"""

from __future__ import annotations

from collections.abc import Iterable

BLACK_COMPANY = (
    "Goblin",
    "Elmo",
    "One-Eye",
    "Silent",
    "Croaker",
    "Otto",
    "Hagop",
    "Raven",
    "Murgen",
    "Lady",
)
TOR_GAME = ("Airun", "Alyr", "Abdzsan", "Alex")

CHARACTERS: dict[str, tuple[str, ...]] = {
    "tonk": BLACK_COMPANY,
    "pagat": BLACK_COMPANY,
    "tor": (*TOR_GAME, *BLACK_COMPANY),
    "three-towers": ("Zarr", "Goblin", "Elmo", "One-Eye"),
}


def characters(game: str) -> tuple[str, ...]:
    """The names ``game``'s bots take, in the order seats take them (a game not listed takes
    the Black Company's)."""
    return CHARACTERS.get(game, BLACK_COMPANY)


def all_characters() -> list[str]:
    """Every name some game's bots take, each once."""
    return list(dict.fromkeys(n for names in CHARACTERS.values() for n in names))


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
