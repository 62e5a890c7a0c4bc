"""Three Towers' moves as the table's buttons say them (``move_words.py``; ``static/js/moves.js``'s
``readMove`` and ``moveLabel``; the notation in docs/three-towers-notation.md)."""

from __future__ import annotations

from collections.abc import Sequence

from .words import SUIT_SYMBOL, MoveWords, cards_words, is_card, rank_words, seat_name, t

BUTTON = {
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


def say(move: str, lang: str, names: Sequence[str] = ()) -> str:
    verb, *rest = move.split(" ")
    if verb == "redeal" and rest and rest[0] in REDEAL_BUTTON:
        kind = rest[0]
        ranks = " ".join(rank_words(r, lang) for r in rest[1:]) if kind == "warriors" else ""
        seat = seat_name(rest[1], names) if kind == "jacks" and len(rest) > 1 else ""
        return t(lang, REDEAL_BUTTON[kind], ranks=ranks, seat=seat)
    if verb == "trade" and rest[:1] == ["X"] and len(rest) >= 3 and rest[2] in MODE:
        suit = SUIT_SYMBOL.get(rest[1], rest[1])
        return t(lang, "move.towers.trade_joker", suit=suit, mode=t(lang, MODE[rest[2]]))
    if verb == "answer" and rest[:1] == ["X"] and len(rest) >= 2 and rest[1] in MODE:
        return t(lang, "move.towers.answer_joker", mode=t(lang, MODE[rest[1]]))
    if verb not in BUTTON:
        return move
    key = BUTTON[verb]
    if verb in ("raid", "curse", "take") and len(rest) >= 2:
        return t(lang, key, cards=cards_words(rest[1:], lang), seat=seat_name(rest[0], names))
    if verb == "give" and len(rest) >= 2:
        return t(lang, key, cards=cards_words(rest[:1], lang), seat=seat_name(rest[1], names))
    if verb == "name" and rest:
        return t(lang, key, seat=seat_name(rest[0], names))
    return t(lang, key, cards=cards_words([c for c in rest if is_card(c)], lang))


THREE_TOWERS = MoveWords(game="three-towers", say=say)
