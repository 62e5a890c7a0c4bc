"""Three Towers' guided first deal: build, answer a trade, add, repel a raid, finish the tower,
the count (R4-R13)."""

from __future__ import annotations

from typing import Any

from taverntable.games.three_towers.cards import TEXT as TOWERS_TEXT

from .lesson import BOT, PERSON, Lesson, Step, stacked

# --- Three Towers: build, answer a trade, add, repel a raid, finish, the count (R4–R13) ----------

_TOWERS_HANDS = [
    ["AD", "10D", "10C", "10H", "9H", "KH", "4S"],
    ["8H", "QC", "2C", "6D", "7S", "JD", "3C"],
]
_TOWERS_POOL = [text for text in TOWERS_TEXT[:52] for _ in range(2)] + ["X"] * 4
_TOWERS_DEAL = [c for pair in zip(*_TOWERS_HANDS, strict=True) for c in pair]
_TOWERS_DECK = stacked(
    [*_TOWERS_DEAL, "5C", "3D", "2H", "4C", "6C", "7D", "8C", "5D"], _TOWERS_POOL
)


def _towers_end(result: dict[str, Any]) -> dict[str, str | int]:
    scores = result["scores"]
    return {"who": BOT, "mine": scores[PERSON], "theirs": scores[BOT]}


THREE_TOWERS = Lesson(
    name="three-towers",
    game="three-towers",
    options={"max_rounds": 1},
    bot_name="Zarr",
    bot_level="medium",
    dealer=BOT,
    cards={"deck": _TOWERS_DECK},
    steps=(
        Step(PERSON, "build AD 10D", "lesson.towers.build", "R8", {"cards": "AD 10D"}),
        Step(BOT, "trade 8H", "lesson.towers.bot_turn", "R4", {"who": BOT}),
        Step(
            PERSON,
            "answer 9H",
            "lesson.towers.answer",
            "R7",
            {"who": BOT, "card": "8H", "cards": "9H", "keep": "10H"},
        ),
        Step(PERSON, "add 10C", "lesson.towers.add", "R12", {"cards": "10C", "won": "8H 9H"}),
        Step(BOT, "raid 0 QC", "lesson.towers.bot_again", "R9", {"who": BOT}),
        Step(
            PERSON,
            "defend KH",
            "lesson.towers.defend",
            "R9",
            {"who": BOT, "card": "QC", "cards": "KH"},
        ),
        Step(PERSON, "add 10H", "lesson.towers.finish", "R8", {"cards": "10H"}),
    ),
    end_hint="lesson.towers.end",
    end_rule="R13",
    end_params=_towers_end,
)
