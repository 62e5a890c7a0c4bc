"""What every game's move wording shares (``move_words.py``): the browser's words, cards as the
page writes them, a seat's name and the language's quotes."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# The quotes a language puts around a button's words inside a sentence.
QUOTES = {"en": ("“", "”"), "hu": ("„", "”"), "ru": ("«", "»"), "uk": ("«", "»")}


@dataclass(frozen=True)
class MoveWords:
    """One game's wording: ``say(move, lang, names)`` gives a move's button words."""

    game: str  # a registered game of the family (the registry gives its family)
    say: Callable[[str, str, Sequence[str]], str]


@cache
def _words(lang: str) -> dict[str, object]:
    text = files("taverntable.web").joinpath("static", "i18n", f"{lang}.json").read_text("utf-8")
    words: dict[str, object] = json.loads(text)
    return words


def t(lang: str, key: str, **params: str) -> str:
    found = _words(lang).get(key, _words("en").get(key, key))
    text = found if isinstance(found, str) else str(key)
    for name, value in params.items():
        text = text.replace("{" + name + "}", value)
    return text


def is_card(text: str) -> bool:
    return text == "X" or (len(text) >= 2 and text[-1] in SUIT_SYMBOL)


def rank_words(rank: str, lang: str) -> str:
    """``Q`` as the page writes a rank (Russian "Д")."""
    return t(lang, f"card.short.{rank}") if rank in ("A", "J", "Q", "K") else rank


def card_words(card: str, lang: str) -> str:
    """``QH`` as the page writes it: "Q♥" (Russian "Д♥"), a joker by its short name."""
    if card == "X":
        return t(lang, "card.joker_short")
    return rank_words(card[:-1], lang) + SUIT_SYMBOL[card[-1]]


def cards_words(cards: Sequence[str], lang: str) -> str:
    return " ".join(card_words(c, lang) for c in cards)


def seat_name(text: str, names: Sequence[str]) -> str:
    """Seat ``text`` (a number) by its name, when the names are known."""
    k = int(text) if text.isdigit() else -1
    return names[k] if 0 <= k < len(names) else text


def quoted(words: str, lang: str) -> str:
    """A button's words inside a sentence, in the language's quotes."""
    opening, closing = QUOTES.get(lang, QUOTES["en"])
    return f"{opening}{words}{closing}"
