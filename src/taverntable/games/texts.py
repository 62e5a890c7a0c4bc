"""Each game's rules and readings as text, shipped in the game's own package.

A game keeps its texts in ``texts/LANG/FILE.md`` beside its code (``Game.texts``) and lists the
files in reading order (``Game.rules_files``): the rules themselves (numbered T1…, R1…) and the
project's readings of what they leave open. English is the original of every file; the
translations (``hu``, ``ru``, ``uk``) keep the same rule numbers and the same markup, so that the
terminal's ``rules T9`` and the browser's rules pages read every language the same way. This is
the one copy of each text: the docs link here.
"""

from __future__ import annotations

from taverntable.engine import Game

LANGUAGES = ("en", "hu", "ru", "uk")


def rules_markdown(game: Game, file: str, lang: str = "en") -> str:
    """One of ``game``'s rules files in ``lang`` (English where there is no translation)."""
    translated = game.texts.joinpath(lang, file)
    if lang != "en" and translated.is_file():
        return translated.read_text(encoding="utf-8")
    return game.texts.joinpath("en", file).read_text(encoding="utf-8")


# A player's page per game: the goal, a turn, scoring and one worked example, read in five
# minutes (the rules files above stay the reference). Every game's texts folder may hold one.
HOW_TO_PLAY = "how-to-play.md"


def how_to_play_markdown(game: Game, lang: str = "en") -> str | None:
    """``game``'s player's page in ``lang`` (English where there is no translation), or None
    when the game has none."""
    if not game.texts.joinpath("en", HOW_TO_PLAY).is_file():
        return None
    return rules_markdown(game, HOW_TO_PLAY, lang)
