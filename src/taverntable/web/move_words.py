"""A move in the record notation said as the table's button says it, in any of its languages.

The coach's sentences name moves (``discard 7H``, ``raid 1 JH``); in the browser they should
read as the page's own buttons do ("Discard 7♥", «Сбросить 7♥»). The words are the browser's
(``static/i18n/LANG.json``: ``move.*``, ``card.short.*``), and each game's reading of a move
mirrors ``static/js/moves.js`` (``readMove`` and ``moveLabel``), so the review says a move
exactly as the button that played it. Each game's wording is in its own module
(``tonk_words.py``, ``towers_words.py``), found by the game's family as the lessons are.
"""

from __future__ import annotations

from collections.abc import Sequence

from taverntable.games import get_game

from .tonk_words import TONK
from .towers_words import THREE_TOWERS
from .words import MoveWords, card_words, quoted, rank_words

__all__ = ["card_words", "move_words", "quoted", "rank_words"]

# Each family's wording (Tőr and Pagat Tonk say their moves as Tonk does).
FAMILY_WORDS: dict[str, MoveWords] = {get_game(w.game).family: w for w in (TONK, THREE_TOWERS)}


def move_words(move: str, family: str, lang: str, names: Sequence[str] = ()) -> str:
    """The button's words for ``move`` of a game of ``family``; ``names`` are the seats' names.
    A move its game cannot read (or a game without wording) stays in the notation."""
    wording = FAMILY_WORDS.get(family)
    return wording.say(move, lang, names) if wording is not None else move
