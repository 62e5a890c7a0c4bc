"""Tonk's guided first deal: draw, discard, take from the pile, spread, drop (T5-T9, T6)."""

from __future__ import annotations

from typing import Any

from taverntable.cards import CARDS

from .lesson import BOT, PERSON, Lesson, Step, stacked

# --- Tonk: draw, discard, take from the pile, spread, drop (T5–T9, T6) ------------------------

_TONK_HANDS = [["7S", "7D", "2C", "3H", "KD"], ["KH", "QC", "7C", "9D", "8S"]]
_TONK_UPCARD = "JH"
_TONK_STOCK = stacked(
    ["9H", "6D", "QH"],
    [c.text for c in CARDS if c.text not in {*_TONK_HANDS[0], *_TONK_HANDS[1], _TONK_UPCARD}],
)


def _tonk_end(result: dict[str, Any]) -> dict[str, str | int]:
    totals = result["totals"]
    return {"who": BOT, "mine": totals[PERSON], "theirs": totals[BOT]}


TONK = Lesson(
    name="tonk",
    game="tonk",
    options={},
    bot_name="Elmo",
    bot_level="medium",
    dealer=BOT,
    cards={"hands": _TONK_HANDS, "upcard": _TONK_UPCARD, "stock": _TONK_STOCK},
    steps=(
        Step(PERSON, "draw stock", "lesson.tonk.draw_stock", "T5", {"total": 29}),
        Step(PERSON, "discard KD", "lesson.tonk.discard_high", "T9", {"cards": "KD"}),
        Step(BOT, "draw stock", "lesson.tonk.bot_turn", "T5", {"who": BOT}),
        Step(BOT, "discard 7C", "lesson.tonk.bot_turn", "T5", {"who": BOT}),
        Step(
            PERSON,
            "draw pile",
            "lesson.tonk.take_pile",
            "T7",
            {"who": BOT, "card": "7C", "cards": "7S 7D"},
        ),
        Step(PERSON, "spread 7S 7D 7C", "lesson.tonk.spread", "T8", {"cards": "7S 7D 7C"}),
        Step(PERSON, "discard 9H", "lesson.tonk.discard_not_taken", "T9", {"card": "7C"}),
        Step(BOT, "draw stock", "lesson.tonk.bot_again", "T5", {"who": BOT}),
        Step(BOT, "discard QH", "lesson.tonk.bot_again", "T5", {"who": BOT}),
        Step(PERSON, "drop", "lesson.tonk.drop", "T6", {"total": 5}),
    ),
    end_hint="lesson.tonk.end",
    end_rule="T6",
    end_params=_tonk_end,
)
