"""Tonk's moves (and Tőr's and Pagat Tonk's) as the table's buttons say them (``move_words.py``;
``static/js/moves.js``'s ``moveLabel``): ``draw stock``, ``draw pile``, ``drop``, ``discard C``,
``spread C C C``, ``hit N C …`` (spread N counted from 0, said from 1) and ``end``."""

from __future__ import annotations

from collections.abc import Sequence

from .words import MoveWords, cards_words, is_card, t

BUTTON = {
    "drop": "move.tonk.drop",
    "end": "move.tonk.end",
    "discard": "move.tonk.discard",
    "spread": "move.tonk.spread",
    "hit": "move.tonk.hit",
}


def say(move: str, lang: str, names: Sequence[str] = ()) -> str:
    verb, *rest = move.split(" ")
    if verb == "draw":
        return t(lang, "move.tonk.draw_pile" if rest[:1] == ["pile"] else "move.tonk.draw_stock")
    if verb == "hit" and rest and rest[0].isdigit():
        spread = str(int(rest[0]) + 1)
        return t(lang, BUTTON[verb], cards=cards_words(rest[1:], lang), spread=spread)
    if verb in BUTTON:
        return t(lang, BUTTON[verb], cards=cards_words([c for c in rest if is_card(c)], lang))
    return move


TONK = MoveWords(game="tonk", say=say)
