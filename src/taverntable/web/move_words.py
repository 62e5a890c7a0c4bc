"""A move in the record notation said as the table's button says it, in any of its languages.

The coach's sentences name moves (``discard 7H``, ``raid 1 JH``); in the browser they should
read as the page's own buttons do ("Discard 7♥", «Сбросить 7♥»). The words are the browser's
(``static/i18n/LANG.json``: ``move.tonk.*``, ``move.towers.*``, ``card.short.*``), and the
reading of a move mirrors ``static/js/moves.js`` (``readMove`` and ``moveLabel``), so the
review says a move exactly as the button that played it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib.resources import files

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# The quotes a language puts around a button's words inside a sentence.
QUOTES = {"en": ("“", "”"), "hu": ("„", "”"), "ru": ("«", "»"), "uk": ("«", "»")}

TONK_BUTTON = {
    "drop": "move.tonk.drop",
    "end": "move.tonk.end",
    "discard": "move.tonk.discard",
    "spread": "move.tonk.spread",
    "hit": "move.tonk.hit",
}
TOWERS_BUTTON = {
    "trade": "move.towers.trade",
    "build": "move.towers.build",
    "add": "move.towers.add",
    "raid": "move.towers.raid",
    "curse": "move.towers.curse",
    "pass": "move.towers.pass",
    "answer": "move.towers.answer",
    "fail": "move.towers.fail",
    "defend": "move.towers.defend",
    "yield": "move.towers.yield",
    "name": "move.towers.name",
    "store": "move.towers.store",
    "give": "move.towers.give",
    "take": "move.towers.take",
    "done": "move.towers.done",
}
REDEAL_BUTTON = {
    "X": "move.towers.redeal_joker",
    "warriors": "move.towers.redeal_warriors",
    "jacks": "move.towers.redeal_jacks",
    "queens": "move.towers.redeal_queens",
    "kings": "move.towers.redeal_kings",
}
MODE = {"take": "move.towers.mode_take", "give": "move.towers.mode_give"}


@cache
def _words(lang: str) -> dict[str, object]:
    text = files("taverntable.web").joinpath("static", "i18n", f"{lang}.json").read_text("utf-8")
    words: dict[str, object] = json.loads(text)
    return words


def _t(lang: str, key: str, **params: str) -> str:
    found = _words(lang).get(key, _words("en").get(key, key))
    text = found if isinstance(found, str) else str(key)
    for name, value in params.items():
        text = text.replace("{" + name + "}", value)
    return text


def _is_card(text: str) -> bool:
    return text == "X" or (len(text) >= 2 and text[-1] in SUIT_SYMBOL)


def rank_words(rank: str, lang: str) -> str:
    """``Q`` as the page writes a rank (Russian "Д")."""
    return _t(lang, f"card.short.{rank}") if rank in ("A", "J", "Q", "K") else rank


def card_words(card: str, lang: str) -> str:
    """``QH`` as the page writes it: "Q♥" (Russian "Д♥"), a joker by its short name."""
    if card == "X":
        return _t(lang, "card.joker_short")
    return rank_words(card[:-1], lang) + SUIT_SYMBOL[card[-1]]


def _cards(cards: Sequence[str], lang: str) -> str:
    return " ".join(card_words(c, lang) for c in cards)


def move_words(move: str, family: str, lang: str, names: Sequence[str] = ()) -> str:
    """The button's words for ``move`` of a game of ``family`` (``tonk`` or ``three-towers``);
    ``names`` are the seats' names. A move it cannot read stays in the notation."""
    words = move.split(" ")
    verb, rest = words[0], words[1:]

    def seat(text: str) -> str:
        k = int(text) if text.isdigit() else -1
        return names[k] if 0 <= k < len(names) else text

    if family == "tonk":
        if verb == "draw":
            key = "move.tonk.draw_pile" if rest[:1] == ["pile"] else "move.tonk.draw_stock"
            return _t(lang, key)
        if verb == "hit" and rest and rest[0].isdigit():
            return _t(
                lang, TONK_BUTTON[verb], cards=_cards(rest[1:], lang), spread=str(int(rest[0]) + 1)
            )
        if verb in TONK_BUTTON:
            return _t(lang, TONK_BUTTON[verb], cards=_cards([c for c in rest if _is_card(c)], lang))
        return move
    if verb == "redeal" and rest and rest[0] in REDEAL_BUTTON:
        ranks = " ".join(rank_words(r, lang) for r in rest[1:]) if rest[0] == "warriors" else ""
        target = seat(rest[1]) if rest[0] == "jacks" and len(rest) > 1 else ""
        return _t(lang, REDEAL_BUTTON[rest[0]], ranks=ranks, seat=target)
    if verb == "trade" and rest[:1] == ["X"] and len(rest) >= 3 and rest[2] in MODE:
        return _t(
            lang,
            "move.towers.trade_joker",
            suit=SUIT_SYMBOL.get(rest[1], rest[1]),
            mode=_t(lang, MODE[rest[2]]),
        )
    if verb == "answer" and rest[:1] == ["X"] and len(rest) >= 2 and rest[1] in MODE:
        return _t(lang, "move.towers.answer_joker", mode=_t(lang, MODE[rest[1]]))
    if verb not in TOWERS_BUTTON:
        return move
    if verb in ("raid", "curse", "take") and len(rest) >= 2:
        return _t(lang, TOWERS_BUTTON[verb], cards=_cards(rest[1:], lang), seat=seat(rest[0]))
    if verb == "give" and len(rest) >= 2:
        return _t(lang, TOWERS_BUTTON[verb], cards=_cards(rest[:1], lang), seat=seat(rest[1]))
    if verb == "name" and rest:
        return _t(lang, TOWERS_BUTTON[verb], seat=seat(rest[0]))
    return _t(lang, TOWERS_BUTTON[verb], cards=_cards([c for c in rest if _is_card(c)], lang))


def quoted(words: str, lang: str) -> str:
    """A button's words inside a sentence, in the language's quotes."""
    opening, closing = QUOTES.get(lang, QUOTES["en"])
    return f"{opening}{words}{closing}"
